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
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
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

}  // namespace

uint32_t passCount(const SortConfig& c) { return (c.endBit - c.beginBit + kRadixBits - 1) / kRadixBits; }

uint32_t binningDispatches(const SortConfig& c) { return passCount(c) + passCount(c) % 2; }

// Whether a scatter's byte offset may pass 2^31 (addressing.glsl), or the tuning asks for 64-bit
// addresses anyway.
static bool wideScatter(const Tuning& t, const SortConfig& c, uint32_t span) {
  uint64_t elementBytes = std::max(keyBytes(c.keyType), valueBytes(c.valueType));
  return uint64_t(span) * elementBytes > 0x7FFFFFFFull || span >= t.wideAddressesFrom;
}

Status getSortPipelines(const Sorter_T& s, const SortConfig& c, SortPipelines* out) {
  const uint32_t keyType = uint32_t(c.keyType), valueType = uint32_t(c.valueType);
  const Pipelines& p = s.pipelines;
  Status st = p.get(kInit, 0, 0, &out->init);
  if (st) st = p.get(kHistogram, keyType, 0, &out->histogram);
  if (st) st = p.get(kScan, 0, 0, &out->scan);
  if (st) st = p.get(kBinning, keyType, valueType, &out->binning);
  if (st) st = p.get(kCopyBack, 0, 0, &out->copyBack);
  return st;
}

void recordOnesweepSort(const Sorter_T& s, VkCommandBuffer cmd, const SortInfo& info, const SortAddresses& a,
                        const SortPipelines& pipelines) {
  const Tuning& t = s.tuning;
  const SortConfig& c = info.config;
  const bool indirect = a.count != 0;
  const uint32_t count = info.count;  // direct sorts only
  const bool pairs = c.valueType != ValueType::none;
  const ScratchLayout layout = scratchLayout(t, c, info.maxCount);
  const uint32_t passes = passCount(c);
  const uint32_t words = elementWords(c);
  const uint32_t tileKeys = t.tileKeys(words);
  const uint32_t portionKeys = t.portionKeys(words);
  // The keys this recording must cover: an indirect sort's count is known only on the GPU.
  const uint32_t span = indirect ? info.maxCount : count;
  const uint32_t portions = divideUp(span, portionKeys);
  const uint32_t kb = keyBytes(c.keyType), vb = valueBytes(c.valueType);
  Timestamps stamps{s.vk, cmd, info.timestampPool, info.firstTimestamp};

  // A grid that depends on the count: `groups` workgroups, or, for an indirect sort, the
  // arguments the init kernel wrote into the header.
  auto launch = [&](VkPipeline pipeline, const SortPush& push, uint32_t which, uint32_t groups) {
    if (!indirect) return dispatch(s, cmd, pipeline, push, groups);
    bind(s, cmd, pipeline, push);
    VkDeviceSize arguments = info.scratch.offset + layout.header + (kHeaderDispatch + which * 4) * 4;
    s.vk.vkCmdDispatchIndirect(cmd, info.scratch.buffer, arguments);
  };

  SortPush push{};
  push.header = a.scratch + layout.header;
  push.tickets = a.scratch + layout.tickets;
  push.count = count;
  push.passCount = passes;
  const uint64_t rangeMask = c.endBit == 64 ? ~0ull : (1ull << c.endBit) - 1;
  push.rangeMaskLo = uint32_t(rangeMask);
  push.rangeMaskHi = uint32_t(rangeMask >> 32);
  const uint32_t baseFlags = (indirect ? kFlagIndirectCount : 0) |
                             (c.order == SortOrder::descending ? kFlagDescending : 0) |
                             (wideScatter(t, c, span) ? kFlagWideAddresses : 0);
  push.flags = baseFlags;
  push.countIn = a.count;
  push.maxCount = info.maxCount;
  push.maxGroupsX = s.caps.maxWorkgroupCount[0];
  push.histogramGroupKeys = tileKeys * t.histogramTilesPerWorkgroup;
  push.tileKeys = tileKeys;
  push.portionKeys = portionKeys;

  // Sorts sharing a scratch buffer may follow each other with no barrier of the caller's.
  computeBarrier(s.vk, cmd);
  stamps.write();
  dispatch(s, cmd, pipelines.init, push, 1);
  computeBarrier(s.vk, cmd, indirect);
  stamps.write();

  push.keysIn = a.keys;
  push.status = a.scratch + layout.status[0];  // cleared by the histogram kernel for dispatch 0
  push.shift = c.beginBit;
  launch(pipelines.histogram, push, kDispatchHistogram, divideUp(divideUp(count, tileKeys), t.histogramTilesPerWorkgroup));
  computeBarrier(s.vk, cmd);
  stamps.write();
  dispatch(s, cmd, pipelines.scan, push, passes);
  computeBarrier(s.vk, cmd);
  stamps.write();

  // Ping-pong between the caller's buffers and the scratch copies; an odd pass count ends in the
  // scratch copies and is copied back. Each pass is one dispatch per portion; look-back words
  // alternate between two regions from dispatch to dispatch.
  VkDeviceAddress keys[2] = {a.keys, a.scratch + layout.keysAlt};
  VkDeviceAddress values[2] = {a.values, pairs ? a.scratch + layout.valuesAlt : 0};
  uint32_t dispatchIndex = 0;
  for (uint32_t pass = 0; pass < passes; ++pass) {
    for (uint32_t portion = 0; portion < portions; ++portion, ++dispatchIndex) {
      const uint32_t start = portion * portionKeys;
      const bool last = pass + 1 == passes && portion + 1 == portions;
      push.keysIn = keys[pass & 1] + VkDeviceSize(start) * kb;
      push.keysOut = keys[(pass + 1) & 1];
      push.valsIn = pairs ? values[pass & 1] + VkDeviceSize(start) * vb : 0;
      push.valsOut = values[(pass + 1) & 1];
      push.status = a.scratch + layout.status[dispatchIndex & 1];
      push.statusNext = a.scratch + layout.status[(dispatchIndex + 1) & 1];
      push.shift = c.beginBit + pass * kRadixBits;
      push.pass = pass;
      push.portionStart = start;
      push.dispatchIndex = dispatchIndex;
      push.flags = baseFlags | (last ? 0 : kFlagClearNext);
      // Direct sorts: this portion's tiles, or if more, the next dispatch's, whose look-back
      // words this one clears (spare workgroups only clear).
      auto tilesOf = [&](uint32_t p) { return divideUp(std::min(count - p * portionKeys, portionKeys), tileKeys); };
      uint32_t next = portion + 1 < portions ? portion + 1 : 0;
      uint32_t groups = indirect ? 0 : std::max(tilesOf(portion), last ? 0 : tilesOf(next));
      launch(pipelines.binning, push, kDispatchBinning, groups);
      if (!last) computeBarrier(s.vk, cmd);
    }
    stamps.write();
  }
  push.portionStart = 0;
  if (passes % 2 == 1) {
    computeBarrier(s.vk, cmd);
    push.keysIn = keys[1];
    push.keysOut = keys[0];
    push.valsIn = values[1];
    push.valsOut = values[0];
    push.flags = baseFlags | (pairs ? kFlagCopyValues : 0) | (kb == 8 ? kFlagKeys64 : 0) | (vb == 8 ? kFlagValues64 : 0);
    launch(pipelines.copyBack, push, kDispatchCopyBack, divideUp(count, kCopyBackWorkgroup));
    stamps.write();
  }
}

}  // namespace vksort::detail
