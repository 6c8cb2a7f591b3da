// The sorter's compute pipelines: one per kernel, and for the kernels that read keys one per key
// type (and value type), built from the SPIR-V embedded at build time and specialized with the
// tuning. No descriptor sets: one push-constant range (SortPush).
// Those every sort shares (and the u32 sorts of tier 0, so that a device that cannot build them
// fails at creation) are created with the sorter; the others when prepared (prepareSorts()) or
// on first use, under a lock, so that a sorter that never sorts doubles does not compile for them.
#pragma once
#include <atomic>
#include <mutex>
#include <string>

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
  // The pipeline of `kernel` for a key type (kKey*) and value type (ValueType), creating it on
  // first use; any thread may call it. `tier`: the tile kernels' shape, Tuning::tiers[tier]
  // (binning, upsweep, downsweep) or Tuning::smallTiles[tier] (the small sort). `fitted`: the
  // binning kernel for tiles of a run-time length (onesweep_fitted*.comp: tiles fitted to whole
  // waves), a pipeline of its own, since that form costs where tiles are whole. `digitWord`: the
  // word of 64-bit keys that holds the pass's digits (kDigit*Word), for binning, upsweep and
  // downsweep.
  Status get(Kernel kernel, uint32_t keyType, uint32_t valueType, VkPipeline* out, uint32_t tier = 0,
             bool fitted = false, uint32_t digitWord = kDigitAnyWord) const;

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
  // [kernel][key type][value type][tier][fitted][digit word]; unkeyed kernels use [0][0][0], the
  // histogram [type][0][0].
  static constexpr uint32_t kTiers = kMaxTileTiers > kMaxSmallTiles ? kMaxTileTiers : kMaxSmallTiles;
  mutable VkPipeline pipelines_[kKernelCount][kKeyTypes][kValueTypes][kTiers][2][kDigitWords] = {};
};

// A pipeline's module and the values of the specialization constants it declares, as text (for
// tests that compare what the tuning builds).
std::string pipelineSignature(const Tuning& tuning, Kernel kernel, uint32_t keyType, uint32_t valueType, uint32_t tier,
                              bool fitted, uint32_t digitWord);

}  // namespace vksort::detail
