// On-device tuning (tuneSorts()): per tile class and tier of the tables, a hill climb from the
// table's row over neighbouring tiles, each timed on the device (tuner_bench.hpp); what beats the
// row, confirmed by interleaved re-measurement and one checked sort, becomes tuning data
// (tuning_data.cpp). Candidates go through the same fitting as the tables' rows (chooseTuning(),
// via createSorterTuned()), so only shapes the suites build are tried.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "plan.hpp"
#include "tuner_bench.hpp"
#include "tuning_data.hpp"

namespace vksort {
using namespace detail;

namespace {

// The keys of the sort that sizes the algorithm comparison (Search::run()): few enough to take
// well under a second on lavapipe.
constexpr uint32_t kComparisonProbeKeys = 1u << 14;

// Tiles near `s` for the hill climb: keys per invocation up and down, the other number of rounds,
// the neighbouring workgroup sizes with about as many keys per tile (not in tier 0, whose
// pairs32 workgroup sizes the scan and the one-workgroup sort), and each choice flipped.
std::vector<TileShape> neighbours(const TileShape& s, uint32_t tier, uint32_t cls, const Tuning& t) {
  std::vector<TileShape> out;
  auto with = [&](auto change) {
    TileShape c = s;
    change(c);
    if (c.keysPerInvocation >= 1 && c.keysPerInvocation <= 64 && !(c == s)) out.push_back(c);
  };
  for (int d : {-4, -2, -1, 1, 2, 4})
    with([&](TileShape& c) { c.keysPerInvocation = uint32_t(std::max(1, int(s.keysPerInvocation) + d * int(s.reorderRounds))); });
  with([&](TileShape& c) { c.reorderRounds = s.reorderRounds == 1 ? 2 : 1; });
  with([&](TileShape& c) {
    c.reorderRounds = s.reorderRounds == 1 ? 2 : 1;
    c.keysPerInvocation = s.reorderRounds == 1 ? 2 * s.keysPerInvocation : std::max(1u, s.keysPerInvocation / 2);
  });
  if (tier > 0) {
    static const uint32_t kWorkgroups[] = {128, 256, 384, 512, 768, 896, 1024};
    const auto at = std::find(std::begin(kWorkgroups), std::end(kWorkgroups), s.workgroupSize);
    for (const uint32_t* w : {at - 1, at + 1})
      if (at != std::end(kWorkgroups) && w >= std::begin(kWorkgroups) && w < std::end(kWorkgroups))
        with([&](TileShape& c) {
          c.workgroupSize = *w;
          c.keysPerInvocation = std::max(1u, (s.keys() + *w / 2) / *w / s.reorderRounds * s.reorderRounds);
        });
  }
  if (t.atomicRanking && t.algorithm == Algorithm::onesweep) with([](TileShape& c) { c.rankFirst = !c.rankFirst; });
  with([](TileShape& c) { c.persistentTiles = !c.persistentTiles; });
  if (t.algorithm == Algorithm::onesweep) {
    with([](TileShape& c) { c.lookbackWindow = c.lookbackWindow > 1 ? c.lookbackWindow - 1 : 2; });
    with([](TileShape& c) { c.lookbackWindow = std::min(c.lookbackWindow + 1, 16u); });
    with([](TileShape& c) { c.lookbackPlainLoads = !c.lookbackPlainLoads; });
    if (t.waveWorkgroups) with([](TileShape& c) { c.fitPercent = c.fitPercent ? 0 : 100; });
  }
  if (!classKeysAlone(cls)) {
    with([](TileShape& c) { c.prefetchPairs = !c.prefetchPairs; });
    with([](TileShape& c) { c.ridingValues = !c.ridingValues; });
  }
  return out;
}

std::string shapeText(const TileShape& s) {
  char text[160];
  std::snprintf(text, sizeof text, "%u x %u, %u round%s%s%s%s, window %u%s%s%s", s.workgroupSize, s.keysPerInvocation,
                s.reorderRounds, s.reorderRounds == 1 ? "" : "s", s.rankFirst ? ", rank first" : "",
                s.persistentTiles ? ", persistent" : "", s.fitPercent ? ", fitted" : "", s.lookbackWindow,
                s.lookbackPlainLoads ? " plain" : "", s.ridingValues ? ", riding values" : "",
                s.skewedFrom ? ", skewed passes ranked first" : "");
  return text;
}

// A tuned tile as a row of tuning_tables.cpp, to paste into its class's table.
std::string tableRow(const TunedTile& t, const char* device) {
  const TileShape& s = t.shape;
  auto flag = [](bool b) { return b ? "true" : "false"; };
  char text[900];
  std::snprintf(text, sizeof text,
                "    {%u, {.workgroupSize = %u, .keysPerInvocation = %u, .reorderRounds = %u, .fitPercent = %u,\n"
                "         .hotDigitFrom = %u, .hotDigitTo = %u, .hotRankTo = %u, .lookbackWindow = %u,\n"
                "         .lookbackPlainLoads = %s, .rankFirst = %s, .persistentTiles = %s, .prefetchPairs = %s,\n"
                "         .ridingValues = %s, .skewedFrom = %u},\n"
                "     \"Measured by vksort_tune on %s: %.2fx the row at %u keys.\"},\n",
                t.from, s.workgroupSize, s.keysPerInvocation, s.reorderRounds, s.fitPercent, s.hotDigitFrom, s.hotDigitTo,
                s.hotRankTo, s.lookbackWindow, flag(s.lookbackPlainLoads), flag(s.rankFirst), flag(s.persistentTiles),
                flag(s.prefetchPairs), flag(s.ridingValues), s.skewedFrom, device, double(t.builtInNanos) / std::max(t.tunedNanos, 1u),
                t.count);
  return text;
}

// The climb over every task within the caller's budget, its progress reported.
class Search {
 public:
  Search(const TuneInfo& info, TuningBench& bench, double budget) : info_(info), bench_(bench), budget_(budget) {}
  Status run(TuningResult* out);

