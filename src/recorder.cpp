#include "recorder.hpp"

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
  s.vk.vkCmdPushConstants(cmd, s.pipelines.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
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

uint32_t keyVariantOf(const SortConfig& c) {
  uint32_t type = c.keyType == KeyType::f32 ? kKeyF32 : c.keyType == KeyType::i32 ? kKeyI32 : kKeyU32;
  return keyVariant(type, c.order == SortOrder::descending);
}

void recordOnesweepSort(const Sorter_T& s, VkCommandBuffer cmd, const SortInfo& info, const SortAddresses& a) {
  const Tuning& t = s.tuning;
  const bool indirect = a.count != 0;
  const uint32_t count = info.count;  // direct sorts only
  bool pairs = info.config.valueType != ValueType::none;
  ScratchLayout layout = scratchLayout(t, pairs, info.maxCount);
  const uint32_t passes = passCount(info.config);
  const uint32_t tiles = divideUp(count, t.tileKeys());
  Timestamps stamps{s.vk, cmd, info.timestampPool, info.firstTimestamp};
  const uint32_t countFlag = indirect ? kFlagIndirectCount : 0;

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
  push.count = count;
  push.passCount = passes;
  push.rangeMask = info.config.endBit == 32 ? ~0u : (1u << info.config.endBit) - 1;
  push.flags = countFlag;
  push.countIn = a.count;
  push.maxCount = info.maxCount;
  push.maxGroupsX = s.caps.maxWorkgroupCount[0];
  push.histogramGroupKeys = t.tileKeys() * t.histogramTilesPerWorkgroup;
  push.tileKeys = t.tileKeys();
  const auto& pipeline = s.pipelines.pipeline;
  const uint32_t variant = keyVariantOf(info.config);

  // Sorts sharing a scratch buffer may follow each other with no barrier of the caller's.
  computeBarrier(s.vk, cmd);
  stamps.write();
  dispatch(s, cmd, pipeline[kInit][0], push, 1);
  computeBarrier(s.vk, cmd, indirect);
  stamps.write();

  push.keysIn = a.keys;
  push.status = a.scratch + layout.status[0];  // cleared by the histogram kernel for pass 0
  push.shift = info.config.beginBit;
  launch(pipeline[kHistogram][variant], push, kDispatchHistogram, divideUp(tiles, t.histogramTilesPerWorkgroup));
  computeBarrier(s.vk, cmd);
  stamps.write();
  dispatch(s, cmd, pipeline[kScan][0], push, passes);
  computeBarrier(s.vk, cmd);
  stamps.write();

  // Ping-pong between the caller's buffers and the scratch copies; an odd pass count ends in the
  // scratch copies and is copied back.
  VkDeviceAddress keys[2] = {a.keys, a.scratch + layout.keysAlt};
  VkDeviceAddress values[2] = {a.values, pairs ? a.scratch + layout.valuesAlt : 0};
  for (uint32_t pass = 0; pass < passes; ++pass) {
    push.keysIn = keys[pass & 1];
    push.keysOut = keys[(pass + 1) & 1];
    push.valsIn = values[pass & 1];
    push.valsOut = values[(pass + 1) & 1];
    push.status = a.scratch + layout.status[pass & 1];
    push.statusNext = a.scratch + layout.status[(pass + 1) & 1];
    push.shift = info.config.beginBit + pass * kRadixBits;
    push.pass = pass;
    push.flags = countFlag | (pass + 1 < passes ? kFlagClearNext : 0);
    launch(pipeline[pairs ? kOnesweepPairs : kOnesweepKeys][variant], push, kDispatchBinning, tiles);
    if (pass + 1 < passes) computeBarrier(s.vk, cmd);
    stamps.write();
  }
  if (passes % 2 == 1) {
    computeBarrier(s.vk, cmd);
    push.keysIn = keys[1];
    push.keysOut = keys[0];
    push.valsIn = values[1];
    push.valsOut = values[0];
    push.flags = countFlag | (pairs ? kFlagCopyValues : 0);
    launch(pipeline[kCopyBack][0], push, kDispatchCopyBack, divideUp(count, kCopyBackWorkgroup));
    stamps.write();
  }
}

}  // namespace vksort::detail
