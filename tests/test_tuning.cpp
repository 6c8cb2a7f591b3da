// The tuning as data: what chooseTuning() picks for a device's properties, without a device.
// The choices measured on NVIDIA (look-back plain loads and stores, atomic ranking, persistent
// tiles) are where a silent mistake costs speed and no sort test can see it: a positional
// initializer once shifted NVIDIA's plain loads onto another field, and every sort still passed
// (H100: keys32 5-9% slower, session 29).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "device_caps.hpp"
#include "fake_devices.hpp"
#include "plan.hpp"
#include "tuning.hpp"
#include "tuning_override.hpp"
#include "variant.hpp"

using vksort::Algorithm;
using vksort::detail::chooseTuning;
using vksort::detail::DeviceCaps;
using vksort::detail::Tuning;
using vksort_test::capsOf;
using vksort_test::h100;
using vksort_test::rdna;

namespace {

// How the binning pipeline of a tier's pairs with 64-bit values ranks (variant.hpp).
vksort::detail::Ranking widePairsRanking(const Tuning& t, uint32_t tier) {
  using namespace vksort::detail;
  const Kernel k = t.algorithm == Algorithm::onesweep ? kBinning : kDownsweep;
  return decideVariant(t, normalizedKey(t, {k, kKeyU32, uint32_t(vksort::ValueType::u64), tier, false, kDigitAnyWord})).ranking;
}

// Whether every binning tile of every tier reads the look-back with plain loads (`plain`) or
// every one with atomics.
bool everyTileReads(const Tuning& t, bool plain) {
  for (uint32_t tier = 0; tier < t.tierCount; ++tier)
    for (const vksort::detail::TileShape& shape : t.tiers[tier].shape)
      if (shape.lookbackPlainLoads != plain) return false;
  return true;
}

// `check(tier, cls, shape)` for every binning tile of every tier, its tier and class captured.
template <typename Check>
void forEveryTile(const Tuning& t, Check check) {
  for (uint32_t tier = 0; tier < t.tierCount; ++tier)
    for (uint32_t cls = 0; cls < vksort::detail::kTileClasses; ++cls) {
      CAPTURE(tier);
      CAPTURE(cls);
      check(tier, cls, t.tiers[tier].shape[cls]);
    }
}

// chooseTuning() with the developer's override `overrides` (empty: none).
Tuning tuned(const DeviceCaps& caps, const std::string& overrides) {
  vksort::detail::TuningOverride o;
  const vksort::Status st = vksort::detail::parseTuningOverride(overrides.c_str(), &o);
  REQUIRE_MESSAGE(st, st.message);
  return chooseTuning(caps, Algorithm::automatic, o);
}

}  // namespace

