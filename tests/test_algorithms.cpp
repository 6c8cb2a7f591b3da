// The two algorithms and the one-dispatch small path: reduce-then-scan and Onesweep give the same
// bytes on the same inputs; the small path holds at and around its threshold, direct and
// indirect (where the GPU's count picks it); the per-device choice and the caller's override.
#include <initializer_list>

#include "test_support.hpp"

using namespace vksort_test;
using vksort::Algorithm;
using vksort::KeyType;
using vksort::ValueType;

namespace {

vksort::SortConfig configOf(KeyType key, ValueType values, vksort::SortOrder order, uint32_t begin, uint32_t end) {
  vksort::SortConfig c;
  c.keyType = key;
  c.valueType = values;
  c.order = order;
  c.beginBit = begin;
  c.endBit = end;
  return c;
}

const vksort::SortConfig kConfigs[] = {
    configOf(KeyType::u32, ValueType::u32, vksort::SortOrder::ascending, 0, 32),
    configOf(KeyType::f32, ValueType::none, vksort::SortOrder::descending, 0, 32),
    configOf(KeyType::i32, ValueType::u64, vksort::SortOrder::ascending, 4, 28),   // odd: 3 passes
    configOf(KeyType::f64, ValueType::u32, vksort::SortOrder::descending, 0, 64),
    configOf(KeyType::u64, ValueType::u64, vksort::SortOrder::ascending, 16, 40),
};

// A tier's tile for a config's class (tuning.hpp's tileClass()).
uint32_t tileKeysOf(const vksort::TileTier& tier, const vksort::SortConfig& config) {
  const bool pairs = config.valueType != ValueType::none;
  if (keyWords(config) == 2 && !pairs) return tier.wideKeysAloneTileKeys;
  return wideElements(config) ? tier.wideTileKeys : pairs ? tier.tileKeys : tier.keysAloneTileKeys;
}

Sorted sortWith(const char* tuning, const std::vector<uint32_t>& keys, const vksort::SortConfig& config,
                Algorithm expected) {
  TunedSorter tuned(tuning);
  CHECK(vksort::getSorterProperties(gpu().sorter).algorithm == expected);
  return sortAndCheck(keys, config);
}

// With the sorter `variant` makes: every kConfigs config in each of `dists`, `tiles` tiles and 33
// keys of its width, checked against the reference (and, where `workgroupSize` is not 0, that the
// variant gives that workgroup size).
void sortEveryConfig(const char* variant, std::initializer_list<Dist> dists, uint32_t tiles, uint32_t workgroupSize = 0) {
  TunedSorter tuned(variant);
  const vksort::SorterProperties p = vksort::getSorterProperties(gpu().sorter);
  if (workgroupSize != 0) REQUIRE(p.workgroupSize == workgroupSize);
  for (const vksort::SortConfig& config : kConfigs)
    for (Dist d : dists) {
      CAPTURE(variant);
      CAPTURE(int(config.keyType));
      CAPTURE(int(config.valueType));
      CAPTURE(name(d));
      const uint32_t n = tiles * (wideElements(config) ? p.wideTileKeys : p.tileKeys) + 33;
      sortAndCheck(makeKeysFor(config, d, n, n + uint32_t(d)), config);
    }
}

// Each of `configs` in each of `dists` sorted and checked against the reference with each
// algorithm, under the tuning `shape`: `tilesOf(p)` asserts what each sorter's properties must
// show, `countOf(p, config)` gives the count. Both algorithms must give the same bytes.
template <class TilesOf, class CountOf>
void sortWithBothAlgorithms(const std::string& shape, std::initializer_list<vksort::SortConfig> configs,
                            std::initializer_list<Dist> dists, TilesOf tilesOf, CountOf countOf) {
  std::vector<Sorted> bytes[2];
  for (Algorithm a : {Algorithm::onesweep, Algorithm::reduceThenScan}) {
    const std::string tuning = shape + ",algorithm=" + std::to_string(int(a));
    TunedSorter tuned(tuning.c_str());
    const vksort::SorterProperties p = vksort::getSorterProperties(gpu().sorter);
    tilesOf(p);
    for (const vksort::SortConfig& config : configs)
      for (Dist d : dists) {
        CAPTURE(int(a));
        CAPTURE(int(config.keyType));
        CAPTURE(int(config.valueType));
        CAPTURE(name(d));
        const uint32_t n = countOf(p, config);
        bytes[a == Algorithm::reduceThenScan].push_back(sortAndCheck(makeKeysFor(config, d, n, n + uint32_t(d)), config));
      }
  }
  REQUIRE(bytes[0].size() == bytes[1].size());
  for (size_t i = 0; i < bytes[0].size(); ++i) {
    CAPTURE(i);
    CHECK(bytes[0][i].keys == bytes[1][i].keys);
    CHECK(bytes[0][i].values == bytes[1][i].values);
  }
}

}  // namespace

