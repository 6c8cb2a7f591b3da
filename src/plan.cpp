#include "plan.hpp"

#include <algorithm>
#include <cstdio>

#include "modules.hpp"
#include "shader_interface.h"

namespace vksort::detail {
namespace {

uint32_t divideUp(uint32_t a, uint32_t b) { return uint32_t((uint64_t(a) + b - 1) / b); }

const char* roleName(Role r) {
  static const char* const kNames[kRoleBinning] = {"init",      "histogram",          "scan",        "copy-back",
                                                   "tile scan", "one-workgroup sort", "chained sort"};
  return r < kRoleBinning ? kNames[r] : r < kRoleUpsweep ? "binning" : r < kRoleSkewed ? "upsweep" : "skewed binning";
}

}  // namespace

const char* keyTypeName(KeyType k) {
  switch (k) {  // every type named (no default: a new one warns)
    case KeyType::u32: return "u32";
    case KeyType::i32: return "i32";
    case KeyType::f32: return "f32";
    case KeyType::u64: return "u64";
    case KeyType::i64: return "i64";
    case KeyType::f64: return "f64";
  }
  return "?";
}

uint32_t passCount(const SortConfig& c) { return (c.endBit - c.beginBit + kRadixBits - 1) / kRadixBits; }

uint32_t binningDispatches(const SortConfig& c) { return passCount(c) + passCount(c) % 2; }

uint32_t digitWordOf(const SortConfig& c, uint32_t pass) {
  if (keyBytes(c.keyType) != 8) return kDigitAnyWord;
  const uint32_t begin = c.beginBit + pass * kRadixBits, end = std::min(begin + kRadixBits, c.endBit);
  return end <= 32 ? kDigitLowWord : begin >= 32 ? kDigitHighWord : kDigitAnyWord;
}

namespace {

// The pipelines of the plan `p` (its other fields set), by role: kKernelCount where it uses none.
void choosePipelines(SortPlan* p, bool onesweep) {
  const SortConfig& c = p->config;
  const uint32_t keyType = uint32_t(c.keyType), valueType = uint32_t(c.valueType);
  for (PipelineKey& k : p->pipelines) k = {kKernelCount, 0, 0, 0, false, kDigitAnyWord, false};
  p->pipelines[kRoleInit] = {kInit, 0, 0, 0, false, kDigitAnyWord, false};
  p->pipelines[kRoleHistogram] = {kHistogram, keyType, 0, 0, false, kDigitAnyWord, false};
  p->pipelines[kRoleScan] = {kScan, 0, 0, 0, false, kDigitAnyWord, false};
  for (uint32_t pass = 0; !p->chained && pass < p->passes; ++pass) {
    const uint32_t word = digitWordOf(c, pass);
    p->pipelines[kRoleBinning + word] = {
        onesweep ? kBinning : kDownsweep, keyType, valueType, p->tier, p->fitted, word, false};
    if (!onesweep) p->pipelines[kRoleUpsweep + word] = {kUpsweep, keyType, valueType, p->tier, false, word, false};
    if (p->skewedFrom != 0)
      p->pipelines[kRoleSkewed + word] = {kBinning, keyType, valueType, p->tier, false, word, true};
  }
  if (!onesweep && !p->chained) p->pipelines[kRoleTileScan] = {kTileScan, 0, 0, 0, false, kDigitAnyWord, false};
  if (p->smallKeys != 0)
    p->pipelines[kRoleSmall] = {kSmallSort, keyType, valueType, p->smallTier, false, kDigitAnyWord, false};
  if (p->chained) p->pipelines[kRoleChained] = {kChained, keyType, valueType, p->tier, false, kDigitAnyWord, false};
  p->pipelines[kRoleCopyBack] = {kCopyBack, 0, 0, 0, false, kDigitAnyWord, false};
  for (PipelineKey& k : p->pipelines) k.permutation = permutationFlags(c);
}

}  // namespace

SortPlan planSort(const Tuning& t, const SortConfig& c, uint32_t count, uint32_t maxCount, bool indirect) {
  SortPlan p{};
  p.config = c;
  p.indirect = indirect;
  p.scratch = scratchLayout(t, c, maxCount);
  p.count = count;
  p.span = indirect ? maxCount : count;
  p.passes = passCount(c);
  const bool onesweep = t.algorithm == Algorithm::onesweep;
  const uint32_t words = elementWords(c);
  p.tier = t.tierOf(p.span);
  p.tile = t.tileFor(tileClass(c), p.span);
  p.chained = !indirect && t.chains(c, p.span);
  // Direct sorts know their count here: their tiles may be fitted to whole waves.
  p.tileKeys = indirect || p.chained ? p.tile.keys() : t.fittedTileKeys(p.tile, p.span);
  p.fitted = p.tileKeys != p.tile.keys();
  p.smallTier = t.smallTileOf(words, p.span, p.passes);
  p.smallKeys = std::min(t.smallSortKeys[words - 1], t.smallTiles[p.smallTier][words - 1].keys());
  p.smallOnly = p.span <= p.smallKeys;
  p.portionKeys = onesweep ? t.portionKeys(p.tileKeys) : ~0u;
  p.portions = onesweep ? divideUp(p.span, p.portionKeys) : 1;
  // Histogram workgroups: up to histogramTilesPerWorkgroup tiles each, fewer where that leaves
  // fewer than histogramMinWorkgroups of them (each workgroup reads its tiles in sequence).
  p.histogramGroupTiles =
      std::clamp(divideUp(p.span, p.tileKeys) / t.histogramMinWorkgroups, 1u, t.histogramTilesPerWorkgroup);
  // A scatter's byte offset may pass 2^31 (addressing.glsl), or the tuning asks for 64-bit addresses.
  const uint64_t elementBytes = std::max(keyBytes(c.keyType), valueBytes(c.valueType));
  p.wideAddresses = uint64_t(p.span) * elementBytes > 0x7FFFFFFFull || p.span >= t.wideAddressesFrom;
  // Passes choose their kernel where the tile has a skewed form (not for tiles fitted to waves,
  // whose kernel has none, nor the chained sort's one dispatch), up to kMaxChoosingPasses.
  p.skewedFrom =
      onesweep && !p.chained && !p.fitted && !p.smallOnly && p.passes <= kMaxChoosingPasses ? p.tile.skewedFrom : 0;
  // The scan classes each pass (kPass*) by these: the tile's hot-digit shares (read only by
  // binning kernels that count hot digits: KernelVariant::hotDigits) and the skewed form's.
  p.passShares = p.tile.hotDigitFrom << kShareHotFrom | p.tile.hotDigitTo << kShareHotTo |
                 p.tile.hotRankTo << kShareRankedTo | p.skewedFrom << kShareSkewedFrom;

  choosePipelines(&p, onesweep);

  // The dispatches. A grid that depends on the count comes, for an indirect sort, from the
  // arguments the init kernel wrote into the header.
  auto add = [&](Role role, uint32_t groups, uint32_t slot, bool stamp) -> PlannedDispatch& {
    p.dispatches.push_back({.role = role,
                            .pass = 0,
                            .portion = 0,
                            .dispatchIndex = 0,
                            .groups = groups,
                            .indirectWord = indirect && slot != kDirectGrid ? kHeaderDispatch + slot * 4 : kDirectGrid,
                            .barrierBefore = false,
                            .barrierAfter = kBarrierNone,
                            .timestampAfter = stamp});
    return p.dispatches.back();
  };
  if (p.smallOnly && !indirect) {  // the whole sort in one workgroup
    add(kRoleSmall, 1, kDirectGrid, false);
    return p;
  }
  add(kRoleInit, 1, kDirectGrid, true).barrierAfter = indirect ? kBarrierIndirect : kBarrierCompute;
  if (indirect && p.smallKeys != 0) {  // the GPU picks: this, or the grids below
    PlannedDispatch& small = add(kRoleSmall, 1, kDispatchSmall, false);
    if (p.smallOnly) return p;
    small.barrierAfter = kBarrierCompute;
  }
  const uint32_t tiles = divideUp(count, p.tileKeys);
  const uint32_t histogramGroups = divideUp(tiles, p.histogramGroupTiles);
  if (p.chained) {
    add(kRoleChained, histogramGroups + p.passes * tiles, kDirectGrid, true);
  } else {
    add(kRoleHistogram, histogramGroups, kDispatchHistogram, true).barrierAfter = kBarrierCompute;
    // (The scan writes the grids of passes that choose their kernel.)
    add(kRoleScan, p.passes, kDirectGrid, true).barrierAfter = p.skewedFrom != 0 ? kBarrierIndirect : kBarrierCompute;
    if (onesweep) {
      // Per pass one dispatch per portion; look-back words alternate between two regions from
      // dispatch to dispatch, each dispatch clearing the next one's. A direct sort's grid is its
      // portion's tiles, or if more the next dispatch's, whose words it clears.
      auto tilesOf = [&](uint32_t portion) {
        return divideUp(std::min(count - portion * p.portionKeys, p.portionKeys), p.tileKeys);
      };
      uint32_t dispatchIndex = 0;
      for (uint32_t pass = 0; pass < p.passes; ++pass)
        for (uint32_t portion = 0; portion < p.portions; ++portion, ++dispatchIndex) {
          const bool last = pass + 1 == p.passes && portion + 1 == p.portions;
          const uint32_t next = portion + 1 < p.portions ? portion + 1 : 0;
          const uint32_t groups = indirect ? 0 : std::max(tilesOf(portion), last ? 0 : tilesOf(next));
          const uint32_t word = digitWordOf(c, pass);
          PlannedDispatch& d = add(Role(kRoleBinning + word), groups, kDispatchBinning, portion + 1 == p.portions);
          d.pass = pass;
          d.portion = portion;
          d.dispatchIndex = dispatchIndex;
          d.barrierAfter = last ? kBarrierNone : kBarrierCompute;
          if (p.skewedFrom == 0) continue;
          // Both kernels, the one the scan gave no workgroups doing nothing: no barrier between.
          PlannedDispatch skewed = d;
          skewed.role = Role(kRoleSkewed + word);
          skewed.indirectWord = kHeaderPassGrids + 6 * pass + 3;
          d.indirectWord = kHeaderPassGrids + 6 * pass;
          d.barrierAfter = kBarrierNone;
          d.timestampAfter = false;
          p.dispatches.push_back(skewed);
        }
    } else {
      // Per pass an upsweep of per-tile digit counts into the tile table, a scan of it per digit,
      // and a downsweep that ranks and scatters. No workgroup waits on another.
      for (uint32_t pass = 0; pass < p.passes; ++pass) {
        const uint32_t word = digitWordOf(c, pass);
        PlannedDispatch& up = add(Role(kRoleUpsweep + word), tiles, kDispatchTiles, false);
        up.pass = pass;
        up.barrierAfter = kBarrierCompute;
        add(kRoleTileScan, kRadix, kDirectGrid, false).barrierAfter = kBarrierCompute;
        PlannedDispatch& down = add(Role(kRoleBinning + word), tiles, kDispatchTiles, true);
        down.pass = pass;
        down.barrierAfter = pass + 1 < p.passes ? kBarrierCompute : kBarrierNone;
      }
    }
  }
  if (p.passes % 2 == 1)  // the result is in the scratch copies
    add(kRoleCopyBack, divideUp(count, kCopyBackWorkgroup), kDispatchCopyBack, true).barrierBefore = true;
  return p;
}

std::vector<PipelineKey> pipelinesUpTo(const Tuning& t, const SortConfig& c, uint32_t maxCount) {
  // A plan's pipelines change only where a count crosses one of these: a tier's start, a
  // one-workgroup tile's keys, the chained sort's limit (and its portion), so the plans at
  // each boundary and just below it, direct and indirect, hold every pipeline. Fitting a tile to
  // waves changes with the count inside a tier: both binning forms of a tier that fits are taken.
  std::vector<uint32_t> counts = {1, maxCount};
  auto boundary = [&](uint64_t n) {
    if (n >= 1 && n <= maxCount) counts.push_back(uint32_t(n));
    if (n >= 2 && n - 1 <= maxCount) counts.push_back(uint32_t(n - 1));
  };
  for (uint32_t i = 0; i < t.tierCount; ++i) {
    boundary(t.tiers[i].from);
    for (const TileShape& shape : t.tiers[i].shape) boundary(uint64_t(t.portionKeys(shape.keys())) + 1);
  }
  for (uint32_t w = 0; w < 2; ++w) {
    boundary(uint64_t(t.smallSortKeys[w]) + 1);
    for (uint32_t i = 0; i < t.smallTileCount[w]; ++i) boundary(uint64_t(t.smallTiles[i][w].keys()) + 1);
  }
  boundary(uint64_t(t.chainedUpTo) + 1);
  boundary(uint64_t(t.chainedUpTo / 2) + 1);

  std::vector<PipelineKey> keys;
  auto take = [&](const PipelineKey& k) {
    if (k.kernel != kKernelCount && std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  };
  for (uint32_t count : counts)
    for (bool indirect : {false, true}) {
      const SortPlan p = planSort(t, c, count, count, indirect);
      for (const PipelineKey& k : p.pipelines) {
        take(k);
        const bool binning = k.kernel == kBinning;
        if (binning && !k.skewed && t.fitsWaves(p.tile))
          take({k.kernel, k.keyType, k.valueType, k.tier, !k.fitted, k.digitWord, false, k.permutation});
      }
    }
  return keys;
}

std::string describePlan(const Tuning& t, const SortPlan& p) {
  std::string out;
  char line[256];
  const SortConfig& c = p.config;
  std::snprintf(line, sizeof line, "sort of %u %s keys%s%s%s, %s, bits [%u, %u): %u passes, %s, %s\n", p.count,
                keyTypeName(c.keyType),
                c.valueType == ValueType::none    ? ""
                : c.valueType == ValueType::u32   ? " with u32 values"
                : c.valueType == ValueType::index ? " with their indices"
                                                  : " with u64 values",
                c.discardKeys ? " (only the values out)" : "", p.indirect ? " (indirect: at most)" : "",
                c.order == SortOrder::ascending ? "ascending" : "descending", c.beginBit, c.endBit, p.passes,
                t.algorithm == Algorithm::onesweep ? "Onesweep" : "reduce-then-scan",
                p.smallOnly ? "in one workgroup"
                : p.chained ? "chained in one dispatch"
                            : "one dispatch per pass");
  out += line;
  std::snprintf(line, sizeof line,
                "tile class %s, tier %u (from %u keys): %u x %u keys in %u round%s, %u keys per tile%s; "
                "one-workgroup sort up to %u keys%s%s\n",
                className(tileClass(c)), p.tier, t.tiers[p.tier].from, p.tile.workgroupSize, p.tile.keysPerInvocation,
                p.tile.reorderRounds, p.tile.reorderRounds == 1 ? "" : "s", p.tileKeys,
                p.fitted ? " (fitted to whole waves)" : "", p.smallKeys, p.portions > 1 ? "; portions of " : "",
                p.portions > 1 ? (std::to_string(p.portionKeys) + " keys").c_str() : "");
  out += line;
  if (t.algorithm == Algorithm::onesweep && !p.chained && !p.smallOnly && p.tile.hotDigitFrom != 0) {
    std::snprintf(line, sizeof line, "the scan classes a pass hot where one digit holds %u-%u%% of its keys%s\n",
                  p.tile.hotDigitFrom, p.tile.hotDigitTo,
                  p.tile.hotRankTo == 0 || t.ranking != Ranking::atomics
                      ? ""
                      : (" (to " + std::to_string(p.tile.hotRankTo) + "% ranked a step at a time)").c_str());
    out += line;
  }
  if (p.skewedFrom != 0) {
    std::snprintf(line, sizeof line,
                  "each pass runs the tile's skewed form where one digit holds %u%% of its keys, the scan choosing\n",
                  p.skewedFrom);
    out += line;
  }
  out += "why: ";
  out += t.tiers[p.tier].why[tileClass(c)] ? t.tiers[p.tier].why[tileClass(c)] : "";
  if (const float gain = t.tiers[p.tier].tunedSpeedup[tileClass(c)]; gain != 0) {
    std::snprintf(line, sizeof line, ", %.2fx the built-in row's speed where it was measured", double(gain));
    out += line;
  }
  out += '\n';
  uint32_t n = 0;
  for (const PlannedDispatch& d : p.dispatches) {
    const PipelineKey& key = p.pipelines[d.role];
    const KernelVariant v = decideVariant(t, normalizedKey(t, key));
    std::string what = roleName(d.role);
    if (d.role >= kRoleBinning) {
      what = key.kernel == kDownsweep ? "downsweep"
             : key.kernel == kUpsweep ? "upsweep"
             : key.skewed             ? "skewed"
                                      : "binning";
      what += " pass " + std::to_string(d.pass);
      if (p.portions > 1 && key.kernel == kBinning) what += " portion " + std::to_string(d.portion);
    }
    const std::string grid = p.skewedFrom != 0 && d.role >= kRoleBinning ? "grid from the scan"
                             : d.indirectGrid()
                                 ? "grid from the GPU's count"
                                 : std::to_string(d.groups) + (d.groups == 1 ? " workgroup" : " workgroups");
    std::snprintf(line, sizeof line, "%2u. %-22s %-22s ", ++n, what.c_str(), grid.c_str());
    out += line;
    out += describeVariant(v, specIdsOf(v.module));
    out += '\n';
  }
  return out;
}

}  // namespace vksort::detail
