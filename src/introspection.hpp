// What a sorter chose inside, for the tests and the benchmark that look inside (not installed):
// the tiles of its tiers and its kernels' choices. Callers get SorterProperties and describeSort().
#pragma once
#include <cstdint>

#include "vksort/vksort.hpp"

namespace vksort::detail {

// Binning tiles of sorts of at least fromCount keys (an indirect sort's maxCount).
struct TierTiles {
  uint32_t fromCount;
  uint32_t tileKeys;               // 32-bit keys with 32-bit values
  uint32_t wideTileKeys;           // pairs whose keys or values are 64-bit
  uint32_t keysAloneTileKeys;      // 32-bit keys without values
  uint32_t wideKeysAloneTileKeys;  // 64-bit keys without values
  bool fittedToWaves;              // direct Onesweep sorts cut these tiles to fill whole waves
};

struct SorterInternals {
  uint32_t subgroupSize;
  bool requiredSubgroupSize;
  uint32_t workgroupSize;  // tier 0's binning workgroup (and the scans')
  uint32_t tileKeys;       // tier 0's tile, 32-bit keys and values
  uint32_t wideTileKeys;   // the same when keys or values are 64-bit
  uint32_t maxCount;
  Algorithm algorithm;
  uint32_t smallSortMaxKeys;      // sorts of up to this many keys run in one dispatch (0: none),
  uint32_t smallSortWideMaxKeys;  //   and when keys or values are 64-bit
  uint32_t tileTierCount;
  TierTiles tileTiers[10];
  uint32_t waveWorkgroups;  // where a tier's tiles are fitted: the workgroups of a wave; else 0
  uint32_t chainedMaxKeys;  // direct Onesweep sorts up to this many 32-bit keys run chained
  bool atomicRanking;       // Tuning::ranking is atomics
  uint32_t pipelinesBuilt;  // pipelines the sorter has built so far
};

SorterInternals sorterInternals(Sorter sorter);

// Where the parts of a sort's scratch lie (byte offsets in its scratch range) and how its plan
// tiles it: for tests that read what a sort left there.
struct SortScratch {
  uint64_t status[2];  // Onesweep: the look-back words of even and odd binning dispatches
  uint64_t table;      // reduce-then-scan: the tile table [digit][tile]
  uint64_t keysAlt, valuesAlt;
  uint32_t tileKeys;  // keys of a binning tile
  uint32_t portionKeys, portions;
  uint32_t passes;
  bool chained;         // every pass in one dispatch (look-back regions by pass)
  uint32_t skewedFrom;  // passes choose their binning kernel on the GPU (SortPlan::skewedFrom)
};
SortScratch sortScratch(Sorter sorter, const SortConfig& config, uint32_t count, uint32_t maxCount, bool indirect);

}  // namespace vksort::detail
