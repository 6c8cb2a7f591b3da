// Tuning: the shape of every kernel, chosen per device as plain data when a sorter is created.
#pragma once
#include <cstdint>
#include <tuple>

#include "device_caps.hpp"

namespace vksort::detail {

// A binning tile: workgroupSize * keysPerInvocation keys, going through shared memory in
// reorderRounds parts (binning.glsl: a tile larger than shared memory holds).
struct TileShape {
  uint32_t workgroupSize;
  uint32_t keysPerInvocation;
  uint32_t reorderRounds;  // divides keysPerInvocation
  bool prefetchPairs = false;  // Onesweep pairs: values and the next tile's keys touched into L2
                               // early (onesweep.glsl's PREFETCH_PAIRS; with persistentTiles)
  bool bitonic = false;        // one-workgroup sorts: a bitonic network (small_bitonic.glsl), not
                               // radix passes (small_sort.glsl); keys() a power of two
  bool ridersAlongside = false;  // radix one-workgroup sorts of pairs: shared memory holds what
                                 // rides with each key (value or source) next to the keys
                                 // (small_sort.glsl)
  uint32_t fitPercent = 0;  // Onesweep binning tiles of direct sorts: keys per invocation cut
                            // so that the tiles fill whole waves, where that leaves at most
                            // this share of them (Tuning::fittedTileKeys; 0: never). For
                            // shapes that run one workgroup per SM; set only with Onesweep,
                            // ballot ranking and a known waveWorkgroups.
  uint32_t hotDigitFrom = 0;  // Onesweep binning: where a pass's most frequent digit holds
  uint32_t hotDigitTo = 100;  // from .. to percent of its keys, its keys are counted a subgroup
                              // at a time (onesweep.glsl, HOT_DIGIT_FROM; 0: never)
  uint32_t lookbackWindow = 1;  // Onesweep binning: predecessors the look-back reads at once
  bool lookbackPlainLoads = false;  // and reads them with plain loads, not atomics (the device's
                                    // choice, unless a tier says otherwise for the class)
  bool ridingValues = false;    // pairs with 32-bit values in one round: values load with
                                // their keys and wait in registers (binning.glsl's
                                // RIDING_VALUES), not at the value scatter
  bool rankFirst = false;       // Onesweep binning, ranking by atomics: keys ranked before the
                                // row sums, with no count of their own (binning.glsl's RANK_FIRST)
  bool persistentTiles = false; // binning: workgroups take tiles while tickets last
                                // (tile_tickets.glsl; the device's persistentTiles, unless an
                                // Onesweep tier turns it off for the class)
  uint32_t keys() const { return workgroupSize * keysPerInvocation; }
  // Every field above (a new field goes here too): tiers with equal shapes share pipelines.
  bool operator==(const TileShape& o) const {
    auto fields = [](const TileShape& s) {
      return std::tie(s.workgroupSize, s.keysPerInvocation, s.reorderRounds, s.prefetchPairs, s.bitonic,
                      s.ridersAlongside, s.fitPercent, s.hotDigitFrom, s.hotDigitTo, s.lookbackWindow,
                      s.lookbackPlainLoads, s.ridingValues, s.rankFirst, s.persistentTiles);
    };
    return fields(*this) == fields(o);
  }
};

// Binning tiles for sorts of at least `from` keys (an indirect sort's maxCount), per tile class
// (tileClass()): shape[0] 32-bit keys with 32-bit values, shape[1] pairs with 64-bit keys or
// values, shape[2] 32-bit keys alone, shape[3] 64-bit keys alone. Small tiles keep many
// workgroups busy on smaller sorts; large ones cut per-tile work on larger ones.
constexpr uint32_t kTileClasses = 4;
struct BinningTier {
  uint32_t from;
  TileShape shape[kTileClasses];
};
// (kMaxTileTiers: vksort.hpp)
// One-workgroup sorts: shapes of growing tiles (up to half of them bitonic networks, then radix
// tiles); a sort runs in the smallest that holds it.
constexpr uint32_t kMaxSmallTiles = 8;

struct Tuning {
  uint32_t subgroupSize;               // the size the kernels are built for
  bool requireSubgroupSize;            // pipelines require it, with full subgroups
  uint32_t minSubgroupSize;            // smallest size they may run with: sizes per-subgroup arrays
  uint32_t workgroupSize;              // scan workgroups, and the first tier's binning tiles'
  BinningTier tiers[kMaxTileTiers];    // ascending `from`; tiers[0].from is 0
  uint32_t tierCount;
  uint32_t histogramWorkgroupSize;
  uint32_t histogramTilesPerWorkgroup; // binning tiles one histogram workgroup reads at most,
  uint32_t histogramMinWorkgroups;     // and fewer where that leaves fewer workgroups than this
  bool partitionedRanking;             // subgroupPartitionNV rather than eight ballots per key
  bool atomicRanking;                  // one shared atomic per key rather than ballots: where a
                                       // subgroup's atomics on one word apply in lane order
                                       // (binning.glsl's ATOMIC_RANKING)
  bool lookbackPlainStores;            // look-back publishes status words with stores, not atomics
                                       // (how it reads them: TileShape::lookbackPlainLoads)
  bool patientWaits;                   // spins re-read in straight-line code each turn
                                       // (patient_wait.glsl: llvmpipe's loop limiter)
  bool persistentTiles;                // binning workgroups take tiles while tickets last (each
                                       // shape's TileShape::persistentTiles says where)
  uint32_t ballotWords;                // 32-bit words of a ballot the largest subgroup needs
  uint32_t histogramCopies;            // copies of the histogram kernel's shared counters
  bool hotDigitWithValues;             // TileShape::hotDigitFrom applies to pairs too, not only
                                       // to keys alone
  uint32_t portionTiles;               // 0: portions as large as look-back values allow; else
                                       // tiles per portion (to test portions on small sorts)
  uint32_t wideAddressesFrom;          // counts from which scatters always compute 64-bit
                                       // addresses (they do past 2^31 bytes in any case)
  Algorithm algorithm;                 // onesweep or reduceThenScan (never automatic)
  TileShape smallTiles[kMaxSmallTiles][2];  // the one-workgroup sort's tiles per width as above
  uint32_t smallTileCount[2];          // (bitonic ones, then radix ones of one round; growing
                                       // keys); per width
  uint32_t smallSortKeys[2];           // sorts of up to this many keys run in one workgroup
  uint32_t bitonicKeysPerPass;         // a bitonic tile takes sorts of up to this many keys per pass
  uint32_t waveWorkgroups;             // workgroups of a fitted shape (fitPercent) the device
                                       // runs at once (one per SM); 0: unknown, none is fitted
  uint32_t chainedUpTo;                // direct Onesweep sorts of up to this many 32-bit keys (half
                                       // as many 64-bit ones), past the one-workgroup sort's, run
                                       // every pass in one dispatch (chained.glsl), where chains()
                                       // allows; 0: none

