// What the algorithm, tile and shared-memory suites share: a config maker, the five configs they
// sort (every key width, value width, order and an odd pass count), a tier's tile for a config,
// and sorts under a tuning checked against the reference.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace vksort_test {

using vksort::Algorithm;
using vksort::KeyType;
using vksort::ValueType;

inline vksort::SortConfig configOf(KeyType key, ValueType values, vksort::SortOrder order, uint32_t begin, uint32_t end) {
  vksort::SortConfig c;
  c.keyType = key;
  c.valueType = values;
  c.order = order;
  c.beginBit = begin;
  c.endBit = end;
  return c;
}

inline const vksort::SortConfig kConfigs[] = {
    configOf(KeyType::u32, ValueType::u32, vksort::SortOrder::ascending, 0, 32),
    configOf(KeyType::f32, ValueType::none, vksort::SortOrder::descending, 0, 32),
    configOf(KeyType::i32, ValueType::u64, vksort::SortOrder::ascending, 4, 28),   // odd: 3 passes
    configOf(KeyType::f64, ValueType::u32, vksort::SortOrder::descending, 0, 64),
    configOf(KeyType::u64, ValueType::u64, vksort::SortOrder::ascending, 16, 40),
};

// A tier's tile for a config's class (tuning.hpp's tileClass()).
inline uint32_t tileKeysOf(const vksort::TileTier& tier, const vksort::SortConfig& config) {
  const bool pairs = config.valueType != ValueType::none;
  if (keyWords(config) == 2 && !pairs) return tier.wideKeysAloneTileKeys;
  return wideElements(config) ? tier.wideTileKeys : pairs ? tier.tileKeys : tier.keysAloneTileKeys;
}

inline Sorted sortWith(const char* tuning, const std::vector<uint32_t>& keys, const vksort::SortConfig& config,
                Algorithm expected) {
  TunedSorter tuned(tuning);
  CHECK(vksort::getSorterProperties(gpu().sorter).algorithm == expected);
  return sortAndCheck(keys, config);
}

// With the sorter `variant` makes: every kConfigs config in each of `dists`, `tiles` tiles and 33
// keys of its width, checked against the reference (and, where `workgroupSize` is not 0, that the
// variant gives that workgroup size).
inline void sortEveryConfig(const char* variant, std::initializer_list<Dist> dists, uint32_t tiles, uint32_t workgroupSize = 0) {
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

}  // namespace vksort_test
