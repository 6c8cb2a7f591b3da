#include "tuning.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "shader_interface.h"

namespace vksort::detail {
namespace {

constexpr uint32_t kVendorAmd = 0x1002;
constexpr uint32_t kVendorNvidia = 0x10DE;
constexpr uint32_t kVendorIntel = 0x8086;

struct Preferred {
  uint32_t subgroupSize;
  uint32_t workgroupSize;
  uint32_t keysPerInvocation;      // 32-bit keys and values
  uint32_t wideKeysPerInvocation;  // 64-bit keys or values: the same shared memory per tile
  uint32_t histogramTilesPerWorkgroup;
  bool partitionedRanking = false; // where the device has it
  bool lookbackPlainLoads = false; // measured on NVIDIA only; atomics are the safe default
  uint32_t lookbackWindow = 4;      // predecessors read at once
  bool persistentTiles = false;     // measured on NVIDIA only (it hung lavapipe: onesweep.glsl)
  uint32_t histogramCopies = 1;
  uint32_t histogramWorkgroupSize = 0;    // 0: the binning workgroup's
  uint32_t portionTiles = 0;
  uint32_t wideAddressesFrom = ~0u;
  uint32_t smallSortKeys = 2048;          // the one-workgroup sort up to this count
  uint32_t smallKeysPerInvocation = 4;    // its tile: few keys per invocation, short rank loops
  uint32_t smallWorkgroupSize = 0;        // 0: the binning workgroup's
  Algorithm algorithm = Algorithm::automatic;  // the environment's override of the caller's
  uint32_t reorderRounds = 1;             // binning tiles go through shared memory in this many parts
  uint32_t wideReorderRounds = 1;         // the same for 64-bit keys or values
  uint32_t largeTileFrom = ~0u;           // sorts of at least this many keys use the large tiles:
  TileShape largeTile = {0, 0, 1};        // 32-bit keys and values (0: the smaller sorts' shape)
  TileShape largeWideTile = {0, 0, 1};    // 64-bit keys or values
  uint32_t histogramMinWorkgroups = 256;  // small sorts: fewer tiles per histogram workgroup
};

// Starting points per vendor. NVIDIA, measured on an H100 (driver 580): the driver keeps about
// 50 KiB of shared memory per SM for compute (a 19.5 KiB workgroup ran 2 per SM, a 25.6 KiB one 1),
// so the binning workgroup takes the whole 48 KiB as one large tile: 512 x 18 keys (9216; 16-bit
// subgroup counters leave room for it) beat 512 x 14 by 6% and 384 x 20-24 by 8-13% for u32 keys
// and pairs at 2^26; 64-bit keys or values: 512 x 9 (7.62 ms for keys64 at 2^26; 512 x 7 8.51).
// Plain look-back loads beat atomic ones by 1-2%; ballots beat subgroupPartitionNV by 1.3x;
// histogram counter copies cost 45%; 16 or 32 histogram tiles per workgroup were slower; look-back
// windows of 1, 8, 12, 16 lost to 4. The one-workgroup sort, pairs32 (512 x 4 keys beat 512 x 1,
// x 2, x 8 and 1024 x 4 up to 2048 keys): 0.021 ms at 2048 keys (one tile), 0.042 at 4096 (two;
// 1024 x 4 or 512 x 8: 0.030, but 0.028 at 1000-2048) against ~0.06 for the multi-dispatch sort,
// which wins from about 6000 keys. Sorts from 2^23 keys: larger tiles, through shared memory in
// 2 rounds (binning.glsl); at 2^26, 1024 x 16 keys (keys32 2.35 ms vs 2.46, pairs32 3.59 vs
// 3.67; 1024 x 12, 18, 20 and 512 x 32-36 lost, 3 rounds lost by 30%), 64-bit 768 x 12 (keys64
// 7.08 vs 7.62, pairs64v32 9.12 vs 10.75; 512 x 16 and 1024 x 8-12 lost one or the other). Below
// 2^23 they lose or tie (fewer tiles than SMs: keys32 at 2^20 0.13 ms vs 0.09; keys64 at 2^22
// 9% slower, keys32 at 2^23 4%) but pairs gain (pairs64v32 11% at 2^23). Others: untested
// shapes sized for their shared memory (AMD/Intel 64 KiB), wave64 on AMD.

Preferred preferredFor(const DeviceCaps& caps) {
  switch (caps.vendorId) {
    case kVendorNvidia: {
      Preferred p{32, 512, 18, 9, 8, false, true};
      p.smallSortKeys = 4096;
      p.persistentTiles = true;
      p.largeTileFrom = 1u << 23;
      p.largeTile = {1024, 16, 2};
      p.largeWideTile = {768, 12, 2};
      return p;
    }
    case kVendorAmd: return {64, 256, 16, 8, 8};
    case kVendorIntel: return {16, 256, 8, 4, 8};
    default: return {caps.subgroupSize, 256, 8, 4, 8};
  }
}

// VKSORT_TUNING=name=value,...: a developer's override of `want`, for measuring shapes.
void applyOverride(Preferred* want) {
  const char* env = std::getenv("VKSORT_TUNING");
  for (const char* p = env; p && *p;) {
    const char* eq = std::strchr(p, '=');
    if (!eq) break;
    uint32_t value = uint32_t(std::strtoul(eq + 1, nullptr, 10));
    auto is = [&](const char* name) { return size_t(eq - p) == std::strlen(name) && std::strncmp(p, name, eq - p) == 0; };
    if (is("workgroup")) want->workgroupSize = value;
    else if (is("keys")) want->keysPerInvocation = value;
    else if (is("wide_keys")) want->wideKeysPerInvocation = value;
    else if (is("rounds")) want->reorderRounds = value;
    else if (is("wide_rounds")) want->wideReorderRounds = value;
    else if (is("large_from")) want->largeTileFrom = value;
    else if (is("large_workgroup")) want->largeTile.workgroupSize = value;
    else if (is("large_keys")) want->largeTile.keysPerInvocation = value;
    else if (is("large_rounds")) want->largeTile.reorderRounds = value;
    else if (is("large_wide_workgroup")) want->largeWideTile.workgroupSize = value;
    else if (is("large_wide_keys")) want->largeWideTile.keysPerInvocation = value;
    else if (is("large_wide_rounds")) want->largeWideTile.reorderRounds = value;
    else if (is("portion_tiles")) want->portionTiles = value;
    else if (is("wide_from")) want->wideAddressesFrom = value;
    else if (is("small_keys")) want->smallSortKeys = value;
    else if (is("small_kpi")) want->smallKeysPerInvocation = value;
    else if (is("small_workgroup")) want->smallWorkgroupSize = value;
    else if (is("algorithm") && value <= uint32_t(Algorithm::reduceThenScan)) want->algorithm = Algorithm(value);
    else if (is("histogram_tiles")) want->histogramTilesPerWorkgroup = value;
    else if (is("histogram_min_groups")) want->histogramMinWorkgroups = value;
    else if (is("partitioned")) want->partitionedRanking = value != 0;
    else if (is("plain_loads")) want->lookbackPlainLoads = value != 0;
    else if (is("lookback_window")) want->lookbackWindow = value;
    else if (is("persistent")) want->persistentTiles = value != 0;
    else if (is("histogram_copies")) want->histogramCopies = value;
    else if (is("histogram_workgroup")) want->histogramWorkgroupSize = value;
    else if (is("subgroup")) want->subgroupSize = value;
    const char* comma = std::strchr(eq, ',');
    p = comma ? comma + 1 : nullptr;
  }
}

}  // namespace

// Drivers trusted with forward progress between workgroups, by VkDriverId (Vulkan 1.2), else by
// vendor. Every other device (MoltenVK, Qualcomm, ARM, Imagination, Broadcom, Turnip, PanVK,
// unknown ones) runs reduce-then-scan. Not lavapipe: Onesweep there sorted 4M keys wrongly in
// about half the runs on a loaded 2-core machine (and ~1 in 10 unloaded at subgroup size 4),
// while reduce-then-scan never did; the cause is not found (README, "Supported devices").
bool trustsForwardProgress(const DeviceCaps& caps) {
  if (caps.driverId == VkDriverId(0))  // a Vulkan 1.1 device: by vendor
    return caps.vendorId == kVendorNvidia || caps.vendorId == kVendorAmd;
  switch (caps.driverId) {
    case VK_DRIVER_ID_NVIDIA_PROPRIETARY:
    case VK_DRIVER_ID_AMD_PROPRIETARY:
    case VK_DRIVER_ID_AMD_OPEN_SOURCE:
    case VK_DRIVER_ID_MESA_RADV:
    case VK_DRIVER_ID_INTEL_PROPRIETARY_WINDOWS:
    case VK_DRIVER_ID_INTEL_OPEN_SOURCE_MESA:
      return true;
    default:
      return false;
  }
}

uint32_t Tuning::portionKeys(uint32_t tileKeys) const {
  uint32_t tiles = kMaxPortionKeys / tileKeys;
  if (portionTiles != 0 && portionTiles < tiles) tiles = portionTiles;
  return tiles * tileKeys;
}

uint32_t binningSharedBytes(const Tuning& t, const TileShape& shape, uint32_t elementWords) {
  uint32_t maxSubgroups = shape.workgroupSize / t.minSubgroupSize;
  uint32_t rounds = shape.reorderRounds;
  uint32_t reorder = shape.keys() / rounds * elementWords;  // the reorder area
  uint32_t counters = maxSubgroups * kRadix / 2;  // 16-bit subgroup counters
  // s_tile and s_subgroupCounts: with several rounds the counters are in s_tile's words (and
  // s_subgroupCounts is one word).
  uint32_t words = (rounds > 1 ? std::max(reorder, counters) + 1 : reorder + counters)
                   + 3 * kRadix                 // s_digitCount, s_digitDest, s_digitScan
                   + maxSubgroups               // s_subgroupTotals
                   + 2;                         // s_ticket, s_uniformDigit
  return words * 4;
}

Tuning chooseTuning(const DeviceCaps& caps, Algorithm requested) {
  Preferred want = preferredFor(caps);
  applyOverride(&want);
  Tuning t{};
  if (caps.canRequireSubgroupSize) {
    t.subgroupSize = std::clamp(want.subgroupSize, caps.minSubgroupSize, caps.maxSubgroupSize);
    t.requireSubgroupSize = true;
    t.minSubgroupSize = t.subgroupSize;
  } else {
    // Without size control, SPIR-V 1.5 compute shaders run at the device's subgroupSize.
    t.subgroupSize = caps.subgroupSize;
    t.requireSubgroupSize = false;
    t.minSubgroupSize = std::min(caps.subgroupSize, caps.minSubgroupSize);
  }
  t.workgroupSize = std::max(want.workgroupSize, t.subgroupSize);
  t.tile[0] = {t.workgroupSize, std::max(want.keysPerInvocation, 1u), want.reorderRounds};
  t.tile[1] = {t.workgroupSize, std::max(want.wideKeysPerInvocation, 1u), want.wideReorderRounds};
  t.histogramTilesPerWorkgroup = std::max(want.histogramTilesPerWorkgroup, 1u);
  t.histogramMinWorkgroups = std::max(want.histogramMinWorkgroups, 1u);
  t.partitionedRanking = want.partitionedRanking && caps.partitionedSubgroups;
  t.lookbackPlainLoads = want.lookbackPlainLoads;
  t.lookbackWindow = std::clamp(want.lookbackWindow, 1u, 16u);
  t.persistentTiles = want.persistentTiles;
  // Without a required size the device may run any size up to its maximum.
  t.ballotWords = ((t.requireSubgroupSize ? t.subgroupSize : caps.maxSubgroupSize) + 31) / 32;
  t.histogramCopies = std::clamp(want.histogramCopies, 1u, 8u);
  t.portionTiles = want.portionTiles;
  t.wideAddressesFrom = want.wideAddressesFrom;
  t.smallSortKeys = want.smallSortKeys;
  if (want.algorithm != Algorithm::automatic) requested = want.algorithm;
  t.algorithm = requested != Algorithm::automatic ? requested
                : trustsForwardProgress(caps)     ? Algorithm::onesweep
                                                  : Algorithm::reduceThenScan;

  // Shapes fitted to the device, halving what takes more shared memory: the workgroup where the
  // subgroup counters do (their rows grow with workgroupSize / minSubgroupSize, which small
  // subgroups, lavapipe's 4, make large), else the keys per invocation, in whole rounds. Tiles
  // below 2^16 keys: binning.glsl packs places in 16 bits.
  auto fits = [&](const TileShape& c, uint32_t words) {
    return c.workgroupSize <= caps.maxWorkgroupInvocations && binningSharedBytes(t, c, words) <= caps.maxSharedMemory &&
           c.keys() <= 0x10000u &&
           (!t.requireSubgroupSize || c.workgroupSize / t.subgroupSize <= caps.maxWorkgroupSubgroups);
  };
  auto fit = [&](TileShape* c, uint32_t words, bool shrinkWorkgroup) {
    auto wholeRounds = [&] {
      c->reorderRounds = std::clamp(c->reorderRounds, 1u, std::min(c->keysPerInvocation, 8u));
      c->keysPerInvocation -= c->keysPerInvocation % c->reorderRounds;
    };
    wholeRounds();
    while (!fits(*c, words)) {
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
  };
  // One workgroup size for both widths (the scan's too), fitted to the 32-bit tile.
  fit(&t.tile[0], 1, true);
  t.workgroupSize = t.tile[1].workgroupSize = t.tile[0].workgroupSize;
  fit(&t.tile[1], 2, false);
  // The large tiles: the smaller sorts' where not given.
  t.largeTileFrom = want.largeTileFrom;
  const TileShape* largeWant[2] = {&want.largeTile, &want.largeWideTile};
  for (uint32_t words : {1u, 2u}) {
    const TileShape& w = *largeWant[words - 1];
    TileShape& large = t.largeTile[words - 1];
    large = t.tile[words - 1];
    if (w.workgroupSize != 0) large.workgroupSize = std::max(w.workgroupSize, t.subgroupSize);
    if (w.keysPerInvocation != 0) large.keysPerInvocation = w.keysPerInvocation;
    if (w.workgroupSize != 0 || w.keysPerInvocation != 0) large.reorderRounds = w.reorderRounds;
    fit(&large, words, true);
  }
  // The one-workgroup sort (binning.glsl's shared memory too): one round, its own workgroup.
  const uint32_t smallWorkgroup = want.smallWorkgroupSize == 0 ? t.workgroupSize : std::max(want.smallWorkgroupSize, t.subgroupSize);
  const uint32_t smallKeys = std::max(want.smallKeysPerInvocation, 1u);
  t.smallTile[0] = {smallWorkgroup, smallKeys, 1};
  fit(&t.smallTile[0], 1, true);
  t.smallTile[1] = {t.smallTile[0].workgroupSize, smallKeys, 1};
  fit(&t.smallTile[1], 2, false);
  t.histogramWorkgroupSize = want.histogramWorkgroupSize == 0 ? t.workgroupSize
                             : std::clamp(want.histogramWorkgroupSize, t.subgroupSize, caps.maxWorkgroupInvocations);
  while (t.histogramCopies > 1 && t.histogramCopies * kMaxPasses * kRadix * 4 > caps.maxSharedMemory)
    t.histogramCopies /= 2;
  return t;
}

}  // namespace vksort::detail