TEST_SUITE("algorithms") {
  TEST_CASE("reduce-then-scan and Onesweep: the same bytes on the same inputs") {
    const vksort::SorterProperties p = vksort::getSorterProperties(gpu().sorter);
    for (const vksort::SortConfig& config : kConfigs)
      for (Dist d : {Dist::uniform, Dist::q8, Dist::fewDistinct}) {
        CAPTURE(int(config.keyType));
        CAPTURE(int(config.valueType));
        CAPTURE(name(d));
        bool wide = wideElements(config);
        const uint32_t n = 5 * (wide ? p.wideTileKeys : p.tileKeys) + 33;
        std::vector<uint32_t> keys = makeKeysFor(config, d, n, n + uint32_t(d));
        Sorted onesweep = sortWith("algorithm=1,small_keys=0", keys, config, Algorithm::onesweep);
        Sorted rts = sortWith("algorithm=2,small_keys=0", keys, config, Algorithm::reduceThenScan);
        CHECK(onesweep.keys == rts.keys);
        CHECK(onesweep.values == rts.values);
      }
  }

  TEST_CASE("the one-dispatch small path at and around its threshold") {
    const vksort::SorterProperties p = vksort::getSorterProperties(gpu().sorter);
    for (const vksort::SortConfig& config : kConfigs) {
      const bool wide = wideElements(config);
      const uint32_t threshold = wide ? p.smallSortWideMaxKeys : p.smallSortMaxKeys;
      REQUIRE(threshold > 0);
      for (uint32_t n : {1u, 2u, threshold / 2 + 1, threshold - 1, threshold, threshold + 1}) {
        CAPTURE(int(config.keyType));
        CAPTURE(int(config.valueType));
        CAPTURE(n);
        sortAndCheck(makeKeysFor(config, Dist::q2, n, n), config);
      }
      // Indirect: the count on the GPU picks the small path or the full sort.
      std::vector<uint32_t> keys = makeKeysFor(config, Dist::uniform, 3 * threshold, 7);
      bool pairs = config.valueType != ValueType::none;
      for (uint32_t count : {0u, 1u, threshold - 1, threshold, threshold + 1, 3 * threshold, ~0u}) {
        CAPTURE(count);
        sortIndirectAndCheck(keys, pairs, count, CountSource::shader, config);
      }
      // An indirect sort whose maxCount is within the threshold records the small path alone.
      std::vector<uint32_t> few(keys.begin(), keys.begin() + threshold * keyWords(config));
      sortIndirectAndCheck(few, pairs, threshold / 3, CountSource::transfer, config);
    }
  }

  TEST_CASE("the one-workgroup sort in each of its tiles") {
    // Radix tiles of 1, 2 and 4 keys per invocation (no bitonic ones): counts around each tile's
    // size run in it or the next; past the largest, the multi-dispatch sort.
    const uint32_t workgroup = vksort::getSorterProperties(gpu().sorter).workgroupSize;
    const std::string tuning = "bitonic_keys_per_pass=0,small_kpi=1,small_tiles=3,small_keys=100000000,small_workgroup=" + std::to_string(workgroup);
    TunedSorter tuned(tuning.c_str());
    const vksort::SorterProperties p = vksort::getSorterProperties(gpu().sorter);
    REQUIRE(p.smallSortMaxKeys == 4 * workgroup);
    REQUIRE(p.smallSortWideMaxKeys == 4 * workgroup);
    for (const vksort::SortConfig& config : {kConfigs[0], kConfigs[2], kConfigs[3]})  // kConfigs[2]: odd pass count
      for (uint32_t n : {workgroup - 1, workgroup, workgroup + 1, 2 * workgroup + 1, 4 * workgroup, 4 * workgroup + 1}) {
        CAPTURE(int(config.keyType));
        CAPTURE(n);
        sortAndCheck(makeKeysFor(config, Dist::q4, n, 3), config);
      }
  }

  TEST_CASE("the bitonic one-workgroup sort in each of its tiles") {
    // Networks of 1 and 4 keys per invocation from one subgroup's workgroup up: a tile of one
    // subgroup (shuffles alone), then larger workgroups (shared-memory stages); with 4 keys, stages
    // within an invocation's registers. No radix tile is larger (one subgroup's keys), so every
    // count up to the largest network runs in one; past it, the multi-dispatch sort.
    const uint32_t subgroup = vksort::getSorterProperties(gpu().sorter).subgroupSize;
    // Integer keys alone over their whole range come back from the network's bits (no gather).
    std::vector<vksort::SortConfig> configs(std::begin(kConfigs), std::end(kConfigs));
    configs.push_back(configOf(KeyType::i32, ValueType::none, vksort::SortOrder::descending, 0, 32));
    configs.push_back(configOf(KeyType::u64, ValueType::none, vksort::SortOrder::ascending, 0, 64));
    configs.push_back(configOf(KeyType::i64, ValueType::none, vksort::SortOrder::descending, 0, 64));
    for (uint32_t kpi : {1u, 4u}) {
      const std::string tuning = "small_kpi=1,small_tiles=1,small_workgroup=1,small_keys=100000000,bitonic_keys_per_pass=100000000,"
                                 "bitonic_workgroup=" + std::to_string(subgroup) + ",bitonic_kpi=" + std::to_string(kpi);
      TunedSorter tuned(tuning.c_str());
      const vksort::SorterProperties p = vksort::getSorterProperties(gpu().sorter);
      const uint32_t largest = p.smallSortMaxKeys;
      REQUIRE(largest >= 4 * subgroup * kpi);  // at least three networks
      REQUIRE((largest & (largest - 1)) == 0);
      for (const vksort::SortConfig& config : configs) {
        const uint32_t most = wideElements(config) ? p.smallSortWideMaxKeys : largest;
        for (uint32_t n : {1u, 2u, 3u, subgroup * kpi - 1, subgroup * kpi, subgroup * kpi + 1, most / 2 + 1, most - 1, most, most + 1}) {
          CAPTURE(kpi);
          CAPTURE(int(config.keyType));
          CAPTURE(n);
          sortAndCheck(makeKeysFor(config, Dist::q4, n, 3), config);
        }
        // Indirect: the GPU's count picks the network of the maxCount, or the full sort.
        std::vector<uint32_t> keys = makeKeysFor(config, Dist::uniform, 2 * most, 7);
        for (uint32_t count : {0u, 1u, most / 3, most, most + 1})
          sortIndirectAndCheck(keys, config.valueType != ValueType::none, count, CountSource::shader, config);
      }
    }
  }

  TEST_CASE("a one-workgroup tile too large for shared memory is fitted to it") {
    // 256 keys per invocation would ask far more than any device's shared memory: the tuning
    // halves it until the pipeline fits, and the sort still works. A tile fitted so has no room
    // for the values (sources) beside its 32-bit keys: they go through the keys' words (the
    // smaller tiles of the test above have the room).
    const uint32_t workgroup = vksort::getSorterProperties(gpu().sorter).workgroupSize;
    const std::string tuning = "small_kpi=256,small_keys=" + std::to_string(4 * workgroup);
    TunedSorter tuned(tuning.c_str());
    const uint32_t n = 4 * workgroup - 3;
    for (const vksort::SortConfig& config : {configOf(KeyType::u32, ValueType::u32, vksort::SortOrder::ascending, 0, 32),
                                             configOf(KeyType::u32, ValueType::u64, vksort::SortOrder::descending, 0, 32),
                                             configOf(KeyType::u64, ValueType::u64, vksort::SortOrder::ascending, 0, 64)}) {
      CAPTURE(int(config.keyType));
      CAPTURE(int(config.valueType));
      sortAndCheck(makeKeysFor(config, Dist::uniform, n, 5), config);
    }
  }

  TEST_CASE("tiles larger than shared memory go through it in rounds, both algorithms") {
    // A tile whose keys alone overflow the device's shared memory: with 4 reorder rounds only a
    // quarter of it is in shared memory at once (and the subgroup counters share those words).
    const uint32_t workgroup = vksort::getSorterProperties(gpu().sorter).workgroupSize;
    const uint32_t sharedWords = gpu().ctx.properties.limits.maxComputeSharedMemorySize / 4;
    const uint32_t kpi = 4 * (sharedWords / (4 * workgroup) + 1);
    const std::string shape = "rounds=4,wide_rounds=4,small_keys=0,keys=" + std::to_string(kpi) +
                              ",wide_keys=" + std::to_string(kpi / 2);
    // One sorter per algorithm (pipelines with this many keys per invocation compile slowly on
    // lavapipe); the two algorithms' results compared after. Equal keys make every tile uniform:
    // its values, loaded before the key scatter, go straight to their places.
    sortWithBothAlgorithms(
        shape, {kConfigs[0], kConfigs[1], kConfigs[2], kConfigs[4]}, {Dist::uniform, Dist::q4, Dist::allEqual},
        [&](const vksort::SorterProperties& p) {
          REQUIRE(p.workgroupSize == workgroup);
          REQUIRE(p.tileKeys == workgroup * kpi);  // not fitted down: the rounds make it fit
          REQUIRE(p.tileKeys > sharedWords);
        },
        [](const vksort::SorterProperties& p, const vksort::SortConfig& config) {
          return 3 * (wideElements(config) ? p.wideTileKeys : p.tileKeys) + 33;
        });
  }

  TEST_CASE("keys alone keep digit counts and starts in registers with chunked row sums, both algorithms") {
    // Keys alone in 512 invocations (two per digit: the row sums go in chunks) with the most keys
    // per invocation that fit only without s_digitCount / s_digitScan (2 KiB) in shared memory.
    const vksort::SorterProperties base = vksort::getSorterProperties(gpu().sorter);
    const uint32_t workgroup = 512;
    const uint32_t sharedWords = gpu().ctx.properties.limits.maxComputeSharedMemorySize / 4;
    const uint32_t subgroups = workgroup / base.subgroupSize;
    // Past the tile: the counters (a word per subgroup pair and digit), s_digitDest, a word each
    // for the digit counts and starts, a total per subgroup, s_ticket and s_uniformDigit.
    const uint32_t otherWords = (subgroups + 1) / 2 * 256 + 256 + 2 + subgroups + 2;
    if (!base.requiredSubgroupSize || workgroup > gpu().ctx.properties.limits.maxComputeWorkGroupInvocations ||
        otherWords + workgroup > sharedWords) {
      MESSAGE("a 512-invocation tile's counters leave no room for its keys here: nothing to test");
      return;
    }
    const uint32_t kpi = (sharedWords - otherWords) / workgroup;
    REQUIRE(workgroup * kpi + otherWords + 2 * 256 - 2 > sharedWords);  // the 2 KiB make it fit
    const std::string shape = "small_keys=0,tiers=2,tier1_from=1,tier1_alone_workgroup=512,tier1_alone_keys=" + std::to_string(kpi);
    sortWithBothAlgorithms(
        shape, {configOf(KeyType::u32, ValueType::none, vksort::SortOrder::ascending, 0, 32), kConfigs[1]},
        {Dist::uniform, Dist::q4},
        [&](const vksort::SorterProperties& p) {
          REQUIRE(p.tileTierCount == 2);
          REQUIRE(p.tileTiers[1].keysAloneTileKeys == workgroup * kpi);  // not fitted down
        },
        [](const vksort::SorterProperties& p, const vksort::SortConfig&) {
          return 3 * p.tileTiers[1].keysAloneTileKeys + 33;
        });
  }

  TEST_CASE("sorts bin in the tiles of their count's tier, both algorithms") {
    // Two tiers past the first, each of another workgroup size, keys per invocation and round
    // count (3 rounds: places do not split evenly), from counts between two tiles; keys alone
    // take the tier's shape of their width in the first, shapes of their own in the second.
    const vksort::SorterProperties base = vksort::getSorterProperties(gpu().sorter);
    const uint32_t from = 2 * base.tileKeys + 7;
    const uint32_t workgroup = base.workgroupSize / 2;
    const uint32_t from2 = from + 3 * workgroup * 9 + 11;
    const std::string shape = "small_keys=0,tiers=3,tier1_from=" + std::to_string(from) +
                              ",tier1_workgroup=" + std::to_string(workgroup) +
                              ",tier1_keys=9,tier1_rounds=3,tier1_wide_workgroup=" + std::to_string(workgroup) +
                              ",tier1_wide_keys=6,tier1_wide_rounds=2,tier2_from=" + std::to_string(from2) +
                              ",tier2_workgroup=" + std::to_string(2 * workgroup) + ",tier2_keys=5,tier2_rounds=1" +
                              ",tier2_wide_workgroup=" + std::to_string(workgroup) + ",tier2_wide_keys=3,tier2_wide_rounds=1" +
                              ",tier2_alone_workgroup=" + std::to_string(workgroup) + ",tier2_alone_keys=7,tier2_alone_rounds=1" +
                              ",tier2_wide_alone_workgroup=" + std::to_string(workgroup) + ",tier2_wide_alone_keys=4,tier2_wide_alone_rounds=2";
    for (Algorithm a : {Algorithm::onesweep, Algorithm::reduceThenScan}) {
      const std::string tuning = shape + ",algorithm=" + std::to_string(int(a));
      TunedSorter tuned(tuning.c_str());
      const vksort::SorterProperties p = vksort::getSorterProperties(gpu().sorter);
      REQUIRE(p.tileTierCount == 3);
      REQUIRE(p.tileTiers[0].tileKeys == base.tileKeys);
      REQUIRE(p.tileTiers[1].fromCount == from);
      REQUIRE(p.tileTiers[1].tileKeys == workgroup * 9);
      REQUIRE(p.tileTiers[1].wideTileKeys == workgroup * 6);
      REQUIRE(p.tileTiers[1].keysAloneTileKeys == workgroup * 9);
      REQUIRE(p.tileTiers[1].wideKeysAloneTileKeys == workgroup * 6);
      REQUIRE(p.tileTiers[2].fromCount == from2);
      REQUIRE(p.tileTiers[2].tileKeys == 2 * workgroup * 5);
      REQUIRE(p.tileTiers[2].wideTileKeys == workgroup * 3);
      REQUIRE(p.tileTiers[2].keysAloneTileKeys == workgroup * 7);
      REQUIRE(p.tileTiers[2].wideKeysAloneTileKeys == workgroup * 4);
      REQUIRE(p.tileKeys == base.tileKeys);
      const vksort::SortConfig keys64 = configOf(KeyType::i64, ValueType::none, vksort::SortOrder::descending, 0, 64);
      for (const vksort::SortConfig& config : {kConfigs[0], kConfigs[1], kConfigs[3], keys64}) {
        const bool pairs = config.valueType != ValueType::none;
        const uint32_t n = 3 * tileKeysOf(p.tileTiers[2], config) + from2 + 5;
        std::vector<uint32_t> keys = makeKeysFor(config, Dist::q2, n, n);
        for (uint32_t count : {from - 1, from, from2 - 1, from2, n}) {
          CAPTURE(int(a));
          CAPTURE(int(config.keyType));
          CAPTURE(count);
          sortAndCheck(std::vector<uint32_t>(keys.begin(), keys.begin() + size_t(count) * keyWords(config)), config);
          // Indirect: maxCount (n) picks the last tier, whatever the count on the GPU.
          sortIndirectAndCheck(keys, pairs, count, CountSource::shader, config);
        }
      }
    }
  }

  TEST_CASE("reduce-then-scan downsweeps that take tiles while tickets last") {
    // The tuning's persistentTiles (NVIDIA's choice): a downsweep workgroup takes tile after tile
    // from its pass's ticket counter, loading the next tile's keys during its scatter (keys alone)
    // or after its values (pairs); in one round and through shared memory in 2 rounds. Lavapipe
    // runs a few workgroups at a time, so the first ones take most of the tiles.
    for (const char* variant : {"algorithm=2,small_keys=0,persistent=1",
                                "algorithm=2,small_keys=0,persistent=1,rounds=2,wide_rounds=2"}) {
      sortEveryConfig(variant, {Dist::uniform, Dist::q4, Dist::allEqual}, 9);
      // Indirect: the grid of maxCount's tiles, fewer of them taken.
      TunedSorter tuned(variant);
      const uint32_t tile = vksort::getSorterProperties(gpu().sorter).tileKeys;
      for (const vksort::SortConfig& config : {kConfigs[0], kConfigs[1]}) {
        CAPTURE(variant);
        CAPTURE(int(config.keyType));
        std::vector<uint32_t> keys = makeKeysFor(config, Dist::uniform, 9 * tile, 5);
        sortIndirectAndCheck(keys, config.valueType != ValueType::none, 6 * tile + 7, CountSource::shader, config);
      }
    }
  }

  TEST_CASE("reduce-then-scan's tile table scanned in several rounds per digit") {
    // tile_scan.comp scans a digit's row 8 tiles per invocation, a workgroup's worth at a time:
    // tiles of one key per invocation of a one-subgroup workgroup make each row many such rounds.
    const uint32_t subgroup = vksort::getSorterProperties(gpu().sorter).subgroupSize;
    const std::string variant = "algorithm=2,small_keys=0,keys=1,wide_keys=1,workgroup=" + std::to_string(subgroup);
    sortEveryConfig(variant.c_str(), {Dist::uniform, Dist::q4}, 8 * subgroup * 3 + 5);
  }

  TEST_CASE("subgroup counters in pair words: workgroups of one and of three subgroups, both algorithms") {
    // binning.glsl keeps subgroups 2p and 2p + 1's counters in the halves of one word: an odd
    // subgroup count leaves the last word's high halves to nobody, and the row sums, the ranking
    // and the scatter must still see every subgroup's keys (whole tiles and a partial last one).
    const uint32_t subgroup = vksort::getSorterProperties(gpu().sorter).subgroupSize;
    for (uint32_t subgroups : {1u, 3u})
      for (Algorithm a : {Algorithm::onesweep, Algorithm::reduceThenScan}) {
        const std::string variant = "algorithm=" + std::to_string(int(a)) + ",small_keys=0,tiers=1,keys=5,wide_keys=3,workgroup=" +
                                    std::to_string(subgroups * subgroup);
        sortEveryConfig(variant.c_str(), {Dist::uniform, Dist::q4}, 7, subgroups * subgroup);
      }
  }

  TEST_CASE("Onesweep tiles fitted to whole waves: direct sorts cut keys per invocation") {
    // Waves of 3 workgroups; tier 1's tiles of 9 keys per invocation (64-bit: 6, keys alone: 7)
    // fitted. A direct sort's tiles get the fewest keys per invocation that fill as many whole
    // waves as the tier's own: 2 tiles and a key, 1 wave of 3 tiles of 7 / 9 of the keys per
    // invocation; 3 tiles and a key, 2 waves (6 tiles) of 5 / 9; 5 tiles less 7 keys, 2 waves of
    // 8 / 9; 6 tiles and a key, 3 waves of 7 / 9. Indirect sorts of the same keys keep the
    // tier's tile. In portions of 2 tiles too (a fitted tile's portions are shorter), and through
    // shared memory in rounds (3 and 2: the fitted keys need not split evenly), and with a hot
    // digit in every pass (its keys counted a subgroup at a time, sitting-out keys not).
    const uint32_t workgroup = vksort::getSorterProperties(gpu().sorter).workgroupSize;
    const std::string shape = "algorithm=1,small_keys=0,wave_workgroups=3,fit_percent=100,tiers=2,tier1_from=" + std::to_string(2 * workgroup) +
                              ",tier1_fit=1,tier1_workgroup=" + std::to_string(workgroup) +
                              ",tier1_keys=9,tier1_rounds=1,tier1_wide_workgroup=" + std::to_string(workgroup) +
                              ",tier1_wide_keys=6,tier1_wide_rounds=1,tier1_alone_workgroup=" + std::to_string(workgroup) +
                              ",tier1_alone_keys=7,tier1_alone_rounds=1";
    for (const char* variant : {"", ",portion_tiles=2", ",tier1_rounds=3,tier1_wide_rounds=2", ",hot_digit_from=1", ",riding_values=1"}) {
      TunedSorter tuned((shape + variant).c_str());
      const vksort::SorterProperties p = vksort::getSorterProperties(gpu().sorter);
      REQUIRE(p.waveWorkgroups == 3);
      REQUIRE(p.tileTierCount == 2);
      REQUIRE(!p.tileTiers[0].fittedToWaves);
      REQUIRE(p.tileTiers[1].fittedToWaves);
      for (const vksort::SortConfig& config : kConfigs) {
        const bool pairs = config.valueType != ValueType::none;
        const uint32_t tile = tileKeysOf(p.tileTiers[1], config);
        const uint32_t most = 6 * tile + 1;
        std::vector<uint32_t> keys = makeKeysFor(config, Dist::q2, most, 11);
        for (uint32_t count : {2 * tile + 1, 3 * tile, 3 * tile + 1, 5 * tile - 7, most}) {
          CAPTURE(variant);
          CAPTURE(int(config.keyType));
          CAPTURE(int(config.valueType));
          CAPTURE(count);
          sortAndCheck(std::vector<uint32_t>(keys.begin(), keys.begin() + size_t(count) * keyWords(config)), config);
          sortIndirectAndCheck(keys, pairs, count, CountSource::transfer, config);
        }
      }
    }
    // Reduce-then-scan fits nothing.
    TunedSorter rts((shape + ",algorithm=2").c_str());
    const vksort::SorterProperties p = vksort::getSorterProperties(gpu().sorter);
    CHECK(p.waveWorkgroups == 0);
    CHECK(!p.tileTiers[1].fittedToWaves);
  }

  TEST_CASE("Onesweep counts a pass's hot digit a subgroup at a time") {
    // The scan kernel names each pass's most frequent digit and its share; where that share is
    // within [hot_digit_from, hot_digit_to] percent, each subgroup's keys of the digit are counted
    // by one lane. From 1% every pass has one (also where a subgroup holds few keys of it: uniform
    // keys); q4 puts ~60% of the keys on digit 0, allEqual all of them. In portions of 2 tiles
    // too (a pass's hot digit is the same in each), and with the tile through shared memory in 2
    // rounds; a range that takes q4's digit (<= 70%) but not allEqual's.
    for (const char* variant : {"algorithm=1,small_keys=0,hot_digit_from=1",
                                "algorithm=1,small_keys=0,hot_digit_from=1,portion_tiles=2",
                                "algorithm=1,small_keys=0,hot_digit_from=40,hot_digit_to=70,rounds=2,wide_rounds=2"})
      sortEveryConfig(variant, {Dist::uniform, Dist::q4, Dist::allEqual}, 5);
  }

  TEST_CASE("Onesweep's look-back words published with plain stores") {
    // The tuning's lookbackPlainStores (NVIDIA's choice): every tile's aggregate and inclusive
    // prefix go out as plain stores to the coherent status words; read here with atomics (plain
    // loads saw stale words on lavapipe), in one portion and in portions of 2 tiles.
    for (const char* variant : {"algorithm=1,small_keys=0,plain_stores=1",
                                "algorithm=1,small_keys=0,plain_stores=1,portion_tiles=2"})
      sortEveryConfig(variant, {Dist::uniform, Dist::q4}, 7);
  }

  TEST_CASE("Onesweep's look-back windows, per tile class") {
    // Predecessors read at once (lookback.glsl's LOOKBACK_WINDOW, a tile class's
    // TileShape::lookbackWindow): one, a window past the walk's usual length, and a different one
    // per class (NVIDIA reads 3 for 32-bit keys, 4 for 64-bit elements), in one portion and in
    // portions of 2 tiles. A walk that stops early in a window fails it on the H100 (checked);
    // lavapipe's walks seldom meet an aggregate.
    for (const char* variant : {"algorithm=1,small_keys=0,lookback_window=1",
                                "algorithm=1,small_keys=0,lookback_window=16,portion_tiles=2",
                                "algorithm=1,small_keys=0,lookback_window_pairs=2,lookback_window_wide=5,lookback_window_alone=3"})
      sortEveryConfig(variant, {Dist::uniform, Dist::q4}, 9);
  }

  TEST_CASE("pairs whose 32-bit values load with their keys, both algorithms") {
    // TileShape::ridingValues (binning.glsl's RIDING_VALUES; NVIDIA's choice): in one-round tiles
    // a tile's 32-bit values are loaded with its keys and scattered from registers (32-bit keys
    // and 64-bit keys with 32-bit values; 64-bit values and two-round tiles load them at the
    // scatter as before), in one portion and in portions of 2 tiles, with uniform tiles (their
    // values go straight from registers). Reduce-then-scan's downsweep also with tiles taken while
    // tickets last, where each next tile's values load after the scatter (Onesweep's persistent
    // loop hung lavapipe: the GPU suite runs it, NVIDIA's choice). Fitted tiles: the test above.
    for (const char* variant :
         {"algorithm=1,small_keys=0,riding_values=1", "algorithm=1,small_keys=0,riding_values=1,portion_tiles=2",
          "algorithm=1,small_keys=0,riding_values=1,rounds=2,wide_rounds=2", "algorithm=2,small_keys=0,riding_values=1",
          "algorithm=2,small_keys=0,riding_values=1,persistent=1"})
      sortEveryConfig(variant, {Dist::uniform, Dist::q4, Dist::allEqual}, 9);
  }

  TEST_CASE("Onesweep's histogram, scan and passes chained in one dispatch") {
    // Tuning::chainedUpTo (chained.glsl; NVIDIA's choice for small sorts): a direct sort's
    // workgroups take tickets across the histogram and every pass, each pass waiting until the
    // one before is done; passes alternate look-back regions and key buffers, and an odd pass
    // count copies back after. Every config (3, 4 and 8 passes, values of both widths, bit
    // ranges, descending), with the default histogram workgroups, one per tile, and groups of 4
    // tiles (whose last scans every pass), with values riding, with tiles of one digit
    // (allEqual). Indirect sorts do not chain (their count is on the GPU).
    for (const char* variant : {"algorithm=1,small_keys=0,chained_up_to=4294967295",
                                "algorithm=1,small_keys=0,chained_up_to=4294967295,histogram_tiles=1",
                                "algorithm=1,small_keys=0,chained_up_to=4294967295,histogram_tiles=4,"
                                "histogram_min_groups=1,riding_values=1"}) {
      {
        TunedSorter tuned(variant);
        CHECK(vksort::getSorterProperties(gpu().sorter).chainedMaxKeys == 4294967295u);
      }
      sortEveryConfig(variant, {Dist::uniform, Dist::q4, Dist::allEqual}, 9);
    }
    {
      TunedSorter tuned("algorithm=1,small_keys=0,chained_up_to=4294967295");
      const vksort::SortConfig c = configOf(KeyType::u32, ValueType::u32, vksort::SortOrder::ascending, 0, 32);
      const uint32_t n = 5 * vksort::getSorterProperties(gpu().sorter).tileKeys + 7;
      sortIndirectAndCheck(makeKeysFor(c, Dist::uniform, n, 3), true, n - 100, CountSource::transfer, c);
    }
    // Reduce-then-scan chains nothing.
    TunedSorter rts("algorithm=2,chained_up_to=4294967295");
    CHECK(vksort::getSorterProperties(gpu().sorter).chainedMaxKeys == 0);
  }

  TEST_CASE("waits that outlast llvmpipe's loop limiter") {
    // patient_wait.glsl: llvmpipe ends every loop of an invocation after 65535 turns in all, so a
    // spin that waits longer ends early and the sort goes wrong. Chained sorts wait most (each
    // pass's first tiles on the last of the pass before): with two lavapipe threads and the
    // re-reads off (patient_waits=0), these 30 sorts of 4 and 3 passes went wrong in 4 of 18
    // runs; with them (llvmpipe's default), in none of 22. On other devices the re-reads compile
    // away and this repeats the chained test's sorts.
    TunedSorter tuned("algorithm=1,small_keys=0,chained_up_to=4294967295");
    const uint32_t tile = vksort::getSorterProperties(gpu().sorter).tileKeys;
    for (uint32_t rep = 0; rep < 15; ++rep)
      for (const vksort::SortConfig& c : {configOf(KeyType::u32, ValueType::none, vksort::SortOrder::ascending, 0, 32),
                                          configOf(KeyType::u32, ValueType::none, vksort::SortOrder::ascending, 0, 24)}) {
        CAPTURE(rep);
        CAPTURE(c.endBit);
        sortAndCheck(makeKeysFor(c, Dist::uniform, 9 * tile + 33, rep), c);
      }
  }

  TEST_CASE("per-device choice, and the caller's override") {
    vkctx::Context& ctx = gpu().ctx;
    // The desktop drivers are trusted with forward progress, lavapipe and unknown ones are not
    // (README table).
    const vksort::Algorithm chosen = vksort::getSorterProperties(gpu().sorter).algorithm;
    const char* tuning = std::getenv("VKSORT_TUNING");
    const bool trusted = ctx.properties.vendorID == 0x10DE || ctx.properties.vendorID == 0x1002 ||
                         ctx.properties.vendorID == 0x8086;
    if (!tuning || std::string(tuning).find("algorithm=") == std::string::npos)
      CHECK(chosen == (trusted ? Algorithm::onesweep : Algorithm::reduceThenScan));
    for (Algorithm a : {Algorithm::onesweep, Algorithm::reduceThenScan}) {
      vksort::SorterCreateInfo info = ctx.sorterCreateInfo();
      info.algorithm = a;
      vksort::Sorter sorter = nullptr;
      REQUIRE(vksort::createSorter(info, &sorter));
      if (!tuning || std::string(tuning).find("algorithm=") == std::string::npos)
        CHECK(vksort::getSorterProperties(sorter).algorithm == a);
      // NVIDIA's tiers (tuning.cpp): 512 x 4 tiles from 80k keys for Onesweep, whose chained
      // sorts gain there, and from 2^17 for reduce-then-scan, which lost from 80k (H100).
      if (ctx.properties.vendorID == 0x10DE && !tuning)
        CHECK(vksort::getSorterProperties(sorter).tileTiers[1].fromCount == (a == Algorithm::onesweep ? 80u << 10 : 1u << 17));
      vksort::destroySorter(sorter);
    }
    vksort::SorterCreateInfo bad = ctx.sorterCreateInfo();
    bad.algorithm = Algorithm(3);
    vksort::Sorter sorter = nullptr;
    CHECK(vksort::createSorter(bad, &sorter).result == vksort::Result::errorInvalidArgument);
    CHECK(sorter == nullptr);
  }
}
