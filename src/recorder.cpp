#include "recorder.hpp"

#include <algorithm>

#include "shader_interface.h"

namespace vksort::detail {
namespace {

// Every barrier of a sort: all compute writes so far become visible to later compute reads and
// writes (and, after the init kernel of an indirect sort, to indirect-argument reads). A global
// memory barrier, since kernels reach buffers through device addresses.
void computeBarrier(const VolkDeviceTable& vk, VkCommandBuffer cmd, bool indirectArguments = false) {
  auto barrier = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                          (indirectArguments ? VK_ACCESS_INDIRECT_COMMAND_READ_BIT : 0);
  VkPipelineStageFlags dst =
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | (indirectArguments ? VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT : 0);
  vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, dst, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

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

// One planned dispatch with `push`: its grid direct, or from the scratch header.
void recordDispatch(const Sorter_T& s, VkCommandBuffer cmd, const BufferRange& scratch, const ScratchLayout& layout,
                    const PlannedDispatch& d, VkPipeline pipeline, const SortPush& push) {
  s.vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  s.vk.vkCmdPushConstants(cmd, s.pipelines.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
  if (d.indirectGrid()) {
    const VkDeviceSize arguments = scratch.offset + layout.header + VkDeviceSize(d.indirectWord) * 4;
    s.vk.vkCmdDispatchIndirect(cmd, scratch.buffer, arguments);
  } else {
    // Past the device's x limit into y (kernels flatten the id with flatWorkGroupId(), or take
    // tickets); the grids the GPU writes split past kGridMaxX (dispatch_grid.glsl).
    const uint32_t maxX = s.caps.maxWorkgroupCount[0];
    const uint32_t x = d.groups < maxX ? d.groups : maxX;
    s.vk.vkCmdDispatch(cmd, x, (d.groups + x - 1) / x, 1);
  }
}

}  // namespace

Status getSortPipelines(const Sorter_T& s, const SortPlan& plan, SortPipelines* out) {
  for (uint32_t role = 0; role < kRoles; ++role) {
    const PipelineKey& k = plan.pipelines[role];
    out->byRole[role] = VK_NULL_HANDLE;
    if (k.kernel == kKernelCount) continue;
    if (Status st = s.pipelines.get(k, &out->byRole[role]); !st) return st;
  }
  return {};
}

void recordSort(const Sorter_T& s, VkCommandBuffer cmd, const SortInfo& info, const SortAddresses& a,
                const SortPlan& plan, const SortPipelines& pipelines) {
  const Tuning& t = s.tuning;
  const SortConfig& c = info.config;
  const bool indirect = plan.indirect;
  const bool pairs = c.valueType != ValueType::none;
  const ScratchLayout& layout = plan.scratch;
  const uint32_t kb = keyBytes(c.keyType), vb = valueBytes(c.valueType);
  const uint32_t baseFlags = (indirect ? kFlagIndirectCount : 0) |
                             (c.order == SortOrder::descending ? kFlagDescending : 0) |
                             (plan.wideAddresses ? kFlagWideAddresses : 0) |
                             (t.skipConstantPasses ? kFlagSkipConstantPasses : 0) | permutationFlags(c);
  const VkDeviceAddress keys[2] = {a.keys, a.scratch + layout.keysAlt};  // the ping-pong: the caller's, the scratch's
  const VkDeviceAddress values[2] = {a.values, pairs ? a.scratch + layout.valuesAlt : 0};
  Timestamps stamps{s.vk, cmd, info.timestampPool, info.firstTimestamp};

  SortPush push{};
  push.header = a.scratch + layout.header;
  push.tickets = a.scratch + layout.tickets;
  push.count = info.count;
  push.passCount = plan.passes;
  const uint64_t rangeMask = c.endBit == 64 ? ~0ull : (1ull << c.endBit) - 1;
  push.rangeMaskLo = uint32_t(rangeMask);
  push.rangeMaskHi = uint32_t(rangeMask >> 32);
  push.flags = baseFlags;
  push.countIn = a.count;
  push.maxCount = info.maxCount;
  push.histogramGroupKeys = plan.tileKeys * plan.histogramGroupTiles;
  push.tileKeys = plan.tileKeys;
  push.portionKeys = plan.portionKeys;
  auto setPass = [&](uint32_t pass) {
    push.keysIn = keys[pass & 1];
    push.keysOut = keys[(pass + 1) & 1];
    push.valsIn = values[pass & 1];
    push.valsOut = values[(pass + 1) & 1];
    push.shift = c.beginBit + pass * kRadixBits;
    push.pass = pass;
  };

  // Sorts sharing a scratch buffer may follow each other with no barrier of the caller's.
  computeBarrier(s.vk, cmd);
  stamps.write();
  for (const PlannedDispatch& d : plan.dispatches) {
    // The push constants of the dispatch's kernel (each kernel reads only its own).
    switch (d.role) {
      case kRoleSmall:  // the whole sort in one workgroup (small_sort.glsl)
        setPass(0);
        push.flags = baseFlags;
        break;
      case kRoleInit:
        push.pass = plan.smallKeys;  // init: counts up to it run as the one-workgroup sort
        break;
      case kRoleChained:  // histogram, scan and every pass in one dispatch (chained.glsl)
        setPass(0);
        push.status = a.scratch + layout.status[0];
        push.statusNext = a.scratch + layout.status[1];
        push.flags = baseFlags;
        break;
      case kRoleHistogram:
        push.keysIn = a.keys;
        if (t.algorithm == Algorithm::onesweep) {  // it clears the first dispatch's look-back words
          push.status = a.scratch + layout.status[0];
          push.flags = baseFlags | kFlagClearNext;
        }
        push.shift = c.beginBit;
        break;
      case kRoleScan:  // the shares it classes each pass by
        push.passShares = plan.passShares;
        break;
      case kRoleTileScan: break;
      case kRoleCopyBack:  // from the scratch copies to the caller's buffers
        push.keysIn = keys[1];
        push.keysOut = keys[0];
        push.valsIn = values[1];
        push.valsOut = values[0];
        push.flags =
            baseFlags | (pairs ? kFlagCopyValues : 0) | (kb == 8 ? kFlagKeys64 : 0) | (vb == 8 ? kFlagValues64 : 0);
        break;
      default:
        setPass(d.pass);
        if (t.algorithm != Algorithm::onesweep) {  // upsweep and downsweep: the tile table
          push.status = a.scratch + layout.table;
          push.flags = baseFlags;
          if (d.role < kRoleUpsweep) push.ticketCounter = d.pass;  // the downsweep's ticket counter
          break;
        }
        // Onesweep: this portion of the pass; look-back words in two regions used in turn.
        push.keysIn += VkDeviceSize(d.portion) * plan.portionKeys * kb;
        if (pairs) push.valsIn += VkDeviceSize(d.portion) * plan.portionKeys * vb;
        push.status = a.scratch + layout.status[d.dispatchIndex & 1];
        push.statusNext = a.scratch + layout.status[(d.dispatchIndex + 1) & 1];
        push.portionStart = d.portion * plan.portionKeys;
        push.ticketCounter = d.dispatchIndex;
        push.flags =
            baseFlags | (d.dispatchIndex + 1 < plan.passes * plan.portions ? kFlagClearNext : 0);  // not the last
        break;
    }
    if (d.barrierBefore) computeBarrier(s.vk, cmd);
    recordDispatch(s, cmd, info.scratch, layout, d, pipelines.byRole[d.role], push);
    if (d.barrierAfter != kBarrierNone) computeBarrier(s.vk, cmd, d.barrierAfter == kBarrierIndirect);
    if (d.timestampAfter) stamps.write();
    if (d.role >= kRoleBinning && t.algorithm == Algorithm::onesweep) push.portionStart = 0;
  }
  // Every stamp the profiled sort promises, after what ran: a query left unwritten would never
  // become available, and a caller waiting on it would wait forever.
  const uint32_t totalStamps = kFixedDispatches + 1 + binningDispatches(c);
  while (stamps.pool && stamps.next < info.firstTimestamp + totalStamps) stamps.write();
}

}  // namespace vksort::detail
