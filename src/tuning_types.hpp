// Tuning's data: binning tiles, the vendors' tables, tuned tiles, and a device's tuning (the
// tables fitted to its limits). Plain types, no decisions: tuning.hpp chooses them,
// tuning_override.hpp and tuning_data.hpp edit and store them.
#pragma once
#include <cstdint>
#include <optional>
#include <tuple>

#include "device_caps.hpp"
#include "shader_interface.h"

namespace vksort::detail {

// Tiers at most: the union of a vendor's row starts over its tile classes.
constexpr uint32_t kMaxTileTiers = 10;
// Tiles tuning data may replace: every tier's of every class.
constexpr uint32_t kTileClassCount = 4;
constexpr uint32_t kMaxTunedTiles = kMaxTileTiers * kTileClassCount;

// A binning tile: workgroupSize * keysPerInvocation keys, going through shared memory in
// reorderRounds parts, with the choices of how its kernel runs. Glossary: docs/ARCHITECTURE.md.
// Every field of a tile, once, in order: X(type, name, override stem). The struct below, its
// fields() (equality; tuning data stores a shape as these, tuning_data.cpp), the golden printer,
// the tuner's table rows and the per-class names of the tuning override (stem, e.g.
// "lookback_window_pairs"; none: not overridden per class) all expand it: a new field is one line.
//   workgroupSize, keysPerInvocation: the tile
//   reorderRounds: divides keysPerInvocation; > 1: a tile larger than shared memory holds
//   fitPercent: direct Onesweep sorts cut keys per invocation so that the tiles fill whole waves,
//     where that leaves at most this share (0: never)
//   hotDigitFrom, hotDigitTo: a pass's most frequent digit on from .. to percent of its keys is
//     counted a subgroup at a time (Onesweep; hotDigitFrom 0: never)
//   hotRankTo: and, up to this share, ranked a step at a time (atomic ranking; 0: never)
//   lookbackWindow: predecessors the look-back reads at once (1-16)
//   lookbackPlainLoads: it reads them with plain loads, not atomics
//   rankFirst: ranking by atomics before the row sums, with no count of its own
//   persistentTiles: workgroups take tiles while tickets last
//   prefetchPairs: persistent pairs touch their values and the next tile into L2
//   ridingValues: 32-bit values load with their keys and wait in registers
//   skewedFrom: Onesweep: a pass whose most frequent digit holds at least this percent of its keys
//     runs the tile's skewed form (skewedForm(); 0: never), chosen on the GPU by the scan
#define VKSORT_TILE_SHAPE_FIELDS(X)              \
  X(uint32_t, workgroupSize, nullptr)            \
  X(uint32_t, keysPerInvocation, nullptr)        \
  X(uint32_t, reorderRounds, nullptr)            \
  X(uint32_t, fitPercent, "fit_percent")         \
  X(uint32_t, hotDigitFrom, "hot_digit_from")    \
  X(uint32_t, hotDigitTo, "hot_digit_to")        \
  X(uint32_t, hotRankTo, "hot_rank_to")          \
  X(uint32_t, lookbackWindow, "lookback_window") \
  X(bool, lookbackPlainLoads, "plain_loads")     \
  X(bool, rankFirst, "rank_first")               \
  X(bool, persistentTiles, "persistent")         \
  X(bool, prefetchPairs, nullptr)                \
  X(bool, ridingValues, nullptr)                 \
  X(uint32_t, skewedFrom, "skewed_from")

struct TileShape {
#define VKSORT_TILE_MEMBER(type, name, stem) type name;
  VKSORT_TILE_SHAPE_FIELDS(VKSORT_TILE_MEMBER)
#undef VKSORT_TILE_MEMBER
  uint32_t keys() const { return workgroupSize * keysPerInvocation; }
  // The form a skewed pass runs: ranked first, so that the ranking's atomics are its count, and
  // the hot digit ranked a step at a time as far as it is counted so (a step's lanes of that
  // digit take their places by one atomic instead of one each on one word).
  TileShape skewedForm() const {
    TileShape c = *this;
    c.rankFirst = true;
    c.hotRankTo = hotDigitTo;
    c.skewedFrom = 0;
    return c;
  }
  // The form the tile's own kernel runs (skewedFrom only chooses between the two).
  TileShape plainForm() const {
    TileShape c = *this;
    c.skewedFrom = 0;
    return c;
  }
  // Every field, in order (VKSORT_TILE_SHAPE_FIELDS): tiers with equal shapes share pipelines,
  // and tuning data stores a shape as these (tuning_data.cpp).
  template <class Shape>
  static auto fields(Shape& s) {
#define VKSORT_TILE_TIE(type, name, stem) std::tie(s.name),
    return std::tuple_cat(VKSORT_TILE_SHAPE_FIELDS(VKSORT_TILE_TIE) std::tuple<>());
#undef VKSORT_TILE_TIE
  }
  bool operator==(const TileShape& o) const { return fields(*this) == fields(o); }
};

// A tile of the one-workgroup sort (small_sort.glsl, small_bitonic.glsl).
struct SmallTile {
  uint32_t workgroupSize;
  uint32_t keysPerInvocation;
  bool bitonic;          // a bitonic network, not radix passes; keys() a power of two
  bool ridersAlongside;  // radix tiles of pairs: shared memory holds what rides with each key
                         // (value or source) next to the keys
  uint32_t keys() const { return workgroupSize * keysPerInvocation; }
};

// Tile classes: a config's binning tiles by element width and whether values come along.
enum TileClass : uint32_t {
  kPairs32 = 0,    // 32-bit keys with 32-bit values
  kPairsWide = 1,  // pairs with 64-bit keys or values
  kAlone32 = 2,    // 32-bit keys alone
  kAloneWide = 3,  // 64-bit keys alone
  kTileClasses = kTileClassCount
};

// One row of a vendor's table: the tile of sorts of at least fromCount keys (an indirect sort's
// maxCount), up to the next row's.
struct TileRow {
  uint32_t fromCount;
  TileShape shape;
  const char* why;  // the mechanism that makes it win, and the log entry that measured it
};
// A tile class's rows, ascending; the first from 0.
struct TileTable {
  const TileRow* rows;
  uint32_t count;
};
template <uint32_t N>
constexpr TileTable tableOf(const TileRow (&rows)[N]) {
  return {rows, N};
}

// How a binning kernel ranks a key among its subgroup's keys of the same digit (shader_interface.h's
// kRanking*: specialization constant RANKING). A device's tables choose ballots, partitioned or
// atomics (VendorTuning::ranking, where the device allows it: chooseTuning()); a tile ranks first
// where its rankFirst asks and the device ranks by atomics (decideVariant()).
enum class Ranking : uint32_t {
  ballots = kRankingBallots,                    // eight ballots per key (subgroup_rank.glsl): any device
  partitioned = kRankingPartitioned,            // subgroupPartitionNV
  atomics = kRankingAtomics,                    // one shared atomic per key, counted first (binning_rank_atomics.glsl)
  atomicsRankFirst = kRankingAtomicsRankFirst,  // one shared atomic per key before the row sums, which it counts too
};

// What a vendor asks for: device-wide choices and a table per algorithm and tile class.
struct VendorTuning {
  const char* name;
  std::optional<uint32_t> subgroupSize;  // none: the device's own
  uint32_t histogramWorkgroupSize;       // 0: the scan's (tier 0's pairs32 workgroup)
  uint32_t histogramTilesPerWorkgroup;   // binning tiles one histogram workgroup reads at most,
  uint32_t histogramMinWorkgroups;       // and fewer where that leaves fewer workgroups than this
  uint32_t histogramCopies;              // copies of the histogram's shared counters
  Ranking ranking;                       // ballots (any device), partitioned (subgroupPartitionNV,
                                         // where the device has it) or atomics (one shared atomic
                                         // per key: where a subgroup's atomics on one word apply
                                         // in lane order, binning_rank_atomics.glsl)
  bool lookbackPlainStores;              // look-back status words published with plain stores
  std::optional<bool> patientWaits;      // none: where the driver limits loop turns (llvmpipe)
  uint32_t lookbackWait;                 // spin turns on a predecessor before the look-back counts
                                         // its tile itself (lookback.glsl); 0: at once;
                                         // kLookbackNeverFallsBack: none compiled
  bool onesweepMeasured;                 // Onesweep measured faster than reduce-then-scan on this
                                         // vendor's GPUs: tuneSorts() does not compare them again
  uint32_t chainedUpTo;                  // direct Onesweep sorts up to this many 32-bit keys run
                                         // in one dispatch (chained.glsl); 0: none
  uint32_t smallSortKeys;                // the one-workgroup sort up to this count
  uint32_t smallKeysPerInvocation;       // its first radix tile's; tile i has this << i
  uint32_t smallTiles;                   // its radix tiles
  uint32_t smallWorkgroupSize;           // 0: the scan's
  uint32_t bitonicKeysPerPass;           // bitonic networks for sorts of up to this many keys per pass
  uint32_t bitonicKeysPerInvocation;     // their tiles: this many keys per invocation, workgroups
  uint32_t bitonicWorkgroupSize;         // doubling from this one
  TileTable onesweep[kTileClasses];
  TileTable reduceThenScan[kTileClasses];
};

// A tile that on-device tuning (tuner/search.cpp) measured faster than its table's row: it replaces
// that row's shape in the tier and class it names, before the fitting.
struct TunedTile {
  uint32_t tier;
  uint32_t tileClass;
  uint32_t from;          // the tier's start, as the tables had it when measured
  uint32_t count;         // the count it was measured at
  uint32_t builtInNanos;  // a sort of `count` keys with the table's row and with this shape:
  uint32_t tunedNanos;    // medians from the same run, interleaved. Equal: the row stayed (`shape`
                          // is the row as fitted; both 0: a part of a tier the tuner did not measure)
  TileShape shape;
  bool rowStayed() const { return tunedNanos == builtInNanos; }
};
// What tuning found for a device: the algorithm it measured (the faster one, where the caller
// forced none), which becomes the automatic choice, and the tiles of that algorithm's tables it
// replaces.
struct TunedTiles {
  Algorithm algorithm = Algorithm::automatic;  // automatic: the tables' choice (Onesweep)
  uint32_t algorithmClasses = 0;               // a bit per tile class the algorithms were compared on
                                               // (0: not compared, the caller's or the tables' choice)
  uint32_t tileCount = 0;
  TunedTile tiles[kMaxTunedTiles];
};

// Binning tiles of the sorts of at least `from` keys, per tile class: the union of the tables'
// rows, so that a sort's tier gives the tile of every class.
struct BinningTier {
  uint32_t from;
  TileShape shape[kTileClasses];
  const char* why[kTileClasses];     // each class's row's (TileRow::why)
  float tunedSpeedup[kTileClasses];  // a tuned tile's measured gain over the row (0: the row's)
};
// One-workgroup sorts: shapes of growing tiles (up to half of them bitonic networks, then radix
// tiles); a sort runs in the smallest that holds it.
constexpr uint32_t kMaxSmallTiles = 8;

// The tuning's device-wide fields, declared once: each line gives the struct its member and the
// golden printer (tests/test_golden.cpp) its line, so that none is left out of either.
//   subgroupSize: the size the kernels are built for; requireSubgroupSize: pipelines require it,
//     with full subgroups; minSubgroupSize: the smallest they may run with (sizes per-subgroup
//     arrays)
//   workgroupSize: the scan's workgroups (tier 0's pairs32 tiles')
//   histogram*: the upfront histogram's workgroup, tiles per workgroup, fewest workgroups, and
//     copies of its counters in shared memory
//   ranking: VendorTuning's, where the device allows it (else ballots); never atomicsRankFirst,
//     a tile's choice
//   patientWaits: spins re-read in straight-line code each turn
//   ballotWords: 32-bit words of a ballot the largest subgroup needs
//   waveWorkgroups: workgroups of a fitted tile the device runs at once (one per SM); 0: unknown,
//     none is fitted
//   chainedUpTo: VendorTuning's (Onesweep only; else 0)
//   tablesName: the VendorTuning's name, whose tables these are
//   lookbackWait: VendorTuning's; lookbackWithheld: torture, one tile in N publishes no look-back
//     status (0: none)
//   portionTiles: 0, portions as large as look-back values allow; else tiles per portion (to test
//     portions on small sorts)
//   wideAddressesFrom: counts from which scatters always compute 64-bit addresses (they do past
//     2^31 bytes in any case)
//   algorithm: onesweep or reduceThenScan (never automatic); onesweepMeasured: VendorTuning's
//   tunedTiles: tiles the tuning data changed; algorithmClasses: where the tuning data chose
//     reduce-then-scan, a bit per tile class it was measured faster on (else 0)
//   skipConstantPasses: passes whose digit is the same for every key move nothing
//     (pass_route.glsl); off: every pass moves keys
//   tierCount: the tiers in use of `tiers`
#define VKSORT_TUNING_FIELDS(X)           \
  X(uint32_t, subgroupSize)               \
  X(bool, requireSubgroupSize)            \
  X(uint32_t, minSubgroupSize)            \
  X(uint32_t, workgroupSize)              \
  X(uint32_t, histogramWorkgroupSize)     \
  X(uint32_t, histogramTilesPerWorkgroup) \
  X(uint32_t, histogramMinWorkgroups)     \
  X(uint32_t, histogramCopies)            \
  X(Ranking, ranking)                     \
  X(bool, lookbackPlainStores)            \
  X(bool, patientWaits)                   \
  X(uint32_t, ballotWords)                \
  X(uint32_t, waveWorkgroups)             \
  X(uint32_t, chainedUpTo)                \
  X(uint32_t, bitonicKeysPerPass)         \
  X(const char*, tablesName)              \
  X(uint32_t, lookbackWait)               \
  X(uint32_t, lookbackWithheld)           \
  X(uint32_t, portionTiles)               \
  X(uint32_t, wideAddressesFrom)          \
  X(Algorithm, algorithm)                 \
  X(bool, onesweepMeasured)               \
  X(uint32_t, tunedTiles)                 \
  X(uint32_t, algorithmClasses)           \
  X(bool, skipConstantPasses)             \
  X(uint32_t, tierCount)

// The tuning of one device: the vendor's tables fitted to its limits.
struct Tuning {
#define VKSORT_TUNING_MEMBER(type, name) type name;
  VKSORT_TUNING_FIELDS(VKSORT_TUNING_MEMBER)
#undef VKSORT_TUNING_MEMBER
  BinningTier tiers[kMaxTileTiers];         // ascending `from`; tiers[0].from is 0
  SmallTile smallTiles[kMaxSmallTiles][2];  // the one-workgroup sort's tiles per element width
  uint32_t smallTileCount[2];               // (bitonic ones, then radix ones; growing keys)
  uint32_t smallSortKeys[2];                // sorts of up to this many keys run in one workgroup

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
    auto takes = [&](const SmallTile& s) {
      return s.keys() >= span && (!s.bitonic || s.keys() <= uint64_t(bitonicKeysPerPass) * passes);
    };
    uint32_t i = 0;
    while (i + 1 < smallTileCount[words - 1] && !takes(smallTiles[i][words - 1])) ++i;
    return i;
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
  // runs chained: Onesweep, up to chainedUpTo keys (64-bit: half), in one portion of its tier's
  // tile, which goes through shared memory in one round and whose reorder area holds a full
  // key's passes of histogram counters (chained.glsl counts there).
  bool chains(const SortConfig& config, uint32_t count) const;
};

// 32-bit words of the widest element of a config (the binning tile's shared-memory width).
inline uint32_t elementWords(const SortConfig& c) {
  return (keyBytes(c.keyType) > 4 || valueBytes(c.valueType) > 4) ? 2 : 1;
}

// A config's binning tile class.
inline uint32_t tileClass(const SortConfig& c) {
  const bool alone = c.valueType == ValueType::none;
  return elementWords(c) == 2 ? (alone ? kAloneWide : kPairsWide) : alone ? kAlone32 : kPairs32;
}
// 32-bit words of a tile class's elements.
inline uint32_t classWords(uint32_t cls) { return cls == kPairsWide || cls == kAloneWide ? 2 : 1; }
// Whether a tile class's sorts have no values.
inline bool classKeysAlone(uint32_t cls) { return cls >= kAlone32; }

}  // namespace vksort::detail
