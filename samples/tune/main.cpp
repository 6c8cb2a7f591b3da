// vksort_tune: measures vksort's tiles on this device (vksort::tuneSorts) and writes the tuning
// data that createSorter takes (SorterCreateInfo::pTuningData; vksort_bench --tuning FILE).
// Prints, per tile class and tier, the built-in row's time and the tuned tile's, and the copy
// ceiling of the largest sort's bytes measured in the same run.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "vk_context.hpp"

namespace {

const uint32_t kCopySpirv[] = {
#include "copy.comp.spv.inc"
};

const char* const kUsage =
    "usage: vksort_tune [--out FILE] [--sorts renderer|all] [--max-count N] [--budget SECONDS]\n"
    "  Tunes vksort on the device VKSORT_DEVICE names (an index or part of a name; default: the\n"
    "  first discrete GPU) and writes the tuning data to FILE (default vksort-tuning.bin).\n"
    "  --sorts renderer: f32 and u64 keys with u32 values (a splat renderer's sorts);\n"
    "          all (default): keys alone and with values, 32- and 64-bit\n"
    "  --max-count N: the largest count tuned (default 67108864)\n"
    "  --budget SECONDS: about how long the measurements may take (default 60)\n"
    "  --prepare 1: first prepare the sorts with a pipeline cache, as an application does at\n"
    "          startup (timed), then tune with that cache (its pipelines need not compile again)\n";

struct Args {
  std::string out = "vksort-tuning.bin";
  std::string sorts = "all";
  uint32_t maxCount = 1u << 26;
  float budget = 60;
  bool prepare = false;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    cli::helpIfAsked(k, kUsage);
    const std::string v = cli::valueOf(argc, argv, &i);
    char* end = nullptr;
    if (k == "--out") a.out = v;
    else if (k == "--sorts" && (v == "renderer" || v == "all")) a.sorts = v;
    else if (k == "--max-count") a.maxCount = uint32_t(cli::number(k, v, 1, 0xFFFFFFFFu));
    else if (k == "--budget") {
      a.budget = std::strtof(v.c_str(), &end);
      if (*end || !(a.budget > 0)) throw std::invalid_argument("--budget takes a number of seconds above 0");
    } else if (k == "--prepare") {
      a.prepare = cli::number(k, v, 0, 1) != 0;
    } else {
      throw std::invalid_argument("unknown argument " + k + " " + v);
    }
  }
  return a;
}

// A bar redrawn in place on a terminal; into a log (stderr not a terminal), a line per step.
bool showProgress(const vksort::TuningProgress& p, void*) {
  static const bool terminal = isatty(fileno(stderr)) != 0;
  if (!terminal) {
    std::fprintf(stderr, "%u/%u %s\n", p.step, p.steps, p.what);
    return true;
  }
  const uint32_t width = 30, done = std::min(width, p.step * width / std::max(p.steps, 1u));
  std::fprintf(stderr, "\r[%s%s] %u/%u %-12s", std::string(done, '#').c_str(), std::string(width - done, ' ').c_str(),
               p.step, p.steps, p.what);
  return true;
}

