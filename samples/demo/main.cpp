// vksort demo: sorts N random key/value pairs on the default Vulkan device, checks the result on
// the CPU, and prints the GPU time of the sort from timestamp queries. With --describe it sorts
// nothing and prints what a sort would run on this device (vksort::describeSort()).
// Usage: vksort_demo --help (kUsage below).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "vk_context.hpp"

namespace {

const char* const kUsage =
    "usage: vksort_demo [N]\n"
    "         sorts N random u32 key/value pairs (default 1000000) and checks them on the CPU\n"
    "       vksort_demo --describe KEY[/VALUE] N [--descending] [--bits BEGIN,END] [--indirect]\n"
    "         prints what that sort runs on this device (nothing is sorted);\n"
    "         KEY u32, i32, f32, u64, i64, f64; VALUE u32 or u64; e.g. --describe f32/u32 16777216\n"
    "       vksort_demo --help\n";

// A count of keys, 1 to 2^32 - 1.
uint32_t countOf(const std::string& text) { return uint32_t(cli::number("N", text, 1, 0xFFFFFFFFu)); }

// Keys per second, in units that show the number (lavapipe sorts millions, GPUs billions).
std::string rate(double keysPerSecond) {
  char text[32];
  if (keysPerSecond >= 1e9) std::snprintf(text, sizeof text, "%.2f GKeys/s", keysPerSecond * 1e-9);
  else std::snprintf(text, sizeof text, "%.2f MKeys/s", keysPerSecond * 1e-6);
  return text;
}

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// --describe's arguments: the plan of that sort, printed.
int describe(int argc, char** argv) {
  if (argc < 4) throw std::invalid_argument("--describe needs KEY[/VALUE] and N");
  const std::string types = argv[2];
  const std::string key = types.substr(0, types.find('/'));
  const std::string value = types.find('/') == std::string::npos ? "" : types.substr(types.find('/') + 1);
  vksort::SortConfig config;
  config.keyType = cli::keyType(key);
  config.endBit = vksort::keyBytes(config.keyType) * 8;
  if (value == "u32") config.valueType = vksort::ValueType::u32;
  else if (value == "u64") config.valueType = vksort::ValueType::u64;
  else if (!value.empty() || types.back() == '/') throw std::invalid_argument("unknown value type " + value);
  const uint32_t count = countOf(argv[3]);
  bool indirect = false;
  for (int i = 4; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--descending") config.order = vksort::SortOrder::descending;
    else if (a == "--indirect") indirect = true;
    else if (a == "--bits" && i + 1 < argc && std::sscanf(argv[++i], "%u,%u", &config.beginBit, &config.endBit) == 2)
      continue;
    else throw std::invalid_argument("unknown argument " + a);
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
  const std::string first = argc > 1 ? argv[1] : "";
  cli::helpIfAsked(first, kUsage);
  if (first == "--describe") return describe(argc, argv);
  if (argc > 2 || (argc > 1 && first[0] == '-'))
    throw std::invalid_argument("unknown argument " + std::string(argv[argc > 2 && first[0] != '-' ? 2 : 1]));
  const uint32_t n = argc > 1 ? countOf(first) : 1000000u;
  vkctx::Context ctx(vkctx::Options{});
  vksort::Sorter sorter = nullptr;
  // What a sorter costs to set up: createSorter builds no pipeline; prepareSorts builds this
  // sort's (a driver's pipeline cache makes a second run cheaper).
  auto start = std::chrono::steady_clock::now();
  vkctx::check(vksort::createSorter(ctx.sorterCreateInfo(), &sorter), "createSorter");
  const double createMs = msSince(start);
  vksort::SorterProperties props = vksort::getSorterProperties(sorter);
  vksort::PreparedSort prepared;
  prepared.config.valueType = vksort::ValueType::u32;
  prepared.maxCount = n;
  start = std::chrono::steady_clock::now();
  vkctx::check(vksort::prepareSorts(sorter, 1, &prepared), "prepareSorts");
  const double prepareMs = msSince(start);

  std::vector<uint32_t> keys(n), values(n);
  std::mt19937 rng(2024);
  for (auto& k : keys) k = uint32_t(rng());
  std::iota(values.begin(), values.end(), 0u);

  vksort::SortInfo info;
  info.config.valueType = vksort::ValueType::u32;
  info.count = info.maxCount = n;
  vksort::ScratchRequirements req;
  vkctx::check(vksort::getScratchRequirements(sorter, info.config, n, &req), "getScratchRequirements");
  vkctx::Buffer keyBuf = ctx.createDeviceBuffer(VkDeviceSize(n) * 4),
                valBuf = ctx.createDeviceBuffer(VkDeviceSize(n) * 4);
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
  std::printf("setup:    createSorter %.1f ms, prepareSorts %.1f ms\n", createMs, prepareMs);
  std::printf("gpu time: %.3f ms  (%s)\n", ms, rate(ms > 0 ? n / (ms * 1e-3) : 0.0).c_str());
  std::printf("check:    %s\n", ok ? "sorted, stable" : "WRONG");

  vkDestroyQueryPool(ctx.device, queries, nullptr);
  for (vkctx::Buffer* b : {&keyBuf, &valBuf, &scratch}) ctx.destroy(*b);
  vksort::destroySorter(sorter);
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  return cli::report("vksort_demo", e, kUsage);
}
