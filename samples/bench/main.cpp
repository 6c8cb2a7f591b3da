// vksort benchmark. Prints one CSV line per measurement, as the CUB reference (cub/cub_bench.cu) does:
//   impl,mode,dist,n,median_ms,min_ms,gkeys_per_s,check
// impl "vksort" is the sort; impl "copy" is a device copy of the same bytes (the bandwidth
// ceiling, one uvec4 per invocation). Inputs are generated on the GPU with cub_bench's hash, so
// both benchmarks sort identical keys.
// Timing: per size, about a second of back-to-back sorts to bring the clocks up, then one
// submission of `iterations` sorts; each sort is preceded by a restore of the unsorted input
// (outside the timed region) and bracketed by timestamps. Median and minimum of those.
// Usage: vksort_bench --help (kUsage below).
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "splat_scene.hpp"
#include "vk_context.hpp"
#include "vrdx_sort.hpp"
#include "workloads.hpp"

namespace {

const uint32_t kGenSpirv[] = {
#include "gen_keys.comp.spv.inc"
};
const uint32_t kCopySpirv[] = {
#include "copy.comp.spv.inc"
};
const uint32_t kReadSpirv[] = {
#include "read.comp.spv.inc"
};

struct Args {
  int minLog2 = 10, maxLog2 = 28, stepLog2 = 2, iterations = 20, warmupMs = 1000, distLog2 = 26;
  bool profile = false;         // also print each dispatch's median time
  bool copy = true;             // also measure the copy ceiling
  bool large = false;           // the counts past 2^30 instead of the table
  bool indirect = false;        // sorts read their count from a buffer
  std::string impl = "vksort";  // or "vrdx" (vrdx_sort.hpp): another Vulkan sort on the same inputs
  std::vector<std::string> modes = {"keys32", "pairs32"};
  std::vector<uint64_t> sizes;  // extra sizes beyond the powers of two
  std::vector<uint32_t> dists = {2, 4, 8, 16};
  std::vector<std::string> workloads;
  std::vector<int> workloadLog2 = {20, 22, 24, 26};
  std::string ply, saveKeys;
  std::string tuning;        // tuning data from vksort_tune, required
  bool permutation = false;  // sorts with values sort a permutation (index values, keys discarded)
  uint32_t depthBits = 0;    // f32 workloads: keys of this many bits from recordDepthKeys, timed with the sort
};

const char* const kUsage =
    "usage: vksort_bench [--max-log2 28] [--min-log2 10] [--step-log2 2] [--modes keys32,pairs32]\n"
    "                    [--iterations 20] [--warmup-ms 1000] [--sizes n,n,...] [--dists 1,2,4,8,16] [--dist-log2 26]\n"
    "                    [--profile 1]   (per-dispatch medians, from the sort's profiling timestamps)\n"
    "                    [--tuning FILE] (tuning data from vksort_tune: required to match the device)\n"
    "                    [--copy 0]      (skip the copy ceiling)\n"
    "                    [--large 1]     (only: 2^30 + 12345 pairs32 and 2^31 + 7 keys32, checked)\n"
    "                    [--indirect 1]  (the count from a GPU buffer: impl \"vksort-indirect\")\n"
    "                    [--permutation 1] (modes and workloads with values sort a permutation:\n"
    "                                     ValueType::index, keys discarded; the mode gets \"-perm\")\n"
    "                    [--depth-bits B] (f32 workloads: recordDepthKeys makes B-bit keys over the\n"
    "                                     depths' range, then the sort over [0, B): both timed; the\n"
    "                                     mode gets \"-dB\", the check allows a step of the range)\n"
    "                    [--impl vrdx]   (vrdx instead of vksort, keys32 and pairs32; vrdx_sort.hpp)\n"
    "                    [--workloads room,object,...] [--workload-log2 20,22,24,26]\n"
    "                                    (renderer keys, workloads.hpp: generated on the CPU, the\n"
    "                                     same as the CUB reference's; the CSV's mode is the\n"
    "                                     workload, its dist \"scene\"; each prints its digits)\n"
    "                    [--ply FILE]    (the ply workload: the file's splats seen from behind\n"
    "                                     their bounds, looking along +z; with --save-keys F the\n"
    "                                     keys of the largest size go to F for the CUB reference)\n"
    "impl is \"vksort\" for Onesweep, \"vksort-rts\" for reduce-then-scan (VKSORT_TUNING=algorithm=2).\n"
    "modes: keys32, pairs32, keysf32, pairs32b16 (bits [0,16)), pairs32b24 (bits [0,24)),\n"
    "       keys64, pairs64v32 (u64 keys, u32 values), pairs64v64\n";

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');) out.push_back(item);
  return out;
}

