// vksort demo: sorts N random key/value pairs on the default Vulkan device, checks the result on
// the CPU, and prints the GPU time of the sort from timestamp queries. With --describe it sorts
// nothing and prints what a sort would run on this device (vksort::describeSort()).
//   usage: vksort_demo [N]   (default 1000000)
//          vksort_demo --describe KEY[/VALUE] N [--descending] [--bits BEGIN,END] [--indirect]
//            KEY u32, i32, f32, u64, i64, f64; VALUE u32 or u64; e.g. --describe f32/u32 16777216
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "vk_context.hpp"

namespace {

// --describe's arguments: the plan of that sort, printed.
int describe(int argc, char** argv) {
  if (argc < 4) throw std::runtime_error("usage: vksort_demo --describe KEY[/VALUE] N [--descending] [--bits B,E] [--indirect]");
  static const char* const kKeys[] = {"u32", "i32", "f32", "u64", "i64", "f64"};
  const std::string types = argv[2];
  const std::string key = types.substr(0, types.find('/'));
  const std::string value = types.find('/') == std::string::npos ? "" : types.substr(types.find('/') + 1);
  vksort::SortConfig config;
  uint32_t k = 0;
  while (k < 6 && key != kKeys[k]) ++k;
  if (k == 6) throw std::runtime_error("unknown key type " + key);
  config.keyType = vksort::KeyType(k);
  config.endBit = vksort::keyBytes(config.keyType) * 8;
  if (value == "u32") config.valueType = vksort::ValueType::u32;
  else if (value == "u64") config.valueType = vksort::ValueType::u64;
  else if (!value.empty()) throw std::runtime_error("unknown value type " + value);
  const uint32_t count = uint32_t(std::strtoul(argv[3], nullptr, 10));
  bool indirect = false;
  for (int i = 4; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--descending") config.order = vksort::SortOrder::descending;
    else if (a == "--indirect") indirect = true;
    else if (a == "--bits" && i + 1 < argc && std::sscanf(argv[++i], "%u,%u", &config.beginBit, &config.endBit) == 2) continue;
    else throw std::runtime_error("unknown argument " + a);
  }
  vkctx::Context ctx(vkctx::Options{});
  vksort::Sorter sorter = nullptr;
  vkctx::check(vksort::createSorter(ctx.sorterCreateInfo(), &sorter), "createSorter");
  std::string text;
  vkctx::check(vksort::describeSort(sorter, config, count, indirect, &text), "describeSort");
  std::fputs(text.c_str(), stdout);
  vksort::destroySorter(sorter);
  return 0;
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc > 1 && std::string(argv[1]) == "--describe") return describe(argc, argv);
  const uint32_t n = argc > 1 ? uint32_t(std::strtoul(argv[1], nullptr, 10)) : 1000000u;
  vkctx::Context ctx(vkctx::Options{});
  vksort::Sorter sorter = nullptr;
  vkctx::check(vksort::createSorter(ctx.sorterCreateInfo(), &sorter), "createSorter");
  vksort::SorterProperties props = vksort::getSorterProperties(sorter);

  std::vector<uint32_t> keys(n), values(n);
  std::mt19937 rng(2024);
  for (auto& k : keys) k = uint32_t(rng());
  std::iota(values.begin(), values.end(), 0u);

  vksort::SortInfo info;
  info.config.valueType = vksort::ValueType::u32;
  info.count = info.maxCount = n;
  vksort::ScratchRequirements req;
  vkctx::check(vksort::getScratchRequirements(sorter, info.config, n, &req), "getScratchRequirements");
  vkctx::Buffer keyBuf = ctx.createDeviceBuffer(VkDeviceSize(n) * 4), valBuf = ctx.createDeviceBuffer(VkDeviceSize(n) * 4);
  vkctx::Buffer scratch = ctx.createDeviceBuffer(req.size, req.usage);
  ctx.upload(keyBuf, keys.data(), VkDeviceSize(n) * 4);
  ctx.upload(valBuf, values.data(), VkDeviceSize(n) * 4);
  info.keys = keyBuf.range();
  info.values = valBuf.range();
  info.scratch = scratch.range();

  VkQueryPoolCreateInfo qi = vkctx::vkStruct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
  qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qi.queryCount = 2;
  VkQueryPool queries;
  vkctx::check(vkCreateQueryPool(ctx.device, &qi, nullptr, &queries), "vkCreateQueryPool");

  VkCommandBuffer cmd = ctx.beginCommands();
  vkCmdResetQueryPool(cmd, queries, 0, 2);
  vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, vksort::kSortDstStage,
                       vksort::kSortDstAccess);
  vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 0);
  vkctx::check(vksort::recordSort(sorter, cmd, info), "recordSort");
  vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 1);
  vkctx::memoryBarrier(cmd, vksort::kSortSrcStage, vksort::kSortSrcAccess, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_ACCESS_TRANSFER_READ_BIT);
  ctx.submitAndWait(cmd);

  uint64_t ticks[2];
  vkctx::check(vkGetQueryPoolResults(ctx.device, queries, 0, 2, sizeof ticks, ticks, sizeof ticks[0],
                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
               "vkGetQueryPoolResults");
  double ms = double(ticks[1] - ticks[0]) * ctx.properties.limits.timestampPeriod * 1e-6;

  std::vector<uint32_t> sortedKeys(n), sortedValues(n);
  ctx.download(keyBuf, sortedKeys.data(), VkDeviceSize(n) * 4);
  ctx.download(valBuf, sortedValues.data(), VkDeviceSize(n) * 4);
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  bool ok = true;
  for (uint32_t i = 0; i < n && ok; ++i) ok = sortedKeys[i] == keys[order[i]] && sortedValues[i] == order[i];

  std::printf("device:   %s (subgroup %u, %s)\n", ctx.properties.deviceName, props.subgroupSize,
              props.algorithm == vksort::Algorithm::onesweep ? "Onesweep" : "reduce-then-scan");
  std::printf("pairs:    %u (u32 keys, u32 values)\n", n);
  std::printf("gpu time: %.3f ms  (%.2f GKeys/s)\n", ms, ms > 0 ? n / (ms * 1e6) : 0.0);
  std::printf("check:    %s\n", ok ? "sorted, stable" : "WRONG");

  vkDestroyQueryPool(ctx.device, queries, nullptr);
  for (vkctx::Buffer* b : {&keyBuf, &valBuf, &scratch}) ctx.destroy(*b);
  vksort::destroySorter(sorter);
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "vksort_demo: %s\n", e.what());
  return 2;
}
