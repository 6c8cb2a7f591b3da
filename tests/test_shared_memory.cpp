// Tiles at the edge of the device's shared memory: a one-workgroup tile fitted down to it, keys
// alone whose digit counts stay in registers so that the tile fits, and tiles larger than shared
// memory that go through it in reorder rounds. Their own suite (and CTest entry): the rounds'
// pipelines, of the most keys per invocation, are the slowest of all to compile on lavapipe.
#include <string>
#include <vector>

#include "algorithm_cases.hpp"

using namespace vksort_test;

namespace {

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
    const TestProperties p = testProperties(gpu().sorter);
    tilesOf(p);
    for (const vksort::SortConfig& config : configs)
      for (Dist d : dists) {
        CAPTURE(int(a));
        CAPTURE(int(config.keyType));
        CAPTURE(int(config.valueType));
        CAPTURE(name(d));
        const uint32_t n = countOf(p, config);
        bytes[a == Algorithm::reduceThenScan].push_back(
            sortAndCheck(makeKeysFor(config, d, n, n + uint32_t(d)), config));
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

TEST_SUITE("shared_memory") {
  TEST_CASE("a one-workgroup tile too large for shared memory is fitted to it") {
    // 256 keys per invocation would ask far more than any device's shared memory: the tuning
    // halves it until the pipeline fits, and the sort still works. A tile fitted so has no room
    // for the values (sources) beside its 32-bit keys: they go through the keys' words (the
    // smaller tiles of the test above have the room).
    const uint32_t workgroup = testProperties(gpu().sorter).workgroupSize;
    const std::string tuning = "small_kpi=256,small_keys=" + std::to_string(4 * workgroup);
    TunedSorter tuned(tuning.c_str());
    const uint32_t n = 4 * workgroup - 3;
    for (const vksort::SortConfig& config :
         {configOf(KeyType::u32, ValueType::u32, vksort::SortOrder::ascending, 0, 32),
          configOf(KeyType::u32, ValueType::u64, vksort::SortOrder::descending, 0, 32),
          configOf(KeyType::u64, ValueType::u64, vksort::SortOrder::ascending, 0, 64)}) {
      CAPTURE(int(config.keyType));
      CAPTURE(int(config.valueType));
      sortAndCheck(makeKeysFor(config, Dist::uniform, n, 5), config);
    }
  }

  TEST_CASE("keys alone keep digit counts and starts in registers with chunked row sums, both algorithms") {
    // Keys alone in 512 invocations (two per digit: the row sums go in chunks) with the most keys
    // per invocation that fit only without s_digitCount / s_digitScan (2 KiB) in shared memory.
    const TestProperties base = testProperties(gpu().sorter);
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
    const std::string shape =
        "small_keys=0,tiers=2,tier1_from=1,tier1_alone_workgroup=512,tier1_alone_keys=" + std::to_string(kpi);
    sortWithBothAlgorithms(
        shape, {configOf(KeyType::u32, ValueType::none, vksort::SortOrder::ascending, 0, 32), kConfigs[1]},
        {Dist::uniform, Dist::q4},
        [&](const TestProperties& p) {
          REQUIRE(p.tileTierCount == 2);
          REQUIRE(p.tileTiers[1].keysAloneTileKeys == workgroup * kpi);  // not fitted down
        },
        [](const TestProperties& p, const vksort::SortConfig&) { return 3 * p.tileTiers[1].keysAloneTileKeys + 33; });
  }

  TEST_CASE("tiles larger than shared memory go through it in rounds, both algorithms") {
    // A tile whose keys alone overflow the device's shared memory: with 4 reorder rounds only a
    // quarter of it is in shared memory at once (and the subgroup counters share those words).
    const uint32_t workgroup = testProperties(gpu().sorter).workgroupSize;
    const uint32_t sharedWords = gpu().ctx.properties.limits.maxComputeSharedMemorySize / 4;
    const uint32_t kpi = 4 * (sharedWords / (4 * workgroup) + 1);
    const std::string shape =
        "rounds=4,wide_rounds=4,small_keys=0,keys=" + std::to_string(kpi) + ",wide_keys=" + std::to_string(kpi / 2);
    // One sorter per algorithm, and one config per tile layout: 32-bit keys with 32-bit values,
    // alone, and 64-bit keys with 64-bit values; the two algorithms' results compared after.
    // Equal keys make every tile uniform: its values, loaded before the key scatter, go straight
    // to their places. Where that takes more than 64 keys per invocation (lavapipe at subgroup
    // size 4: 68, pipelines whose compiles take LLVM minutes each), 32-bit pairs alone: the
    // other layouts run at lavapipe's 8 and 16 (36) and on GPUs (the H100: 52).
    auto tiles = [&](const TestProperties& p) {
      REQUIRE(p.workgroupSize == workgroup);
      REQUIRE(p.tileKeys == workgroup * kpi);  // not fitted down: the rounds make it fit
      REQUIRE(p.tileKeys > sharedWords);
    };
    auto count = [](const TestProperties& p, const vksort::SortConfig& config) {
      return 3 * (wideElements(config) ? p.wideTileKeys : p.tileKeys) + 33;
    };
    if (kpi > 64) {
      MESSAGE(kpi << " keys per invocation: 32-bit pairs alone");
      sortWithBothAlgorithms(shape, {kConfigs[0]}, {Dist::uniform, Dist::q4, Dist::allEqual}, tiles, count);
    } else {
      sortWithBothAlgorithms(shape, {kConfigs[0], kConfigs[1], kConfigs[4]}, {Dist::uniform, Dist::q4, Dist::allEqual},
                             tiles, count);
    }
  }
}