// The copy ceiling: the median time of one uvec4-per-invocation copy of `bytes`, after warm-up
// copies. One copy timed first sizes both to about half a second each: 70 copies of 2^26 pairs
// had made `--budget 10` on lavapipe take three times its budget (PERFORMANCE-LOG.md, s56).
double copyMs(vkctx::Context& ctx, VkDeviceSize bytes) {
  struct Push {
    VkDeviceAddress src, dst;
    uint32_t count, q, hasValues, words;
  };
  vkctx::ComputePipeline copy(ctx, kCopySpirv, sizeof kCopySpirv, sizeof(Push));
  vkctx::Buffer src = ctx.createDeviceBuffer(bytes), dst = ctx.createDeviceBuffer(bytes);
  const Push push{ctx.address(src), ctx.address(dst), uint32_t(bytes / 16), 0, 0, 0};
  auto qi = vkctx::vkStruct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
  qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
  constexpr uint32_t kMaxRuns = 20, kMaxWarmup = 50;
  qi.queryCount = 2 * kMaxRuns;
  VkQueryPool pool;
  vkctx::check(vkCreateQueryPool(ctx.device, &qi, nullptr, &pool), "vkCreateQueryPool");
  auto median = [&](uint32_t warmup, uint32_t runs) {
    VkCommandBuffer cmd = ctx.beginCommands();
    vkCmdResetQueryPool(cmd, pool, 0, 2 * runs);
    for (uint32_t i = 0; i < warmup + runs; ++i) {
      vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
      if (i >= warmup) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 2 * (i - warmup));
      copy.dispatch(cmd, &push, uint32_t((bytes / 16 + 255) / 256));
      if (i >= warmup) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 2 * (i - warmup) + 1);
    }
    ctx.submitAndWait(cmd);
    uint64_t ticks[2 * kMaxRuns];
    vkctx::check(vkGetQueryPoolResults(ctx.device, pool, 0, 2 * runs, 2 * runs * sizeof(uint64_t), ticks, 8,
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                 "vkGetQueryPoolResults");
    std::vector<double> ms;
    for (uint32_t i = 0; i < runs; ++i)
      ms.push_back(double(ticks[2 * i + 1] - ticks[2 * i]) * ctx.properties.limits.timestampPeriod * 1e-6);
    std::sort(ms.begin(), ms.end());
    return ms[runs / 2];
  };
  const double once = std::max(median(0, 1), 1e-3);
  const auto within = [&](uint32_t most) { return uint32_t(std::clamp(500.0 / once, 1.0, double(most))); };
  const double ms = median(within(kMaxWarmup), std::max(within(kMaxRuns), 3u));
  vkDestroyQueryPool(ctx.device, pool, nullptr);
  ctx.destroy(src);
  ctx.destroy(dst);
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args args = parse(argc, argv);
    vkctx::Context ctx({});
    const vksort::SorterDeveloperOptions developer = vkctx::developerOptionsFromEnvironment();  // VKSORT_TUNING
    vksort::SorterCreateInfo ci = ctx.sorterCreateInfo(&developer);
    std::vector<vksort::PreparedSort> sorts;
    auto add = [&](vksort::KeyType k, vksort::ValueType v) {
      vksort::PreparedSort p;
      p.config.keyType = k;
      p.config.valueType = v;
      p.maxCount = args.maxCount;
      sorts.push_back(p);
    };
    add(vksort::KeyType::f32, vksort::ValueType::u32);
    add(vksort::KeyType::u64, vksort::ValueType::u32);
    if (args.sorts == "all") {
      add(vksort::KeyType::u32, vksort::ValueType::none);
      add(vksort::KeyType::u64, vksort::ValueType::none);
    }
    // As an application does at startup: its sorts prepared with its pipeline cache, which the
    // tuner then starts from.
    VkPipelineCache cache = VK_NULL_HANDLE;
    if (args.prepare) {
      auto cacheInfo = vkctx::vkStruct<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
      vkctx::check(vkCreatePipelineCache(ctx.device, &cacheInfo, nullptr, &cache), "vkCreatePipelineCache");
      vksort::SorterCreateInfo prepared = ci;
      prepared.pipelineCache = cache;
      prepared.preparedSortCount = uint32_t(sorts.size());
      prepared.pPreparedSorts = sorts.data();
      const auto start = std::chrono::steady_clock::now();
      vksort::Sorter sorter = nullptr;
      vkctx::check(vksort::createSorter(prepared, &sorter), "createSorter");
      vksort::destroySorter(sorter);
      std::printf("prepared the sorts as an application does at startup: %.1f s\n",
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      ci.pipelineCache = cache;
    }
    vksort::TuneInfo info;
    info.pSorterCreateInfo = &ci;
    info.queue = ctx.queue;
    info.queueFamilyIndex = ctx.queueFamily;
    info.sortCount = uint32_t(sorts.size());
    info.pSorts = sorts.data();
    info.timeBudgetSeconds = args.budget;
    info.pfnProgress = showProgress;
    vksort::TuningResult result;
    const vksort::Status st = vksort::tuneSorts(info, &result);
    std::fprintf(stderr, "\n");
    vkctx::check(st, "tuneSorts");
    std::printf("%s", result.report.c_str());
    // The ceiling: a copy of the largest 32-bit pairs sort's bytes (keys and values), same run, in
    // whole 16-byte elements (at least one: --max-count 1 copied none and divided by zero), of at
    // most 2^26 pairs (2^32 - 1 of them is more memory than most devices have: the rate is the same).
    const VkDeviceSize bytes = (VkDeviceSize(std::min(args.maxCount, 1u << 26)) * 8 + 15) / 16 * 16;
    const double ms = copyMs(ctx, bytes);
    std::printf("copy ceiling: %llu bytes in %.4f ms (%.3g GB/s read+write); tuning took %.1f s\n",
                (unsigned long long)bytes, ms, 2.0 * double(bytes) / (ms * 1e-3) / 1e9, result.seconds);
    std::FILE* f = std::fopen(args.out.c_str(), "wb");
    if (!f || std::fwrite(result.data.data(), 1, result.data.size(), f) != result.data.size() || std::fclose(f) != 0)
      throw std::runtime_error("cannot write " + args.out);
    std::printf("wrote %zu bytes of tuning data to %s\n", result.data.size(), args.out.c_str());
    if (cache != VK_NULL_HANDLE) vkDestroyPipelineCache(ctx.device, cache, nullptr);
    return 0;
  } catch (const std::exception& e) {
    return cli::report("vksort_tune", e, kUsage);
  }
}
