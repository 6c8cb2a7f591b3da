// The sorter's compute pipelines: one per kernel, and for the kernels that read keys one per key
// type (and value type), built from the SPIR-V embedded at build time and specialized with the
// tuning. No descriptor sets: one push-constant range (SortPush).
// Those every sort shares (and the u32 sorts of tier 0, so that a device that cannot build them
// fails at creation) are created with the sorter; the others when prepared (prepareSorts()) or
// on first use, under a lock, so that a sorter that never sorts doubles does not compile for them.
#pragma once
#include <atomic>
#include <mutex>

#include "status.hpp"
#include "shader_interface.h"
#include "tuning.hpp"
#include "variant.hpp"

namespace vksort::detail {

class Pipelines {
 public:
  // captureStatistics: print each pipeline's statistics (pipeline_statistics.hpp).
  Status create(const VolkDeviceTable& vk, VkDevice device, const Tuning& tuning, VkPipelineCache cache,
                const VkAllocationCallbacks* allocator, bool captureStatistics);
  // Destroys what create made; safe on a partly created set.
  void destroy();

  VkPipelineLayout layout() const { return layout_; }
  // Pipelines built so far (a test that prepared sorts record without building one reads it).
  uint32_t built() const { return built_.load(); }
  // The pipeline `key` names (variant.hpp's PipelineKey: kernel, types, tier, fitted tiles, digit
  // word), creating it on first use; any thread may call it.
  Status get(const PipelineKey& key, VkPipeline* out) const;

 private:
  Status build(const PipelineKey& key, VkPipeline* out) const;

  const VolkDeviceTable* vk_ = nullptr;
  VkDevice device_ = VK_NULL_HANDLE;
  Tuning tuning_{};
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  const VkAllocationCallbacks* allocator_ = nullptr;
  bool captureStatistics_ = false;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  mutable std::mutex mutex_;
  mutable std::atomic<uint32_t> built_{0};
  // [kernel][key type][value type][tier][fitted][digit word][skewed][permutation forms (get())];
  // unkeyed kernels use [0][0][0], the histogram [type][0][0].
  static constexpr uint32_t kTiers = kMaxTileTiers > kMaxSmallTiles ? kMaxTileTiers : kMaxSmallTiles;
  mutable VkPipeline pipelines_[kKernelCount][kKeyTypes][kValueTypes][kTiers][2][kDigitWords][2][4] = {};
};

}  // namespace vksort::detail