Args parse(int argc, char** argv) {
  Args a;
  auto integer = [](const std::string& k, const std::string& v) { return int64_t(cli::number(k, v, 0, 0xFFFFFFFFu)); };
  auto integers = [&](const std::string& k, const std::string& v) {
    std::vector<int64_t> out;
    for (const std::string& item : split(v)) out.push_back(integer(k, item));
    if (out.empty()) throw std::invalid_argument(k + " takes a list of whole numbers");
    return out;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    cli::helpIfAsked(k, kUsage);
    const std::string v = cli::valueOf(argc, argv, &i);
    if (k == "--max-log2") a.maxLog2 = int(integer(k, v));
    else if (k == "--min-log2") a.minLog2 = int(integer(k, v));
    else if (k == "--step-log2") a.stepLog2 = std::max(1, int(integer(k, v)));
    else if (k == "--iterations") a.iterations = int(integer(k, v));
    else if (k == "--warmup-ms") a.warmupMs = int(integer(k, v));
    else if (k == "--dist-log2") a.distLog2 = int(integer(k, v));
    else if (k == "--modes") a.modes = split(v);
    else if (k == "--permutation") a.permutation = std::stoi(v) != 0;
    else if (k == "--depth-bits") a.depthBits = uint32_t(cli::number(k, v, 1, 24));
    else if (k == "--sizes")
      for (int64_t n : integers(k, v)) a.sizes.push_back(uint64_t(n));
    else if (k == "--profile") a.profile = integer(k, v) != 0;
    else if (k == "--copy") a.copy = integer(k, v) != 0;
    else if (k == "--large") a.large = integer(k, v) != 0;
    else if (k == "--indirect") a.indirect = integer(k, v) != 0;
    else if (k == "--impl") a.impl = v;
    else if (k == "--workloads") a.workloads = split(v);
    else if (k == "--workload-log2") {
      a.workloadLog2.clear();
      for (int64_t n : integers(k, v)) a.workloadLog2.push_back(int(n));
    } else if (k == "--ply") a.ply = v;
    else if (k == "--save-keys") a.saveKeys = v;
    else if (k == "--tuning") a.tuning = v;
    else if (k == "--dists") {
      a.dists.clear();
      if (v != "none")
        for (int64_t n : integers(k, v)) a.dists.push_back(uint32_t(n));
    } else throw std::invalid_argument("unknown option " + k);
  }
  return a;
}

// A workload's sort (workloads.hpp): its keys with u32 indices.
vksort::SortConfig configOfWorkload(const bench_workloads::Spec& w) {
  vksort::SortConfig c;
  c.keyType = w.keyBits == 64 ? vksort::KeyType::u64 : w.floatKeys ? vksort::KeyType::f32 : vksort::KeyType::u32;
  c.valueType = vksort::ValueType::u32;
  c.order = w.descending ? vksort::SortOrder::descending : vksort::SortOrder::ascending;
  c.beginBit = w.beginBit;
  c.endBit = w.endBit;
  return c;
}

struct HelperPush {  // bench_common.glsl
  VkDeviceAddress src, dst;
  uint32_t count, q, hasValues, words;
};

// One of the benchmark's own kernels (bench_common.glsl), one invocation per element.
struct Helper {
  vkctx::ComputePipeline pipeline;
  Helper(vkctx::Context& ctx, const uint32_t* code, size_t bytes) : pipeline(ctx, code, bytes, sizeof(HelperPush)) {}
  void dispatch(VkCommandBuffer cmd, const HelperPush& p) const { pipeline.dispatch(cmd, &p, (p.count + 255) / 256); }
};

