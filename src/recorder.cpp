#include "recorder.hpp"

#include <algorithm>

#include "scratch_layout.hpp"
#include "shader_interface.h"

namespace vksort::detail {
namespace {

// Every barrier of a sort: all compute writes so far become visible to later compute reads and
// writes (and, after the init kernel of an indirect sort, to indirect-argument reads). A global
// memory barrier, since kernels reach buffers through device addresses.
void computeBarrier(const VolkDeviceTable& vk, VkCommandBuffer cmd, bool indirectArguments = false) {
  VkMemoryBarrier barrier = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                          (indirectArguments ? VK_ACCESS_INDIRECT_COMMAND_READ_BIT : 0);
  VkPipelineStageFlags dst =
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | (indirectArguments ? VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT : 0);
  vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, dst, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

void bind(const Sorter_T& s, VkCommandBuffer cmd, VkPipeline pipeline, const SortPush& push) {
  s.vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  s.vk.vkCmdPushConstants(cmd, s.pipelines.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
}

// Dispatches `groups` workgroups, spilling into y past the device's x limit (kernels flatten
// the id with flatWorkGroupId(), or ignore it and take tickets). init.comp's writeDispatch()
// splits indirect grids the same way.
void dispatch(const Sorter_T& s, VkCommandBuffer cmd, VkPipeline pipeline, const SortPush& push, uint32_t groups) {
  bind(s, cmd, pipeline, push);
  uint32_t maxX = s.caps.maxWorkgroupCount[0];
  uint32_t x = groups < maxX ? groups : maxX;
  uint32_t y = (groups + x - 1) / x;
  s.vk.vkCmdDispatch(cmd, x, y, 1);
}

uint32_t divideUp(uint32_t a, uint32_t b) { return uint32_t((uint64_t(a) + b - 1) / b); }

// Profiling: writes the caller's next timestamp once all earlier work is done (nothing without a pool).
struct Timestamps {
  const VolkDeviceTable& vk;
  VkCommandBuffer cmd;
  VkQueryPool pool;
  uint32_t next;
  void write() {
    if (pool) vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, next++);
  }
};

// Whether a scatter's byte offset may pass 2^31 (addressing.glsl), or the tuning asks for 64-bit
// addresses anyway.
bool wideScatter(const Tuning& t, const SortConfig& c, uint32_t span) {
  uint64_t elementBytes = std::max(keyBytes(c.keyType), valueBytes(c.valueType));
  return uint64_t(span) * elementBytes > 0x7FFFFFFFull || span >= t.wideAddressesFrom;
}

}  // namespace

uint32_t passCount(const SortConfig& c) { return (c.endBit - c.beginBit + kRadixBits - 1) / kRadixBits; }

uint32_t binningDispatches(const SortConfig& c) { return passCount(c) + passCount(c) % 2; }

uint32_t digitWordOf(const SortConfig& c, uint32_t pass) {
  if (keyBytes(c.keyType) != 8) return kDigitAnyWord;
  const uint32_t begin = c.beginBit + pass * kRadixBits, end = std::min(begin + kRadixBits, c.endBit);
  return end <= 32 ? kDigitLowWord : begin >= 32 ? kDigitHighWord : kDigitAnyWord;
}

void planSortPipelines(const Tuning& t, const SortConfig& c, uint32_t span, bool indirect, SortPipelines* out,
                       std::vector<PipelineRequest>* requests) {
  *out = SortPipelines{};
  const uint32_t keyType = uint32_t(c.keyType), valueType = uint32_t(c.valueType);
  const bool onesweep = t.algorithm == Algorithm::onesweep;
  const uint32_t words = elementWords(c);
  const uint32_t tier = t.tierOf(span);
  const uint32_t smallTier = t.smallTileOf(words, span, passCount(c));
  out->span = span;
  out->tile = t.tileFor(tileClass(c), span);
  const bool chained = !indirect && t.chains(c, span);
  // Direct sorts know their count here: their tiles may be fitted to whole waves.
  out->tileKeys = indirect || chained ? out->tile.keys() : t.fittedTileKeys(out->tile, span);
  const bool fitted = out->tileKeys != out->tile.keys();
  out->smallKeys = std::min(t.smallSortKeys[words - 1], t.smallTiles[smallTier][words - 1].keys());
  auto want = [&](VkPipeline* slot, Kernel k, uint32_t key, uint32_t value, uint32_t tr = 0, bool fit = false,
                  uint32_t word = kDigitAnyWord) { requests->push_back({slot, k, key, value, tr, fit, word}); };
  want(&out->init, kInit, 0, 0);
  want(&out->histogram, kHistogram, keyType, 0);
  want(&out->scan, kScan, 0, 0);
  bool wanted[kDigitWords] = {};
  for (uint32_t pass = 0; !chained && pass < passCount(c); ++pass) {
    const uint32_t word = digitWordOf(c, pass);
    if (wanted[word]) continue;
    wanted[word] = true;
    want(&out->binning[word], onesweep ? kBinning : kDownsweep, keyType, valueType, tier, fitted, word);
    if (!onesweep) want(&out->upsweep[word], kUpsweep, keyType, valueType, tier, false, word);
  }
  if (!onesweep && !chained) want(&out->tileScan, kTileScan, 0, 0);
  if (out->smallKeys != 0) want(&out->small, kSmallSort, keyType, valueType, smallTier);
  if (chained) want(&out->chained, kChained, keyType, valueType, tier);
  want(&out->copyBack, kCopyBack, 0, 0);
}

Status getSortPipelines(const Sorter_T& s, const SortConfig& c, uint32_t span, bool indirect, SortPipelines* out) {
  std::vector<PipelineRequest> requests;
  planSortPipelines(s.tuning, c, span, indirect, out, &requests);
  for (const PipelineRequest& r : requests)
    if (Status st = s.pipelines.get(r.kernel, r.keyType, r.valueType, r.slot, r.tier, r.fitted, r.digitWord); !st) return st;
  return {};
}

namespace {

// What every part of one sort's recording needs.
struct SortRecording {
  const Sorter_T& s;
  VkCommandBuffer cmd;
  const SortInfo& info;
  const SortAddresses& a;
  const SortPipelines& pipelines;
  ScratchLayout layout;
  bool indirect;
  bool pairs;
  uint32_t passes;
  uint32_t tileKeys;
  uint32_t span;       // keys the recording must cover: an indirect count is known only on the GPU
  uint32_t kb, vb;     // key and value bytes
  uint32_t baseFlags;
  SortPush push;
  Timestamps stamps;
  VkDeviceAddress keys[2];    // the ping-pong: the caller's buffers, the scratch copies
  VkDeviceAddress values[2];

