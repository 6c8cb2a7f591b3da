// Tile shapes: the one-workgroup sorts in each of their tiles (radix and bitonic), tiers of
// their own shapes per tile class, workgroups of one and three subgroups (counters in pair
// words), tiles fitted to whole waves, and values that load with their keys.
#include <string>

#include "algorithm_cases.hpp"

using namespace vksort_test;

namespace {

// A tier's tile for a config's class (tuning_types.hpp's tileClass()).
uint32_t tileKeysOf(const vksort::detail::TierTiles& tier, const vksort::SortConfig& config) {
  const bool pairs = config.valueType != ValueType::none;
  if (keyWords(config) == 2 && !pairs) return tier.wideKeysAloneTileKeys;
  return wideElements(config) ? tier.wideTileKeys : pairs ? tier.tileKeys : tier.keysAloneTileKeys;
}

}  // namespace

TEST_SUITE("tiles") {
  TEST_CASE("the one-workgroup sort in each of its tiles") {
    // Radix tiles of 1, 2 and 4 keys per invocation (no bitonic ones): counts around each tile's
    // size run in it or the next; past the largest, the multi-dispatch sort.
    const uint32_t workgroup = testProperties(gpu().sorter).workgroupSize;
    const std::string tuning =
        "bitonic_keys_per_pass=0,small_kpi=1,small_tiles=3,small_keys=100000000,small_workgroup=" +
        std::to_string(workgroup);
    TunedSorter tuned(tuning.c_str());
    const TestProperties p = testProperties(gpu().sorter);
    REQUIRE(p.smallSortMaxKeys == 4 * workgroup);
    REQUIRE(p.smallSortWideMaxKeys == 4 * workgroup);
    for (const vksort::SortConfig& config : {kConfigs[0], kConfigs[2], kConfigs[3]})  // kConfigs[2]: odd pass count
      for (uint32_t n :
           {workgroup - 1, workgroup, workgroup + 1, 2 * workgroup + 1, 4 * workgroup, 4 * workgroup + 1}) {
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
    const uint32_t subgroup = testProperties(gpu().sorter).subgroupSize;
    // Integer keys alone over their whole range come back from the network's bits (no gather).
    std::vector<vksort::SortConfig> configs(std::begin(kConfigs), std::end(kConfigs));
    configs.push_back(configOf(KeyType::i32, ValueType::none, vksort::SortOrder::descending, 0, 32));
    configs.push_back(configOf(KeyType::u64, ValueType::none, vksort::SortOrder::ascending, 0, 64));
    configs.push_back(configOf(KeyType::i64, ValueType::none, vksort::SortOrder::descending, 0, 64));
    for (uint32_t kpi : {1u, 4u}) {
      const std::string tuning =
          "small_kpi=1,small_tiles=1,small_workgroup=1,small_keys=100000000,bitonic_keys_per_pass=100000000,"
          "bitonic_workgroup=" +
          std::to_string(subgroup) + ",bitonic_kpi=" + std::to_string(kpi);
      TunedSorter tuned(tuning.c_str());
      const TestProperties p = testProperties(gpu().sorter);
      const uint32_t largest = p.smallSortMaxKeys;
      REQUIRE(largest >= 4 * subgroup * kpi);  // at least three networks
      REQUIRE((largest & (largest - 1)) == 0);
      for (const vksort::SortConfig& config : configs) {
        const uint32_t most = wideElements(config) ? p.smallSortWideMaxKeys : largest;
        for (uint32_t n : {1u, 2u, 3u, subgroup * kpi - 1, subgroup * kpi, subgroup * kpi + 1, most / 2 + 1, most - 1,
                           most, most + 1}) {
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

  TEST_CASE("sorts bin in the tiles of their count's tier, both algorithms") {
    // Two tiers past the first, each of another workgroup size, keys per invocation and round
    // count (3 rounds: places do not split evenly), from counts between two tiles; keys alone
    // take the tier's shape of their width in the first, shapes of their own in the second.
    const TestProperties base = testProperties(gpu().sorter);
    const uint32_t from = 2 * base.tileKeys + 7;
    const uint32_t workgroup = base.workgroupSize / 2;
    const uint32_t from2 = from + 3 * workgroup * 9 + 11;
    const std::string shape =
        "small_keys=0,tiers=3,tier1_from=" + std::to_string(from) + ",tier1_workgroup=" + std::to_string(workgroup) +
        ",tier1_keys=9,tier1_rounds=3,tier1_wide_workgroup=" + std::to_string(workgroup) +
        ",tier1_wide_keys=6,tier1_wide_rounds=2,tier2_from=" + std::to_string(from2) +
        ",tier2_workgroup=" + std::to_string(2 * workgroup) + ",tier2_keys=5,tier2_rounds=1" +
        ",tier2_wide_workgroup=" + std::to_string(workgroup) + ",tier2_wide_keys=3,tier2_wide_rounds=1" +
        ",tier2_alone_workgroup=" + std::to_string(workgroup) + ",tier2_alone_keys=7,tier2_alone_rounds=1" +
        ",tier2_wide_alone_workgroup=" + std::to_string(workgroup) +
        ",tier2_wide_alone_keys=4,tier2_wide_alone_rounds=2";
    for (Algorithm a : {Algorithm::onesweep, Algorithm::reduceThenScan}) {
      const std::string tuning = shape + ",algorithm=" + std::to_string(int(a));
      TunedSorter tuned(tuning.c_str());
      const TestProperties p = testProperties(gpu().sorter);
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

  TEST_CASE("subgroup counters in pair words: workgroups of one and of three subgroups, both algorithms") {
    // binning_tile.glsl keeps subgroups 2p and 2p + 1's counters in the halves of one word: an odd
    // subgroup count leaves the last word's high halves to nobody, and the row sums, the ranking
    // and the scatter must still see every subgroup's keys (whole tiles and a partial last one).
    const uint32_t subgroup = testProperties(gpu().sorter).subgroupSize;
    for (uint32_t subgroups : {1u, 3u})
      for (Algorithm a : {Algorithm::onesweep, Algorithm::reduceThenScan}) {
        const std::string variant =
            "algorithm=" + std::to_string(int(a)) +
            ",small_keys=0,tiers=1,keys=5,wide_keys=3,workgroup=" + std::to_string(subgroups * subgroup);
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
    const uint32_t workgroup = testProperties(gpu().sorter).workgroupSize;
    const std::string shape =
        "algorithm=1,small_keys=0,wave_workgroups=3,fit_percent=100,tiers=2,tier1_from=" +
        std::to_string(2 * workgroup) + ",tier1_fit=1,tier1_workgroup=" + std::to_string(workgroup) +
        ",tier1_keys=9,tier1_rounds=1,tier1_wide_workgroup=" + std::to_string(workgroup) +
        ",tier1_wide_keys=6,tier1_wide_rounds=1,tier1_alone_workgroup=" + std::to_string(workgroup) +
        ",tier1_alone_keys=7,tier1_alone_rounds=1";
    for (const char* variant :
         {"", ",portion_tiles=2", ",tier1_rounds=3,tier1_wide_rounds=2", ",hot_digit_from=1", ",riding_values=1"}) {
      TunedSorter tuned((shape + variant).c_str());
      const TestProperties p = testProperties(gpu().sorter);
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
    const TestProperties p = testProperties(gpu().sorter);
    CHECK(p.waveWorkgroups == 0);
    CHECK(!p.tileTiers[1].fittedToWaves);
  }

  TEST_CASE("pairs whose 32-bit values load with their keys, both algorithms") {
    // TileShape::ridingValues (binning_switches.glsl's RIDING_VALUES; NVIDIA's choice): in one-round tiles
    // a tile's 32-bit values are loaded with its keys and scattered from registers (32-bit keys
    // and 64-bit keys with 32-bit values; 64-bit values and two-round tiles load them at the
    // scatter as before), in one portion and in portions of 2 tiles, with uniform tiles (their
    // values go straight from registers). Reduce-then-scan's downsweep also with tiles taken while
    // tickets last, where the next tile's keys and values load into registers as soon as this
    // tile's values have left them for shared memory, while those scatter (Onesweep's persistent
    // loop hung lavapipe: the GPU suite runs it, NVIDIA's choice). Fitted tiles: the test above.
    for (const char* variant :
         {"algorithm=1,small_keys=0,riding_values=1", "algorithm=1,small_keys=0,riding_values=1,portion_tiles=2",
          "algorithm=1,small_keys=0,riding_values=1,rounds=2,wide_rounds=2", "algorithm=2,small_keys=0,riding_values=1",
          "algorithm=2,small_keys=0,riding_values=1,persistent=1"})
      sortEveryConfig(variant, {Dist::uniform, Dist::q4, Dist::allEqual}, 9);
  }

  TEST_CASE("pairs that touch their values and the next tile's keys into L2") {
    // TileShape::prefetchPairs (onesweep.glsl's PREFETCH_PAIRS; NVIDIA's choice in its pairs'
    // tiers): a persistent workgroup takes its next ticket before the count and loads a word of
    // every 32-byte sector of its tile's values (64-bit ones too) and of its next tile's keys, in
    // a fixed number of unrolled steps, which must stay within them; in one round and in two.
    for (const char* variant :
         {"algorithm=1,small_keys=0,persistent=1,tiers=2,tier1_from=1,tier1_prefetch=1,tier1_wide_prefetch=1",
          "algorithm=1,small_keys=0,persistent=1,rounds=2,wide_rounds=2,tiers=2,tier1_from=1,tier1_prefetch=1,"
          "tier1_wide_prefetch=1"})
      sortEveryConfig(variant, {Dist::uniform, Dist::q4}, 6);
  }
}
