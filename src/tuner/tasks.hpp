// What the tuner (search.cpp) sorts and how it checks a sort, apart from the Vulkan bench that
// runs them (bench.hpp): its tasks, the counts a kept tile is re-checked at, each tile class's
// config. (The order a sorted config's keys must follow: vksort::keyOrderBits().)
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "tuning.hpp"
#include "vksort/vksort.hpp"

namespace vksort::detail {

// What one tuned sort measures: a config of the class, at a count of the tables' tier `tier`
// (the task's counts run from `first` to `last`; 0: not given). `from`: where the tile it tunes
// starts, the tier's start or, where the tuner tunes a long tier in parts, the part's.
struct Task {
  uint32_t tier, cls, count;
  SortConfig config;
  uint32_t first = 0, last = 0;
  uint32_t from = 0;
};

// The counts of a tier from `first` to `last` at which a tile that won at its middle count must
// lose nothing (search.cpp): a tile's time follows how many waves its tiles make, which changes
// with the count. The first and last, and two between at the geometric quarters; none where the
// tier has one count.
inline std::vector<uint32_t> tierCheckCounts(uint32_t first, uint32_t last) {
  std::vector<uint32_t> counts;
  if (first == 0 || last <= first) return counts;
  for (double at : {0.0, 0.25, 0.75, 1.0})
    counts.push_back(uint32_t(std::lround(first * std::pow(double(last) / first, at))));
  return counts;
}

// A measurement (TuningBench::measure()): the median of kTimedSorts sorts in one submission, after
// warmupSorts() untimed ones, kWarmupNanos of them (3 where the time a key takes is not known).
constexpr uint32_t kTimedSorts = 15;
constexpr double kWarmupNanos = 2e7;
inline uint32_t warmupSorts(uint32_t count, double nanosPerKey) {
  return nanosPerKey > 0 ? uint32_t(std::clamp(kWarmupNanos / (nanosPerKey * count), 2.0, 200.0)) : 3;
}
// About how long a measurement of `count` keys takes where a key takes `nanosPerKey`.
inline double measureSeconds(uint32_t count, double nanosPerKey) {
  return double(warmupSorts(count, nanosPerKey) + kTimedSorts) * nanosPerKey * count * 1e-9;
}

// The heat before each of a kept tile's checks at tierCheckCounts() (the clocks stay up).
constexpr double kCheckHeatMs = 30;

// About how long checking a kept tile takes (search.cpp) where one measurement takes
// `measureSeconds`: four measurements interleaved with the row, then a heat and two measurements
// at each of tierCheckCounts(). The climb stops early enough to leave it in the task's budget
// (a kept tile overran its share by this much before).
inline double keepCheckSeconds(double measureSeconds, const Task& task) {
  const size_t counts = tierCheckCounts(task.first, task.last).size();
  return double(4 + 2 * counts) * measureSeconds + double(counts) * kCheckHeatMs * 1e-3;
}

// Whether a wave of candidates is worth building at `now` (seconds into the tuning): its
// pipelines take about `waveSeconds` to build (the mean of the waves built so far; the first is
// always tried) and at least one of them must then be measured (`measureSeconds`, the row's)
// before the climb's `end`. A wave that cannot leaves nothing measured: with a renderer's 10 s
// budget an H200 built a wave for each task and measured none (PERFORMANCE-LOG.md, s51).
inline bool waveFits(double now, double waveSeconds, double measureSeconds, double end) {
  return now + waveSeconds + measureSeconds < end;
}

// One comparison of the algorithms (search.cpp): a sort's time with each.
struct Comparison {
  double onesweep, scan;
};
// By how much reduce-then-scan must win each comparison.
constexpr double kScanMustWin = 0.98;
// The algorithm the tuning data keeps, from the comparisons `made` of those `planned`:
// reduce-then-scan only where every one planned was made and it won each. One algorithm sorts
// every class, and no class may sort slower with the data than without it: a mean over the
// classes once chose reduce-then-scan because u64 pairs favoured it, and f32 pairs then sorted
// slower (issue 72; PERFORMANCE-LOG.md, s56).
inline Algorithm fasterAlgorithm(const std::vector<Comparison>& made, size_t planned) {
  const bool scanWinsAll =
      std::all_of(made.begin(), made.end(), [](const Comparison& c) { return c.scan < kScanMustWin * c.onesweep; });
  return !made.empty() && made.size() == planned && scanWinsAll ? Algorithm::reduceThenScan : Algorithm::onesweep;
}

// The configs the tuner sorts per tile class: unsigned keys, u32 values.
inline SortConfig configOfClass(uint32_t cls) {
  SortConfig c;
  c.keyType = classWords(cls) == 2 ? KeyType::u64 : KeyType::u32;
  c.valueType = classKeysAlone(cls) ? ValueType::none : ValueType::u32;
  c.endBit = endBitOf(c);  // resolved, as planSort() takes it
  return c;
}

// What the tuner sorts for a class where the caller named its sorts (TuneInfo::pSorts): that of
// the caller's sorts of the class with the most keys, so that the pipelines the caller prepared
// serve the tuner too, where its values are none or 32-bit (the bench's values are indices);
// else configOfClass().
SortConfig taskConfig(uint32_t cls, const TuneInfo& info);

}  // namespace vksort::detail
