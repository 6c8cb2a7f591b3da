// What a sorter holds: immutable after createSorter, so any thread may record with it.
#pragma once
#include "device_caps.hpp"
#include "for_tuner.hpp"
#include "pipelines.hpp"
#include "tuning.hpp"

struct vksort::Sorter_T {
  VkDevice device = VK_NULL_HANDLE;
  VolkDeviceTable vk{};
  const VkAllocationCallbacks* allocator = nullptr;
  VkAllocationCallbacks allocatorCopy{};  // allocator points here when the caller gave one
  detail::DeviceCaps caps;
  detail::Tuning tuning{};
  detail::Pipelines pipelines;
  bool tuned = false;  // tuning data (or the tuner's candidate) is in use
};

namespace vksort::detail {
// createSorter() with `tuned` tiles in place of the create info's tuning data (null: that data).
VKSORT_FOR_TUNER Status createSorterTuned(const SorterCreateInfo& createInfo, const TunedTiles* tuned, Sorter* pSorter);
}  // namespace vksort::detail
