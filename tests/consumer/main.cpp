// Sorts a few thousand pairs through vksort as a consumer project links it; exits 0 when sorted.
#include <vksort/vksort.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "vk_context.hpp"

int main() try {
  static_assert(VKSORT_VERSION_MAJOR == 0, "the version macros come with the header");
  vkctx::Context ctx(vkctx::Options{});
  vksort::Sorter sorter = nullptr;
  vkctx::check(vksort::createSorter(ctx.sorterCreateInfo(), &sorter), "createSorter");
  const uint32_t n = 5000;
  std::vector<uint32_t> keys(n), values(n);
  std::mt19937 rng(7);
  for (auto& k : keys) k = uint32_t(rng());
  std::iota(values.begin(), values.end(), 0u);

  vksort::SortInfo info;
  info.config.valueType = vksort::ValueType::u32;
  info.count = info.maxCount = n;
  vksort::ScratchRequirements req;
  vkctx::check(vksort::getScratchRequirements(sorter, info.config, n, &req), "getScratchRequirements");
  vkctx::Buffer k = ctx.createDeviceBuffer(n * 4), v = ctx.createDeviceBuffer(n * 4),
                scratch = ctx.createDeviceBuffer(req.size, req.usage);
  ctx.upload(k, keys.data(), n * 4);
  ctx.upload(v, values.data(), n * 4);
  info.keys = k.range();
  info.values = v.range();
  info.scratch = scratch.range();
  VkCommandBuffer cmd = ctx.beginCommands();
  vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, vksort::kSortDstStage,
                       vksort::kSortDstAccess);
  vkctx::check(vksort::recordSort(sorter, cmd, info), "recordSort");
  vkctx::memoryBarrier(cmd, vksort::kSortSrcStage, vksort::kSortSrcAccess, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_ACCESS_TRANSFER_READ_BIT);
  ctx.submitAndWait(cmd);
  std::vector<uint32_t> sortedKeys(n), sortedValues(n);
  ctx.download(k, sortedKeys.data(), n * 4);
  ctx.download(v, sortedValues.data(), n * 4);
  bool ok = true;
  for (uint32_t i = 0; i < n; ++i) ok = ok && keys[sortedValues[i]] == sortedKeys[i];
  ok = ok && std::is_sorted(sortedKeys.begin(), sortedKeys.end());
  for (vkctx::Buffer* b : {&k, &v, &scratch}) ctx.destroy(*b);
  vksort::destroySorter(sorter);
  std::printf("consumer: %s\n", ok ? "sorted" : "WRONG");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "consumer: %s\n", e.what());
  return 2;
}
