// The C API (include/vksort/vksort.h): conversions to and from the C++ API, nothing else (the
// tuner's: tuner/c_api_tuning.cpp).
#include "vksort/vksort.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "c_api_conversions.hpp"
#include "vksort/vksort.hpp"

namespace vksort::capi {

std::string& lastError() {
  thread_local std::string message;
  return message;
}

VksortResult toC(const vksort::Status& s) {
  lastError() = s.message;
  return VksortResult(int32_t(s.result));
}

VksortResult nullArgument(const char* name) {
  lastError() = std::string(name) + " is null";
  return VKSORT_ERROR_INVALID_ARGUMENT;
}

}  // namespace vksort::capi

namespace {
using namespace vksort::capi;

// The C structs have their C++ twins' fields, in the same order: a structured binding of the
// wrong number of names does not compile, and the conversions below name every field.
template <typename C, typename Cpp>
constexpr bool sameLayout() {
  return sizeof(C) == sizeof(Cpp) && alignof(C) == alignof(Cpp);
}
[[maybe_unused]] void fieldsAgree(const VksortSorterCreateInfo& c, const vksort::SorterCreateInfo& cpp,
                                  const VksortSortInfo& ci, const vksort::SortInfo& cppi,
                                  const VksortSorterProperties& cp, const vksort::SorterProperties& cppp,
                                  const VksortDepthKeysInfo& cd, const vksort::DepthKeysInfo& cppd) {
  [[maybe_unused]] auto& [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14] = c;
  [[maybe_unused]] auto& [b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14] = cpp;
  [[maybe_unused]] auto& [c0, c1, c2, c3, c4, c5, c6, c7, c8, c9] = ci;
  [[maybe_unused]] auto& [d0, d1, d2, d3, d4, d5, d6, d7, d8, d9] = cppi;
  [[maybe_unused]] auto& [e0, e1, e2, e3, e4] = cp;
  [[maybe_unused]] auto& [f0, f1, f2, f3, f4] = cppp;
  [[maybe_unused]] auto& [g0, g1, g2, g3, g4, g5, g6] = cd;
  [[maybe_unused]] auto& [h0, h1, h2, h3, h4, h5, h6] = cppd;
}
// Structs of the same layout in both: every field at the same offset.
static_assert(sameLayout<VksortSortConfig, vksort::SortConfig>() &&
              offsetof(VksortSortConfig, discardKeys) == offsetof(vksort::SortConfig, discardKeys));
static_assert(sameLayout<VksortBufferRange, vksort::BufferRange>() &&
              offsetof(VksortBufferRange, usage) == offsetof(vksort::BufferRange, usage));
static_assert(sameLayout<VksortScratchRequirements, vksort::ScratchRequirements>() &&
              offsetof(VksortScratchRequirements, usage) == offsetof(vksort::ScratchRequirements, usage));
static_assert(sameLayout<VksortDeviceRequirements, vksort::DeviceRequirements>() &&
              offsetof(VksortDeviceRequirements, extensionNames) ==
                  offsetof(vksort::DeviceRequirements, extensionNames) &&
              VKSORT_MAX_REQUIRED_EXTENSIONS == vksort::kMaxRequiredExtensions);
static_assert(sameLayout<VksortPreparedSort, vksort::PreparedSort>() &&
              offsetof(VksortPreparedSort, maxCount) == offsetof(vksort::PreparedSort, maxCount));
static_assert(VKSORT_DEPTH_KEYS_SCRATCH_BYTES == vksort::kDepthKeysScratchBytes);
static_assert(offsetof(VksortSortInfo, countBuffer) < offsetof(VksortSortInfo, keys) &&
              offsetof(vksort::SortInfo, countBuffer) < offsetof(vksort::SortInfo, keys));

vksort::BufferRange toCpp(const VksortBufferRange& r) {
  return {.buffer = r.buffer, .offset = r.offset, .size = r.size, .usage = r.usage};
}

vksort::Sorter toCpp(VksortSorter s) { return reinterpret_cast<vksort::Sorter>(s); }

}  // namespace

