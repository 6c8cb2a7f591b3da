// The sorter's compute pipelines: one per kernel, built from the SPIR-V embedded at build time and
// specialized with the tuning. No descriptor sets: one push-constant range (SortPush).
#pragma once
#include "status.hpp"
#include "shader_interface.h"
#include "tuning.hpp"

namespace vksort::detail {

enum Kernel : uint32_t { kInit, kScan, kCopyBack, kHistogram, kOnesweepKeys, kOnesweepPairs, kKernelCount };

// Kernels from kHistogram on read keys: one pipeline each per key type and order.
constexpr uint32_t kFirstKeyedKernel = kHistogram;
constexpr uint32_t kKeyVariants = kKeyTypes * 2;  // x {ascending, descending}

struct Pipelines {
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline[kKernelCount][kKeyVariants] = {};  // unkeyed kernels: variant 0 only
};

// The variant index of a key type (kKey*) and order.
inline uint32_t keyVariant(uint32_t keyType, bool descending) { return keyType * 2 + (descending ? 1 : 0); }

Status createPipelines(const VolkDeviceTable& vk, VkDevice device, const Tuning& tuning, VkPipelineCache cache,
                       const VkAllocationCallbacks* allocator, Pipelines* out);

// Destroys what createPipelines made; safe on a partly created set.
void destroyPipelines(const VolkDeviceTable& vk, VkDevice device, const VkAllocationCallbacks* allocator,
                      Pipelines* pipelines);

}  // namespace vksort::detail
