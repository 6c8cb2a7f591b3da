// Counts past what one binning dispatch can take (2^30 keys) go in portions with 64-bit scatter
// addresses. A sorter tuned with two-tile portions and 64-bit addresses from the first key runs
// those paths here on small sorts; the GPU machine sorts 2^30 + 12345 pairs and 2^31 + 7 keys
// (samples/bench --large).
#include "test_support.hpp"

using namespace vksort_test;
using vksort::KeyType;
using vksort::ValueType;

namespace {

// Portions are Onesweep's (reduce-then-scan has no 30-bit limit): forced here.
constexpr const char* kTinyPortions = "algorithm=1,portion_tiles=2,wide_from=0";

void sortAndCheck(const vksort::SortConfig& config, Dist d, uint32_t n, uint64_t seed) {
  vksort_test::sortAndCheck(makeKeysFor(config, d, n, seed), config);
}

}  // namespace

TEST_SUITE("portions") {
  TEST_CASE("sorts of several portions match the reference") {
    TunedSorter tuned(kTinyPortions);
    const TestProperties p = testProperties(gpu().sorter);
    struct Case {
      KeyType key;
      ValueType values;
      vksort::SortOrder order;
      uint32_t begin, end;
    };
    for (Case c : {Case{KeyType::u32, ValueType::none, vksort::SortOrder::ascending, 0, 32},
                   Case{KeyType::u32, ValueType::u32, vksort::SortOrder::ascending, 0, 32},
                   Case{KeyType::f32, ValueType::u32, vksort::SortOrder::descending, 0, 24},  // odd: copy-back
                   Case{KeyType::u64, ValueType::u32, vksort::SortOrder::ascending, 0, 64},
                   Case{KeyType::i64, ValueType::u64, vksort::SortOrder::descending, 8, 48}})
      for (uint32_t tiles : {1u, 2u, 3u, 7u}) {
        vksort::SortConfig config;
        config.keyType = c.key;
        config.valueType = c.values;
        config.order = c.order;
        config.beginBit = c.begin;
        config.endBit = c.end;
        const uint32_t tile = wideElements(config) ? p.wideTileKeys : p.tileKeys;
        for (uint32_t n : {tiles * tile - 1, tiles * tile, tiles * tile + 5}) {
          CAPTURE(int(c.key));
          CAPTURE(int(c.values));
          CAPTURE(n);
          sortAndCheck(config, Dist::q2, n, n + tiles);
        }
      }
  }

  TEST_CASE("histogram workgroups of one to four tiles, both algorithms") {
    // At most 4 tiles per histogram workgroup, fewer where that leaves fewer than 3 workgroups:
    // 5, 7, 10 and 13 tiles give workgroups of 1, 2, 3 and 4 tiles (the last one short), which
    // also clear the first dispatch's look-back words of their tiles (two-tile portions).
    for (const char* algorithm : {"algorithm=1,portion_tiles=2", "algorithm=2"}) {
      const std::string tuning = std::string(algorithm) + ",histogram_tiles=4,histogram_min_groups=3";
      TunedSorter tuned(tuning.c_str());
      const uint32_t tile = testProperties(gpu().sorter).tileKeys;
      vksort::SortConfig config;
      config.valueType = ValueType::u32;
      for (uint32_t tiles : {5u, 7u, 10u, 13u}) {
        const uint32_t n = tiles * tile - 3;
        CAPTURE(algorithm);
        CAPTURE(n);
        sortAndCheck(config, Dist::q4, n, n);
        // Indirect: the groups come from maxCount (n), the grid from the count on the GPU.
        std::vector<uint32_t> keys = makeKeysFor(config, Dist::uniform, n, tiles);
        for (uint32_t count : {n, 3 * tile + 1}) sortIndirectAndCheck(keys, true, count, CountSource::shader, config);
      }
    }
  }

  TEST_CASE("indirect counts across portions") {
    TunedSorter tuned(kTinyPortions);
    const uint32_t tile = testProperties(gpu().sorter).tileKeys;
    const uint32_t maxCount = 7 * tile + 3;  // four portions of two tiles
    std::vector<uint32_t> keys = makeKeys(Dist::uniform, maxCount, 21);
    for (uint32_t count : {0u, 1u, tile, 2 * tile, 2 * tile + 1, 5 * tile - 1, maxCount, maxCount + 9, ~0u})
      for (bool pairs : {false, true}) {
        CAPTURE(count);
        CAPTURE(pairs);
        sortIndirectAndCheck(keys, pairs, count, CountSource::shader);
      }
  }

  TEST_CASE("scratch for counts past 2^31 is what they need") {
    vksort::SortConfig config;
    config.keyType = KeyType::u64;
    config.valueType = ValueType::u64;
    config.endBit = 64;
    const TestProperties p = testProperties(gpu().sorter);
    const uint32_t maxCount = p.maxCount;
    REQUIRE(maxCount == 0xFFFFFFFFu);
    vksort::ScratchRequirements r{};
    REQUIRE(vksort::getScratchRequirements(gpu().sorter, config, maxCount, &r));
    // The key and value copies: 16 bytes per element, no 32-bit wrap; and for Onesweep two
    // regions of look-back words (1 KiB per tile) for the tiles of one portion of at most 2^30
    // keys, for reduce-then-scan the tile table (1 KiB per tile).
    const VkDeviceSize lookBack = p.algorithm == vksort::Algorithm::onesweep
                                      ? 2 * 1024 * (VkDeviceSize(1) << 30) / p.wideTileKeys
                                      : 1024 * (VkDeviceSize(maxCount) / p.wideTileKeys + 1);
    CHECK(r.size >= VkDeviceSize(maxCount) * 16);
    CHECK(r.size <= VkDeviceSize(maxCount) * 16 + lookBack + (1 << 20));
  }
}