void computeBarrier(VkCommandBuffer cmd) {
  vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

// A unit of benchmarked work: `untimed` restores the input (ends with a barrier), `timed` is
// what the timestamps bracket.
struct Work {
  std::function<void(VkCommandBuffer)> untimed, timed;
};

struct Timing {
  double median, min;
};

// Modes: keys32, pairs32 (u32 keys, u32 values); keysf32 (f32 keys); pairs32b16 / pairs32b24
// (pairs, bit range [0,16) / [0,24): two passes / three passes and a copy-back); keys64,
// pairs64v32, pairs64v64 (u64 keys, none / u32 / u64 values).
vksort::SortConfig configOfMode(const std::string& mode) {
  vksort::SortConfig c;
  if (mode.rfind("pairs", 0) == 0) c.valueType = vksort::ValueType::u32;
  if (mode == "keysf32") c.keyType = vksort::KeyType::f32;
  else if (mode == "pairs32b16") c.endBit = 16;
  else if (mode == "pairs32b24") c.endBit = 24;
  else if (mode == "keys64" || mode == "pairs64v32" || mode == "pairs64v64") {
    c.keyType = vksort::KeyType::u64;
    c.endBit = 64;
    if (mode == "pairs64v64") c.valueType = vksort::ValueType::u64;
  } else if (mode != "keys32" && mode != "pairs32") throw std::invalid_argument("unknown mode " + mode);
  return c;
}

class Bench {
 public:
  Bench(vkctx::Context& ctx, vksort::Sorter sorter, const Args& args)
      : ctx_(ctx),
        sorter_(sorter),
        args_(args),
        gen_(ctx, kGenSpirv, sizeof kGenSpirv),
        copy_(ctx, kCopySpirv, sizeof kCopySpirv),
        read_(ctx, kReadSpirv, sizeof kReadSpirv) {
    impl_ =
        vksort::getSorterProperties(sorter).algorithm == vksort::Algorithm::reduceThenScan ? "vksort-rts" : "vksort";
    if (args.indirect) impl_ += "-indirect";
    if (args.impl == "vrdx") {
      vrdx_ = std::make_unique<vrdx_bench::Sorter>(ctx.physicalDevice, ctx.device);
      impl_ = "vrdx";
    } else if (args.impl != "vksort") {
      throw std::runtime_error("unknown --impl " + args.impl);
    }
    VkQueryPoolCreateInfo qi = vkctx::vkStruct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qi.queryCount = 2 * uint32_t(args.iterations);
    vkctx::check(vkCreateQueryPool(ctx.device, &qi, nullptr, &queries_), "vkCreateQueryPool");
  }
  ~Bench() { vkDestroyQueryPool(ctx_.device, queries_, nullptr); }

  // Measures the sort of n elements and the copy ceiling of the same bytes, and prints both.
  // With `workload` keys (workloads.hpp) the mode is the workload's name and q is unused.
  void run(const std::string& mode, uint32_t q, uint32_t n, const std::vector<uint32_t>* workload = nullptr) {
    vksort::SortInfo info;
    info.config = workload ? configOfWorkload(bench_workloads::specOf(mode)) : configOfMode(mode);
    const bool permutation = args_.permutation && info.config.valueType == vksort::ValueType::u32;
    if (permutation) {  // what a renderer draws with: the indices, generated by the sort
      info.config.valueType = vksort::ValueType::index;
      info.config.discardKeys = true;
    }
    // Depth keys: the f32 keys made into depthBits-bit ones in place by recordDepthKeys (in the
    // workload's order), then sorted ascending over those bits.
    const bool depth = workload && args_.depthBits != 0 && info.config.keyType == vksort::KeyType::f32;
    const vksort::SortConfig inputConfig = info.config;  // what the keys are, for the check
    vksort::DepthKeysInfo depthKeys;
    if (depth) {
      depthKeys.bits = args_.depthBits;
      depthKeys.order = info.config.order;
      info.config.keyType = vksort::KeyType::u32;
      info.config.order = vksort::SortOrder::ascending;
      info.config.beginBit = 0;
      info.config.endBit = args_.depthBits;
    }
    const std::string label =
        mode + (permutation ? "-perm" : "") + (depth ? "-d" + std::to_string(args_.depthBits) : "");
    char qName[16];
    std::snprintf(qName, sizeof qName, "q%u", q);
    const std::string dist = workload ? "scene" : qName;
    bool pairs = info.config.valueType != vksort::ValueType::none;
    info.count = info.maxCount = n;
    vksort::ScratchRequirements req;
    vkctx::check(vksort::getScratchRequirements(sorter_, info.config, n, &req), "getScratchRequirements");
    if (vrdx_) {  // vrdx: u32 keys, alone or with u32 values, ascending, its own storage
      if (mode != "keys32" && mode != "pairs32") throw std::runtime_error("vrdx sorts keys32 and pairs32 only");
      vrdx_->requirements(n, pairs, &req.size, &req.usage);
    }
    const uint32_t kb = vksort::keyBytes(info.config.keyType), vb = vksort::valueBytes(info.config.valueType);
    VkDeviceSize bytes = VkDeviceSize(n) * kb, valueBytes = VkDeviceSize(n) * vb;
    vkctx::Buffer pristine = ctx_.createDeviceBuffer(bytes), keys = ctx_.createDeviceBuffer(bytes);
    vkctx::Buffer values = ctx_.createDeviceBuffer(pairs ? valueBytes : 16);
    vkctx::Buffer scratch = ctx_.createDeviceBuffer(req.size, req.usage);
    info.keys = keys.range();
    info.values = values.range();
    info.scratch = scratch.range();
    vkctx::Buffer depthScratch = ctx_.createDeviceBuffer(vksort::kDepthKeysScratchBytes);
    depthKeys.depths = keys.range();
    depthKeys.count = depthKeys.maxCount = n;
    depthKeys.scratch = depthScratch.range();

    vkctx::Buffer iota = ctx_.createDeviceBuffer(pairs ? valueBytes : 16);
    vkctx::Buffer countBuffer;
    if (args_.indirect) {
      countBuffer = ctx_.createDeviceBuffer(4, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
      ctx_.upload(countBuffer, &n, 4);
      info.countBuffer = countBuffer.range();
      depthKeys.countBuffer = countBuffer.range();
    }
    VkCommandBuffer cmd = ctx_.beginCommands();
    if (!workload) gen_.dispatch(cmd, {0, ctx_.address(pristine), n, q, 0, kb / 4});
    if (pairs) gen_.dispatch(cmd, {0, ctx_.address(iota), n, q, 1, vb / 4});
    ctx_.submitAndWait(cmd);
    if (workload) ctx_.upload(pristine, workload->data(), bytes);

    // The unsorted input comes back by transfer copies, outside the timed region.
    VkBufferCopy region{0, 0, bytes}, valueRegion{0, 0, valueBytes};
    auto recordDepthKeys = [&](VkCommandBuffer c) {
      if (!depth) return;
      vkctx::check(vksort::recordDepthKeys(sorter_, c, depthKeys), "recordDepthKeys");
      vkctx::memoryBarrier(c, vksort::kSortSrcStage, vksort::kSortSrcAccess, vksort::kSortDstStage,
                           vksort::kSortDstAccess);
    };
    Work sortWork{[&](VkCommandBuffer c) {
                    vkctx::memoryBarrier(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                                         VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
                    vkCmdCopyBuffer(c, pristine.buffer, keys.buffer, 1, &region);
                    if (pairs && !permutation) vkCmdCopyBuffer(c, iota.buffer, values.buffer, 1, &valueRegion);
                    vkctx::memoryBarrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                                         vksort::kSortDstStage, vksort::kSortDstAccess);
                  },
                  [&](VkCommandBuffer c) {
                    if (vrdx_) vrdx_->record(c, n, keys.buffer, pairs ? values.buffer : VK_NULL_HANDLE, scratch.buffer);
                    else {
                      recordDepthKeys(c);
                      vkctx::check(vksort::recordSort(sorter_, c, info), "recordSort");
                    }
                  }};
    Timing sort = measure(sortWork);
    // The profile times the sort's dispatches alone: the depth keys are made before its first.
    const Work profiled{[&](VkCommandBuffer c) { sortWork.untimed(c), recordDepthKeys(c); }, sortWork.timed};
    if (args_.profile && !vrdx_) profile(profiled, info, label, n);  // before the check: clocks still up
    std::string check = depth ? checkDepthOrder(*workload, values, n, inputConfig)
                              : checkResult(pristine, keys, values, n, info.config);
    print(impl_.c_str(), label, dist, n, sort, check);
    for (vkctx::Buffer* b : {&pristine, &iota, &keys, &values, &scratch, &countBuffer, &depthScratch}) ctx_.destroy(*b);

    if (!args_.copy) return;
    // The ceiling: one copy of the sort's bytes (keys, and values), same n.
    VkDeviceSize copyBytes = bytes + (pairs ? valueBytes : 0);
    vkctx::Buffer src = ctx_.createDeviceBuffer(copyBytes), dst = ctx_.createDeviceBuffer(copyBytes);
    HelperPush copyPush{ctx_.address(src), ctx_.address(dst), uint32_t(copyBytes / 16), 0, 0, 0};
    Timing copy = measure({[](VkCommandBuffer) {}, [&](VkCommandBuffer c) { copy_.dispatch(c, copyPush); }});
    print("copy", mode, dist, n, copy, "ok");
    std::printf("# copy %s n=%u: %.3f TB/s read+write\n", mode.c_str(), n,
                2.0 * double(copyBytes) / (copy.median * 1e-3) / 1e12);
    // The read ceiling of the keys' bytes (the histogram's input).
    VkCommandBuffer zero = ctx_.beginCommands();
    vkCmdFillBuffer(zero, src.buffer, 0, VK_WHOLE_SIZE, 0);
    ctx_.submitAndWait(zero);
    HelperPush readPush{ctx_.address(src), ctx_.address(dst), uint32_t(bytes / 16), 0x9E3779B9u, 0, 0};
    Timing read = measure({[](VkCommandBuffer) {}, [&](VkCommandBuffer c) { read_.dispatch(c, readPush); }});
    print("read", mode, dist, n, read, "ok");
    std::printf("# read %s n=%u: %.3f TB/s of keys read\n", mode.c_str(), n,
                double(bytes) / (read.median * 1e-3) / 1e12);
    ctx_.destroy(src);
    ctx_.destroy(dst);
  }

 private:
  // `repetitions` units of work in one command buffer; timestamps around each `timed` part.
  VkCommandBuffer recordBatch(const Work& work, int repetitions, bool timed) {
    VkCommandBuffer cmd = ctx_.beginCommands();
    if (timed) vkCmdResetQueryPool(cmd, queries_, 0, 2 * uint32_t(repetitions));
    for (int i = 0; i < repetitions; ++i) {
      computeBarrier(cmd);  // the previous repetition is done before this one restores
      work.untimed(cmd);
      if (timed) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries_, 2 * uint32_t(i));
      work.timed(cmd);
      if (timed) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries_, 2 * uint32_t(i) + 1);
    }
    return cmd;
  }

  // Each dispatch's median time over `iterations` profiled sorts (right after measure(): warm).
  void profile(const Work& work, vksort::SortInfo info, const std::string& mode, uint32_t n) {
    const uint32_t stamps = vksort::getSortTimestampCount(info.config);
    const uint32_t runs = uint32_t(args_.iterations);
    VkQueryPoolCreateInfo qi = vkctx::vkStruct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qi.queryCount = stamps * runs;
    VkQueryPool pool;
    vkctx::check(vkCreateQueryPool(ctx_.device, &qi, nullptr, &pool), "vkCreateQueryPool");
    VkCommandBuffer cmd = ctx_.beginCommands();
    vkCmdResetQueryPool(cmd, pool, 0, qi.queryCount);
    info.timestampPool = pool;
    info.timestampPoolQueries = qi.queryCount;
    for (uint32_t r = 0; r < runs; ++r) {
      computeBarrier(cmd);
      work.untimed(cmd);
      info.firstTimestamp = r * stamps;
      vkctx::check(vksort::recordSort(sorter_, cmd, info), "recordSort");
    }
    ctx_.submitAndWait(cmd);
    std::vector<uint64_t> ticks(qi.queryCount);
    vkctx::check(vkGetQueryPoolResults(ctx_.device, pool, 0, qi.queryCount, ticks.size() * 8, ticks.data(), 8,
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                 "vkGetQueryPoolResults");
    vkDestroyQueryPool(ctx_.device, pool, nullptr);
    std::printf("# profile %s n=%u (median ms):", mode.c_str(), n);
    for (uint32_t stage = 0; stage + 1 < stamps; ++stage) {
      std::vector<double> ms;
      for (uint32_t r = 0; r < runs; ++r)
        ms.push_back(double(ticks[r * stamps + stage + 1] - ticks[r * stamps + stage]) *
                     ctx_.properties.limits.timestampPeriod * 1e-6);
      std::sort(ms.begin(), ms.end());
      static const char* names[] = {"init", "histogram", "scan"};
      const uint32_t passes = (vksort::endBitOf(info.config) - info.config.beginBit + 7) / 8;
      std::string label = stage < 3            ? names[stage]
                          : stage - 3 < passes ? "pass" + std::to_string(stage - 3)
                                               : "copyback";
      std::printf(" %s=%.4f", label.c_str(), ms[ms.size() / 2]);
    }
    std::printf("\n");
  }

  std::vector<double> readTimes(int repetitions) {
    std::vector<uint64_t> ticks(2 * size_t(repetitions));
    vkctx::check(vkGetQueryPoolResults(ctx_.device, queries_, 0, uint32_t(ticks.size()), ticks.size() * 8, ticks.data(),
                                       8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                 "vkGetQueryPoolResults");
    std::vector<double> ms(static_cast<size_t>(repetitions));
    for (size_t i = 0; i < ms.size(); ++i)
      ms[i] = double(ticks[2 * i + 1] - ticks[2 * i]) * ctx_.properties.limits.timestampPeriod * 1e-6;
    return ms;
  }

  // Probe once, keep the GPU busy for warmupMs with back-to-back batches, then time one batch.
  Timing measure(const Work& work) {
    const int n = args_.iterations;
    ctx_.submitAndWait(recordBatch(work, n, true));
    std::vector<double> probe = readTimes(n);
    double perRun = std::max(*std::min_element(probe.begin(), probe.end()), 1e-3);

    constexpr int kMaxPerBatch = 2000;
    long wanted = long(args_.warmupMs / perRun);
    int perBatch = int(std::clamp<long>(wanted, 1, kMaxPerBatch));
    std::vector<vkctx::Submission> inFlight;
    for (long done = 0; done < wanted; done += perBatch) {
      inFlight.push_back(ctx_.submitAsync(recordBatch(work, perBatch, false)));
      if (inFlight.size() > 2) {  // two batches queued keep the GPU busy while the next records
        ctx_.finish(inFlight.front());
        inFlight.erase(inFlight.begin());
      }
    }
    vkctx::Submission timed = ctx_.submitAsync(recordBatch(work, n, true));
    for (vkctx::Submission& s : inFlight) ctx_.finish(s);
    ctx_.finish(timed);
    std::vector<double> ms = readTimes(n);
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms[0]};
  }

  // O(n) checks, fit for 2^31 keys: ordered by the reference, equal keys in input order (values
  // are input indices) with each key the input's at its value's index; keys alone: the same
  // multiset as the input, by two sums of hashes.
  std::string checkResult(const vkctx::Buffer& pristine, const vkctx::Buffer& keys, const vkctx::Buffer& values,
                          uint32_t n, const vksort::SortConfig& config) {
    const bool pairs = config.valueType != vksort::ValueType::none;
    const uint32_t kw = vksort::keyBytes(config.keyType) / 4, vw = vksort::valueBytes(config.valueType) / 4;
    std::vector<uint32_t> in(size_t(n) * kw), out(size_t(n) * kw), vals(pairs ? size_t(n) * vw : 0);
    ctx_.download(pristine, in.data(), in.size() * 4);
    ctx_.download(keys, out.data(), out.size() * 4);
    if (pairs) ctx_.download(values, vals.data(), vals.size() * 4);
    auto key = [&](const std::vector<uint32_t>& k, size_t i) {
      return kw == 1 ? uint64_t(k[i]) : uint64_t(k[2 * i]) | uint64_t(k[2 * i + 1]) << 32;
    };
    auto value = [&](size_t i) { return vals[i * vw]; };  // the index; a u64 value's high word is 0
    if (config.discardKeys) {  // a permutation: every index once, the input's keys in order by it
      std::vector<bool> seen(n);
      for (size_t i = 0; i < n; ++i) {
        if (value(i) >= n || seen[value(i)]) return "FAIL-permutation";
        seen[value(i)] = true;
      }
      for (size_t i = 0; i + 1 < n; ++i) {
        uint64_t a = vksort::keyOrderBits(config, key(in, value(i))),
                 b = vksort::keyOrderBits(config, key(in, value(i + 1)));
        if (a > b) return "FAIL-order";
        if (a == b && value(i) >= value(i + 1)) return "FAIL-stability";
      }
      return "ok";
    }
    for (size_t i = 0; i + 1 < n; ++i) {
      uint64_t a = vksort::keyOrderBits(config, key(out, i)), b = vksort::keyOrderBits(config, key(out, i + 1));
      if (a > b) return "FAIL-order";
      if (pairs && a == b && value(i) >= value(i + 1)) return "FAIL-stability";
    }
    if (pairs) {
      for (size_t i = 0; i < n; ++i)
        if (value(i) >= n || key(in, value(i)) != key(out, i) || (vw == 2 && vals[2 * i + 1] != 0)) return "FAIL-pairs";
      return "ok";
    }
    auto mix = [](uint64_t x) {
      x ^= x >> 31, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 29, x *= 0x94D049BB133111EBull;
      return x ^ (x >> 32);
    };
    uint64_t sums[2][2] = {};
    for (size_t i = 0; i < n; ++i)
      for (int side = 0; side < 2; ++side) {
        uint64_t h = mix(key(side ? out : in, i));
        sums[side][0] += h, sums[side][1] += mix(h ^ 0x5DEECE66Dull);
      }
    return sums[0][0] == sums[1][0] && sums[0][1] == sums[1][1] ? "ok" : "FAIL-keys";
  }

  // A sort of depth keys (--depth-bits): the values a permutation (or, with values given, the
  // input indices) that orders the f32 depths `in` by `config` up to a quantization step.
  std::string checkDepthOrder(const std::vector<uint32_t>& in, const vkctx::Buffer& values, uint32_t n,
                              const vksort::SortConfig& config) {
    std::vector<uint32_t> vals(size_t(n) * (vksort::valueBytes(config.valueType) / 4));
    if (vals.empty()) return "ok (keys alone: not checked)";
    ctx_.download(values, vals.data(), vals.size() * 4);
    const size_t vw = vals.size() / n;
    auto depth = [&](size_t i) {
      float f;
      std::memcpy(&f, &in[i], 4);
      return double(f);
    };
    double lo = 1e300, hi = -1e300;
    for (size_t i = 0; i < n; ++i)
      if (std::isfinite(depth(i))) lo = std::min(lo, depth(i)), hi = std::max(hi, depth(i));
    const double step = (hi - lo) / double(1u << args_.depthBits) * 1.0001;
    const bool descending = config.order == vksort::SortOrder::descending;
    std::vector<bool> seen(n);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t v = vals[i * vw];
      if (v >= n || seen[v]) return "FAIL-permutation";
      seen[v] = true;
      if (i > 0) {
        const double a = depth(vals[(i - 1) * vw]), b = depth(v);
        if (descending ? b > a + step : b < a - step) return "FAIL-order";
      }
    }
    return "ok";
  }

  void print(const char* impl, const std::string& mode, const std::string& dist, uint32_t n, Timing t,
             const std::string& check) {
    std::printf("%s,%s,%s,%u,%.4f,%.4f,%.3g,%s\n", impl, mode.c_str(), dist.c_str(), n, t.median, t.min,
                n / (t.median * 1e6), check.c_str());
    std::fflush(stdout);
  }

  vkctx::Context& ctx_;
  vksort::Sorter sorter_;
  const Args& args_;
  Helper gen_, copy_, read_;
  std::string impl_;                          // the CSV's impl column
  std::unique_ptr<vrdx_bench::Sorter> vrdx_;  // --impl vrdx
  VkQueryPool queries_ = VK_NULL_HANDLE;
};

