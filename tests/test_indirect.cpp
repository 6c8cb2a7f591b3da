// Indirect sorts: the count comes from a GPU buffer and is untrusted. Counts of 0, 1, around a
// tile, the maximum and past it (clamped to maxCount), written by a transfer or by a shader earlier
// in the same command buffer; guard words around every range must survive, and keys past the
// clamped count must stay as they were.
#include "test_support.hpp"

using namespace vksort_test;

TEST_SUITE("indirect") {
  TEST_CASE("counts from a buffer: 0, 1, around a tile, the maximum, past the maximum") {
    const uint32_t tile = testProperties(gpu().sorter).tileKeys;
    const uint32_t maxCount = 3 * tile + 5;
    std::vector<uint32_t> keys = makeKeys(Dist::uniform, maxCount, 8);
    for (uint32_t count :
         {0u, 1u, 2u, tile - 1, tile, tile + 1, maxCount - 1, maxCount, maxCount + 1, maxCount + 1000, 0xFFFFFFFFu})
      for (bool pairs : {false, true}) {
        CAPTURE(count);
        CAPTURE(pairs);
        sortIndirectAndCheck(keys, pairs, count, CountSource::transfer);
      }
  }

  TEST_CASE("a count written by a shader earlier in the same command buffer") {
    const uint32_t tile = testProperties(gpu().sorter).tileKeys;
    std::vector<uint32_t> keys = makeKeys(Dist::q2, 5 * tile + 3, 9);
    sortIndirectAndCheck(keys, true, 2 * tile + 17, CountSource::shader);
    sortIndirectAndCheck(keys, false, 0, CountSource::shader);
  }

  TEST_CASE("key types, orders and an odd pass count work indirectly") {
    const uint32_t tile = testProperties(gpu().sorter).tileKeys;
    std::vector<uint32_t> keys = makeKeys(Dist::uniform, 4 * tile, 10);
    vksort::SortConfig config;
    config.keyType = vksort::KeyType::f32;
    config.order = vksort::SortOrder::descending;
    config.endBit = 24;  // three passes and the copy-back
    sortIndirectAndCheck(keys, true, 3 * tile - 7, CountSource::transfer, config);
    sortIndirectAndCheck(keys, false, 10 * tile, CountSource::shader, config);  // clamped
  }
}
