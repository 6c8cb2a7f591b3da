// Sorting correctness against std::stable_sort: sizes around tile boundaries, primes, millions;
// every distribution of DESIGN.md; keys alone and pairs (values = input indices, so stability is
// checked exactly).
#include "test_support.hpp"

using namespace vksort_test;

namespace {

void sortAndCheck(const std::vector<uint32_t>& keys, bool pairs) {
  std::vector<uint32_t> values = iota(keys.size());
  Sorted out = gpuSort(keys, pairs ? &values : nullptr);
  checkAgainstReference(keys, out, pairs);
}

uint32_t tileKeys() { return vksort::getSorterProperties(gpu().sorter).tileKeys; }

}  // namespace

TEST_SUITE("sort") {
  TEST_CASE("sizes around tile boundaries and primes") {
    const uint32_t tile = tileKeys();
    for (uint32_t n : {0u, 1u, 2u, 3u, 31u, 32u, 33u, 255u, 257u, tile - 1, tile, tile + 1, 2 * tile - 1,
                       2 * tile + 1, 7919u, 65537u, 104729u}) {
      for (bool pairs : {false, true}) {
        CAPTURE(n);
        CAPTURE(pairs);
        sortAndCheck(makeKeys(Dist::uniform, n, n), pairs);
      }
    }
  }

  TEST_CASE("distributions") {
    const uint32_t n = 100003;  // prime: a ragged last tile
    for (Dist d : {Dist::uniform, Dist::q2, Dist::q4, Dist::q8, Dist::q16, Dist::allEqual, Dist::sorted,
                   Dist::reversed, Dist::fewDistinct}) {
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

  TEST_CASE("four million keys and pairs") {
    const uint32_t n = (1u << 22) + 3;
    sortAndCheck(makeKeys(Dist::uniform, n, 1), false);
    sortAndCheck(makeKeys(Dist::q4, n, 2), true);
  }
}
