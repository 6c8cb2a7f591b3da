#include "tuning.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "shader_interface.h"
#include "tuning_override.hpp"

namespace vksort::detail {
namespace {

// The one-workgroup sort's radix tiles are fitted as binning tiles of one round (its fields as
// one paragraph, as the tables' rows).
// clang-format off
constexpr TileShape kSmallRadixTile = {.workgroupSize = 0, .keysPerInvocation = 0, .reorderRounds = 1, .fitPercent = 0,
                                       .hotDigitFrom = 0, .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 1,
                                       .lookbackPlainLoads = false, .rankFirst = false, .persistentTiles = false,
                                       .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0};
// clang-format on

// The tiers of a set of tables: every class's row breaks start a tier, each class's shape in it
// that of its last row at or below the tier's start.
void expandTables(const TileTable (&tables)[kTileClasses], BinningTier* tiers, uint32_t* tierCount) {
  uint32_t froms[kMaxTileTiers];
  uint32_t count = 0;
  for (const TileTable& table : tables)
    for (uint32_t r = 0; r < table.count; ++r) {
      const uint32_t from = table.rows[r].fromCount;
      bool known = false;
      for (uint32_t i = 0; i < count; ++i) known = known || froms[i] == from;
      if (!known && count < kMaxTileTiers) froms[count++] = from;
    }
  for (uint32_t i = 1; i < count; ++i)  // ascending (a few entries)
    for (uint32_t j = i; j > 0 && froms[j - 1] > froms[j]; --j) std::swap(froms[j - 1], froms[j]);
  for (uint32_t i = 0; i < count; ++i) {
    tiers[i].from = froms[i];
    for (uint32_t cls = 0; cls < kTileClasses; ++cls) {
      const TileTable& table = tables[cls];
      uint32_t r = 0;
      while (r + 1 < table.count && table.rows[r + 1].fromCount <= froms[i]) ++r;
      tiers[i].shape[cls] = table.rows[r].shape;
      tiers[i].why[cls] = table.rows[r].why;
    }
  }
  *tierCount = count;
}

// A tuned tile that starts where no tier does (the tuner split a long tier of the tables:
// tuner/search.cpp) splits the tier that holds its start there, both halves the same until the
// tile applies.
void splitTiers(const TunedTiles& tuned, BinningTier* tiers, uint32_t* tierCount) {
  for (uint32_t i = 0; i < tuned.tileCount; ++i) {
    const uint32_t from = tuned.tiles[i].from;
    uint32_t at = 0;  // the last tier starting at or below `from`
    while (at + 1 < *tierCount && tiers[at + 1].from <= from) ++at;
    if (tiers[at].from == from || *tierCount == kMaxTileTiers) continue;
    for (uint32_t j = (*tierCount)++; j > at + 1; --j) tiers[j] = tiers[j - 1];
    tiers[at + 1] = tiers[at];
    tiers[at + 1].from = from;
  }
}

// Shapes fitted to the device, halving what takes more shared memory: the workgroup where the
// subgroup counters do (their rows grow with workgroupSize / minSubgroupSize, which small
// subgroups, lavapipe's 4, make large), else the keys per invocation, in whole rounds. Tiles
// below 2^16 keys: the ranking packs places in 16 bits.
struct Fitting {
  const DeviceCaps& caps;
  const Tuning& t;
  bool fits(const TileShape& c, uint32_t words, bool keysAlone) const {
    return c.workgroupSize <= caps.maxWorkgroupInvocations &&
           binningSharedBytes(t, c, words, keysAlone) <= caps.maxSharedMemory && c.keys() <= 0x10000u &&
           (!t.requireSubgroupSize || c.workgroupSize / t.subgroupSize <= caps.maxWorkgroupSubgroups);
  }
  void fit(TileShape* c, uint32_t words, bool shrinkWorkgroup, bool keysAlone) const {
    c->workgroupSize = std::max(c->workgroupSize, t.subgroupSize);
    c->keysPerInvocation = std::max(c->keysPerInvocation, 1u);
    auto wholeRounds = [&] {
      c->reorderRounds = std::clamp(c->reorderRounds, 1u, std::min(c->keysPerInvocation, 8u));
      c->keysPerInvocation -= c->keysPerInvocation % c->reorderRounds;
    };
    wholeRounds();
    while (!fits(*c, words, keysAlone)) {
      const bool countersLarger = kRadix / 2 / t.minSubgroupSize >= c->keysPerInvocation / c->reorderRounds * words;
      const bool canShrinkWorkgroup = shrinkWorkgroup && c->workgroupSize > t.subgroupSize;
      if (canShrinkWorkgroup && (countersLarger || c->keysPerInvocation == 1)) {
        c->workgroupSize /= 2;
      } else if (c->keysPerInvocation > 1) {
        c->keysPerInvocation /= 2;
        wholeRounds();
      } else {
        break;
      }
    }
  }
};

// The device-wide choices: the vendor's, as the override leaves them (`extras` too), within the
// device's limits. `subgroupNamed`: the override names a subgroup size.
void chooseDeviceWide(const DeviceCaps& caps, const VendorTuning& v, const OverrideExtras& extras, bool subgroupNamed,
                      Tuning& t) {
  const uint32_t wantSubgroup = v.subgroupSize.value_or(caps.subgroupSize);
  if (caps.canRequireSubgroupSize) {
    // A proven size (device_caps.hpp), unless a developer names one: that is how a size is proven.
    const uint32_t ceiling = subgroupNamed ? wantSubgroup : kMaxProvenSubgroupSize;
    t.subgroupSize = std::clamp(std::min(wantSubgroup, ceiling), caps.minSubgroupSize, caps.maxSubgroupSize);
    t.requireSubgroupSize = true;
    t.minSubgroupSize = t.subgroupSize;
  } else {
    // Without size control, SPIR-V 1.5 compute shaders run at the device's subgroupSize.
    t.subgroupSize = caps.subgroupSize;
    t.requireSubgroupSize = false;
    t.minSubgroupSize = std::min(caps.subgroupSize, caps.minSubgroupSize);
  }
  t.histogramTilesPerWorkgroup = std::max(v.histogramTilesPerWorkgroup, 1u);
  t.histogramMinWorkgroups = std::max(v.histogramMinWorkgroups, 1u);
  t.ranking = v.ranking == Ranking::partitioned && !caps.partitionedSubgroups ? Ranking::ballots : v.ranking;
  t.lookbackPlainStores = v.lookbackPlainStores;
  t.patientWaits = v.patientWaits.value_or(caps.driverId == VK_DRIVER_ID_MESA_LLVMPIPE);
  t.lookbackWait = v.lookbackWait;
  t.lookbackWithheld = extras.lookbackWithheld;
  // Without a required size the device may run any size up to its maximum.
  t.ballotWords = ((t.requireSubgroupSize ? t.subgroupSize : caps.maxSubgroupSize) + 31) / 32;
  t.histogramCopies = std::clamp(v.histogramCopies, 1u, 8u);
  t.portionTiles = extras.portionTiles;
  t.wideAddressesFrom = extras.wideAddressesFrom;
  t.waveWorkgroups = extras.waveWorkgroups.value_or(caps.multiprocessors);
  t.chainedUpTo = v.chainedUpTo;
  t.onesweepMeasured = v.onesweepMeasured;
  t.skipConstantPasses = extras.skipConstantPasses;
}

// Tuned tiles over the tables' tiers (a tile that starts where no tier does splits one:
// splitTiers()).
void applyTunedTiles(const TunedTiles& tuned, Tuning& t) {
  splitTiers(tuned, t.tiers, &t.tierCount);
  for (uint32_t i = 0; i < tuned.tileCount; ++i) {
    const TunedTile& tile = tuned.tiles[i];
    uint32_t at = 0;
    while (at < t.tierCount && t.tiers[at].from != tile.from) ++at;
    if (at == t.tierCount || tile.tileClass >= kTileClasses) continue;
    BinningTier& tier = t.tiers[at];
    // The row stayed (TunedTile): the data says only whether it was measured. (Its shape is the row
    // as fitted to the device, which may differ from the table's before fitting.)
    if (tile.rowStayed() || tile.shape == tier.shape[tile.tileClass]) {
      if (tile.builtInNanos != 0)
        tier.why[tile.tileClass] =
            "The row, measured on this device by vksort_tune: no tile it tried was faster (tuning data).";
      continue;
    }
    ++t.tunedTiles;
    tier.shape[tile.tileClass] = tile.shape;
    tier.why[tile.tileClass] = "Measured on this device by vksort_tune (tuning data)";
    tier.tunedSpeedup[tile.tileClass] = tile.tunedNanos ? float(tile.builtInNanos) / float(tile.tunedNanos) : 1.0f;
  }
}

// Every tier's tiles fitted to the device, and what the device allows of each tile's choices.
void fitTiles(const DeviceCaps& caps, Tuning& t) {
  const Fitting f{caps, t};
  const bool onesweep = t.algorithm == Algorithm::onesweep;
  // Tier 0's tiles share one workgroup size (the scan's), fitted to the 32-bit tile; its 64-bit
  // ones keep it and give up keys. Its keys alone are fitted as the pairs of their width.
  TileShape* base = t.tiers[0].shape;
  f.fit(&base[kPairs32], 1, true, false);
  f.fit(&base[kAlone32], 1, true, false);
  t.workgroupSize = base[kPairs32].workgroupSize;
  for (uint32_t cls : {kPairsWide, kAloneWide}) {
    base[cls].workgroupSize = t.workgroupSize;
    f.fit(&base[cls], 2, false, false);
  }
  for (uint32_t i = 1; i < t.tierCount; ++i)
    for (uint32_t cls = 0; cls < kTileClasses; ++cls)
      f.fit(&t.tiers[i].shape[cls], classWords(cls), true, classKeysAlone(cls));
  // What the device allows of each tile's choices.
  const bool canFit =
      t.waveWorkgroups != 0 && onesweep && t.ranking != Ranking::partitioned;  // (no fitted partitioned kernel)
  const bool atomics = t.ranking == Ranking::atomics;
  for (uint32_t i = 0; i < t.tierCount; ++i)
    for (TileShape& shape : t.tiers[i].shape) {
      shape.fitPercent = canFit ? std::min(shape.fitPercent, 100u) : 0;
      shape.hotDigitFrom = std::min(shape.hotDigitFrom, 100u);
      shape.hotDigitTo = std::min(shape.hotDigitTo, 100u);
      shape.hotRankTo = std::min(shape.hotRankTo, shape.hotDigitTo);
      shape.lookbackWindow = std::clamp(shape.lookbackWindow, 1u, 16u);
      shape.rankFirst = shape.rankFirst && atomics && onesweep;
      shape.skewedFrom = atomics && onesweep ? std::min(shape.skewedFrom, 100u) : 0;  // (its form ranks first)
    }
}

// The one-workgroup sort's tiles, ascending: first bitonic networks (small_bitonic.glsl) of
// powers of two up to bitonicKeysPerPass times a full key's passes (smallTileOf() gives a sort
// of fewer passes those up to that many keys per pass), the workgroup doubling (where the device
// allows no larger one, the keys per invocation), as far as shared memory allows; then radix tiles
// (small_sort.glsl, the binning tile's shared memory) of one round, their own workgroup, keys per
// invocation doubling, those the fitting leaves larger than the tile before. It sorts up to
// the largest (and smallSortKeys).
void chooseSmallTiles(const DeviceCaps& caps, const VendorTuning& v, Tuning& t) {
  const Fitting f{caps, t};
  auto bitonicFits = [&](const SmallTile& c, uint32_t words) {
    const uint32_t sharedBytes = c.keys() * (words + 1) * 4;  // key words and a source index
    return c.workgroupSize <= caps.maxWorkgroupInvocations && sharedBytes <= caps.maxSharedMemory &&
           c.workgroupSize / t.subgroupSize <= caps.maxWorkgroupSubgroups;
  };
  t.bitonicKeysPerPass = v.bitonicKeysPerPass;
  auto powerOfTwo = [](uint32_t x) { return x != 0 && (x & (x - 1)) == 0; };
  const uint32_t smallWorkgroup =
      v.smallWorkgroupSize == 0 ? t.workgroupSize : std::max(v.smallWorkgroupSize, t.subgroupSize);
  uint32_t radixWorkgroup = smallWorkgroup;  // the 32-bit radix tiles' (64-bit ones take it)
  for (uint32_t words : {1u, 2u}) {
    uint32_t& count = t.smallTileCount[words - 1];
    count = 0;
    const uint32_t bitonicKpi = v.bitonicKeysPerInvocation;
    if (powerOfTwo(bitonicKpi) && powerOfTwo(v.bitonicWorkgroupSize)) {
      SmallTile shape{.workgroupSize = std::max(v.bitonicWorkgroupSize, t.subgroupSize),
                      .keysPerInvocation = bitonicKpi,
                      .bitonic = true,
                      .ridersAlongside = false};
      const uint64_t most = uint64_t(t.bitonicKeysPerPass) * (32 * words / kRadixBits);
      while (count < kMaxSmallTiles / 2 && shape.keys() <= most && bitonicFits(shape, words)) {
        t.smallTiles[count++][words - 1] = shape;
        SmallTile wider = shape;
        wider.workgroupSize *= 2;
        if (bitonicFits(wider, words)) shape = wider;
        else shape.keysPerInvocation *= 2;
      }
    }
    for (uint32_t i = 0; i < std::clamp(v.smallTiles, 1u, kMaxSmallTiles / 2); ++i) {
      TileShape radix = kSmallRadixTile;
      radix.workgroupSize = words == 1 ? smallWorkgroup : radixWorkgroup;
      radix.keysPerInvocation = std::max(v.smallKeysPerInvocation, 1u) << i;
      f.fit(&radix, words, words == 1, false);
      const SmallTile shape{
          .workgroupSize = radix.workgroupSize,
          .keysPerInvocation = radix.keysPerInvocation,
          .bitonic = false,
          .ridersAlongside = binningSharedBytes(t, radix, words, false) + radix.keys() * 4 <= caps.maxSharedMemory};
      if (words == 1 && i == 0) radixWorkgroup = shape.workgroupSize;
      if (count == 0 || shape.keys() > t.smallTiles[count - 1][words - 1].keys())
        t.smallTiles[count++][words - 1] = shape;
    }
    t.smallSortKeys[words - 1] = std::min(v.smallSortKeys, t.smallTiles[count - 1][words - 1].keys());
  }
}

}  // namespace

const char* className(uint32_t cls) {
  static const char* const kNames[kTileClasses] = {"pairs32", "pairs_wide", "alone32", "alone_wide"};
  return cls < kTileClasses ? kNames[cls] : "?";
}

uint32_t Tuning::portionKeys(uint32_t tileKeys) const {
  uint32_t tiles = kMaxPortionKeys / tileKeys;
  if (portionTiles != 0 && portionTiles < tiles) tiles = portionTiles;
  return tiles * tileKeys;
}

uint32_t Tuning::fittedTileKeys(const TileShape& shape, uint32_t count) const {
  if (!fitsWaves(shape) || count == 0) return shape.keys();
  const uint64_t tiles = (uint64_t(count) + shape.keys() - 1) / shape.keys();
  const uint64_t waves = (tiles + waveWorkgroups - 1) / waveWorkgroups;
  const uint64_t wave = uint64_t(shape.workgroupSize) * waveWorkgroups * waves;  // keys of one key per invocation
  const uint32_t kpi = std::max(uint32_t((count + wave - 1) / wave), 1u);
  return kpi * 100 <= uint64_t(shape.keysPerInvocation) * shape.fitPercent ? shape.workgroupSize * kpi : shape.keys();
}

bool Tuning::chains(const SortConfig& config, uint32_t count) const {
  const TileShape& tile = tileFor(tileClass(config), count);
  const uint32_t upTo = keyBytes(config.keyType) == 8 ? chainedUpTo / 2 : chainedUpTo;
  return algorithm == Algorithm::onesweep && count <= upTo && count <= portionKeys(tile.keys()) &&
         tile.reorderRounds == 1 && tile.keys() * elementWords(config) >= keyBytes(config.keyType) * kRadix;
}

uint32_t binningSharedBytes(const Tuning& t, const TileShape& shape, uint32_t elementWords, bool keysAlone) {
  uint32_t maxSubgroups = shape.workgroupSize / t.minSubgroupSize;
  uint32_t rounds = shape.reorderRounds;
  uint32_t reorder = shape.keys() / rounds * elementWords;  // the reorder area
  uint32_t counters = (maxSubgroups + 1) / 2 * kRadix;      // 16-bit subgroup counters, a word per pair
  // s_tile and s_subgroupCounts: with several rounds the counters are in s_tile's words (and
  // s_subgroupCounts is one word).
  const uint32_t tileWords = rounds > 1 ? std::max(reorder, counters) : reorder;  // SHARED_TILE_WORDS
  // Keys alone with chunked row sums keep the digits' counts and starts in registers
  // (binning_tile.glsl's DIGITS_IN_REGISTERS).
  const uint32_t chunkSums = rounds > 1 ? counters : 0;
  const bool chunked = shape.workgroupSize % kRadix == 0 && shape.workgroupSize / kRadix >= 2 &&
                       chunkSums + shape.workgroupSize <= tileWords;
  const bool digitsInRegisters = keysAlone && chunked;
  uint32_t words = (rounds > 1 ? tileWords + 1 : reorder + counters) + kRadix  // s_digitDest
                   + (digitsInRegisters ? 2 : 2 * kRadix)                      // s_digitCount, s_digitScan
                   + maxSubgroups                                              // s_subgroupTotals
                   + 2;                                                        // s_ticket, s_uniformDigit
  return words * 4;
}

Tuning chooseTuning(const DeviceCaps& caps, Algorithm requested, const TuningOverride& developer,
                    const TunedTiles* tuned) {
  const bool untuned = developer.last("untuned").value_or(0) != 0;
  VendorTuning v = untuned ? untunedTuning() : vendorTuning(caps);
  OverrideExtras extras;
  overrideDeviceChoices(developer, &v, &extras);
  Tuning t{};
  t.tablesName = untuned ? "never-measured (untuned=1)" : v.name;
  chooseDeviceWide(caps, v, extras, developer.names("subgroup"), t);
  if (extras.algorithm != Algorithm::automatic) requested = extras.algorithm;
  if (requested == Algorithm::automatic && tuned) {
    requested = tuned->algorithm;
    t.algorithmClasses = tuned->algorithm == Algorithm::reduceThenScan ? tuned->algorithmClasses : 0;
  }
  // Onesweep on every device: its look-back falls back rather than wait on a workgroup the
  // device may not run (lookback.glsl), so it needs no promise of forward progress.
  t.algorithm = requested != Algorithm::automatic ? requested : Algorithm::onesweep;
  const bool onesweep = t.algorithm == Algorithm::onesweep;
  // The tables' tiers, as the developer's override leaves them; further tiers in ascending
  // counts (one out of order ends the list).
  expandTables(onesweep ? v.onesweep : v.reduceThenScan, t.tiers, &t.tierCount);
  // Tuned tiles were measured against one algorithm's tiers: they apply to those alone.
  const bool tunedHere =
      tuned && (tuned->algorithm == Algorithm::automatic ? Algorithm::onesweep : tuned->algorithm) == t.algorithm;
  if (tunedHere) applyTunedTiles(*tuned, t);
  overrideTiles(developer, t.tiers, &t.tierCount);
  for (uint32_t i = 1; i < t.tierCount; ++i)
    if (t.tiers[i].from <= t.tiers[i - 1].from) t.tierCount = i;
  fitTiles(caps, t);
  chooseSmallTiles(caps, v, t);
  t.histogramWorkgroupSize = v.histogramWorkgroupSize == 0
                                 ? t.workgroupSize
                                 : std::clamp(v.histogramWorkgroupSize, t.subgroupSize, caps.maxWorkgroupInvocations);
  while (t.histogramCopies > 1 && t.histogramCopies * kMaxPasses * kRadix * 4 > caps.maxSharedMemory)
    t.histogramCopies /= 2;
  return t;
}

}  // namespace vksort::detail