// The ply workload's splats in view space: behind the scene's bounds on -z, looking along +z
// (3DGS captures are y-down; depth is along z either way).
std::vector<bench_workloads::Point> plyPoints(const std::string& path) {
  const std::vector<splats::Splat> s = splats::loadPly(path);
  if (s.empty()) throw std::runtime_error(path + " has no splats");
  float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
  for (const splats::Splat& x : s)
    for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], x.position[a]), hi[a] = std::max(hi[a], x.position[a]);
  const float cx = (lo[0] + hi[0]) / 2, cy = (lo[1] + hi[1]) / 2;
  const float camZ = lo[2] - std::max(hi[0] - lo[0], hi[1] - lo[1]);
  std::vector<bench_workloads::Point> points;
  for (const splats::Splat& x : s) points.push_back({x.position[0] - cx, x.position[1] - cy, x.position[2] - camZ});
  return points;
}

// Per pass of `config`'s range, over keys (32-bit words; a 64-bit key low word first): how many
// distinct digits its order bits have (vksort::keyOrderBits), and the most frequent one's
// share of the keys.
struct PassStats {
  uint32_t distinct;
  double topShare;
};
std::vector<PassStats> passStats(const vksort::SortConfig& config, const std::vector<uint32_t>& keys) {
  const bool wide = vksort::keyBytes(config.keyType) == 8;
  const size_t n = keys.size() / (wide ? 2 : 1);
  const uint32_t passes = (vksort::endBitOf(config) - config.beginBit + 7) / 8;
  std::vector<std::vector<uint64_t>> counts(passes, std::vector<uint64_t>(256, 0));
  for (size_t i = 0; i < n; ++i) {
    const uint64_t key = wide ? uint64_t(keys[2 * i]) | uint64_t(keys[2 * i + 1]) << 32 : keys[i];
    const uint64_t bits = vksort::keyOrderBits(config, key);
    for (uint32_t p = 0; p < passes; ++p) ++counts[p][(bits >> (8 * p)) & 0xFF];
  }
  std::vector<PassStats> out;
  for (const std::vector<uint64_t>& c : counts) {
    PassStats s{0, 0};
    for (uint64_t x : c) {
      s.distinct += x != 0;
      s.topShare = std::max(s.topShare, double(x) / double(std::max<size_t>(n, 1)));
    }
    out.push_back(s);
  }
  return out;
}