TEST_SUITE("tuning") {
  TEST_CASE("NVIDIA gets the choices measured on the H100") {
    const Tuning t = tuned(h100(), "");
    CHECK(t.algorithm == Algorithm::onesweep);
    CHECK(t.subgroupSize == 32);
    CHECK(t.requireSubgroupSize);
    CHECK(t.tiers[0].shape[0].lookbackPlainLoads);
    CHECK(t.lookbackPlainStores);
    CHECK(t.atomicRanking);
    CHECK_FALSE(t.partitionedRanking);
    CHECK(t.tiers[0].shape[0].persistentTiles);
    CHECK(t.waveWorkgroups == 132);
    CHECK(t.tierCount == 9);
  }

  TEST_CASE("kernels run at subgroup sizes the suites have proven, or not at all") {
    using vksort::detail::checkProvenSubgroupSize;
    using vksort::detail::kMaxProvenSubgroupSize;
    REQUIRE(kMaxProvenSubgroupSize == 32);
    // RDNA runs wave64 unless a size is required: vksort requires 32.
    const Tuning amd = tuned(rdna(), "");
    CHECK(amd.subgroupSize == 32);
    CHECK(amd.requireSubgroupSize);
    CHECK(checkProvenSubgroupSize(rdna(), true));
    // A vendor without a row's size gets the device's default, capped at the proven size.
    DeviceCaps unknown64 = capsOf(0x1234, VkDriverId(0), 64, 0);
    unknown64.minSubgroupSize = 16;
    CHECK(tuned(unknown64, "").subgroupSize == 32);
    // Without size control enabled it would run wave64: refused, naming what to enable.
    DeviceCaps uncontrolled = rdna();
    uncontrolled.canRequireSubgroupSize = false;
    const vksort::Status off = checkProvenSubgroupSize(uncontrolled, false);
    CHECK(off.result == vksort::Result::errorFeatureNotPresent);
    CHECK(std::string(off.message).find("enable subgroupSizeControl and computeFullSubgroups") != std::string::npos);
    // Wave64 only (GCN), 64 to 128 (as some mobile GPUs): no proven size, refused.
    const vksort::Status gcn = checkProvenSubgroupSize(capsOf(0x1002, VK_DRIVER_ID_AMD_OPEN_SOURCE, 64, 0), true);
    CHECK(gcn.result == vksort::Result::errorFeatureNotPresent);
    CHECK(std::string(gcn.message).find("runs no subgroups smaller than 64") != std::string::npos);
    DeviceCaps wide = capsOf(0x5143, VkDriverId(0), 64, 0);
    wide.maxSubgroupSize = 128;
    CHECK_FALSE(checkProvenSubgroupSize(wide, true));
    CHECK_FALSE(checkProvenSubgroupSize(wide, false));
    // Proven sizes pass with size control and without.
    for (const vksort_test::FakeDevice& d : vksort_test::fakeDevices()) {
      CAPTURE(d.name);
      CHECK(checkProvenSubgroupSize(d.caps, d.caps.canRequireSubgroupSize));
      CHECK(tuned(d.caps, "").subgroupSize <= kMaxProvenSubgroupSize);
    }
    // A developer who names a size gets it: that is how a new size is proven.
    CHECK(tuned(rdna(), "subgroup=64").subgroupSize == 64);
  }

  TEST_CASE("devices never measured keep the choices the Vulkan spec promises") {
    // Plain look-back loads and stores and atomic ranking lean on NVIDIA's behaviour (lookback.glsl,
    // binning_rank_atomics.glsl); persistent tiles hung lavapipe.
    struct Device {
      const char* name;
      DeviceCaps caps;
    };
    for (const Device& d : {Device{"AMD", rdna()},
                            Device{"Intel", capsOf(0x8086, VK_DRIVER_ID_INTEL_OPEN_SOURCE_MESA, 16, 0)},
                            Device{"unknown", capsOf(0x1234, VkDriverId(0), 32, 0)}}) {
      CAPTURE(d.name);
      const Tuning t = tuned(d.caps, "");
      CHECK(everyTileReads(t, false));
      CHECK_FALSE(t.lookbackPlainStores);
      CHECK_FALSE(t.atomicRanking);
      forEveryTile(t, [](uint32_t, uint32_t, const vksort::detail::TileShape& shape) { CHECK_FALSE(shape.persistentTiles); });
    }
  }

  TEST_CASE("a tier's own look-back loads, per tile class") {
    // NVIDIA's 32-bit pairs from 2^27 (tier 8) read with atomics, its other tiles with plain loads
    // (tuning.cpp); a tier's override names one class and leaves the others to the device.
    const Tuning t = tuned(h100(), "");
    forEveryTile(t, [](uint32_t tier, uint32_t cls, const vksort::detail::TileShape& shape) {
      CHECK(shape.lookbackPlainLoads == !(tier == 8 && cls == 0));
    });
    const Tuning o = tuned(h100(), "tier3_plain_loads_alone=0,tier6_plain_loads_wide=0");
    CHECK_FALSE(o.tiers[3].shape[2].lookbackPlainLoads);
    CHECK(o.tiers[3].shape[0].lookbackPlainLoads);
    CHECK_FALSE(o.tiers[6].shape[1].lookbackPlainLoads);
    CHECK(o.tiers[6].shape[3].lookbackPlainLoads);
    CHECK_FALSE(tuned(h100(), "plain_loads=0").tiers[3].shape[2].lookbackPlainLoads);
  }

  TEST_CASE("NVIDIA's pairs with 64-bit elements, and 64-bit keys alone from 2^21, take 2-round tiles") {
    // Tier 6's 768 x 12 (pairs with 64-bit elements) from tier 3 on, 768 x 14 (64-bit keys alone)
    // in tier 4, which tier 4 is but for; neither fitted to waves (whole measured faster where
    // the fitting would cut them). 64-bit keys alone in tier 3 keep 512 x 9, fitted.
    const Tuning t = tuned(h100(), "");
    REQUIRE(t.tierCount == 9);
    CHECK(t.tiers[3].from == 5u << 17);
    CHECK(t.tiers[4].from == 1u << 21);
    CHECK(t.tiers[6].from == 1u << 23);
    for (uint32_t cls : {0u, 1u, 2u}) CHECK(t.tiers[4].shape[cls] == t.tiers[3].shape[cls]);
    for (uint32_t tier : {3u, 4u, 5u}) {
      CAPTURE(tier);
      CHECK(t.tiers[tier].shape[1] == t.tiers[6].shape[1]);
    }
    const vksort::detail::TileShape& widePairs = t.tiers[3].shape[1];
    CHECK(widePairs.workgroupSize == 768);
    CHECK(widePairs.keysPerInvocation == 12);
    CHECK(widePairs.reorderRounds == 2);
    const vksort::detail::TileShape& tier3Alone = t.tiers[3].shape[3];
    CHECK(tier3Alone.workgroupSize == 512);
    CHECK(tier3Alone.keysPerInvocation == 9);
    CHECK(tier3Alone.reorderRounds == 1);
    CHECK(tier3Alone.fitPercent == 78);
    const vksort::detail::TileShape& wide = t.tiers[4].shape[3];
    CHECK(wide.workgroupSize == 768);
    CHECK(wide.keysPerInvocation == 14);
    CHECK(wide.reorderRounds == 2);
    CHECK(wide.lookbackWindow == 2);
    for (uint32_t count : {5u << 17, 700000u, 1u << 20, 1500000u, (1u << 21) - 1})
      CHECK(t.fittedTileKeys(widePairs, count) == widePairs.keys());
    for (uint32_t count : {1u << 21, 2500000u, 2900000u, 3000000u, 3u << 20, 4u << 20, 6000000u, (1u << 23) - 1}) {
      CHECK(t.fittedTileKeys(wide, count) == wide.keys());
      CHECK(t.fittedTileKeys(t.tiers[4].shape[1], count) == widePairs.keys());
    }
    CHECK(t.tiers[4].shape[2].fitPercent == 78);  // the tier's other classes are fitted
    // With the class's fitting, 3 waves of 132 tiles would cut it to 768 x 10 at 3M keys.
    const Tuning fitted = tuned(h100(), "tier4_fit_percent_wide_alone=78");
    CHECK(fitted.fittedTileKeys(fitted.tiers[4].shape[3], 3000000) == 768 * 10);
    CHECK(fitted.fittedTileKeys(fitted.tiers[4].shape[3], 4u << 20) == wide.keys());
  }

  TEST_CASE("NVIDIA's 64-bit keys and 32-bit pairs take 896 invocations from 2^23 / 5 x 2^21 keys") {
    // 64-bit keys alone in 896 x 12 from 2^23 (tier 6); tier 7 is tier 6 but for pairs, with
    // 64-bit elements in 896 x 10 (reading 2 predecessors at once) and 32-bit ones in 896 x 14, all
    // in 2 rounds.
    const Tuning t = tuned(h100(), "");
    REQUIRE(t.tierCount == 9);
    CHECK(t.tiers[7].from == 5u << 21);
    for (uint32_t cls : {2u, 3u}) CHECK(t.tiers[7].shape[cls] == t.tiers[6].shape[cls]);
    const vksort::detail::TileShape& pairs = t.tiers[7].shape[0];
    CHECK(pairs.workgroupSize == 896);
    CHECK(pairs.keysPerInvocation == 14);
    CHECK(pairs.reorderRounds == 2);
    CHECK(pairs.rankFirst);
    CHECK_FALSE(pairs.persistentTiles);  // pairs in 2-round tiles: not persistent, so not touched early
    CHECK_FALSE(pairs.prefetchPairs);
    CHECK_FALSE(pairs.ridingValues);  // one-round tiles' alone
    CHECK(pairs.lookbackPlainLoads);
    CHECK(t.tiers[6].shape[0].keys() == 512 * 18);
    const vksort::detail::TileShape& alone = t.tiers[6].shape[3];
    CHECK(alone.workgroupSize == 896);
    CHECK(alone.keysPerInvocation == 12);
    CHECK(alone.reorderRounds == 2);
    CHECK(alone.lookbackWindow == 2);
    CHECK_FALSE(alone.rankFirst);
    const vksort::detail::TileShape& wide = t.tiers[7].shape[1];
    CHECK(wide.workgroupSize == 896);
    CHECK(wide.keysPerInvocation == 10);
    CHECK(tuned(h100(), "tier7_wide_keys=11").tiers[7].shape[1].keysPerInvocation == 10);  // 11 overflows shared memory
    CHECK(wide.reorderRounds == 2);
    CHECK(wide.rankFirst);
    CHECK(wide.lookbackPlainLoads);
    CHECK(wide.lookbackWindow == 2);
    CHECK(t.tiers[6].shape[1].workgroupSize == 768);
    CHECK(t.tiers[6].shape[1].lookbackWindow == 4);
    // Tier 8 is tier 7 but for 32-bit pairs' look-back, read with atomics from 2^27 keys.
    CHECK(t.tiers[8].from == 1u << 27);
    for (uint32_t cls : {1u, 2u, 3u}) CHECK(t.tiers[8].shape[cls] == t.tiers[7].shape[cls]);
    vksort::detail::TileShape atomicPairs = t.tiers[8].shape[0];
    CHECK_FALSE(atomicPairs.lookbackPlainLoads);
    atomicPairs.lookbackPlainLoads = true;
    CHECK(atomicPairs == pairs);
  }

  TEST_CASE("NVIDIA's pairs in 2-round tiles are not persistent, in Onesweep") {
    // Pairs with 64-bit elements from tier 3 (768 x 12, then 896 x 10) and 32-bit pairs from
    // tier 7 (896 x 14), all in 2 rounds: a workgroup sorts one tile (H100: 4-12% faster than
    // taking tiles while tickets last). Every other tile stays persistent, and so does
    // reduce-then-scan's downsweep; a tier's choice per class comes from VKSORT_TUNING too.
    const Tuning t = tuned(h100(), "");
    forEveryTile(t, [](uint32_t tier, uint32_t cls, const vksort::detail::TileShape& shape) {
      const bool twoRoundPairs = (cls == 1 && tier >= 3) || (cls == 0 && tier >= 7);
      CHECK(shape.persistentTiles == !twoRoundPairs);
      CHECK(twoRoundPairs == (cls < 2 && shape.reorderRounds == 2));
    });
    forEveryTile(tuned(h100(), "algorithm=2"),
                 [](uint32_t, uint32_t, const vksort::detail::TileShape& shape) { CHECK(shape.persistentTiles); });
    const Tuning o = tuned(h100(), "tier7_persistent_pairs=1,tier5_persistent_alone=0");
    CHECK(o.tiers[7].shape[0].persistentTiles);
    CHECK_FALSE(o.tiers[7].shape[1].persistentTiles);
    CHECK_FALSE(o.tiers[5].shape[2].persistentTiles);
    CHECK(o.tiers[5].shape[3].persistentTiles);
    const Tuning none = tuned(h100(), "persistent=0");
    CHECK_FALSE(none.tiers[6].shape[2].persistentTiles);
    // Only a persistent workgroup knows its next tile to touch.
    using namespace vksort::detail;
    CHECK(decideVariant(t, {kBinning, kKeyU32, uint32_t(vksort::ValueType::u32), 3, false, kDigitAnyWord}).prefetchPairs);
    CHECK_FALSE(decideVariant(none, {kBinning, kKeyU32, uint32_t(vksort::ValueType::u32), 3, false, kDigitAnyWord}).prefetchPairs);
  }

  TEST_CASE("NVIDIA's 32-bit keys alone take 896 x 20 in 2 rounds from 7 x 2^19 keys, in Onesweep") {
    // Tier 5 is tier 4 but for 32-bit keys alone, whole (not fitted to waves); tiers 6 and 7 keep
    // them. Reduce-then-scan's downsweep keeps its one-round 32-bit tiles: keys alone 512 x 18 as
    // in tier 4, then 512 x 19 from 2^23; pairs 512 x 18.
    const Tuning t = tuned(h100(), "");
    REQUIRE(t.tierCount == 9);
    CHECK(t.tiers[5].from == 7u << 19);
    for (uint32_t cls : {0u, 1u, 3u}) CHECK(t.tiers[5].shape[cls] == t.tiers[4].shape[cls]);
    for (uint32_t tier : {5u, 6u, 7u}) {
      CAPTURE(tier);
      const vksort::detail::TileShape& alone = t.tiers[tier].shape[2];
      CHECK(alone.workgroupSize == 896);
      CHECK(alone.keysPerInvocation == 20);  // fits the shared memory: fit() would have cut it
      CHECK(alone.reorderRounds == 2);
      CHECK_FALSE(alone.rankFirst);
      CHECK(alone.lookbackWindow == 3);
      for (uint32_t count : {7u << 19, 4u << 20, 6000000u, 1u << 28}) CHECK(t.fittedTileKeys(alone, count) == alone.keys());
    }
    CHECK(t.tiers[4].shape[2].keys() == 512 * 18);
    // Reduce-then-scan's own table: its tiers start where its rows do.
    const Tuning scans = tuned(h100(), "algorithm=2");
    REQUIRE(scans.tierCount == 7);
    for (uint32_t count : {2u << 20, 7u << 19, 1u << 23, 1u << 24, 1u << 28}) {
      CAPTURE(count);
      const vksort::detail::TileShape& alone = scans.tileFor(vksort::detail::kAlone32, count);
      CHECK(alone.workgroupSize == 512);
      CHECK(alone.keysPerInvocation == (count >= 1u << 23 ? 19u : 18u));
      CHECK(alone.reorderRounds == 1);
      const vksort::detail::TileShape& pairs = scans.tileFor(vksort::detail::kPairs32, count);
      CHECK(pairs.keys() == 512 * 18);
      CHECK(pairs.reorderRounds == 1);
      CHECK(pairs.prefetchPairs);
      for (uint32_t cls : {1u, 3u}) {  // the same tiles (rank first, fitting and hot digits are Onesweep's)
        CHECK(scans.tileFor(cls, count).keys() == t.tileFor(cls, count).keys());
        CHECK(scans.tileFor(cls, count).reorderRounds == t.tileFor(cls, count).reorderRounds);
      }
    }
    REQUIRE(scans.tiers[5].from == 1u << 23);
    CHECK(tuned(h100(), "algorithm=2,tier5_alone_keys=12").tiers[5].shape[2].keysPerInvocation == 12);
    CHECK(tuned(h100(), "tier6_alone_keys=12").tiers[6].shape[2].keysPerInvocation == 12);  // Onesweep's tier 6
    const Tuning wider = tuned(h100(), "algorithm=2,tier6_workgroup=896,tier6_keys=14,tier6_rounds=2");
    CHECK(wider.tiers[6].shape[0].keys() == 896 * 14);
    CHECK(wider.tiers[6].shape[0].reorderRounds == 2);
  }

  TEST_CASE("NVIDIA's pairs rank before their row sums") {
    // TileShape::rankFirst: 32-bit pairs in every tier (atomic ranking), pairs with 64-bit elements
    // in their 2-round tiles (tiers 3 to 7); keys alone count first. A device that ranks by
    // ballots never ranks first, nor does reduce-then-scan; pairs in tiles of several rounds rank
    // by atomics only where they rank first.
    const Tuning t = tuned(h100(), "");
    forEveryTile(t, [](uint32_t tier, uint32_t cls, const vksort::detail::TileShape& shape) {
      CHECK(shape.rankFirst == (cls == 0 || (cls == 1 && tier >= 3)));
    });
    CHECK(widePairsRanking(t, 6) == vksort::detail::Ranking::atomicsRankFirst);
    const Tuning counted = tuned(h100(), "tier6_rank_first_wide=0");
    CHECK_FALSE(counted.tiers[6].shape[1].rankFirst);
    CHECK(counted.tiers[5].shape[1].rankFirst);
    CHECK(widePairsRanking(counted, 6) == vksort::detail::Ranking::ballots);  // counted first
    const Tuning all = tuned(h100(), "rank_first=1");
    CHECK(all.tiers[3].shape[2].rankFirst);
    CHECK(all.tiers[3].shape[3].rankFirst);
    CHECK(all.tiers[6].shape[3].rankFirst);  // 896 x 12 in 2 rounds
    const Tuning scans = tuned(h100(), "algorithm=2");
    CHECK_FALSE(scans.tiers[3].shape[0].rankFirst);
    CHECK(widePairsRanking(scans, 5) == vksort::detail::Ranking::ballots);
    CHECK_FALSE(tuned(h100(), "rank_first_pairs=0").tiers[3].shape[0].rankFirst);
    CHECK_FALSE(tuned(h100(), "atomic_ranking=0").tiers[3].shape[0].rankFirst);
    CHECK_FALSE(tuned(capsOf(0x1002, VK_DRIVER_ID_AMD_OPEN_SOURCE, 64, 0), "rank_first=1").tiers[0].shape[0].rankFirst);
  }

  TEST_CASE("VKSORT_TUNING turns NVIDIA's choices off one by one") {
    CHECK(everyTileReads(tuned(h100(), "plain_loads=0"), false));
    CHECK(tuned(h100(), "plain_loads=0").lookbackPlainStores);
    CHECK_FALSE(tuned(h100(), "plain_stores=0").lookbackPlainStores);
    CHECK(tuned(h100(), "plain_stores=0").tiers[0].shape[0].lookbackPlainLoads);
    CHECK_FALSE(tuned(h100(), "atomic_ranking=0").atomicRanking);
    CHECK(tuned(h100(), "atomic_ranking=0").tiers[0].shape[0].lookbackPlainLoads);
    forEveryTile(tuned(h100(), "persistent=0"),
                 [](uint32_t, uint32_t, const vksort::detail::TileShape& shape) { CHECK_FALSE(shape.persistentTiles); });
    forEveryTile(tuned(h100(), "hot_rank_to=0"),
                 [](uint32_t, uint32_t, const vksort::detail::TileShape& shape) { CHECK(shape.hotRankTo == 0); });
  }

  TEST_CASE("a hot digit is ranked a step at a time only up to the share it is counted at") {
    // hotRankTo (binning_tile.glsl's HOT_RANKING): NVIDIA's pairs that rank first and 64-bit keys
    // alone, not 32-bit keys alone (their 896 x 20 tiles spilled with it); never above hotDigitTo.
    const Tuning t = tuned(h100(), "");
    const uint32_t last = t.tierCount - 1;
    CHECK(t.tiers[last].shape[vksort::detail::kPairs32].hotRankTo == 98);
    CHECK(t.tiers[last].shape[vksort::detail::kPairsWide].hotRankTo == 98);
    CHECK(t.tiers[last].shape[vksort::detail::kAloneWide].hotRankTo == 98);
    CHECK(t.tiers[last].shape[vksort::detail::kAlone32].hotRankTo == 0);
    CHECK(tuned(h100(), "hot_digit_to_pairs=90").tiers[last].shape[vksort::detail::kPairs32].hotRankTo == 90);
    CHECK(tuned(h100(), "hot_rank_to_pairs=70").tiers[last].shape[vksort::detail::kPairs32].hotRankTo == 70);
  }
}

