// Sorting correctness against std::stable_sort: sizes around tile boundaries, primes, millions;
// every distribution of the benchmark (uniform and q-bit keys); keys alone and pairs (values = input indices, so
// stability is checked exactly).
#include "test_support.hpp"

using namespace vksort_test;

namespace {

void sortAndCheck(const std::vector<uint32_t>& keys, bool pairs) {
  std::vector<uint32_t> values = iota(keys.size());
  Sorted out = gpuSort(keys, pairs ? &values : nullptr);
  checkAgainstReference(keys, out, pairs);
}

uint32_t tileKeys() { return testProperties(gpu().sorter).tileKeys; }

}  // namespace

TEST_SUITE("sort") {
  TEST_CASE("sizes around tile boundaries and primes") {
    const uint32_t tile = tileKeys();
    for (uint32_t n : {0u, 1u, 2u, 3u, 31u, 32u, 33u, 255u, 257u, tile - 1, tile, tile + 1, 2 * tile - 1, 2 * tile + 1,
                       7919u, 65537u, 104729u}) {
      for (bool pairs : {false, true}) {
        CAPTURE(n);
        CAPTURE(pairs);
        sortAndCheck(makeKeys(Dist::uniform, n, n), pairs);
      }
    }
  }

  TEST_CASE("distributions") {
    const uint32_t n = 100003;  // prime: a ragged last tile
    for (Dist d : {Dist::uniform, Dist::q2, Dist::q4, Dist::q8, Dist::q16, Dist::allEqual, Dist::sorted, Dist::reversed,
                   Dist::fewDistinct}) {
      for (bool pairs : {false, true}) {
        CAPTURE(name(d));
        CAPTURE(pairs);
        sortAndCheck(makeKeys(d, n, 42 + int(d)), pairs);
      }
    }
  }

  TEST_CASE("uniform tiles next to mixed ones") {
    // Runs of equal keys a few tiles long, then noise: exercises the uniform-tile path and its
    // hand-over to mixed tiles in the look-back.
    const uint32_t tile = tileKeys();
    std::vector<uint32_t> keys = makeKeys(Dist::uniform, 7 * tile + 5, 7);
    for (uint32_t i = 0; i < 3 * tile + 11; ++i) keys[i] = 0x12345678u;
    for (uint32_t i = 5 * tile; i < 6 * tile; ++i) keys[i] = 0xFF00FF00u;
    sortAndCheck(keys, true);
  }

  TEST_CASE("keys and values at any element offset of their buffers, both algorithms") {
    // The histogram reads keys 16 bytes at a time where their range starts 16-byte aligned and one
    // at a time where it does not: ranges 4, 8, 12 and 16 bytes into the buffer (64-bit elements
    // 8 and 16), over several histogram workgroups of tiles and a ragged last one, unchained.
    using vksort::KeyType;
    using vksort::ValueType;
    const vksort::SortConfig configs[] = {configOf(KeyType::u32, ValueType::none, vksort::SortOrder::ascending, 0, 32),
                                          configOf(KeyType::f32, ValueType::u32, vksort::SortOrder::descending, 0, 32),
                                          configOf(KeyType::u64, ValueType::none, vksort::SortOrder::ascending, 0, 64),
                                          configOf(KeyType::i64, ValueType::u64, vksort::SortOrder::ascending, 0, 64)};
    for (const char* algorithm : {"algorithm=1", "algorithm=2"}) {
      const std::string tuning =
          std::string(algorithm) + ",chained_up_to=0,small_keys=0,histogram_tiles=2,histogram_min_groups=3";
      TunedSorter tuned(tuning.c_str());
      const TestProperties p = testProperties(gpu().sorter);
      for (const vksort::SortConfig& config : configs) {
        const bool pairs = config.valueType != ValueType::none;
        const bool wide = wideElements(config);
        const uint32_t n = 7 * (wide ? p.wideTileKeys : p.tileKeys) + 5;
        const std::vector<uint32_t> keys = makeKeysFor(config, Dist::q2, n, n);
        const std::vector<uint32_t> values = makeValues(n, config.valueType);
        for (uint32_t lead : {1u, 2u, 3u, 4u}) {
          if (wide && lead % 2 != 0) continue;  // 64-bit elements start at multiples of 8 bytes
          CAPTURE(tuning);
          CAPTURE(int(config.keyType));
          CAPTURE(lead);
          Sorted out = gpuSort(keys, pairs ? &values : nullptr, config, nullptr, lead);
          checkAgainstReference(keys, out, pairs, config);
        }
      }
    }
  }

  TEST_CASE("four million keys and pairs") {
    const uint32_t n = (1u << 22) + 3;
    sortAndCheck(makeKeys(Dist::uniform, n, 1), false);
    sortAndCheck(makeKeys(Dist::q4, n, 2), true);
  }
}