void runWorkloads(Bench& bench, const Args& args) {
  std::vector<bench_workloads::Point> ply;
  for (const std::string& name : args.workloads) {
    const bench_workloads::Spec& spec = bench_workloads::specOf(name);
    if (name == "ply" && ply.empty()) {
      if (args.ply.empty()) throw std::runtime_error("the ply workload needs --ply FILE");
      ply = plyPoints(args.ply);
    }
    const std::vector<size_t> counts = bench_workloads::countsOf(spec, args.workloadLog2);
    for (size_t n : counts) {
      const std::vector<uint32_t> keys = bench_workloads::generate(name, n, &ply);
      std::printf("# workload %s n=%zu, bits [%u,%u), per pass: distinct digits / top digit's share:", name.c_str(), n,
                  spec.beginBit, spec.endBit);
      for (const PassStats& s : passStats(configOfWorkload(spec), keys))
        std::printf(" %u/%.1f%%", s.distinct, 100 * s.topShare);
      std::printf("\n");
      if (name == "ply" && !args.saveKeys.empty() && n == counts.back()) {
        std::FILE* f = std::fopen(args.saveKeys.c_str(), "wb");
        if (!f || std::fwrite(keys.data(), 4, keys.size(), f) != keys.size())
          throw std::runtime_error("cannot write " + args.saveKeys);
        std::fclose(f);
      }
      bench.run(name, 0, uint32_t(n), &keys);
    }
  }
}

}  // namespace