// prepareSorts() builds pipelinesUpTo(maxCount): every pipeline that a sort of any count up to
// maxCount plans, direct or indirect, must be among them, on every vendor's tables.
TEST_SUITE("tuning") {
  TEST_CASE("the pipelines prepared up to a count hold every plan's") {
    using vksort::detail::PipelineKey;
    const vksort::SortConfig configs[] = {
        {vksort::KeyType::u32, vksort::ValueType::none, vksort::SortOrder::ascending, 0, 32},
        {vksort::KeyType::f32, vksort::ValueType::u32, vksort::SortOrder::descending, 0, 32},
        {vksort::KeyType::u32, vksort::ValueType::u32, vksort::SortOrder::ascending, 0, 16},
        {vksort::KeyType::u64, vksort::ValueType::none, vksort::SortOrder::ascending, 0, 64},
        {vksort::KeyType::u64, vksort::ValueType::u32, vksort::SortOrder::ascending, 8, 40},
        {vksort::KeyType::i32, vksort::ValueType::u64, vksort::SortOrder::ascending, 0, 32}};
    const uint32_t maxCount = 40u << 20;
    // Every count up to 2^17, then steps that cross each tier and limit many times over.
    std::vector<uint32_t> counts;
    for (uint32_t n = 1; n <= maxCount; n += n < (1u << 17) ? 1 : n < (1u << 22) ? 97 : 9973) counts.push_back(n);
    counts.push_back(maxCount);
    for (const vksort_test::FakeDevice& d : vksort_test::fakeDevices())
      for (Algorithm a : {Algorithm::onesweep, Algorithm::reduceThenScan}) {
        const Tuning t = chooseTuning(d.caps, a, {});
        for (const vksort::SortConfig& c : configs) {
          const std::vector<PipelineKey> prepared = vksort::detail::pipelinesUpTo(t, c, maxCount);
          uint32_t missing = 0;
          for (uint32_t n : counts)
            for (bool indirect : {false, true}) {
              const vksort::detail::SortPlan p = vksort::detail::planSort(t, c, n, n, indirect);
              for (const PipelineKey& k : p.pipelines) {
                if (k.kernel == vksort::detail::kKernelCount) continue;
                const bool found = std::find(prepared.begin(), prepared.end(), k) != prepared.end();
                if (!found && ++missing <= 3)
                  FAIL_CHECK(d.name << (a == Algorithm::onesweep ? " onesweep " : " rts ") << "key " << uint32_t(c.keyType)
                                    << " value " << uint32_t(c.valueType) << " count " << n << (indirect ? " indirect" : "")
                                    << ": kernel " << k.kernel << " tier " << k.tier << " fitted " << k.fitted);
              }
            }
          CHECK(missing == 0);
        }
      }
  }
}