 private:
  bool progress(const char* what);  // false: cancelled
  double elapsed() const;

  const TuneInfo& info_;
  TuningBench& bench_;
  double budget_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  uint32_t step_ = 0, steps_ = 1;
  bool cancelled_ = false;
};

bool Search::progress(const char* what) {
  ++step_;
  steps_ = std::max(steps_, step_);
  if (info_.pfnProgress && !info_.pfnProgress({step_, steps_, what}, info_.pUserData)) cancelled_ = true;
  return !cancelled_;
}

double Search::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

Status Search::run(TuningResult* out) {
  // The classes to tune, the largest count of each and what its tasks sort.
  uint32_t maxCount[kTileClasses] = {};
  SortConfig configs[kTileClasses];
  for (uint32_t cls = 0; cls < kTileClasses; ++cls) configs[cls] = taskConfig(cls, info_);
  if (info_.sortCount == 0) {
    for (uint32_t& m : maxCount) m = 1u << 26;
  } else {
    for (uint32_t i = 0; i < info_.sortCount; ++i) {
      const PreparedSort& p = info_.pSorts[i];
      const uint32_t cls = tileClass(p.config);
      maxCount[cls] = std::max(maxCount[cls], p.maxCount);
    }
  }

  // The algorithm: the caller's, else the faster of the two over the classes' middle counts.
  Algorithm algorithm = info_.pSorterCreateInfo->algorithm;
  SorterPtr baseline;
  // Its pipelines are built below, for every task at once (buildWhileHeating()).
  if (Status st = bench_.makeSorter(algorithm == Algorithm::automatic ? Algorithm::onesweep : algorithm, nullptr,
                                    nullptr, &baseline);
      !st)
    return st;
  std::string report;
  char line[512];
  for (uint32_t cls = 0; cls < kTileClasses; ++cls) {
    const SortConfig &c = configs[cls], plain = configOfClass(cls);
    const bool callers = c.keyType != plain.keyType || c.order != plain.order || c.beginBit != plain.beginBit ||
                         c.endBit != plain.endBit;
    if (maxCount[cls] == 0 || !callers) continue;
    std::snprintf(line, sizeof line, "%s measured with the caller's keys: %s, bits [%u, %u), %s\n", className(cls),
                  keyTypeName(c.keyType), c.beginBit, c.endBit, c.order == SortOrder::descending ? "descending" : "ascending");
    report += line;
  }
  if (algorithm == Algorithm::automatic && baseline->tuning.onesweepMeasured) {
    // The vendor's tables measured it: the budget goes to tiles.
    algorithm = Algorithm::onesweep;
    report += "algorithm: Onesweep, which the vendor's tables measured faster (not compared again)\n";
  }
  if (algorithm == Algorithm::automatic) {
    SorterPtr other;
    if (Status st = bench_.makeSorter(Algorithm::reduceThenScan, nullptr, nullptr, &other); !st) return st;
    std::vector<Task> compared;  // per class, at its largest count up to 2^20
    for (uint32_t cls = 0; cls < kTileClasses; ++cls)
      if (maxCount[cls] > baseline->tuning.smallSortKeys[classWords(cls) - 1])
        compared.push_back({0, cls, std::min(maxCount[cls], 1u << 20), configs[cls]});
    Sorter_T* both[2] = {baseline.get(), other.get()};
    if (Status st = bench_.buildWhileHeating(2 * compared.size(),
                                             [&](size_t i) { return TuningBench::prepare(both[i % 2], compared[i / 2]); });
        !st)
      return st;
    // Each class's comparison must end within half the budget. A sort of a few keys first
    // gives the time a key takes (it falls with the count, so the estimate errs long): lavapipe
    // sorts 2^20 pairs in about a second, so comparing them takes half a minute, and a smaller
    // count would not decide as 2^20 does there (Onesweep wins to 2^16 pairs, reduce-then-scan
    // from 2^18: PERFORMANCE-LOG.md, s51).
    double nanosPerKey = 0;
    if (!compared.empty()) {
      Task probe = compared.front();
      probe.count = std::min(probe.count, kComparisonProbeKeys);
      double nanos;
      if (Status st = TuningBench::prepare(baseline.get(), probe); !st) return st;
      if (Status st = bench_.measure(baseline.get(), probe, 1, &nanos); !st) return st;
      nanosPerKey = nanos / probe.count;
    }
    double logRatio = 0;
    uint32_t measured = 0;
    for (const Task& task : compared) {
      const uint32_t cls = task.cls;
      double onesweep = 0, scan = 0;
      if (!progress("algorithm")) return fail(Result::errorCancelled, "tuning cancelled");
      const double heatMs = measured ? 100 : 1000;
      const double seconds = heatMs * 1e-3 + 2 * measureSeconds(task.count, nanosPerKey);
      if (elapsed() + seconds > budget_ / 2) {
        std::snprintf(line, sizeof line,
                      "algorithm, %s at %u keys: not compared (about %.0f s, past half the budget)\n",
                      className(cls), task.count, seconds);
        report += line;
        break;
      }
      if (Status st = bench_.heat(baseline.get(), task, heatMs); !st) return st;  // clocks up first
      for (auto [sorter, nanos] : {std::pair{baseline.get(), &onesweep}, std::pair{other.get(), &scan}})
        if (Status st = bench_.measure(sorter, task, 1, nanos); !st) return st;
      logRatio += std::log(scan / onesweep);
      ++measured;
      std::snprintf(line, sizeof line, "algorithm, %s at %u keys: Onesweep %.4f ms, reduce-then-scan %.4f ms\n",
                    className(cls), task.count, onesweep * 1e-6, scan * 1e-6);
      report += line;
      // One algorithm a quarter faster than the other on a class decides it, and so does a third
      // of the budget spent (lavapipe: a class's two measurements at 2^20 keys take a minute):
      // the rest of the budget goes to tiles.
      if (std::abs(std::log(scan / onesweep)) > std::log(1.25) || elapsed() > budget_ / 3) break;
    }
    algorithm = measured && logRatio / measured < std::log(0.98) ? Algorithm::reduceThenScan : Algorithm::onesweep;
    if (!measured) report += "algorithm: Onesweep, the tables' choice (not compared)\n";
    if (algorithm == Algorithm::reduceThenScan) baseline = std::move(other);
  }
  const Tuning& base = baseline->tuning;

  // One task per class and tier it reaches beyond the one-workgroup sort, measured at the
  // geometric middle of the counts the tier takes.
  std::vector<Task> tasks;
  for (uint32_t cls = 0; cls < kTileClasses; ++cls)
    for (uint32_t i = 0; i < base.tierCount; ++i) {
      const uint64_t lo = std::max<uint64_t>(base.tiers[i].from, base.smallSortKeys[classWords(cls) - 1] + 1);
      const uint64_t hi = std::min<uint64_t>(i + 1 < base.tierCount ? base.tiers[i + 1].from - 1 : maxCount[cls], maxCount[cls]);
      if (lo > hi) continue;
      tasks.push_back({i, cls, uint32_t(std::sqrt(double(lo) * double(hi))), configs[cls], uint32_t(lo), uint32_t(hi)});
    }
  steps_ = step_ + uint32_t(tasks.size()) * 20;
  // Every task's built-in pipelines first, side by side, so that no task starts on a GPU left idle.
  if (Status st = bench_.buildWhileHeating(tasks.size(), [&](size_t i) { return TuningBench::prepare(baseline.get(), tasks[i]); });
      !st)
    return st;

  uint32_t measuredTiles = 0;  // tiles measured beyond the rows
  double compileSeconds = 0;  // spent building candidates' pipelines
  uint32_t waves = 0;         // of candidates built
  uint32_t tasksWithoutWave = 0;  // measured tasks whose share of the budget fit no wave
  TunedTiles tuned;
  tuned.algorithm = algorithm;  // the tiers the tiles replace are this algorithm's
  report += "class       tier  keys        built-in ms  tuned ms  speedup  tile\n";
  for (size_t k = 0; k < tasks.size(); ++k) {
    const Task& task = tasks[k];
    const double taskBudget = elapsed() + (budget_ - elapsed()) / double(tasks.size() - k);
    const TileShape builtIn = base.tiers[task.tier].shape[task.cls];
    if (!progress(className(task.cls))) return fail(Result::errorCancelled, "tuning cancelled");
    if (elapsed() >= budget_) {  // the row stays; the report says it was not measured
      std::snprintf(line, sizeof line, "%-11s %-5u %-11u (not measured: the time budget was spent)\n", className(task.cls),
                    task.tier, task.count);
      report += line;
      continue;
    }
    double builtInNanos;
    // Clocks up first (the GPU has been busy since, but for the CPU's turns between tasks).
    if (Status st = bench_.heat(baseline.get(), task, k == 0 ? 1000 : 30); !st) return st;
    const double measureStart = elapsed();
    if (Status st = bench_.measure(baseline.get(), task, 1, &builtInNanos); !st) return st;
    const double rowSeconds = elapsed() - measureStart;  // one measurement
    // Once a tile wins, the climb leaves the task's budget room for checking it (below).
    const double checkSeconds = keepCheckSeconds(rowSeconds, task);
    auto climbEnd = [&](bool won) { return taskBudget - (won ? checkSeconds : 0); };
    TunedTiles candidate;
    candidate.algorithm = algorithm;
    candidate.tileCount = 1;
    candidate.tiles[0] = {task.tier, task.cls, base.tiers[task.tier].from, task.count, 0, 0, builtIn};
    TileShape best = builtIn;
    SorterPtr bestSorter;
    double bestNanos = builtInNanos;
    std::vector<TileShape> seen{builtIn};
    const uint32_t wavesBefore = waves;
    bool waveSkipped = false;
    for (bool improved = true; improved && elapsed() < climbEnd(bestSorter != nullptr);) {
      improved = false;
      // The best tile's neighbours not yet measured, in waves of as many as build at once (while
      // the GPU sorts with the best tile); the fastest of a wave that beats the best climbs.
      std::vector<TileShape> shapes = neighbours(best, task.tier, task.cls, base);
      shapes.erase(std::remove_if(shapes.begin(), shapes.end(),
                                  [&](const TileShape& c) { return std::find(seen.begin(), seen.end(), c) != seen.end(); }),
                   shapes.end());
      for (size_t from = 0; from < shapes.size() && !improved && elapsed() < climbEnd(bestSorter != nullptr);
           from += bench_.buildThreads()) {
        if (waves && !waveFits(elapsed(), compileSeconds / waves, rowSeconds, climbEnd(bestSorter != nullptr))) {
          waveSkipped = true;
          break;
        }
        const size_t n = std::min<size_t>(bench_.buildThreads(), shapes.size() - from);
        std::vector<TunedTiles> candidates(n, candidate);
        for (size_t i = 0; i < n; ++i) candidates[i].tiles[0].shape = shapes[from + i];
        const double compileStart = elapsed();
        std::vector<SorterPtr> sorters(n);  // null: a shape this device cannot build
        if (Status st = bench_.buildWhileHeating(
                n,
                [&](size_t i) {
                  if (!bench_.makeSorter(algorithm, &candidates[i], &task, &sorters[i])) sorters[i].reset();
                  return Status{};
                },
                bestSorter ? bestSorter.get() : baseline.get(), &task);
            !st)
          return st;
        compileSeconds += elapsed() - compileStart;
        ++waves;
        SorterPtr* fastest = nullptr;
        double fastestNanos = 0;
        for (SorterPtr& sorter : sorters) {
          if (elapsed() >= climbEnd(bestSorter != nullptr)) break;
          if (!sorter) continue;
          const TileShape fitted = sorter->tuning.tiers[task.tier].shape[task.cls];
          if (std::find(seen.begin(), seen.end(), fitted) != seen.end()) continue;
          seen.push_back(fitted);
          ++measuredTiles;
          double nanos;
          if (!progress(className(task.cls))) return fail(Result::errorCancelled, "tuning cancelled");
          if (Status st = bench_.measure(sorter.get(), task, 1, &nanos); !st) return st;
          if (!fastest || nanos < fastestNanos) fastest = &sorter, fastestNanos = nanos;
        }
        if (!fastest || fastestNanos >= 0.99 * bestNanos) continue;
        // A win is measured again, after the best so far, so that a lucky median does not climb.
        double again;
        if (Status st = bench_.measure(bestSorter ? bestSorter.get() : baseline.get(), task, 1, &bestNanos); !st) return st;
        if (Status st = bench_.measure(fastest->get(), task, 1, &again); !st) return st;
        if (std::max(fastestNanos, again) >= 0.99 * bestNanos) continue;
        best = (*fastest)->tuning.tiers[task.tier].shape[task.cls];
        bestNanos = std::max(fastestNanos, again);
        bestSorter = std::move(*fastest);
        improved = true;  // climb from the new best
      }
    }
    if (waveSkipped && waves == wavesBefore) ++tasksWithoutWave;
    // Keep it where it still wins, interleaved with the row, on uniform keys and on crowded ones
    // (q 8: a few digits hold most keys), and sorts correctly.
    bool keep = bestSorter != nullptr;
    double rowNanos = builtInNanos;
    if (keep) {
      double tiles[2][2];  // [row, tuned][uniform, crowded]
      for (uint32_t q : {8u, 1u})
        for (int which = 0; which < 2; ++which)
          if (Status st = bench_.measure(which ? bestSorter.get() : baseline.get(), task, q, &tiles[which][q == 1 ? 0 : 1]); !st) return st;
      rowNanos = tiles[0][0];
      bestNanos = tiles[1][0];
      bool sorted = false;
      if (Status st = bench_.checkSort(bestSorter.get(), task, &sorted); !st) return st;
      keep = bestNanos < 0.99 * rowNanos && tiles[1][1] <= 1.01 * tiles[0][1] && sorted;
      if (!sorted) report += "  (a candidate sorted wrongly and was dropped: please report it)\n";
      // A tile that wins at the tier's middle count may lose by as much elsewhere in it (an H200's
      // pairs-wide 768 x 14: 1.15x at 2.8M keys, 0.91x at 2^21, 0.94x at 3M): it must lose
      // nothing at tierCheckCounts().
      for (uint32_t count : tierCheckCounts(task.first, task.last)) {
        if (!keep) break;
        Task other = task;
        other.count = count;
        double row, tile;
        for (Sorter_T* sorter : {baseline.get(), bestSorter.get()})
          if (Status st = TuningBench::prepare(sorter, other); !st) return st;
        if (Status st = bench_.heat(baseline.get(), other, kCheckHeatMs); !st) return st;
        if (Status st = bench_.measure(baseline.get(), other, 1, &row); !st) return st;
        if (Status st = bench_.measure(bestSorter.get(), other, 1, &tile); !st) return st;
        if (tile > 1.01 * row) {
          keep = false;
          std::snprintf(line, sizeof line, "  (%s, tier %u: %s won at %u keys, %.3fx the row at %u: dropped)\n",
                        className(task.cls), task.tier, shapeText(best).c_str(), task.count, row / tile, other.count);
          report += line;
        }
      }
    }
    std::snprintf(line, sizeof line, "%-11s %-5u %-11u %-12.4f %-9.4f %-8.3f %s\n", className(task.cls), task.tier,
                  task.count, rowNanos * 1e-6, (keep ? bestNanos : rowNanos) * 1e-6, keep ? rowNanos / bestNanos : 1.0,
                  keep ? shapeText(best).c_str() : ("the row's: " + shapeText(builtIn)).c_str());
    report += line;
    if (keep)
      tuned.tiles[tuned.tileCount++] = {task.tier, task.cls, base.tiers[task.tier].from, task.count,
                                        uint32_t(std::min(rowNanos, 4e9)), uint32_t(std::min(bestNanos, 4e9)), best};
  }
  if (tasksWithoutWave) {
    std::snprintf(line, sizeof line,
                  "%u of %zu tasks tried no other tile: a wave of candidates builds in about %.1f s on %u threads, "
                  "more than their share of the budget left (a larger budget tries them)\n",
                  tasksWithoutWave, tasks.size(), compileSeconds / waves, bench_.buildThreads());
    report += line;
  }
  out->data = encodeTuningData(baseline->caps, tuned);
  out->seconds = elapsed();
  std::snprintf(line, sizeof line,
                "%s: %s, %u of %zu tiles tuned in %.1f s; %u other tiles measured, their pipelines built in %.1f s "
                "on %u threads\n",
                baseline->caps.deviceName, algorithm == Algorithm::onesweep ? "Onesweep" : "reduce-then-scan",
                tuned.tileCount, tasks.size(), out->seconds, measuredTiles, compileSeconds, bench_.buildThreads());
  out->report = line + report;
  if (tuned.tileCount)
    out->report += "\nAs rows of src/tuning_tables.cpp (each from its tier's start; the class's row before it "
                   "resumes at the next tier's start, where that is no row of the class):\n";
  for (uint32_t i = 0; i < tuned.tileCount; ++i)
    out->report += std::string("  ") + className(tuned.tiles[i].tileClass) + ", tier " +
                   std::to_string(tuned.tiles[i].tier) + ":\n" + tableRow(tuned.tiles[i], baseline->caps.deviceName);
  return {};
}

}  // namespace

Status tuneSorts(const TuneInfo& info, TuningResult* pResult) {
  if (!pResult) return fail(Result::errorInvalidArgument, "pResult is null");
  if (!info.pSorterCreateInfo) return fail(Result::errorInvalidArgument, "TuneInfo::pSorterCreateInfo is null");
  if (!info.queue) return fail(Result::errorInvalidArgument, "TuneInfo::queue is VK_NULL_HANDLE");
  if (info.sortCount != 0 && !info.pSorts)
    return fail(Result::errorInvalidArgument, "sortCount is %u but pSorts is null", info.sortCount);
  if (!(info.timeBudgetSeconds >= 0)) return fail(Result::errorInvalidArgument, "timeBudgetSeconds is negative");
  for (uint32_t i = 0; i < info.sortCount; ++i) {
    const SortConfig& c = info.pSorts[i].config;
    if (uint32_t(c.keyType) > uint32_t(KeyType::f64) || uint32_t(c.valueType) > uint32_t(ValueType::index))
      return fail(Result::errorInvalidArgument, "pSorts[%u] has an unknown key or value type", i);
  }
  // The device and its create info are checked as createSorter checks them.
  {
    Sorter probe = nullptr;
    SorterCreateInfo ci = *info.pSorterCreateInfo;
    ci.preparedSortCount = 0;
    ci.pTuningData = nullptr;
    ci.tuningDataSize = 0;
    if (Status st = createSorter(ci, &probe); !st) return st;
    destroySorter(probe);
  }
  const double budget = info.timeBudgetSeconds > 0 ? info.timeBudgetSeconds : 60;
  TuningBench bench(info, budget * 50);  // one heat at most a twentieth of the budget
  if (Status st = bench.init(); !st) return st;
  TuningResult result;
  if (Status st = Search(info, bench, budget).run(&result); !st) return st;
  *pResult = std::move(result);
  return {};
}

}  // namespace vksort
