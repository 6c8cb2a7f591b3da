// Records the dispatch sequence of one sort, with the barriers between its dispatches.
#pragma once
#include "sorter_state.hpp"

namespace vksort::detail {

struct SortAddresses {
  VkDeviceAddress keys;
  VkDeviceAddress values;   // 0 for keys alone
  VkDeviceAddress scratch;  // start of the scratch range
};

// Records: barrier, init, histogram, scan, then one binning pass per digit. `count` is at least 1
// and the arguments are already checked.
void recordOnesweepSort(const Sorter_T& sorter, VkCommandBuffer cmd, const SortConfig& config, uint32_t count,
                        uint32_t maxCount, const SortAddresses& addresses);

}  // namespace vksort::detail
