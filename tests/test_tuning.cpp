// The tuning as data: what chooseTuning() picks for a device's properties, without a device.
// The choices measured on NVIDIA (look-back plain loads and stores, atomic ranking, persistent
// tiles) are where a silent mistake costs speed and no sort test can see it: a positional
// initializer once shifted NVIDIA's plain loads onto another field, and every sort still passed
// (H100: keys32 5-9% slower, session 29).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>

#include "device_caps.hpp"
#include "fake_devices.hpp"
#include "plan.hpp"
#include "tuning.hpp"
#include "tuner/report.hpp"
#include "tuner/tasks.hpp"
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
  return decideVariant(
             t, normalizedKey(t, {k, kKeyU32, uint32_t(vksort::ValueType::u64), tier, false, kDigitAnyWord, false}))
      .ranking;
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
    CHECK(t.ranking == vksort::detail::Ranking::atomics);
    CHECK(t.ranking != vksort::detail::Ranking::partitioned);
    CHECK(t.tiers[0].shape[0].persistentTiles);
    CHECK(t.waveWorkgroups == 132);
    CHECK(t.tierCount == 10);
    CHECK(t.onesweepMeasured);  // tuneSorts() spends no budget comparing the algorithms
  }

  TEST_CASE("every row of a vendor's tables starts a tier") {
    // The tiers are the union of the rows' starts, at most kMaxTileTiers of them: a row past that
    // would be dropped unseen.
    for (const vksort_test::FakeDevice& d : vksort_test::fakeDevices())
      for (Algorithm a : {Algorithm::onesweep, Algorithm::reduceThenScan}) {
        CAPTURE(d.name);
        const Tuning t = chooseTuning(d.caps, a, {});
        const vksort::detail::VendorTuning& v = vksort::detail::vendorTuning(d.caps);
        for (const vksort::detail::TileTable& table : a == Algorithm::onesweep ? v.onesweep : v.reduceThenScan)
          for (uint32_t r = 0; r < table.count; ++r) {
            CAPTURE(table.rows[r].fromCount);
            bool starts = false;
            for (uint32_t i = 0; i < t.tierCount; ++i) starts = starts || t.tiers[i].from == table.rows[r].fromCount;
            CHECK(starts);
          }
      }
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
    // untuned=1 gives NVIDIA what an unknown device gets: the tuner's starting point on a GPU we
    // never saw, simulated.
    struct Device {
      const char* name;
      DeviceCaps caps;
      const char* overrides;
    };
    for (const Device& d :
         {Device{"AMD", rdna(), ""}, Device{"Intel", capsOf(0x8086, VK_DRIVER_ID_INTEL_OPEN_SOURCE_MESA, 16, 0), ""},
          Device{"unknown", capsOf(0x1234, VkDriverId(0), 32, 0), ""},
          Device{"NVIDIA, untuned=1", h100(), "untuned=1"}}) {
      CAPTURE(d.name);
      const Tuning t = tuned(d.caps, d.overrides);
      CHECK(everyTileReads(t, false));
      CHECK_FALSE(t.lookbackPlainStores);
      CHECK(t.ranking == vksort::detail::Ranking::ballots);
      CHECK_FALSE(t.onesweepMeasured);  // tuneSorts() measures which algorithm is faster
      forEveryTile(
          t, [](uint32_t, uint32_t, const vksort::detail::TileShape& shape) { CHECK_FALSE(shape.persistentTiles); });
      CHECK(t.tierCount == 1);
    }
    const Tuning simulated = tuned(h100(), "untuned=1"), unknown = tuned(capsOf(0x1234, VkDriverId(0), 32, 0), "");
    CHECK(std::string(simulated.tablesName) == "never-measured (untuned=1)");
    CHECK(simulated.lookbackWait == unknown.lookbackWait);
    CHECK(simulated.chainedUpTo == unknown.chainedUpTo);
    CHECK(simulated.tiers[0].shape[vksort::detail::kPairs32] == unknown.tiers[0].shape[vksort::detail::kPairs32]);
    // The other names apply over the untuned tables, whatever their order.
    CHECK(tuned(h100(), "atomic_ranking=1,untuned=1").ranking == vksort::detail::Ranking::atomics);
    CHECK(std::string(tuned(h100(), "untuned=0").tablesName) == "NVIDIA");
  }

  TEST_CASE("a tier's own look-back loads, per tile class") {
    // NVIDIA's 32-bit pairs in the last tier read with atomics, its other tiles with plain loads
    // (tuning_tables.cpp); a tier's override names one class and leaves the others to the device.
    const Tuning t = tuned(h100(), "");
    forEveryTile(t, [&](uint32_t tier, uint32_t cls, const vksort::detail::TileShape& shape) {
      CHECK(shape.lookbackPlainLoads == !(tier == t.tierCount - 1 && cls == vksort::detail::kPairs32));
    });
    const Tuning o = tuned(h100(), "tier3_plain_loads_alone=0,tier6_plain_loads_wide=0");
    CHECK_FALSE(o.tiers[3].shape[2].lookbackPlainLoads);
    CHECK(o.tiers[3].shape[0].lookbackPlainLoads);
    CHECK_FALSE(o.tiers[6].shape[1].lookbackPlainLoads);
    CHECK(o.tiers[6].shape[3].lookbackPlainLoads);
    CHECK_FALSE(tuned(h100(), "plain_loads=0").tiers[3].shape[2].lookbackPlainLoads);
  }

  // The NVIDIA tables' literal shapes are the golden files' (tests/golden/nvidia-h100-*.txt); the
  // cases below check rules, named by tile class, that hold for whatever rows the tables have.

  TEST_CASE("a key type's width is keyBytes()'s alone, and picks its kernels") {
    // Widths were once inferred from the enum's order (a type past u64 was 64-bit): a value that
    // names no type has none.
    using namespace vksort::detail;
    using vksort::KeyType;
    CHECK(vksort::keyBytes(KeyType(kKeyTypes)) == 0);
    const Tuning t = tuned(h100(), "");
    for (uint32_t type = 0; type < kKeyTypes; ++type) {
      const KeyType k = KeyType(type);
      CAPTURE(type);
      const bool wide = vksort::keyBytes(k) == 8;
      CHECK(vksort::keyBytes(k) == (wide ? 8u : 4u));
      const PipelineKey key = normalizedKey(t, {kBinning, uint32_t(k), 0, 6, false, kDigitLowWord, false});
      CHECK(key.digitWord == (wide ? kDigitLowWord : kDigitAnyWord));
      CHECK(decideVariant(t, key).module == (wide ? Module::onesweep64 : Module::onesweep));
    }
  }

  TEST_CASE("a tuned tile must lose nothing across its tier") {
    // tuner/search.cpp measures a kept tile again at these counts (a win at one count can be a loss of
    // as much at another: the waves its tiles make change with the count).
    const std::vector<uint32_t> counts = vksort::detail::tierCheckCounts(1u << 21, (7u << 19) - 1);
    REQUIRE(counts.size() == 4);
    CHECK(counts.front() == 1u << 21);
    CHECK(counts.back() == (7u << 19) - 1);
    CHECK(std::is_sorted(counts.begin(), counts.end()));
    CHECK(counts[1] > counts.front());
    CHECK(counts[2] < counts.back());
    CHECK(vksort::detail::tierCheckCounts(1000, 1000).empty());
    CHECK(vksort::detail::tierCheckCounts(0, 1000).empty());
    // The climb leaves room in the task's budget for these checks: 4 interleaved measurements,
    // and a heat and 2 measurements per count.
    vksort::detail::Task task{};
    task.first = 1u << 21;
    task.last = (7u << 19) - 1;
    CHECK(vksort::detail::keepCheckSeconds(0.01, task) == doctest::Approx(12 * 0.01 + 4 * 0.03));
    task.last = task.first;
    CHECK(vksort::detail::keepCheckSeconds(0.01, task) == doctest::Approx(4 * 0.01));
  }

  TEST_CASE("the tuner keeps reduce-then-scan only where it won every comparison planned") {
    // No class may sort slower with the data than without it; one algorithm sorts them all.
    using vksort::detail::Comparison;
    using vksort::detail::fasterAlgorithm;
    const Comparison scanFaster{1.0, 0.9}, onesweepFaster{0.8, 1.0}, tie{1.0, 0.99};
    // lavapipe's renderer sorts: u64 pairs favoured reduce-then-scan, f32 pairs Onesweep.
    CHECK(fasterAlgorithm({scanFaster, scanFaster, onesweepFaster, scanFaster}, 4) == Algorithm::onesweep);
    CHECK(fasterAlgorithm({scanFaster, scanFaster}, 2) == Algorithm::reduceThenScan);
    CHECK(fasterAlgorithm({scanFaster, tie}, 2) == Algorithm::onesweep);  // by 2% at least
    CHECK(fasterAlgorithm({scanFaster}, 2) == Algorithm::onesweep);       // one not made (the budget)
    CHECK(fasterAlgorithm({}, 0) == Algorithm::onesweep);
  }

  TEST_CASE("the tuner compares the algorithms only where its budget has room") {
    // measureSeconds(): a measurement's warm-up (kWarmupNanos of sorts, 2 to 200) and 15 timed
    // sorts. lavapipe sorts 2^20 pairs in about a microsecond a key: comparing the two algorithms
    // there takes 35 s, past half of a 10 s budget (tuner/search.cpp then keeps the tables' algorithm).
    using vksort::detail::measureSeconds;
    CHECK(vksort::detail::warmupSorts(1u << 20, 1000.0) == 2);
    CHECK(vksort::detail::warmupSorts(1u << 20, 0.25) == 76);
    CHECK(vksort::detail::warmupSorts(1000, 0.01) == 200);
    CHECK(vksort::detail::warmupSorts(1000, 0.0) == 3);
    CHECK(measureSeconds(1u << 20, 1000.0) == doctest::Approx(17 * 1.048576));
    CHECK(measureSeconds(1u << 20, 0.25) == doctest::Approx(91 * 0.25e-3 * 1.048576));
    CHECK(measureSeconds(1u << 20, 0.0) == 0.0);
  }

  TEST_CASE("the tuner builds no wave of candidates its budget cannot measure") {
    // waveFits(): a wave that takes as long to build as the waves before it (1.6 s on an H200 for
    // 8 binning pipelines) must leave time to measure one candidate before the climb's end.
    using vksort::detail::waveFits;
    CHECK(waveFits(2.0, 1.6, 0.01, 4.0));
    CHECK_FALSE(waveFits(2.0, 1.6, 0.01, 3.0));  // the task's share of a 10 s budget, or less
    CHECK_FALSE(waveFits(2.0, 1.6, 0.5, 4.0));   // built, but nothing measured in time
    CHECK_FALSE(waveFits(4.0, 0.0, 0.01, 4.0));  // the climb's time is up
  }

  TEST_CASE("the tuner sorts the caller's configs and checks them in their order") {
    using namespace vksort::detail;
    using vksort::SortConfig;
    // A renderer's sorts: f32 depths with indices (two sizes), 40-bit u64 keys with indices, and
    // u32 keys with u64 values, which the bench (32-bit values) cannot measure.
    vksort::PreparedSort sorts[4];
    sorts[0].config.keyType = vksort::KeyType::f32;
    sorts[0].config.valueType = vksort::ValueType::u32;
    sorts[0].config.order = vksort::SortOrder::descending;
    sorts[0].maxCount = 1u << 20;
    sorts[1] = sorts[0];
    sorts[1].config.order = vksort::SortOrder::ascending;
    sorts[1].maxCount = 1000;
    sorts[2].config.keyType = vksort::KeyType::u64;
    sorts[2].config.valueType = vksort::ValueType::u32;
    sorts[2].config.endBit = 40;
    sorts[2].maxCount = 1u << 22;
    sorts[3].config.valueType = vksort::ValueType::u64;
    sorts[3].maxCount = 1u << 24;
    vksort::TuneInfo info;
    info.pSorts = sorts;
    info.sortCount = 4;
    const SortConfig pairs32 = taskConfig(tileClass(sorts[0].config), info);
    CHECK(pairs32.keyType == vksort::KeyType::f32);
    CHECK(pairs32.order == vksort::SortOrder::descending);  // the larger of the two
    CHECK(pairs32.endBit == 32);                            // resolved, as planSort() takes it
    const SortConfig wide = taskConfig(tileClass(sorts[2].config), info);
    CHECK(wide.keyType == vksort::KeyType::u64);
    CHECK(wide.endBit == 40);  // not the u32/u64 sort, which has more keys but 64-bit values
    const uint32_t alone = tileClass(vksort::SortConfig{});
    CHECK(taskConfig(alone, info).keyType == configOfClass(alone).keyType);  // none named: unsigned
    info.sortCount = 0;
    CHECK(taskConfig(tileClass(sorts[0].config), info).keyType == vksort::KeyType::u32);

    // Ordered bits: each type's map (vksort/keys.glsl), the bit range, descending inverted.
    SortConfig f;
    f.keyType = vksort::KeyType::f32;
    f.endBit = 32;
    auto bitsOf = [](float x) {
      uint32_t u;
      std::memcpy(&u, &x, 4);
      return uint64_t(u);
    };
    const float ascending[] = {-INFINITY, -2.5f, -1e-40f, 0.0f, 1e-40f, 1.0f, INFINITY};
    for (size_t i = 0; i + 1 < std::size(ascending); ++i)
      CHECK(vksort::keyOrderBits(f, bitsOf(ascending[i])) < vksort::keyOrderBits(f, bitsOf(ascending[i + 1])));
    CHECK(vksort::keyOrderBits(f, bitsOf(-0.0f)) == vksort::keyOrderBits(f, bitsOf(0.0f)));
    CHECK(vksort::keyOrderBits(f, 0xFFC00000u) < vksort::keyOrderBits(f, bitsOf(-INFINITY)));  // -NaN first
    CHECK(vksort::keyOrderBits(f, 0x7FC00000u) > vksort::keyOrderBits(f, bitsOf(INFINITY)));   // +NaN last
    f.order = vksort::SortOrder::descending;
    CHECK(vksort::keyOrderBits(f, bitsOf(2.0f)) < vksort::keyOrderBits(f, bitsOf(1.0f)));
    SortConfig i64;
    i64.keyType = vksort::KeyType::i64;
    i64.endBit = 64;
    CHECK(vksort::keyOrderBits(i64, uint64_t(-5)) < vksort::keyOrderBits(i64, 3));
    SortConfig d;
    d.keyType = vksort::KeyType::f64;
    d.endBit = 64;
    CHECK(vksort::keyOrderBits(d, 0xBFF0000000000000ull) < vksort::keyOrderBits(d, 0x3FF0000000000000ull));  // -1 < 1
    SortConfig ranged;  // u32 bits [8, 16): only the second byte orders
    ranged.beginBit = 8;
    ranged.endBit = 16;
    CHECK(vksort::keyOrderBits(ranged, 0x0000FF00u) == 0xFFu);
    CHECK(vksort::keyOrderBits(ranged, 0xFFFF01FFu) < vksort::keyOrderBits(ranged, 0x00000200u));
    SortConfig i32;
    i32.keyType = vksort::KeyType::i32;
    i32.endBit = 32;
    CHECK(vksort::keyOrderBits(i32, 0xFFFFFFFFu) < vksort::keyOrderBits(i32, 0));  // -1 < 0
  }

  TEST_CASE("a tile fitted to waves is cut only where its row allows") {
    using namespace vksort::detail;
    const Tuning t = tuned(h100(), "");
    forEveryTile(t, [&](uint32_t tier, uint32_t, const TileShape& shape) {
      if (shape.fitPercent != 0) return;
      const uint32_t next = tier + 1 < t.tierCount ? t.tiers[tier + 1].from : 1u << 28;
      for (uint32_t count : {t.tiers[tier].from + 1, (t.tiers[tier].from + next) / 2, next - 1}) {
        CAPTURE(count);
        CHECK(t.fittedTileKeys(shape, count) == shape.keys());
      }
    });
    // 64-bit keys alone in tier 4 are whole in the table; with the class's fitting, 3 waves of
    // tiles cut them at 3M keys, and 4M keys fill their waves whole.
    const Tuning fitted = tuned(h100(), "tier4_fit_percent_wide_alone=78");
    const TileShape& wide = fitted.tiers[4].shape[kAloneWide];
    CHECK(fitted.fittedTileKeys(wide, 3000000) < wide.keys());
    CHECK(fitted.fittedTileKeys(wide, 3000000) % wide.workgroupSize == 0);
    CHECK(fitted.fittedTileKeys(wide, 4u << 20) == wide.keys());
  }

  TEST_CASE("an override's last item of a name is the one that applies") {
    vksort::detail::TuningOverride o;
    REQUIRE(vksort::detail::parseTuningOverride("partitioned=1,subgroup=16,partitioned=0", &o));
    CHECK(o.last("partitioned") == 0u);
    CHECK(o.last("subgroup") == 16u);
    CHECK_FALSE(o.last("algorithm").has_value());
    CHECK(o.names("subgroup"));
    CHECK_FALSE(o.names("algorithm"));
  }

  TEST_CASE("an override past shared memory is cut to fit") {
    // fit(): keys per invocation halved (in whole rounds) until the tile fits the device.
    using namespace vksort::detail;
    const Tuning o = tuned(h100(), "tier7_wide_keys=64");
    TileShape cut = o.tiers[7].shape[kPairsWide];
    CHECK(cut.keysPerInvocation < 64);
    CHECK(64 % cut.keysPerInvocation == 0);
    CHECK(binningSharedBytes(o, cut, 2, false) <= h100().maxSharedMemory);
    cut.keysPerInvocation *= 2;
    CHECK(binningSharedBytes(o, cut, 2, false) > h100().maxSharedMemory);
  }

  TEST_CASE("NVIDIA's pairs in 2-round tiles are not persistent, in Onesweep") {
    // Pairs in 2-round tiles: a workgroup sorts one tile (H100: 4-12% faster than taking tiles
    // while tickets last). Every other tile stays persistent, and so does reduce-then-scan's
    // downsweep; a tier's choice per class comes from VKSORT_TUNING too.
    const Tuning t = tuned(h100(), "");
    forEveryTile(t, [](uint32_t, uint32_t cls, const vksort::detail::TileShape& shape) {
      CHECK(shape.persistentTiles == (vksort::detail::classKeysAlone(cls) || shape.reorderRounds == 1));
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
    CHECK(decideVariant(t, {kBinning, kKeyU32, uint32_t(vksort::ValueType::u32), 3, false, kDigitAnyWord, false})
              .prefetchPairs);
    CHECK_FALSE(
        decideVariant(none, {kBinning, kKeyU32, uint32_t(vksort::ValueType::u32), 3, false, kDigitAnyWord, false})
            .prefetchPairs);
  }

  TEST_CASE("reduce-then-scan keeps one-round 32-bit tiles and Onesweep's wide ones") {
    // Its downsweep has no rank-first, fitting or hot digits: 32-bit tiles of one round, pairs
    // touched into L2; tiles with 64-bit elements are Onesweep's. A tier's override reaches it.
    using namespace vksort::detail;
    const Tuning t = tuned(h100(), "");
    const Tuning scans = tuned(h100(), "algorithm=2");
    for (uint32_t count : {2u << 20, 7u << 19, 1u << 23, 1u << 24, 1u << 28}) {
      CAPTURE(count);
      CHECK(scans.tileFor(kAlone32, count).reorderRounds == 1);
      CHECK(scans.tileFor(kPairs32, count).reorderRounds == 1);
      CHECK(scans.tileFor(kPairs32, count).prefetchPairs);
      for (uint32_t cls : {uint32_t(kPairsWide), uint32_t(kAloneWide)}) {
        CHECK(scans.tileFor(cls, count).keys() == t.tileFor(cls, count).keys());
        CHECK(scans.tileFor(cls, count).reorderRounds == t.tileFor(cls, count).reorderRounds);
      }
    }
    CHECK(tuned(h100(), "algorithm=2,tier5_alone_keys=12").tiers[5].shape[kAlone32].keysPerInvocation == 12);
    CHECK(tuned(h100(), "tier6_alone_keys=12").tiers[6].shape[kAlone32].keysPerInvocation == 12);  // Onesweep's tier 6
    const Tuning wider = tuned(h100(), "algorithm=2,tier6_workgroup=896,tier6_keys=14,tier6_rounds=2");
    CHECK(wider.tiers[6].shape[kPairs32].keys() == 896 * 14);
    CHECK(wider.tiers[6].shape[kPairs32].reorderRounds == 2);
  }

  TEST_CASE("NVIDIA's pairs rank before their row sums") {
    // TileShape::rankFirst: 32-bit pairs in every tier (atomic ranking), pairs with 64-bit elements
    // in their 2-round tiles (tiers 3 to 9), 64-bit keys alone from 2^23; 32-bit keys alone count
    // first (their skewed passes rank first: skewedFrom). A device that ranks by ballots never
    // ranks first, nor does reduce-then-scan; pairs in tiles of several rounds rank by atomics
    // only where they rank first.
    const Tuning t = tuned(h100(), "");
    forEveryTile(t, [&](uint32_t tier, uint32_t cls, const vksort::detail::TileShape& shape) {
      using namespace vksort::detail;
      CHECK(shape.rankFirst == (cls == kPairs32 || (cls == kPairsWide && shape.reorderRounds == 2) ||
                                (cls == kAloneWide && t.tiers[tier].from >= (1u << 23))));
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
    CHECK(tuned(h100(), "atomic_ranking=0").ranking == vksort::detail::Ranking::ballots);
    CHECK(tuned(h100(), "atomic_ranking=0").tiers[0].shape[0].lookbackPlainLoads);
    forEveryTile(tuned(h100(), "persistent=0"), [](uint32_t, uint32_t, const vksort::detail::TileShape& shape) {
      CHECK_FALSE(shape.persistentTiles);
    });
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
                  FAIL_CHECK(d.name << (a == Algorithm::onesweep ? " onesweep " : " rts ") << "key "
                                    << uint32_t(c.keyType) << " value " << uint32_t(c.valueType) << " count " << n
                                    << (indirect ? " indirect" : "") << ": kernel " << k.kernel << " tier " << k.tier
                                    << " fitted " << k.fitted);
              }
            }
          CHECK(missing == 0);
        }
      }
  }

  TEST_CASE("the tuner's table row sets every field of the tile, as a row of tuning_tables.cpp does") {
    vksort::detail::TunedTile t{1, vksort::detail::kPairs32, 4096, 65536, 200, 100, {}};
    // A row's fields as one paragraph, as in tuning_tables.cpp.
    // clang-format off
    t.shape = {.workgroupSize = 512, .keysPerInvocation = 15, .reorderRounds = 1, .fitPercent = 80, .hotDigitFrom = 55,
               .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 3, .lookbackPlainLoads = true, .rankFirst = true,
               .persistentTiles = false, .prefetchPairs = true, .ridingValues = false, .skewedFrom = 25};
    // clang-format on
    const std::string row = vksort::detail::tableRow(t, "a device");
    MESSAGE(row);
    size_t at = 0;
#define VKSORT_EXPECT_FIELD(type, name, stem)                               \
  at = row.find("." #name " = ", at);                                       \
  CHECK_MESSAGE(at != std::string::npos, #name " missing or out of order"); \
  if (at == std::string::npos) at = 0;
    VKSORT_TILE_SHAPE_FIELDS(VKSORT_EXPECT_FIELD)
#undef VKSORT_EXPECT_FIELD
    CHECK(row.find(".keysPerInvocation = 15,") != std::string::npos);
    CHECK(row.find(".lookbackPlainLoads = true,") != std::string::npos);
    CHECK(row.find(".skewedFrom = 25},") != std::string::npos);
    CHECK(row.find("a device: 2.00x the row at 65536 keys") != std::string::npos);
  }

  TEST_CASE("every per-class field of the tile field list has its override name, for one class alone") {
    // overrideTiles() on a tier of zeroed shapes (but fitPercent, which the override changes only
    // where a tile fits waves at all): STEM_alone sets the field of the keys-alone class and of no
    // other (VKSORT_TILE_SHAPE_FIELDS names the stems).
    uint32_t named = 0;
#define VKSORT_OVERRIDE_FIELD(type, name, stem)                                               \
  if (const char* st = stem) {                                                                \
    CAPTURE(st);                                                                              \
    vksort::detail::TuningOverride o;                                                         \
    REQUIRE(vksort::detail::parseTuningOverride((std::string(st) + "_alone=1").c_str(), &o)); \
    vksort::detail::BinningTier tiers[vksort::detail::kMaxTileTiers] = {};                    \
    for (vksort::detail::TileShape & shape : tiers[0].shape) shape.fitPercent = 5;            \
    uint32_t tierCount = 1;                                                                   \
    vksort::detail::overrideTiles(o, tiers, &tierCount);                                      \
    CHECK(uint32_t(tiers[0].shape[vksort::detail::kAlone32].name) == 1u);                     \
    CHECK(uint32_t(tiers[0].shape[vksort::detail::kPairs32].name) != 1u);                     \
    ++named;                                                                                  \
  }
    VKSORT_TILE_SHAPE_FIELDS(VKSORT_OVERRIDE_FIELD)
#undef VKSORT_OVERRIDE_FIELD
    CHECK(named == 9);
  }
}
