// The plan of one sort: which pipelines it uses and its dispatches in order, decided from the
// tuning and the sort alone (no Vulkan). The recorder walks it; describeSort() prints it.
#pragma once
#include <string>
#include <vector>

#include "for_tuner.hpp"
#include "scratch_layout.hpp"
#include "tuning.hpp"
#include "variant.hpp"

namespace vksort::detail {

// Binning passes of a sort: one per 8-bit digit of its bit range.
uint32_t passCount(const SortConfig& config);
// "u32", "f32", ... ("?" for a value that names no type).
VKSORT_FOR_TUNER const char* keyTypeName(KeyType k);
// A permutation sort's forms as the kernels know them (kFlagIndexValues | kFlagDiscardKeys): the
// push constants' flags and, for the pipelines that compile them in, PipelineKey::permutation.
inline uint32_t permutationFlags(const SortConfig& c) {
  return (c.valueType == ValueType::index ? kFlagIndexValues : 0) | (c.discardKeys ? kFlagDiscardKeys : 0);
}

// Dispatches before the binning passes: init, histogram, scan.
constexpr uint32_t kFixedDispatches = 3;

// Dispatches of a sort after the fixed ones: the passes, and a copy-back after an odd number.
uint32_t binningDispatches(const SortConfig& config);

// The word of 64-bit keys that holds a pass's digit (kDigit*Word), its bits above the range's end
// left out: the binning pipeline the pass runs. 32-bit keys: kDigitAnyWord.
uint32_t digitWordOf(const SortConfig& config, uint32_t pass);

// The pipelines a sort uses, by role (a role it does not use: kKernelCount).
enum Role : uint32_t {
  kRoleInit,
  kRoleHistogram,
  kRoleScan,
  kRoleCopyBack,
  kRoleTileScan,
  kRoleSmall,
  kRoleChained,
  kRoleBinning,                               // + digit word (kDigitWords of them)
  kRoleUpsweep = kRoleBinning + kDigitWords,  // + digit word
  kRoleSkewed = kRoleUpsweep + kDigitWords,   // + digit word: Onesweep's binning of skewed passes
  kRoles = kRoleSkewed + kDigitWords
};

// The barrier after a dispatch: none, compute to compute, or compute to compute and to indirect
// dispatch arguments (after init, which writes an indirect sort's grids).
enum Barrier : uint32_t { kBarrierNone, kBarrierCompute, kBarrierIndirect };

// One dispatch of a sort.
struct PlannedDispatch {
  Role role;
  uint32_t pass;           // binning, upsweep, downsweep: the pass
  uint32_t portion;        // Onesweep binning: the portion of the count
  uint32_t dispatchIndex;  // Onesweep binning: binning dispatches of the sort before it
  uint32_t groups;         // workgroups of a direct grid (an indirect grid's: for the count given)
  uint32_t indirectWord;   // the header word of the dispatch arguments it reads, or kDirectGrid
  bool barrierBefore;      // a compute barrier before it
  Barrier barrierAfter;
  bool timestampAfter;  // a profiling timestamp after it (and after its barrier)
  bool indirectGrid() const { return indirectWord != ~0u; }
};
constexpr uint32_t kDirectGrid = ~0u;

struct SortPlan {
  SortConfig config;
  bool indirect;
  uint32_t count;  // keys sorted (indirect sorts: at most this many, maxCount)
  uint32_t span;   // keys the recording covers: count, or an indirect sort's maxCount
  uint32_t passes;
  TileShape tile;  // the binning tile of the sort's tier
  uint32_t tier;
  uint32_t tileKeys;  // tile.keys(), or fewer for tiles fitted to whole waves
  bool fitted;
  bool chained;        // histogram, scan and every pass in one dispatch
  uint32_t smallKeys;  // sorts up to this many keys run as one workgroup (0: none)
  uint32_t smallTier;
  bool smallOnly;        // a direct sort that runs as one workgroup alone
  uint32_t portionKeys;  // Onesweep: keys of a full portion
  uint32_t portions;
  uint32_t histogramGroupTiles;   // binning tiles per histogram workgroup
  bool wideAddresses;             // scatters compute 64-bit addresses
  uint32_t skewedFrom;            // each pass chooses on the GPU between the tile and its skewed form,
                                  // this percent of its keys in one digit taking the latter (0: no choice)
  uint32_t passShares;            // the percents the scan classes each pass by (SortPush::passShares)
  ScratchLayout scratch;          // where each part of the scratch lies, for maxCount keys
  PipelineKey pipelines[kRoles];  // kernel kKernelCount: the role is not used
  std::vector<PlannedDispatch> dispatches;
};

// The plan of a sort of `count` keys (an indirect sort: up to maxCount) with `config`.
VKSORT_FOR_TUNER SortPlan planSort(const Tuning& t, const SortConfig& config, uint32_t count, uint32_t maxCount,
                                   bool indirect);

// Every pipeline that sorts with `config` may use, direct or indirect, of any count up to
// maxCount (an indirect sort's maxCount too): what prepareSorts() builds.
std::vector<PipelineKey> pipelinesUpTo(const Tuning& t, const SortConfig& config, uint32_t maxCount);

// The plan as text: the sort's tile and path, then each dispatch with its grid and the variant
// of its pipeline (describeVariant()).
std::string describePlan(const Tuning& t, const SortPlan& plan);

}  // namespace vksort::detail
