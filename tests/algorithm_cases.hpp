// What the algorithm, tile and shared-memory suites share: the five configs they
// sort (every key width, value width, order and an odd pass count), and every one of them sorted
// under a tuning, checked against the reference.
#pragma once

#include <initializer_list>

#include "test_support.hpp"

namespace vksort_test {

using vksort::Algorithm;
using vksort::KeyType;
using vksort::ValueType;

inline const vksort::SortConfig kConfigs[] = {
    configOf(KeyType::u32, ValueType::u32, vksort::SortOrder::ascending, 0, 32),
    configOf(KeyType::f32, ValueType::none, vksort::SortOrder::descending, 0, 32),
    configOf(KeyType::i32, ValueType::u64, vksort::SortOrder::ascending, 4, 28),  // odd: 3 passes
    configOf(KeyType::f64, ValueType::u32, vksort::SortOrder::descending, 0, 64),
    configOf(KeyType::u64, ValueType::u64, vksort::SortOrder::ascending, 16, 40),
};

// With the sorter `variant` makes: every kConfigs config in each of `dists`, `tiles` tiles and 33
// keys of its width, checked against the reference (and, where `workgroupSize` is not 0, that the
// variant gives that workgroup size).
inline void sortEveryConfig(const char* variant, std::initializer_list<Dist> dists, uint32_t tiles,
                            uint32_t workgroupSize = 0) {
  TunedSorter tuned(variant);
  const TestProperties p = testProperties(gpu().sorter);
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

}  // namespace vksort_test
