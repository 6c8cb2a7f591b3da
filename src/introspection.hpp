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
  uint32_t workgroupSize;          // tier 0's binning workgroup (and the scans')
  uint32_t tileKeys;               // tier 0's tile, 32-bit keys and values
  uint32_t wideTileKeys;           // the same when keys or values are 64-bit
  uint32_t maxCount;
  bool partitionedRanking;
  Algorithm algorithm;
  uint32_t smallSortMaxKeys;       // sorts of up to this many keys run in one dispatch (0: none),
  uint32_t smallSortWideMaxKeys;   //   and when keys or values are 64-bit
  uint32_t tileTierCount;
  TierTiles tileTiers[9];
  uint32_t waveWorkgroups;         // where a tier's tiles are fitted: the workgroups of a wave; else 0
  uint32_t chainedMaxKeys;         // direct Onesweep sorts up to this many 32-bit keys run chained
  bool atomicRanking;
  uint32_t pipelinesBuilt;         // pipelines the sorter has built so far
};

SorterInternals sorterInternals(Sorter sorter);

}  // namespace vksort::detail
