// Records the dispatch sequence of one sort, with the barriers between its dispatches.
#pragma once
#include <vector>

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

// The word of 64-bit keys that holds a pass's digit (kDigit*Word), its bits above the range's end
// left out: the binning pipeline the pass runs. 32-bit keys: kDigitAnyWord.
uint32_t digitWordOf(const SortConfig& config, uint32_t pass);

// The pipelines of one sort, and its binning tile.
struct SortPipelines {
  VkPipeline init, histogram, scan, copyBack;
  // By the word of 64-bit keys that holds a pass's digits (digitWordOf); the words no pass uses,
  // and all of them in chained sorts, null.
  VkPipeline binning[kDigitWords];
  VkPipeline upsweep[kDigitWords];  // reduce-then-scan (binning: its downsweep)
  VkPipeline tileScan;
  VkPipeline small;              // the one-workgroup sort, where smallKeys is not 0
  VkPipeline chained;            // every pass in one dispatch (Tuning::chains), else null
  uint32_t smallKeys;            // counts it sorts: direct sorts up to it run in it alone
  uint32_t span;                 // keys the recording covers (an indirect sort's maxCount)
  TileShape tile;                // the tuning's tile for that span (Tuning::tileFor)
  uint32_t tileKeys;             // keys of the sort's binning tiles: tile.keys(), or for a direct
                                 // sort fewer, fitted to whole waves (binning then runs the
                                 // run-time tile pipeline)
};
// A pipeline a sort needs, and where it goes.
struct PipelineRequest {
  VkPipeline* slot;
  Kernel kernel;
  uint32_t keyType, valueType, tier;
  bool fitted;
  uint32_t digitWord;
};
// The pipelines a sort of `span` keys needs (no Vulkan call), with its tile in *out.
void planSortPipelines(const Tuning& tuning, const SortConfig& config, uint32_t span, bool indirect, SortPipelines* out,
                       std::vector<PipelineRequest>* requests);
// Gets (creating on first use) the pipelines a sort of `span` keys (an indirect sort's maxCount)
// needs; fails only if Vulkan does.
Status getSortPipelines(const Sorter_T& sorter, const SortConfig& config, uint32_t span, bool indirect,
                        SortPipelines* out);

// Records a sort: barrier, init, histogram, scan, one binning pass per digit (Onesweep: one
// dispatch per portion of the count; reduce-then-scan: upsweep, tile scan, downsweep), and a
// copy-back after an odd number of passes; or, up to the tuning's small-sort size, one
// dispatch (indirect sorts record both, and the GPU's count picks). When asked, a timestamp
// before the first dispatch and after init, histogram, scan, each pass and the copy-back (the
// small path writes them all at its end). info.count is at least 1; arguments are checked.
void recordSort(const Sorter_T& sorter, VkCommandBuffer cmd, const SortInfo& info, const SortAddresses& addresses,
                const SortPipelines& pipelines);

}  // namespace vksort::detail
