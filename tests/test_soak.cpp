// Randomized soak: many random configurations (key type, value type, order, bit range, size,
// direct or indirect with any count, the device's own algorithm or Onesweep with tiny portions
// and 64-bit addresses), each checked exactly against the CPU reference. The seed is printed;
// VKSORT_SOAK_SEED repeats a run and VKSORT_SOAK_COUNT makes it longer (default 500).
#include <cstdlib>
#include <random>

#include "test_support.hpp"

using namespace vksort_test;

TEST_SUITE("soak") {
  TEST_CASE("random configurations against the CPU reference") {
    const char* seedEnv = std::getenv("VKSORT_SOAK_SEED");
    const char* countEnv = std::getenv("VKSORT_SOAK_COUNT");
    const uint64_t seed = seedEnv ? std::strtoull(seedEnv, nullptr, 10) : std::random_device{}();
    const int count = countEnv ? std::atoi(countEnv) : 500;
    MESSAGE("soak seed " << seed << " (VKSORT_SOAK_SEED to repeat), " << count << " configurations");
    std::mt19937_64 rng(seed);
    const uint32_t tile = testProperties(gpu().sorter).tileKeys;
    TunedSorter tuned("algorithm=1,portion_tiles=3,wide_from=0");
    const vksort::Sorter sorters[2] = {tuned.saved, gpu().sorter};
    for (int run = 0; run < count; ++run) {
      bool portions = rng() % 4 == 0;
      gpu().sorter = sorters[portions];
      vksort::SortConfig config;
      config.keyType = vksort::KeyType(rng() % 6);
      config.valueType = vksort::ValueType(rng() % 3);
      config.order = vksort::SortOrder(rng() % 2);
      const uint32_t keyBits = vksort::keyBytes(config.keyType) * 8;
      config.beginBit = uint32_t(rng() % keyBits);
      config.endBit = config.beginBit + 1 + uint32_t(rng() % (keyBits - config.beginBit));
      if (rng() % 3 == 0) config.beginBit = 0, config.endBit = keyBits;  // the common case, often
      bool pairs = config.valueType != vksort::ValueType::none;
      // Mostly small and around tile multiples; now and then up to ~40 tiles.
      uint32_t n =
          rng() % 4 == 0 ? uint32_t(rng() % (40 * tile)) : uint32_t(rng() % 4) * tile + uint32_t(rng() % 9) - 4;
      n = std::min<uint32_t>(n, 40 * tile);
      Dist dist = Dist(rng() % 9);
      bool indirect = rng() % 3 == 0;
      uint32_t countValue = rng() % 4 == 0 ? uint32_t(rng()) : uint32_t(rng() % (n + 2));  // may exceed n
      CAPTURE(run);
      CAPTURE(portions);
      CAPTURE(int(config.keyType));
      CAPTURE(int(config.valueType));
      CAPTURE(int(config.order));
      CAPTURE(config.beginBit);
      CAPTURE(config.endBit);
      CAPTURE(n);
      CAPTURE(name(dist));
      CAPTURE(indirect);
      CAPTURE(countValue);
      std::vector<uint32_t> keys = makeKeysFor(config, dist, n, rng());
      if (indirect) {
        sortIndirectAndCheck(keys, pairs, countValue, rng() % 2 ? CountSource::shader : CountSource::transfer, config);
        continue;
      }
      sortAndCheck(keys, config);
    }
    gpu().sorter = sorters[1];  // the tuned one, for TunedSorter to destroy
  }
}