  // A grid that depends on the count: `groups` workgroups, or, for an indirect sort, the
  // arguments the init kernel wrote into the header.
  void launch(VkPipeline pipeline, uint32_t which, uint32_t groups) {
    if (!indirect) return dispatch(s, cmd, pipeline, push, groups);
    bind(s, cmd, pipeline, push);
    VkDeviceSize arguments = info.scratch.offset + layout.header + (kHeaderDispatch + which * 4) * 4;
    s.vk.vkCmdDispatchIndirect(cmd, info.scratch.buffer, arguments);
  }

  void setPass(uint32_t pass) {
    push.keysIn = keys[pass & 1];
    push.keysOut = keys[(pass + 1) & 1];
    push.valsIn = values[pass & 1];
    push.valsOut = values[(pass + 1) & 1];
    push.shift = info.config.beginBit + pass * kRadixBits;
    push.pass = pass;
  }

  // The whole sort in one workgroup (small_sort.glsl); for an indirect sort, one workgroup or
  // none, as the init kernel found the count.
  void small() {
    setPass(0);
    push.flags = baseFlags;
    launch(pipelines.small, kDispatchSmall, 1);
  }

  // Onesweep: per pass one dispatch per portion of the count; look-back words alternate between
  // two regions from dispatch to dispatch, each dispatch clearing the next one's.
  void onesweepPasses() {
    const uint32_t portionKeys = s.tuning.portionKeys(tileKeys);
    const uint32_t portions = divideUp(span, portionKeys);
    const uint32_t count = info.count;
    auto tilesOf = [&](uint32_t p) { return divideUp(std::min(count - p * portionKeys, portionKeys), tileKeys); };
    uint32_t dispatchIndex = 0;
    for (uint32_t pass = 0; pass < passes; ++pass) {
      for (uint32_t portion = 0; portion < portions; ++portion, ++dispatchIndex) {
        const uint32_t start = portion * portionKeys;
        const bool last = pass + 1 == passes && portion + 1 == portions;
        setPass(pass);
        push.keysIn += VkDeviceSize(start) * kb;
        if (pairs) push.valsIn += VkDeviceSize(start) * vb;
        push.status = a.scratch + layout.status[dispatchIndex & 1];
        push.statusNext = a.scratch + layout.status[(dispatchIndex + 1) & 1];
        push.portionStart = start;
        push.dispatchIndex = dispatchIndex;
        push.flags = baseFlags | (last ? 0 : kFlagClearNext);
        // Direct sorts: this portion's tiles, or if more, the next dispatch's, whose look-back
        // words this one clears (spare workgroups only clear).
        uint32_t next = portion + 1 < portions ? portion + 1 : 0;
        uint32_t groups = indirect ? 0 : std::max(tilesOf(portion), last ? 0 : tilesOf(next));
        launch(pipelines.binning[digitWordOf(info.config, pass)], kDispatchBinning, groups);
        if (!last) computeBarrier(s.vk, cmd);
      }
      stamps.write();
    }
    push.portionStart = 0;
  }

