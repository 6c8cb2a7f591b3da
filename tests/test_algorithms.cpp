// The two algorithms' mechanics: reduce-then-scan and Onesweep give the same bytes on the same
// inputs; the one-dispatch small path at its threshold; reduce-then-scan's persistent downsweeps
// and tile table; Onesweep's hot digit, look-back stores and windows, chained dispatch and
// patient waits; the per-device choice and the caller's override.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "algorithm_cases.hpp"
#include "shader_interface.h"

using namespace vksort_test;

TEST_SUITE("algorithms") {
  TEST_CASE("reduce-then-scan and Onesweep: the same bytes on the same inputs") {
    // Every input sorted by one sorter per algorithm: a sorter's pipelines are most of a case's
    // time on lavapipe.
    const TestProperties p = testProperties(gpu().sorter);
    struct Case {
      vksort::SortConfig config;
      Dist dist;
      std::vector<uint32_t> keys;
    };
    std::vector<Case> cases;
    for (const vksort::SortConfig& config : kConfigs)
      for (Dist d : {Dist::uniform, Dist::q8, Dist::fewDistinct}) {
        const uint32_t n = 5 * (wideElements(config) ? p.wideTileKeys : p.tileKeys) + 33;
        cases.push_back({config, d, makeKeysFor(config, d, n, n + uint32_t(d))});
      }
    std::vector<Sorted> sorted[2];
    for (Algorithm a : {Algorithm::onesweep, Algorithm::reduceThenScan}) {
      TunedSorter tuned(a == Algorithm::onesweep ? "algorithm=1,small_keys=0" : "algorithm=2,small_keys=0");
      CHECK(testProperties(gpu().sorter).algorithm == a);
      for (const Case& c : cases) {
        CAPTURE(int(c.config.keyType));
        CAPTURE(int(c.config.valueType));
        CAPTURE(name(c.dist));
        sorted[a == Algorithm::reduceThenScan].push_back(sortAndCheck(c.keys, c.config));
      }
    }
    for (size_t i = 0; i < cases.size(); ++i) {
      CAPTURE(int(cases[i].config.keyType));
      CAPTURE(int(cases[i].config.valueType));
      CAPTURE(name(cases[i].dist));
      CHECK(sorted[0][i].keys == sorted[1][i].keys);
      CHECK(sorted[0][i].values == sorted[1][i].values);
    }
  }

  TEST_CASE("the one-dispatch small path at and around its threshold") {
    const TestProperties p = testProperties(gpu().sorter);
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

  TEST_CASE("reduce-then-scan downsweeps that take tiles while tickets last") {
    // The tuning's persistentTiles (NVIDIA's choice): a downsweep workgroup takes tile after tile
    // from its pass's ticket counter, loading the next tile's keys during its scatter (keys alone;
    // pairs in one round once their values are in shared memory, during the value scatter) or
    // after its values (pairs in 2 rounds); in one round and through shared memory in 2. Lavapipe
    // runs a few workgroups at a time, so the first ones take most of the tiles. In 512-invocation
    // tiles at subgroup size 16 and up (CI's 512-bit run), keys alone leave their counter rows as
    // the ranking left them for the next tile's count (binning_tile.glsl's KNOWN_ROWS), as NVIDIA's do.
    for (const char* variant :
         {"algorithm=2,small_keys=0,persistent=1", "algorithm=2,small_keys=0,persistent=1,rounds=2,wide_rounds=2",
          "algorithm=2,small_keys=0,persistent=1,workgroup=512,keys=4,wide_keys=2"}) {
      sortEveryConfig(variant, {Dist::uniform, Dist::q4, Dist::allEqual}, 9);
      // Indirect: the grid of maxCount's tiles, fewer of them taken.
      TunedSorter tuned(variant);
      const uint32_t tile = testProperties(gpu().sorter).tileKeys;
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
    const uint32_t subgroup = testProperties(gpu().sorter).subgroupSize;
    const std::string variant = "algorithm=2,small_keys=0,keys=1,wide_keys=1,workgroup=" + std::to_string(subgroup);
    sortEveryConfig(variant.c_str(), {Dist::uniform, Dist::q4}, 8 * subgroup * 3 + 5);
  }

  TEST_CASE("the scan leaves each pass's bin starts and most frequent digit in the header") {
    // The histogram's workgroups add their counts to the header; the scan kernel turns them into
    // bin starts and names each pass's most frequent digit with its share of the keys and the
    // pass's class by that share (kPass*: what the binning kernel does with the digit). A wrong
    // name or class would only cost time (Onesweep counts that digit a subgroup at a time), so the
    // header the sort left is read back and checked here. Pass p's digit is hot(p) for 3 keys in 5
    // (60.2%) and spread over all digits for the rest; 8 tiles (several histogram workgroups), the
    // count given directly and read from a buffer, both algorithms, each class.
    const TestProperties props = testProperties(gpu().sorter);
    const uint32_t radix = vksort::detail::kRadix;
    auto hot = [&](uint32_t pass) { return (3 + 40 * pass) % radix; };
    for (KeyType keyType : {KeyType::u32, KeyType::u64}) {
      const vksort::SortConfig config =
          configOf(keyType, ValueType::none, vksort::SortOrder::ascending, 0, keyType == KeyType::u32 ? 32 : 64);
      const uint32_t words = keyWords(config), passes = 4 * words;
      const uint32_t n = 7 * (words == 2 ? props.wideTileKeys : props.tileKeys) + 5;
      std::vector<uint32_t> keys(size_t(n) * words, 0u);
      std::vector<std::vector<uint32_t>> counts(passes, std::vector<uint32_t>(radix, 0u));
      for (uint32_t i = 0; i < n; ++i)
        for (uint32_t pass = 0; pass < passes; ++pass) {
          const uint32_t digit = i % 5 < 3 ? hot(pass) : (i * 37 + pass * 11) % radix;
          ++counts[pass][digit];
          keys[size_t(i) * words + pass / 4] |= digit << (8 * (pass % 4));
        }
      const struct {
        const char* tuning;
        uint32_t passClass;
      } tunings[] = {
          {"algorithm=1,small_keys=0,chained_up_to=0,hot_digit_from=55,hot_digit_to=70,hot_rank_to=65",
           vksort::detail::kPassHotRanked},
          {"algorithm=1,small_keys=0,chained_up_to=0,hot_digit_from=50,hot_digit_to=59", vksort::detail::kPassCrowded},
          {"algorithm=2,small_keys=0,hot_digit_from=55,hot_digit_to=70,hot_rank_to=58",
           vksort::detail::kPassHotCounted},
          {"algorithm=2,small_keys=0,hot_digit_from=61,hot_digit_to=70", vksort::detail::kPassSpread}};
      for (const auto& [tuning, passClass] : tunings)
        for (bool indirect : {false, true}) {
          CAPTURE(int(keyType));
          CAPTURE(std::string(tuning));
          CAPTURE(indirect);
          TunedSorter tuned(tuning);
          const IndirectCount count{n, CountSource::shader};
          Sorted out = gpuSort(keys, nullptr, config, indirect ? &count : nullptr);
          checkAgainstReference(keys, out, false, config);
          REQUIRE(out.header.size() == vksort::detail::kHeaderWords);
          for (uint32_t pass = 0; pass < passes; ++pass) {
            CAPTURE(pass);
            uint32_t start = 0;
            bool starts = true;
            for (uint32_t d = 0; d < radix; ++d) {
              starts &= out.header[vksort::detail::kHeaderHist + pass * radix + d] == start;
              start += counts[pass][d];
            }
            CHECK_MESSAGE(starts, "a pass's bin starts are not the exclusive sums of its digit counts");
            const uint32_t top = out.header[vksort::detail::kHeaderPassClasses + pass];
            CHECK((top & 0xFFu) == hot(pass));
            CHECK((top >> vksort::detail::kPassClassShift & 0xFFu) == passClass);
            // The share as scan.comp computes it, in floats (one unit either way: its division).
            const auto share = int64_t(float(counts[pass][hot(pass)]) / float(n) * float(vksort::detail::kTopShareOne));
            CHECK(std::abs(int64_t(top >> vksort::detail::kTopShareShift) - share) <= 1);
          }
        }
    }
  }

  TEST_CASE("each pass chooses its binning kernel on the GPU") {
    // With skewed_from, every pass records two binning dispatches, the tile's kernel and its
    // skewed form (ranked first); the scan gives the pass's grid to the skewed one where its top
    // digit holds that share of the keys and none to the other. Passes alternate here: even ones
    // put 3 keys in 5 on one digit (60%), odd ones spread them. The header the sort left shows each
    // pass's choice and class (a skewed pass ranks its hot digit as far as it counts it: past
    // hot_rank_to); a pass whose chosen kernel were not recorded would leave the keys unsorted.
    // Direct and indirect, one portion and portions of 2 tiles, keys alone, pairs and 64-bit keys
    // of 4 passes (the header holds the grids of kMaxChoosingPasses: more run one kernel).
    const uint32_t radix = vksort::detail::kRadix;
    const vksort::SortConfig configs[] = {configOf(KeyType::u32, ValueType::none, vksort::SortOrder::ascending, 0, 32),
                                          configOf(KeyType::u32, ValueType::u32, vksort::SortOrder::ascending, 0, 32),
                                          configOf(KeyType::u64, ValueType::u32, vksort::SortOrder::ascending, 0, 32)};
    for (const vksort::SortConfig& config : configs) {
      const uint32_t words = keyWords(config), passes = 4;
      for (const char* tuning :
           {"algorithm=1,small_keys=0,chained_up_to=0,atomic_ranking=1,fit_percent=0,skewed_from=50,"
            "hot_digit_from=55,hot_digit_to=70,hot_rank_to=58",
            "algorithm=1,small_keys=0,chained_up_to=0,atomic_ranking=1,fit_percent=0,skewed_from=50,"
            "portion_tiles=2"})
        for (bool indirect : {false, true}) {
          CAPTURE(int(config.keyType));
          CAPTURE(int(config.valueType));
          CAPTURE(std::string(tuning));
          CAPTURE(indirect);
          TunedSorter tuned(tuning);
          const uint32_t n = 5 * testProperties(gpu().sorter).wideTileKeys + 3;
          const vksort::detail::SortScratch plan = vksort::detail::sortScratch(gpu().sorter, config, n, n, indirect);
          REQUIRE(plan.skewedFrom == 50);
          const vksort::SortConfig allBits =
              configOf(config.keyType, config.valueType, vksort::SortOrder::ascending, 0, 32 * words);
          CHECK(vksort::detail::sortScratch(gpu().sorter, allBits, n, n, indirect).skewedFrom == (words == 1 ? 50 : 0));
          std::vector<uint32_t> keys(size_t(n) * words, 0u);
          for (uint32_t i = 0; i < n; ++i)
            for (uint32_t pass = 0; pass < passes; ++pass) {
              const uint32_t digit = pass % 2 == 0 && i % 5 < 3 ? 7 * pass : (i * 37 + pass * 11) % radix;
              keys[size_t(i) * words + pass / 4] |= digit << (8 * (pass % 4));
            }
          const std::vector<uint32_t> values = makeValues(n, config.valueType);
          const bool pairs = config.valueType != ValueType::none;
          const IndirectCount count{n, CountSource::shader};
          Sorted out = gpuSort(keys, pairs ? &values : nullptr, config, indirect ? &count : nullptr);
          checkAgainstReference(keys, out, pairs, config);
          const uint32_t groups = std::min((n + plan.tileKeys - 1) / plan.tileKeys, plan.portionKeys / plan.tileKeys);
          for (uint32_t pass = 0; pass < passes; ++pass) {
            CAPTURE(pass);
            const uint32_t* grids = &out.header[vksort::detail::kHeaderPassGrids + pass * 6];
            const bool skewed = pass % 2 == 0;
            CHECK(grids[0] * grids[1] * grids[2] == (skewed ? 0 : groups));
            CHECK(grids[3] * grids[4] * grids[5] == (skewed ? groups : 0));
            if (std::string(tuning).find("hot_rank_to=58") != std::string::npos) {
              const uint32_t word = out.header[vksort::detail::kHeaderPassClasses + pass];
              const uint32_t passClass = word >> vksort::detail::kPassClassShift & 0xFFu;
              CHECK(passClass == (skewed ? vksort::detail::kPassHotRanked : vksort::detail::kPassSpread));
            }
          }
        }
    }
    // Every pass skewed (1%), and only passes of one digit (100%: all equal keys), every config.
    sortEveryConfig("algorithm=1,small_keys=0,atomic_ranking=1,fit_percent=0,skewed_from=1",
                    {Dist::uniform, Dist::q4, Dist::allEqual}, 8);
    sortEveryConfig("algorithm=1,small_keys=0,atomic_ranking=1,fit_percent=0,skewed_from=100,rounds=2,wide_rounds=2",
                    {Dist::uniform, Dist::allEqual}, 9);
  }

  TEST_CASE("Onesweep counts a pass's hot digit a subgroup at a time") {
    // The scan kernel names each pass's most frequent digit and its share; where that share is
    // within [hot_digit_from, hot_digit_to] percent, each subgroup's keys of the digit are counted
    // by one lane. From 1% every pass has one (also where a subgroup holds few keys of it: uniform
    // keys); q4 puts ~60% of the keys on digit 0, allEqual all of them. In portions of 2 tiles
    // too (a pass's hot digit is the same in each), and with the tile through shared memory in 2
    // rounds; a range that takes q4's digit (<= 70%) but not allEqual's.
    for (const char* variant :
         {"algorithm=1,small_keys=0,hot_digit_from=1", "algorithm=1,small_keys=0,hot_digit_from=1,portion_tiles=2",
          "algorithm=1,small_keys=0,hot_digit_from=40,hot_digit_to=70,rounds=2,wide_rounds=2"})
      sortEveryConfig(variant, {Dist::uniform, Dist::q4, Dist::allEqual}, 5);
  }

  TEST_CASE("ranking by one shared atomic per key") {
    // The tuning's atomic ranking (NVIDIA's choice; binning_rank_atomics.glsl): a key's place is
    // what its subgroup's counter of its digit held before its atomic add, stable where a
    // subgroup's atomics on one word apply in lane order, as on llvmpipe. Many lanes of a step on
    // one digit (q4, few distinct values, all equal) put that order to the test: the pairs are
    // checked against std::stable_sort. Onesweep and reduce-then-scan (persistent, in 2 rounds:
    // keys alone keep their places in registers; pairs there rank with ballots, as on NVIDIA), the
    // chained sort and the one-workgroup sort. With a hot digit in every pass (hot_digit_from=1),
    // a step's lanes of that digit take their places by one atomic of the lowest of them
    // (binning_rank_atomics.glsl's HOT_RANKING, up to hot_rank_to percent of the keys), the others
    // by their own: counting first and ranking first (pairs), crowded passes too (100), and a hot
    // digit counted but not ranked so (0: NVIDIA's 32-bit keys alone).
    vkctx::Context& ctx = gpu().ctx;
    const char* tuning = std::getenv("VKSORT_TUNING");
    if (!tuning) CHECK(testProperties(gpu().sorter).atomicRanking == (ctx.properties.vendorID == 0x10DE));
    for (const char* variant :
         {"algorithm=1,small_keys=0,atomic_ranking=1",
          "algorithm=1,small_keys=0,atomic_ranking=1,chained_up_to=4294967295",
          "algorithm=1,small_keys=0,atomic_ranking=1,hot_digit_from=1",
          "algorithm=1,small_keys=0,atomic_ranking=1,hot_digit_from=1,hot_rank_to=0",
          "algorithm=2,small_keys=0,atomic_ranking=1,persistent=1,rounds=2,wide_rounds=2",
          // ranked before the row sums (rankFirst), tile after tile (the next
          // tile ranked early: keys alone), and beside hot-digit passes
          "algorithm=1,small_keys=0,atomic_ranking=1,rank_first=1",
          "algorithm=1,small_keys=0,atomic_ranking=1,rank_first=1,persistent=1",
          "algorithm=1,small_keys=0,atomic_ranking=1,rank_first=1,persistent=1,hot_digit_from=1",
          "algorithm=1,small_keys=0,atomic_ranking=1,rank_first=1,hot_digit_from=1,hot_rank_to=100",
          "algorithm=1,small_keys=0,atomic_ranking=1,rank_first=1,rounds=2,wide_rounds=2"}) {
      sortEveryConfig(variant, {Dist::uniform, Dist::q4, Dist::fewDistinct, Dist::allEqual}, 6);
      TunedSorter tuned(variant);
      CHECK(testProperties(gpu().sorter).atomicRanking);
    }
    TunedSorter small("atomic_ranking=1");
    const TestProperties p = testProperties(gpu().sorter);
    for (const vksort::SortConfig& config : kConfigs) {
      const uint32_t n = wideElements(config) ? p.smallSortWideMaxKeys : p.smallSortMaxKeys;
      CAPTURE(int(config.keyType));
      CAPTURE(int(config.valueType));
      for (Dist d : {Dist::uniform, Dist::fewDistinct})
        sortAndCheck(makeKeysFor(config, d, n, n + uint32_t(d)), config);
    }
  }

  TEST_CASE("Onesweep's look-back words published with plain stores") {
    // The tuning's lookbackPlainStores (NVIDIA's choice): every tile's aggregate and inclusive
    // prefix go out as plain stores to the coherent status words; read here with atomics (plain
    // loads saw stale words on lavapipe), in one portion and in portions of 2 tiles.
    for (const char* variant :
         {"algorithm=1,small_keys=0,plain_stores=1", "algorithm=1,small_keys=0,plain_stores=1,portion_tiles=2"})
      sortEveryConfig(variant, {Dist::uniform, Dist::q4}, 7);
  }

  TEST_CASE("Onesweep's look-back windows, per tile class") {
    // Predecessors read at once (lookback.glsl's LOOKBACK_WINDOW, a tile class's
    // TileShape::lookbackWindow): one, a window past the walk's usual length, and a different one
    // per class (NVIDIA reads 3 for 32-bit keys, 4 for 64-bit elements), in one portion and in
    // portions of 2 tiles, and a tier's own per class (NVIDIA's 2 for 64-bit keys alone from
    // 2^23), counts below and past its start. A walk that stops early in a window fails it on the
    // H100 (checked); lavapipe's walks seldom meet an aggregate.
    const uint32_t tile = testProperties(gpu().sorter).tileKeys;
    const std::string tiered =
        "algorithm=1,small_keys=0,lookback_window_pairs=2,lookback_window_wide=5,lookback_window_alone=3,"
        "tiers=2,tier1_from=" +
        std::to_string(4 * tile) +
        ",tier1_lookback_window_pairs=1,tier1_lookback_window_wide=7,tier1_lookback_window_alone=2,"
        "tier1_lookback_window_wide_alone=2";
    for (const char* variant :
         {"algorithm=1,small_keys=0,lookback_window=1", "algorithm=1,small_keys=0,lookback_window=16,portion_tiles=2"})
      sortEveryConfig(variant, {Dist::uniform, Dist::q4}, 9);
    sortEveryConfig(tiered.c_str(), {Dist::uniform, Dist::q4}, 3);  // below the tier
    sortEveryConfig(tiered.c_str(), {Dist::uniform, Dist::q4}, 9);
    const vksort::SortConfig keys64 = configOf(KeyType::u64, ValueType::none, vksort::SortOrder::ascending, 0, 64);
    TunedSorter tuned(tiered.c_str());
    for (uint32_t n : {4 * tile - 1, 4 * tile + 5}) {
      CAPTURE(n);
      sortAndCheck(makeKeysFor(keys64, Dist::uniform, n, n), keys64);
    }
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
        CHECK(testProperties(gpu().sorter).chainedMaxKeys == 4294967295u);
      }
      sortEveryConfig(variant, {Dist::uniform, Dist::q4, Dist::allEqual}, 9);
    }
    {
      TunedSorter tuned("algorithm=1,small_keys=0,chained_up_to=4294967295");
      const vksort::SortConfig c = configOf(KeyType::u32, ValueType::u32, vksort::SortOrder::ascending, 0, 32);
      const uint32_t n = 5 * testProperties(gpu().sorter).tileKeys + 7;
      sortIndirectAndCheck(makeKeysFor(c, Dist::uniform, n, 3), true, n - 100, CountSource::transfer, c);
    }
    // Reduce-then-scan chains nothing.
    TunedSorter rts("algorithm=2,chained_up_to=4294967295");
    CHECK(testProperties(gpu().sorter).chainedMaxKeys == 0);
  }

  TEST_CASE("waits that outlast llvmpipe's loop limiter") {
    // patient_wait.glsl: llvmpipe ends every loop of an invocation after 65535 turns in all, so a
    // spin that waits longer ends early and the sort goes wrong. Chained sorts wait most (each
    // pass's first tiles on the last of the pass before): with two lavapipe threads and the
    // re-reads off (patient_waits=0), these 30 sorts of 4 and 3 passes went wrong in 4 of 18
    // runs; with them (llvmpipe's default), in none of 22. On other devices the re-reads compile
    // away and this repeats the chained test's sorts.
    TunedSorter tuned("algorithm=1,small_keys=0,chained_up_to=4294967295");
    const uint32_t tile = testProperties(gpu().sorter).tileKeys;
    for (uint32_t rep = 0; rep < 15; ++rep)
      for (const vksort::SortConfig& c :
           {configOf(KeyType::u32, ValueType::none, vksort::SortOrder::ascending, 0, 32),
            configOf(KeyType::u32, ValueType::none, vksort::SortOrder::ascending, 0, 24)}) {
        CAPTURE(rep);
        CAPTURE(c.endBit);
        sortAndCheck(makeKeysFor(c, Dist::uniform, 9 * tile + 33, rep), c);
      }
  }

  TEST_CASE("per-device choice, and the caller's override") {
    vkctx::Context& ctx = gpu().ctx;
    // Onesweep on every device: its look-back falls back instead of waiting on a workgroup that
    // may not run (lookback.glsl).
    const vksort::Algorithm chosen = testProperties(gpu().sorter).algorithm;
    const char* tuning = std::getenv("VKSORT_TUNING");
    if (!tuning || std::string(tuning).find("algorithm=") == std::string::npos) CHECK(chosen == Algorithm::onesweep);
    for (Algorithm a : {Algorithm::onesweep, Algorithm::reduceThenScan}) {
      vksort::SorterCreateInfo info = ctx.sorterCreateInfo();
      info.algorithm = a;
      vksort::Sorter sorter = nullptr;
      REQUIRE(vksort::createSorter(info, &sorter));
      if (!tuning || std::string(tuning).find("algorithm=") == std::string::npos)
        CHECK(testProperties(sorter).algorithm == a);
      // NVIDIA's tiers (tuning.cpp): 512 x 4 tiles from 80k keys for Onesweep, whose chained
      // sorts gain there, and from 2^17 for reduce-then-scan, which lost from 80k (H100).
      if (ctx.properties.vendorID == 0x10DE && !tuning)
        CHECK(testProperties(sorter).tileTiers[1].fromCount == (a == Algorithm::onesweep ? 80u << 10 : 1u << 17));
      vksort::destroySorter(sorter);
    }
    vksort::SorterCreateInfo bad = ctx.sorterCreateInfo();
    bad.algorithm = Algorithm(3);
    vksort::Sorter sorter = nullptr;
    CHECK(vksort::createSorter(bad, &sorter).result == vksort::Result::errorInvalidArgument);
    CHECK(sorter == nullptr);
  }
}
