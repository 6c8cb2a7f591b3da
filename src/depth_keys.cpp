// recordDepthKeys(): f32 depths to short keys over their range, found on the GPU
// (glsl/depth_keys.glsl: the two kernels and the quantization).
#include <algorithm>

#include "arguments.hpp"
#include "shader_interface.h"
#include "variant.hpp"

namespace vksort {
using namespace detail;

static_assert(kDepthKeysScratchBytes == 2 * 4 * kDepthKeysMaxGroups, "a (min, max) pair per workgroup");

namespace {

// Workgroups of both dispatches: enough for the device to stream the depths (16 blocks of
// kDepthKeysWorkgroup a workgroup), no more than the scratch has ranges for.
uint32_t depthGroups(uint32_t count) {
  const uint64_t perGroup = kDepthKeysWorkgroup * 16;
  return uint32_t(std::clamp<uint64_t>((count + perGroup - 1) / perGroup, 1, kDepthKeysMaxGroups));
}

}  // namespace

Status recordDepthKeys(Sorter s, VkCommandBuffer cmd, const DepthKeysInfo& info) {
  if (!s) return fail(Result::errorInvalidArgument, "sorter is null");
  if (!cmd) return fail(Result::errorInvalidArgument, "commandBuffer is VK_NULL_HANDLE");
  if (info.bits < 1 || info.bits > 24)
    return fail(Result::errorInvalidArgument, "bits %u: depth keys take 1 to 24 bits (a float resolves no finer)",
                info.bits);
  if (uint32_t(info.order) > uint32_t(SortOrder::descending))
    return fail(Result::errorInvalidArgument, "unsupported sort order %u", unsigned(info.order));
  const bool indirect = info.countBuffer.buffer != VK_NULL_HANDLE;
  if (indirect)
    if (Status st = checkRange(info.countBuffer, "countBuffer", 4, 4); !st) return st;
  if (!indirect && info.count > info.maxCount)
    return fail(Result::errorInvalidArgument, "count %u exceeds maxCount %u", info.count, info.maxCount);
  if (!indirect && info.count == 0) return {};  // records nothing, so no range need be given
  const uint32_t span = indirect ? info.maxCount : info.count;
  if (Status st = checkRange(info.depths, "depths", VkDeviceSize(span) * 4, 4); !st) return st;
  if (Status st = checkRange(info.scratch, "scratch", kDepthKeysScratchBytes, 4); !st) return st;
  if (Status st = checkDisjoint({{"depths", &info.depths, VkDeviceSize(span) * 4},
                                 {"scratch", &info.scratch, kDepthKeysScratchBytes},
                                 {"countBuffer", indirect ? &info.countBuffer : nullptr, 4}});
      !st)
    return st;
  if (span == 0) return {};
  const VkDeviceAddress depths = addressOf(*s, info.depths);
  if (depths % 4 != 0)
    return fail(Result::errorInvalidArgument,
                "the depths' device address is not a multiple of 4: bind the buffer's "
                "memory at an aligned offset");
  VkPipeline range = VK_NULL_HANDLE, keys = VK_NULL_HANDLE;
  if (Status st = s->pipelines.get({kDepthRange, 0, 0, 0, false, kDigitAnyWord, false}, &range); !st) return st;
  if (Status st = s->pipelines.get({kDepthKeys, 0, 0, 0, false, kDigitAnyWord, false}, &keys); !st) return st;

  SortPush push{};
  push.keysIn = push.keysOut = depths;
  push.header = addressOf(*s, info.scratch);
  push.countIn = indirect ? addressOf(*s, info.countBuffer) : 0;
  push.count = info.count;
  push.maxCount = info.maxCount;
  push.shift = info.bits;
  push.flags = (indirect ? kFlagIndirectCount : 0) | (info.order == SortOrder::descending ? kFlagDescending : 0);
  const uint32_t groups = depthGroups(span);  // both kernels' (depth_keys.glsl reads gl_NumWorkGroups)
  const VolkDeviceTable& vk = s->vk;
  const VkPipelineLayout layout = s->pipelines.layout();
  vk.vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
  vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, range);
  vk.vkCmdDispatch(cmd, groups, 1, 1);
  // Every workgroup's range, written, before any workgroup reads them all.
  auto barrier = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
  vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                          &barrier, 0, nullptr, 0, nullptr);
  vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, keys);
  vk.vkCmdDispatch(cmd, groups, 1, 1);
  return {};
}

}  // namespace vksort
