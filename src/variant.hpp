// Which variant of a kernel a pipeline runs: decided here, once, from the tuning, the tile and the
// sort's types. Pipelines fill their specialization constants from it by name; the kernels take
// what they are given; describeSort() prints it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "modules.hpp"
#include "shader_interface.h"
#include "tuning.hpp"

namespace vksort::detail {

// Kernels: unkeyed ones first; from kHistogram on one pipeline per key type (and, from kBinning
// on, per value type, which sets the tile's width).
enum Kernel : uint32_t {
  kInit,
  kScan,
  kCopyBack,
  kTileScan,  // any key
  kDepthRange,
  kDepthKeys,  // recordDepthKeys (f32 depths)
  kHistogram,  // per key type
  kBinning,
  kUpsweep,
  kDownsweep,
  kSmallSort,  // per key and value type
  kChained,
  kKernelCount
};
const char* kernelName(Kernel k);

constexpr uint32_t kValueTypes = 3;  // none, u32, u64 (index values run u32's kernels)

// The forms a binning kernel takes, by the names and values the kernels know them by
// (shader_interface.h's kRanking*, kValues*, kAccess*: specialization constants RANKING,
// VALUE_HANDLING, LOOKBACK_LOADS and LOOKBACK_STORES).
const char* rankingName(Ranking r);

// How values travel with their keys.
enum class ValueHandling : uint32_t {
  none = kValuesNone,            // keys alone
  atScatter = kValuesAtScatter,  // loaded at the value scatter
  riding = kValuesRiding,        // loaded with their keys, waiting in registers (32-bit values in one round)
  heldEarly = kValuesHeldEarly,  // several rounds: loaded into registers before the key scatter
};
const char* valueHandlingName(ValueHandling v);

// Whether the look-back's words are read and published with plain loads and stores or atomics.
enum class Access : uint32_t { atomics = kAccessAtomics, plain = kAccessPlain };

// A pipeline, as its kernel and types name it (Pipelines::get's key, normalized).
struct PipelineKey {
  Kernel kernel;
  uint32_t keyType;    // kKey*
  uint32_t valueType;  // ValueType
  uint32_t tier;       // Tuning::tiers (binning, upsweep, downsweep, chained) or smallTiles (small sort)
  bool fitted;         // binning: tiles of a run-time length (fitted to whole waves)
  uint32_t digitWord;  // kDigit*Word: 64-bit keys' word that holds the pass's digits
  bool skewed;         // binning: the tile's skewed form (TileShape::skewedForm())
  // The tile kernels' permutation forms (kFlagIndexValues | kFlagDiscardKeys), compiled in where set.
  uint32_t permutation = 0;
  bool operator==(const PipelineKey&) const = default;
};
// The key with what its kernel does not depend on zeroed, and the tier lowered to the first of
// the tiers with the same tile: equal keys share a pipeline.
PipelineKey normalizedKey(const Tuning& t, PipelineKey key);

// Everything a pipeline is built with.
struct KernelVariant {
  Module module;
  bool requireSubgroupSize;  // the tuning's subgroup size, with full subgroups
  uint32_t subgroupSize;
  uint32_t workgroupSize;
  uint32_t keysPerInvocation;
  uint32_t reorderRounds;
  uint32_t minSubgroupSize;
  uint32_t valueWords;
  uint32_t keyType;
  uint32_t digitWord;
  uint32_t ballotWords;
  uint32_t histogramCopies;
  Ranking ranking;
  ValueHandling values;
  Access lookbackLoads;
  Access lookbackStores;
  uint32_t lookbackWindow;
  bool persistentTiles;
  bool prefetchPairs;    // persistent pairs touch their values and next tile into L2
  bool ridersAlongside;  // small sort of pairs: riders in shared memory
  bool hotDigits;        // a pass the scan classed hot has its top digit counted a step at a time
  bool hotRanking;       // and, classed kPassHotRanked, ranked a step at a time
  bool patientWaits;
  uint32_t lookbackWait;      // spin turns before a look-back falls back (0: at once)
  uint32_t lookbackWithheld;  // one tile in N publishes no status (torture); 0: none
  uint32_t permutation;       // PipelineKey::permutation
};

// The variant of the pipeline `key` (normalized) names.
KernelVariant decideVariant(const Tuning& t, const PipelineKey& key);

// The specialization constants of a variant, by constant_id (VKSORT_SPEC_*): `value(id)`.
uint32_t specializationValue(const KernelVariant& v, uint32_t constantId);
// Every constant_id the kernels declare, ascending.
extern const uint32_t kSpecializationIds[23];

// The variant as one line of text: its module and the switches of the constants it declares
// (`declared`: modules.hpp's specIdsOf()).
std::string describeVariant(const KernelVariant& v, const std::vector<uint32_t>& declared);

}  // namespace vksort::detail