  // Reduce-then-scan: per pass an upsweep of per-tile digit counts into the tile table, a scan of
  // it per digit, and a downsweep that ranks and scatters. No workgroup waits on another.
  void reduceThenScanPasses() {
    const uint32_t tiles = divideUp(info.count, tileKeys);
    push.status = a.scratch + layout.table;
    push.flags = baseFlags;
    for (uint32_t pass = 0; pass < passes; ++pass) {
      setPass(pass);
      const uint32_t word = digitWordOf(info.config, pass);
      launch(pipelines.upsweep[word], kDispatchTiles, tiles);
      computeBarrier(s.vk, cmd);
      dispatch(s, cmd, pipelines.tileScan, push, kRadix);
      computeBarrier(s.vk, cmd);
      push.dispatchIndex = pass;  // its ticket counter
      launch(pipelines.binning[word], kDispatchTiles, tiles);
      if (pass + 1 < passes) computeBarrier(s.vk, cmd);
      stamps.write();
    }
  }
};

}  // namespace

void recordSort(const Sorter_T& s, VkCommandBuffer cmd, const SortInfo& info, const SortAddresses& a,
                const SortPipelines& pipelines) {
  const Tuning& t = s.tuning;
  const SortConfig& c = info.config;
  const bool indirect = a.count != 0;
  const bool pairs = c.valueType != ValueType::none;
  SortRecording r{s, cmd, info, a, pipelines, scratchLayout(t, c, info.maxCount), indirect, pairs, passCount(c),
                  pipelines.tileKeys, pipelines.span, keyBytes(c.keyType), valueBytes(c.valueType),
                  0, SortPush{}, Timestamps{s.vk, cmd, info.timestampPool, info.firstTimestamp}, {}, {}};
  r.baseFlags = (indirect ? kFlagIndirectCount : 0) | (c.order == SortOrder::descending ? kFlagDescending : 0) |
                (wideScatter(t, c, r.span) ? kFlagWideAddresses : 0);
  r.keys[0] = a.keys;
  r.keys[1] = a.scratch + r.layout.keysAlt;
  r.values[0] = a.values;
  r.values[1] = pairs ? a.scratch + r.layout.valuesAlt : 0;

  SortPush& push = r.push;
  push.header = a.scratch + r.layout.header;
  push.tickets = a.scratch + r.layout.tickets;
  push.count = info.count;
  push.passCount = r.passes;
  const uint64_t rangeMask = c.endBit == 64 ? ~0ull : (1ull << c.endBit) - 1;
  push.rangeMaskLo = uint32_t(rangeMask);
  push.rangeMaskHi = uint32_t(rangeMask >> 32);
  push.flags = r.baseFlags;
  push.countIn = a.count;
  push.maxCount = info.maxCount;
  push.maxGroupsX = s.caps.maxWorkgroupCount[0];
  // Histogram workgroups: up to histogramTilesPerWorkgroup tiles each, fewer where that leaves
  // fewer than histogramMinWorkgroups of them (from 2^16 to 2^21 keys an H100 spent 0.029 ms in
  // the histogram with 8 tiles each: each workgroup's loads in sequence).
  const uint32_t spanTiles = divideUp(r.span, r.tileKeys);
  const uint32_t groupTiles = std::clamp(spanTiles / t.histogramMinWorkgroups, 1u, t.histogramTilesPerWorkgroup);
  push.histogramGroupKeys = r.tileKeys * groupTiles;
  push.tileKeys = r.tileKeys;
  push.portionKeys = t.algorithm == Algorithm::onesweep ? t.portionKeys(r.tileKeys) : ~0u;
  const uint32_t totalStamps = kFixedDispatches + 1 + binningDispatches(c);
  auto finishStamps = [&] {
    while (r.stamps.pool && r.stamps.next < info.firstTimestamp + totalStamps) r.stamps.write();
  };

  // Sorts sharing a scratch buffer may follow each other with no barrier of the caller's.
  computeBarrier(s.vk, cmd);
  r.stamps.write();
  const bool smallOnly = r.span <= pipelines.smallKeys;
  if (smallOnly && !indirect) {
    r.small();
    return finishStamps();
  }
  push.pass = pipelines.smallKeys;  // what init's `pass` means
  dispatch(s, cmd, pipelines.init, push, 1);
  computeBarrier(s.vk, cmd, indirect);
  r.stamps.write();
  if (indirect && pipelines.smallKeys != 0) {  // the GPU picks: this, or the grids below
    r.small();
    if (smallOnly) return finishStamps();
    computeBarrier(s.vk, cmd);
  }

  const uint32_t tiles = divideUp(info.count, r.tileKeys);
  const uint32_t histogramGroups = divideUp(tiles, groupTiles);
  if (pipelines.chained) {  // histogram, scan and every pass in one dispatch (chained.glsl)
    r.setPass(0);
    push.status = a.scratch + r.layout.status[0];
    push.statusNext = a.scratch + r.layout.status[1];
    push.flags = r.baseFlags;
    dispatch(s, cmd, pipelines.chained, push, histogramGroups + r.passes * tiles);
    r.stamps.write();
  } else {
    push.keysIn = a.keys;
    if (t.algorithm == Algorithm::onesweep) {  // the histogram clears the first dispatch's look-back words
      push.status = a.scratch + r.layout.status[0];
      push.flags = r.baseFlags | kFlagClearNext;
    }
    push.shift = c.beginBit;
    r.launch(pipelines.histogram, kDispatchHistogram, histogramGroups);
    computeBarrier(s.vk, cmd);
    r.stamps.write();
    dispatch(s, cmd, pipelines.scan, push, r.passes);
    computeBarrier(s.vk, cmd);
    r.stamps.write();

    if (t.algorithm == Algorithm::onesweep) r.onesweepPasses();
    else r.reduceThenScanPasses();
  }

  if (r.passes % 2 == 1) {  // the result is in the scratch copies
    computeBarrier(s.vk, cmd);
    push.keysIn = r.keys[1];
    push.keysOut = r.keys[0];
    push.valsIn = r.values[1];
    push.valsOut = r.values[0];
    push.flags = r.baseFlags | (pairs ? kFlagCopyValues : 0) | (r.kb == 8 ? kFlagKeys64 : 0) | (r.vb == 8 ? kFlagValues64 : 0);
    r.launch(pipelines.copyBack, kDispatchCopyBack, divideUp(info.count, kCopyBackWorkgroup));
    r.stamps.write();
  }
  // A chained sort's phases are one dispatch: the stamps it did not write, after it. A query left
  // unwritten would never become available (on an H100 the caller's wait on it never returned).
  finishStamps();
}

}  // namespace vksort::detail