int main(int argc, char** argv) try {
  Args args = parse(argc, argv);
  // Mode and workload names are checked before the device starts: a bad one is an argument error.
  for (const std::string& mode : args.modes) configOfMode(mode);
  for (const std::string& name : args.workloads) bench_workloads::specOf(name);
  vkctx::Options options;
  if (args.impl == "vrdx") {  // push descriptors and synchronization2 (vrdx_sort.hpp)
    options.extraDeviceExtensions = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    options.synchronization2 = true;
  }
  options.tuningData = args.tuning;  // empty: VKSORT_TUNING_DATA's, where set
  vkctx::Context ctx(options);
  vksort::Sorter sorter = nullptr;
  const vksort::SorterDeveloperOptions developer = vkctx::developerOptionsFromEnvironment();  // VKSORT_TUNING
  vkctx::check(vksort::createSorter(ctx.sorterCreateInfo(&developer), &sorter), "createSorter");
  const vksort::SorterProperties p = vksort::getSorterProperties(sorter);
  std::printf("# %s, driver 0x%x, subgroup %u%s, %s%s (what each sort runs: vksort_demo --describe)\n",
              ctx.properties.deviceName, ctx.properties.driverVersion, p.subgroupSize,
              p.requiredSubgroupSize ? " (required)" : "",
              p.tuned               ? "tuned, "
              : args.tuning.empty() ? ""
                                    : "tuning data (it changes nothing here), ",
              p.algorithm == vksort::Algorithm::onesweep ? "Onesweep" : "reduce-then-scan");
  std::printf("# impl,mode,dist,n,median_ms,min_ms,gkeys_per_s,check\n");
  {
    Bench bench(ctx, sorter, args);
    if (args.large) {  // counts past 2^30 (portions) and past 2^31 (64-bit addresses)
      bench.run("pairs32", 1, (1u << 30) + 12345);
      bench.run("keys32", 1, (1u << 31) + 7);
    }
    for (int lg = args.minLog2; lg <= args.maxLog2 && !args.large; lg += args.stepLog2)
      for (const std::string& mode : args.modes) bench.run(mode, 1, 1u << lg);
    for (uint32_t q : args.large ? std::vector<uint32_t>() : args.dists)
      for (const std::string& mode : args.modes) bench.run(mode, q, 1u << args.distLog2);
    for (uint64_t n : args.large ? std::vector<uint64_t>() : args.sizes)
      for (const std::string& mode : args.modes) bench.run(mode, 1, uint32_t(n));
    runWorkloads(bench, args);
  }
  vksort::destroySorter(sorter);
  return 0;
} catch (const std::exception& e) {
  return cli::report("vksort_bench", e, kUsage);
}