extern "C" {

VksortResult vksortCreateSorter(const VksortSorterCreateInfo* ci, VksortSorter* pSorter) {
  if (!ci) return nullArgument("pCreateInfo");
  const CreateInfo info(*ci);
  vksort::Sorter sorter = nullptr;
  vksort::Status s = vksort::createSorter(info.info, pSorter ? &sorter : nullptr);
  if (s && pSorter) *pSorter = reinterpret_cast<VksortSorter>(sorter);
  return toC(s);
}

VksortResult vksortGetDeviceRequirements(VkInstance instance, PFN_vkGetInstanceProcAddr getInstanceProcAddr,
                                         VkPhysicalDevice physicalDevice, VkPhysicalDeviceFeatures2* features,
                                         VksortDeviceRequirements* out) {
  vksort::DeviceRequirements r;
  vksort::Status s =
      vksort::getDeviceRequirements(instance, getInstanceProcAddr, physicalDevice, features, out ? &r : nullptr);
  if (s) {
    out->extensionCount = r.extensionCount;
    std::copy(std::begin(r.extensionNames), std::end(r.extensionNames), out->extensionNames);
  }
  return toC(s);
}

VksortResult vksortPrepareSorts(VksortSorter sorter, uint32_t count, const VksortPreparedSort* sorts) {
  const std::vector<vksort::PreparedSort> prepared = toCpp(sorts, count);
  return toC(vksort::prepareSorts(toCpp(sorter), count, sorts ? prepared.data() : nullptr));
}

void vksortDestroySorter(VksortSorter sorter) { vksort::destroySorter(toCpp(sorter)); }

void vksortGetSorterProperties(VksortSorter sorter, VksortSorterProperties* out) {
  if (!out) return;
  const vksort::SorterProperties p = vksort::getSorterProperties(toCpp(sorter));
  *out = {.subgroupSize = p.subgroupSize,
          .requiredSubgroupSize = p.requiredSubgroupSize,
          .maxCount = p.maxCount,
          .algorithm = VksortAlgorithm(p.algorithm),
          .tuned = p.tuned};
}

VksortResult vksortGetScratchRequirements(VksortSorter sorter, const VksortSortConfig* config, uint32_t maxCount,
                                          VksortScratchRequirements* out) {
  if (!config) return nullArgument("pConfig");
  vksort::ScratchRequirements r{};
  vksort::Status s = vksort::getScratchRequirements(toCpp(sorter), toCpp(*config), maxCount, out ? &r : nullptr);
  if (s) *out = {.size = r.size, .alignment = r.alignment, .usage = r.usage};
  return toC(s);
}

VksortResult vksortRecordSort(VksortSorter sorter, VkCommandBuffer commandBuffer, const VksortSortInfo* in) {
  if (!in) return nullArgument("pInfo");
  vksort::SortInfo info;
  info.config = toCpp(in->config);
  info.count = in->count;
  info.maxCount = in->maxCount;
  info.keys = toCpp(in->keys);
  info.values = toCpp(in->values);
  info.scratch = toCpp(in->scratch);
  info.timestampPool = in->timestampPool;
  info.firstTimestamp = in->firstTimestamp;
  info.timestampPoolQueries = in->timestampPoolQueries;
  info.countBuffer = toCpp(in->countBuffer);
  return toC(vksort::recordSort(toCpp(sorter), commandBuffer, info));
}

VksortResult vksortRecordDepthKeys(VksortSorter sorter, VkCommandBuffer commandBuffer, const VksortDepthKeysInfo* in) {
  if (!in) return nullArgument("pInfo");
  vksort::DepthKeysInfo info;
  info.depths = toCpp(in->depths);
  info.count = in->count;
  info.maxCount = in->maxCount;
  info.countBuffer = toCpp(in->countBuffer);
  info.bits = in->bits;
  info.order = vksort::SortOrder(in->order);
  info.scratch = toCpp(in->scratch);
  return toC(vksort::recordDepthKeys(toCpp(sorter), commandBuffer, info));
}

uint32_t vksortGetSortTimestampCount(const VksortSortConfig* config) {
  return config ? vksort::getSortTimestampCount(toCpp(*config)) : 0;
}

VksortResult vksortDescribeSort(VksortSorter sorter, const VksortSortConfig* config, uint32_t count, VkBool32 indirect,
                                char* text, size_t* size) {
  if (!config) return nullArgument("pConfig");
  if (!size) return nullArgument("pSize");
  std::string description;
  vksort::Status s = vksort::describeSort(toCpp(sorter), toCpp(*config), count, indirect != VK_FALSE, &description);
  if (!s) return toC(s);
  if (text && *size > 0) {
    const size_t n = std::min(*size - 1, description.size());
    std::memcpy(text, description.data(), n);
    text[n] = '\0';
  }
  *size = description.size() + 1;
  return toC(s);
}

const char* vksortGetLastErrorMessage(void) { return vksort::capi::lastError().c_str(); }

}  // extern "C"
