// Records the dispatch sequence of one sort, with the barriers between its dispatches.
#pragma once
#include "sorter_state.hpp"

namespace vksort::detail {

struct SortAddresses {
  VkDeviceAddress keys;
  VkDeviceAddress values;   // 0 for keys alone
  VkDeviceAddress scratch;  // start of the scratch range
  VkDeviceAddress count;    // indirect sorts: the caller's u32 count; else 0
};

// Dispatches before the binning passes: init, histogram, scan.
constexpr uint32_t kFixedDispatches = 3;

// Binning passes of a sort: one per 8-bit digit of its bit range.
uint32_t passCount(const SortConfig& config);

// Dispatches of a sort after the fixed ones: the passes, and a copy-back after an odd number.
uint32_t binningDispatches(const SortConfig& config);

// Records: barrier, init, histogram, scan, one binning pass per digit, and a copy-back after an
// odd number of passes (and, when asked, a timestamp before and after each). info.count is at least 1; the arguments are already checked.
void recordOnesweepSort(const Sorter_T& sorter, VkCommandBuffer cmd, const SortInfo& info,
                        const SortAddresses& addresses);

}  // namespace vksort::detail
