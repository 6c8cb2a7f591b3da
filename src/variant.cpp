#include "variant.hpp"

#include <algorithm>
#include <cstdio>

namespace vksort::detail {

const char* kernelName(Kernel k) {
  static const char* const kNames[kKernelCount] = {"init",        "scan",       "copy_back",  "tile_scan",
                                                   "depth_range", "depth_keys", "histogram",  "binning",
                                                   "upsweep",     "downsweep",  "small_sort", "chained"};
  return k < kKernelCount ? kNames[k] : "?";
}

const char* rankingName(Ranking r) {
  switch (r) {
    case Ranking::ballots: return "ballots";
    case Ranking::partitioned: return "partitioned";
    case Ranking::atomics: return "atomics";
    case Ranking::atomicsRankFirst: return "atomics-rank-first";
  }
  return "?";
}

const char* valueHandlingName(ValueHandling v) {
  switch (v) {
    case ValueHandling::none: return "none";
    case ValueHandling::atScatter: return "at-scatter";
    case ValueHandling::riding: return "riding";
    case ValueHandling::heldEarly: return "held-early";
  }
  return "?";
}

PipelineKey normalizedKey(const Tuning& t, PipelineKey k) {
  if (k.kernel < kHistogram) k.keyType = 0;
  if (k.kernel < kBinning) k.valueType = 0;
  if (k.valueType == uint32_t(ValueType::index))
    k.valueType = uint32_t(ValueType::u32);  // PipelineKey::permutation says
  if (k.kernel < kBinning || k.kernel == kUpsweep) k.permutation = 0;
  if (k.kernel < kBinning) k.tier = 0;
  k.fitted = k.fitted && k.kernel == kBinning;
  k.skewed = k.skewed && k.kernel == kBinning;
  const bool passKernel = k.kernel == kBinning || k.kernel == kUpsweep || k.kernel == kDownsweep;
  if (!passKernel || keyBytes(KeyType(k.keyType)) != 8) k.digitWord = kDigitAnyWord;
  if (k.kernel != kSmallSort) {  // a tier whose kernel's tile equals the tier's below builds no pipeline of its own
    SortConfig config;
    config.keyType = KeyType(k.keyType);
    config.valueType = ValueType(k.valueType);
    const uint32_t cls = tileClass(config);
    auto kernelTile = [&](uint32_t tier) {  // (where passes choose, each kernel runs one form)
      const TileShape& s = t.tiers[tier].shape[cls];
      return k.skewed ? s.skewedForm() : s.plainForm();
    };
    while (k.tier > 0 && kernelTile(k.tier) == kernelTile(k.tier - 1)) --k.tier;
  }
  return k;
}

namespace {

// Kernels exist for keys of 4 and 8 bytes (moduleOf(): 8 takes the *64 modules, every other width
// the 32-bit ones), so a key type of another width would sort wrongly: it needs modules of its own
// first (docs/ARCHITECTURE.md, "Add a key type"). And kKeyTypes, which sizes the pipeline cache and
// bounds the configs createSorter accepts, counts every KeyType.
constexpr bool everyKeyTypeHasKernels() {
  for (uint32_t t = 0; t < kKeyTypes; ++t)
    if (keyBytes(KeyType(t)) != 4 && keyBytes(KeyType(t)) != 8) return false;
  return true;
}
static_assert(everyKeyTypeHasKernels(), "a key type of neither 4 nor 8 bytes has no kernels");
static_assert(keyBytes(KeyType(kKeyTypes)) == 0, "kKeyTypes (glsl/shader_interface.h) must count every KeyType");

Module moduleOf(const Tuning& t, const PipelineKey& k, bool bitonic) {
  const bool wide = keyBytes(KeyType(k.keyType)) == 8;
  auto byWidth = [&](Module narrow, Module w) { return wide ? w : narrow; };
  switch (k.kernel) {
    case kInit: return Module::init;
    case kScan: return Module::scan;
    case kCopyBack: return Module::copyBack;
    case kTileScan: return Module::tileScan;
    case kDepthRange: return Module::depthRange;
    case kDepthKeys: return Module::depthKeys;
    case kHistogram: return byWidth(Module::histogram, Module::histogram64);
    case kUpsweep: return byWidth(Module::upsweep, Module::upsweep64);
    case kDownsweep: return byWidth(Module::downsweep, Module::downsweep64);
    case kSmallSort:
      return bitonic ? byWidth(Module::smallBitonic, Module::smallBitonic64)
                     : byWidth(Module::smallSort, Module::smallSort64);
    case kChained: return byWidth(Module::chained, Module::chained64);
    default:
      if (k.fitted) return byWidth(Module::onesweepFitted, Module::onesweepFitted64);  // (no partitioned form)
      if (t.ranking == Ranking::partitioned) return byWidth(Module::onesweepPartitioned, Module::onesweepPartitioned64);
      return byWidth(Module::onesweep, Module::onesweep64);
  }
}

}  // namespace

KernelVariant decideVariant(const Tuning& t, const PipelineKey& k) {
  SortConfig config;
  config.keyType = KeyType(k.keyType);
  config.valueType = ValueType(k.valueType);
  const uint32_t words = elementWords(config);
  const uint32_t valueWords = valueBytes(config.valueType) / 4;
  const bool keysAlone = valueWords == 0;
  const bool small = k.kernel == kSmallSort;
  const bool tiled = k.kernel >= kBinning;  // kernels whose workgroup is a tile's
  // The tile: the small sort's, else the tier's binning tile (unkeyed kernels: tier 0's).
  const SmallTile smallTile = small ? t.smallTiles[k.tier][words - 1] : SmallTile{};
  TileShape tile = t.tiers[small ? 0 : k.tier].shape[tileClass(config)];
  if (k.skewed) tile = tile.skewedForm();
  if (small) {
    tile.workgroupSize = smallTile.workgroupSize;
    tile.keysPerInvocation = smallTile.keysPerInvocation;
    tile.reorderRounds = 1;
    tile.persistentTiles = false;
    tile.rankFirst = false;
    tile.ridingValues = false;
    tile.prefetchPairs = false;
  }
  const bool rankingKernel = k.kernel == kBinning || k.kernel == kDownsweep || k.kernel == kChained || small;
  const bool atomics = t.ranking == Ranking::atomics && (keysAlone || tile.reorderRounds == 1 || tile.rankFirst);

  KernelVariant v{};
  v.module = moduleOf(t, k, smallTile.bitonic);
  // (Kernels of a fixed workgroup size ask for no subgroup size.)
  const bool fixedSize =
      k.kernel == kInit || k.kernel == kCopyBack || k.kernel == kDepthRange || k.kernel == kDepthKeys;
  v.requireSubgroupSize = t.requireSubgroupSize && !fixedSize;
  v.subgroupSize = t.subgroupSize;
  v.workgroupSize = k.kernel == kHistogram ? t.histogramWorkgroupSize : tiled ? tile.workgroupSize : t.workgroupSize;
  v.keysPerInvocation = tile.keysPerInvocation;
  v.reorderRounds = tile.reorderRounds;
  v.minSubgroupSize = t.minSubgroupSize;
  v.valueWords = valueWords;
  v.keyType = k.keyType;
  v.digitWord = k.digitWord;
  v.ballotWords = t.ballotWords;
  v.histogramCopies = t.histogramCopies;
  // Atomic ranking where the device's atomics on one word apply in lane order, except for pairs
  // in tiles of several rounds that count first: they keep each key's place in registers, where
  // ballots left more room.
  v.ranking = v.module == Module::onesweepPartitioned || v.module == Module::onesweepPartitioned64
                  ? Ranking::partitioned
              : !atomics                               ? Ranking::ballots
              : k.kernel == kBinning && tile.rankFirst ? Ranking::atomicsRankFirst
                                                       : Ranking::atomics;
  if (!rankingKernel && v.ranking != Ranking::partitioned) v.ranking = atomics ? Ranking::atomics : Ranking::ballots;
  // Values ride in registers only where they are 32-bit and the tile goes through shared memory
  // in one round (several rounds keep each key's place there instead).
  const bool riding = (k.kernel == kBinning || k.kernel == kDownsweep || k.kernel == kChained) && tile.ridingValues &&
                      valueWords == 1 && tile.reorderRounds == 1;
  v.values = keysAlone                ? ValueHandling::none
             : riding                 ? ValueHandling::riding
             : tile.reorderRounds > 1 ? ValueHandling::heldEarly  // binning_scatter.glsl's EARLY_HELD_VALUES
                                      : ValueHandling::atScatter;
  v.lookbackLoads = tile.lookbackPlainLoads ? Access::plain : Access::atomics;
  v.lookbackStores = t.lookbackPlainStores ? Access::plain : Access::atomics;
  v.lookbackWindow = tile.lookbackWindow;
  v.persistentTiles = tile.persistentTiles;
  // Only a persistent workgroup knows its next tile; keys alone have no values to touch.
  v.prefetchPairs = k.kernel == kBinning && tile.prefetchPairs && tile.persistentTiles && !keysAlone;
  v.ridersAlongside = small && smallTile.ridersAlongside;
  // Hot digits: Onesweep's binning counts them (the scan classes its passes by the tile's shares,
  // SortPlan::passShares).
  v.hotDigits = k.kernel == kBinning && tile.hotDigitFrom != 0;
  v.hotRanking = v.hotDigits && atomics && tile.hotRankTo != 0;  // (binning_tile.glsl's HOT_RANKING)
  v.patientWaits = t.patientWaits;
  v.lookbackWait = t.lookbackWait;
  v.lookbackWithheld = t.lookbackWithheld;
  v.permutation = k.permutation;
  return v;
}

const uint32_t kSpecializationIds[23] = {VKSORT_SPEC_WORKGROUP_SIZE,    VKSORT_SPEC_KEYS_PER_INVOCATION,
                                         VKSORT_SPEC_MIN_SUBGROUP_SIZE, VKSORT_SPEC_VALUE_WORDS,
                                         VKSORT_SPEC_LOOKBACK_LOADS,    VKSORT_SPEC_BALLOT_WORDS,
                                         VKSORT_SPEC_HISTOGRAM_COPIES,  VKSORT_SPEC_KEY_TYPE,
                                         VKSORT_SPEC_LOOKBACK_WINDOW,   VKSORT_SPEC_PERSISTENT_TILES,
                                         VKSORT_SPEC_REORDER_ROUNDS,    VKSORT_SPEC_PREFETCH_PAIRS,
                                         VKSORT_SPEC_RIDERS_ALONGSIDE,  VKSORT_SPEC_HOT_DIGITS,
                                         VKSORT_SPEC_LOOKBACK_STORES,   VKSORT_SPEC_PATIENT_WAITS,
                                         VKSORT_SPEC_DIGIT_WORD,        VKSORT_SPEC_LOOKBACK_WAIT,
                                         VKSORT_SPEC_HOT_RANKING,       VKSORT_SPEC_RANKING,
                                         VKSORT_SPEC_VALUE_HANDLING,    VKSORT_SPEC_PERMUTATION,
                                         VKSORT_SPEC_LOOKBACK_WITHHELD};

uint32_t specializationValue(const KernelVariant& v, uint32_t id) {
  switch (id) {
    case VKSORT_SPEC_WORKGROUP_SIZE: return v.workgroupSize;
    case VKSORT_SPEC_KEYS_PER_INVOCATION: return v.keysPerInvocation;
    case VKSORT_SPEC_MIN_SUBGROUP_SIZE: return v.minSubgroupSize;
    case VKSORT_SPEC_VALUE_WORDS: return v.valueWords;
    case VKSORT_SPEC_LOOKBACK_LOADS: return uint32_t(v.lookbackLoads);
    case VKSORT_SPEC_BALLOT_WORDS: return v.ballotWords;
    case VKSORT_SPEC_HISTOGRAM_COPIES: return v.histogramCopies;
    case VKSORT_SPEC_KEY_TYPE: return v.keyType;
    case VKSORT_SPEC_LOOKBACK_WINDOW: return v.lookbackWindow;
    case VKSORT_SPEC_PERSISTENT_TILES: return v.persistentTiles;
    case VKSORT_SPEC_REORDER_ROUNDS: return v.reorderRounds;
    case VKSORT_SPEC_PREFETCH_PAIRS: return v.prefetchPairs;
    case VKSORT_SPEC_RIDERS_ALONGSIDE: return v.ridersAlongside;
    case VKSORT_SPEC_HOT_DIGITS: return v.hotDigits;
    case VKSORT_SPEC_LOOKBACK_STORES: return uint32_t(v.lookbackStores);
    case VKSORT_SPEC_PATIENT_WAITS: return v.patientWaits;
    case VKSORT_SPEC_DIGIT_WORD: return v.digitWord;
    case VKSORT_SPEC_LOOKBACK_WAIT: return v.lookbackWait;
    case VKSORT_SPEC_HOT_RANKING: return v.hotRanking;
    case VKSORT_SPEC_RANKING: return uint32_t(v.ranking);
    case VKSORT_SPEC_VALUE_HANDLING: return uint32_t(v.values);
    case VKSORT_SPEC_PERMUTATION: return v.permutation;
    case VKSORT_SPEC_LOOKBACK_WITHHELD: return v.lookbackWithheld;
    default: return 0;
  }
}

std::string describeVariant(const KernelVariant& v, const std::vector<uint32_t>& declared) {
  auto has = [&](uint32_t id) { return std::find(declared.begin(), declared.end(), id) != declared.end(); };
  static const char* const kWords[kDigitWords] = {"either", "low", "high"};
  std::string out = moduleName(v.module);
  char item[96];
  auto add = [&](const char* format, auto... args) {
    std::snprintf(item, sizeof item, format, args...);
    out += item;
  };
  if (has(VKSORT_SPEC_WORKGROUP_SIZE)) add(": %u invocations", v.workgroupSize);
  if (has(VKSORT_SPEC_KEYS_PER_INVOCATION)) add(" x %u keys", v.keysPerInvocation);
  if (has(VKSORT_SPEC_REORDER_ROUNDS)) add(", %u round%s", v.reorderRounds, v.reorderRounds == 1 ? "" : "s");
  if (has(VKSORT_SPEC_RANKING)) add("; ranking %s", rankingName(v.ranking));
  if (has(VKSORT_SPEC_VALUE_WORDS) && v.valueWords != 0) add("; values %s", valueHandlingName(v.values));
  if (has(VKSORT_SPEC_LOOKBACK_LOADS))
    add("; look-back %s loads, %s stores, %u at once", v.lookbackLoads == Access::plain ? "plain" : "atomic",
        v.lookbackStores == Access::plain ? "plain" : "atomic", v.lookbackWindow);
  if (has(VKSORT_SPEC_LOOKBACK_WAIT)) {
    if (v.lookbackWait == kLookbackNeverFallsBack) add("; look-back without fallback");
    else if (v.lookbackWait == 0) add("; look-back falls back at once");
    else add("; look-back falls back after %u turns", v.lookbackWait);
    if (has(VKSORT_SPEC_LOOKBACK_WITHHELD) && v.lookbackWithheld != 0 && v.lookbackWait != kLookbackNeverFallsBack)
      add("; 1 tile in %u withholds its posts", v.lookbackWithheld);
  }
  if (has(VKSORT_SPEC_PERSISTENT_TILES)) add("; %s", v.persistentTiles ? "persistent" : "one tile per workgroup");
  if (has(VKSORT_SPEC_PREFETCH_PAIRS) && v.prefetchPairs) add("; values and next tile touched into L2");
  if (has(VKSORT_SPEC_HOT_DIGITS) && v.hotDigits) {  // (the shares: describePlan())
    const bool ranked = has(VKSORT_SPEC_HOT_RANKING) && v.hotRanking;
    if (ranked && v.ranking == Ranking::atomicsRankFirst)
      add("; hot digit ranked a step at a time");  // its count is its ranking's
    else add(ranked ? "; hot digit counted and ranked a step at a time" : "; hot digit counted a step at a time");
  }
  if (has(VKSORT_SPEC_DIGIT_WORD) && v.digitWord != kDigitAnyWord) add("; digits in the %s word", kWords[v.digitWord]);
  if (has(VKSORT_SPEC_RIDERS_ALONGSIDE) && v.ridersAlongside) add("; riders beside the keys");
  if (has(VKSORT_SPEC_PATIENT_WAITS) && v.patientWaits) add("; patient waits");
  if (has(VKSORT_SPEC_PERMUTATION) && (v.permutation & kFlagIndexValues)) add("; values generated (indices)");
  if (has(VKSORT_SPEC_PERMUTATION) && (v.permutation & kFlagDiscardKeys)) add("; keys discarded");
  return out;
}

}  // namespace vksort::detail
