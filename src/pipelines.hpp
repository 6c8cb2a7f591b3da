// The sorter's compute pipelines: one per kernel, built from the SPIR-V embedded at build time and
// specialized with the tuning. No descriptor sets: one push-constant range (SortPush).
#pragma once
#include "status.hpp"
#include "tuning.hpp"

namespace vksort::detail {

enum Kernel : uint32_t { kInit, kHistogram, kScan, kOnesweepKeys, kOnesweepPairs, kCopyBack, kKernelCount };

struct Pipelines {
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline[kKernelCount] = {};
};

Status createPipelines(const VolkDeviceTable& vk, VkDevice device, const Tuning& tuning, VkPipelineCache cache,
                       const VkAllocationCallbacks* allocator, Pipelines* out);

// Destroys what createPipelines made; safe on a partly created set.
void destroyPipelines(const VolkDeviceTable& vk, VkDevice device, const VkAllocationCallbacks* allocator,
                      Pipelines* pipelines);

}  // namespace vksort::detail
