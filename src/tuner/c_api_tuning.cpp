// The tuner's C entry points (include/vksort/vksort.h: vksortTuneSorts, vksortFreeTuningResult),
// in the tuner's wing with tuneSorts().
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "c_api_conversions.hpp"

using namespace vksort::capi;

extern "C" {

VksortResult vksortTuneSorts(const VksortTuneInfo* in, VksortTuningResult* out) {
  if (!in) return nullArgument("pInfo");
  if (!out) return nullArgument("pResult");
  if (!in->pSorterCreateInfo) return nullArgument("pInfo->pSorterCreateInfo");
  const CreateInfo create(*in->pSorterCreateInfo);
  const std::vector<vksort::PreparedSort> sorts = toCpp(in->pSorts, in->sortCount);
  struct Progress {
    PFN_vksortTuningProgressC callback;
    void* userData;
  } progress{in->pfnProgress, in->pUserData};
  vksort::TuneInfo info;
  info.pSorterCreateInfo = &create.info;
  info.queue = in->queue;
  info.queueFamilyIndex = in->queueFamilyIndex;
  info.sortCount = in->sortCount;
  info.pSorts = in->pSorts ? sorts.data() : nullptr;
  info.timeBudgetSeconds = in->timeBudgetSeconds;
  if (in->pfnProgress) {
    info.pfnProgress = [](const vksort::TuningProgress& p, void* user) {
      const auto* c = static_cast<const Progress*>(user);
      const VksortTuningProgress cp{p.step, p.steps, p.what};
      return c->callback(&cp, c->userData) != VK_FALSE;
    };
    info.pUserData = &progress;
  }
  vksort::TuningResult result;
  vksort::Status s = vksort::tuneSorts(info, &result);
  if (!s) return toC(s);
  void* data = std::malloc(std::max<size_t>(result.data.size(), 1));
  char* report = static_cast<char*>(std::malloc(result.report.size() + 1));
  if (!data || !report) {
    std::free(data);
    std::free(report);
    lastError() = "out of host memory";
    return VKSORT_ERROR_VULKAN;
  }
  std::memcpy(data, result.data.data(), result.data.size());
  std::memcpy(report, result.report.c_str(), result.report.size() + 1);
  *out = {.pData = data, .dataSize = result.data.size(), .pReport = report, .seconds = result.seconds};
  return toC(s);
}

void vksortFreeTuningResult(VksortTuningResult* result) {
  if (!result) return;
  std::free(result->pData);
  std::free(result->pReport);
  *result = {};
}

}  // extern "C"