  // The binning tier of a sort of `span` keys (an indirect sort's maxCount), and its tile of
  // tile class `cls`.
  uint32_t tierOf(uint32_t span) const {
    uint32_t i = 0;
    while (i + 1 < tierCount && span >= tiers[i + 1].from) ++i;
    return i;
  }
  const TileShape& tileFor(uint32_t cls, uint32_t span) const { return tiers[tierOf(span)].shape[cls]; }
  // The one-workgroup tile of a sort of `span` keys (at most smallSortKeys[words - 1]) in
  // `passes` passes: the smallest that holds them, a bitonic network only where its keys are at
  // most bitonicKeysPerPass per pass (a network's cost does not shrink with the bit range).
  uint32_t smallTileOf(uint32_t words, uint32_t span, uint32_t passes) const {
    auto takes = [&](const TileShape& s) {
      return s.keys() >= span && (!s.bitonic || s.keys() <= uint64_t(bitonicKeysPerPass) * passes);
    };
    uint32_t i = 0;
    while (i + 1 < smallTileCount[words - 1] && !takes(smallTiles[i][words - 1])) ++i;
    return i;
  }
  // Whether a binning pipeline of `shape` ranks by atomics (binning.glsl's ATOMIC_RANKING): where
  // the device does, except pairs in tiles of several rounds that count first (H100: pairs64v32 in
  // 768 x 12 lost 3.5% at 2^26 and 9% at 2^28 with it, where keys64 in 768 x 14 gained 10%).
  bool ranksByAtomics(const TileShape& shape, bool keysAlone) const {
    return atomicRanking && (keysAlone || shape.reorderRounds == 1 || shape.rankFirst);
  }
  // Whether Onesweep's direct sorts in `shape` fit their tiles to whole waves (fittedTileKeys()).
  bool fitsWaves(const TileShape& shape) const { return shape.fitPercent != 0 && waveWorkgroups != 0; }
  // Keys of a full portion of tiles of `tileKeys`: a whole number of tiles, at most kMaxPortionKeys.
  uint32_t portionKeys(uint32_t tileKeys) const;
  // The binning tile of a direct Onesweep sort of `count` keys in `shape`: the fewest keys per
  // invocation whose tiles fill as many whole waves of waveWorkgroups as the shape's own tiles do
  // (a pass over few waves costs whole waves: each workgroup takes tiles while tickets last),
  // where that is at most shape.fitPercent of them; else shape.keys().
  uint32_t fittedTileKeys(const TileShape& shape, uint32_t count) const;
  // Whether a direct sort of `count` keys (more than the one-workgroup sort takes) with `config`
  // runs chained: Onesweep, up to chainedUpTo keys (64-bit: half), in one portion of its tier's tile, which goes
  // through shared memory in one round and whose reorder area holds a full key's passes of
  // histogram counters (chained.glsl counts there).
  bool chains(const SortConfig& config, uint32_t count) const;
};

// 32-bit words of the widest element of a config (the binning tile's shared-memory width).
inline uint32_t elementWords(const SortConfig& c) {
  return (keyBytes(c.keyType) > 4 || valueBytes(c.valueType) > 4) ? 2 : 1;
}

// A config's binning tile class: BinningTier::shape's index.
inline uint32_t tileClass(const SortConfig& c) {
  const bool alone = c.valueType == ValueType::none;
  return elementWords(c) == 2 ? (alone ? 3 : 1) : alone ? 2 : 0;
}
// 32-bit words of a tile class's elements.
inline uint32_t classWords(uint32_t cls) { return cls == 1 || cls == 3 ? 2 : 1; }
// Whether a tile class's sorts have no values.
inline bool classKeysAlone(uint32_t cls) { return cls >= 2; }

// Shared memory of the binning kernel with tile `shape` for elements of `words`; mirrors
// binning.glsl's declarations.
uint32_t binningSharedBytes(const Tuning& t, const TileShape& shape, uint32_t words, bool keysAlone);

// Whether the device's driver is known to keep started workgroups running while another waits
// on them (Onesweep's look-back needs it): the table in tuning.cpp.
bool trustsForwardProgress(const DeviceCaps& caps);

// The tuning for a device: a preferred shape per vendor, fitted to the device's limits, and the
// algorithm: `requested`, or for automatic, Onesweep where trustsForwardProgress().
// For measurements, the environment variable VKSORT_TUNING overrides the preferred shape, e.g.
// "workgroup=384,keys=20,wide_keys=10,rounds=2,wide_rounds=1" (the first tier's tiles),
// "tiers=3,tier1_from=131072,tier1_workgroup=512,tier1_keys=4,tier1_rounds=1,tier1_wide_workgroup=512,
// tier1_wide_keys=4,tier1_wide_rounds=1,tier1_prefetch=0,tier1_wide_prefetch=0,tier1_alone_workgroup=512,
// tier1_alone_keys=18,tier1_alone_rounds=1,tier1_wide_alone_keys=12,tier2_from=..." (tiers 1-6;
// "tiers=1" drops the others; wide: pairs with 64-bit keys or values; alone: 32-bit keys without
// values, by default the tier's 32-bit shape; wide_alone: 64-bit keys without values, by default
// the tier's wide shape),
// "tier3_fit=1,wave_workgroups=132,fit_percent=78,fit_percent_pairs=100,tier4_fit_percent_wide_alone=0"
// (the tier's tiles fitted to whole waves of that many workgroups, by default the device's SM
// count, where that cuts them to at most that share: fit_percent for every tile class, then
// fit_percent_pairs / _wide / _alone / _wide_alone for 32-bit pairs, pairs with 64-bit elements,
// 32-bit keys alone, 64-bit keys alone; a tier's own per class, 0: not fitted),
// "rank_first=1,tier5_rank_first_wide=0" (then _pairs / _wide / _alone / _wide_alone:
// TileShape::rankFirst; a tier's own per class),
// "hot_digit_from=25,hot_digit_to=100,hot_digit_pairs=1" (every tile class; then _pairs / _wide /
// _alone / _wide_alone as above; pairs: whether pairs count hot digits too),
// "histogram_tiles=8,histogram_min_groups=256,histogram_copies=4,histogram_workgroup=128,
// partitioned=0,plain_loads=1,plain_stores=1,lookback_window=4 (then _pairs / _wide / _alone /
// _wide_alone), tier5_lookback_window_wide_alone=2,tier5_plain_loads_pairs=0 (a tier's own, per
// tile class),
// persistent=0,riding_values=1,subgroup=32,small_keys=4096,
// small_kpi=4,small_tiles=3,small_workgroup=1024,bitonic_keys_per_pass=256,bitonic_kpi=4,bitonic_workgroup=256,
// algorithm=2" (any subset; radix small tile i has small_kpi << i keys per invocation, bitonic
// tiles bitonic_kpi keys and workgroups doubling from bitonic_workgroup, up to
// bitonic_keys_per_pass times the passes of a full key);
// algorithm overrides the caller's choice: 1 Onesweep, 2 reduce-then-scan); the fitting still
// applies. Tests also set "portion_tiles=N" and
// "wide_from=N" to run the large-count paths on small sorts.
Tuning chooseTuning(const DeviceCaps& caps, Algorithm requested);

}  // namespace vksort::detail
