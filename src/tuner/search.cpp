#include "search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "plan.hpp"
#include "report.hpp"
#include "search_space.hpp"
#include "tuning_data.hpp"

namespace vksort::detail {
namespace {

// The keys of the sort that sizes the algorithm comparison (chooseAlgorithm()): few enough to take
// well under a second on lavapipe.
constexpr uint32_t kComparisonProbeKeys = 1u << 14;

}  // namespace

Status Search::run(TuningResult* out) {
  readClasses();
  if (Status st = chooseAlgorithm(); !st) return st;
  const std::vector<Task> tasks = makeTasks();
  steps_ = step_ + uint32_t(tasks.size()) * 20;
  // Every task's built-in pipelines first, side by side, so that no task starts on a GPU left idle.
  if (Status st = bench_.buildWhileHeating(tasks.size(), [&](size_t i) { return TuningBench::prepare(baseline_.get(), tasks[i]); });
      !st)
    return st;
  tuned_.algorithm = algorithm_;  // the tiers the tiles replace are this algorithm's
  report_ += "class       tier  keys        built-in ms  tuned ms  speedup  tile\n";
  for (size_t k = 0; k < tasks.size(); ++k)
    if (Status st = tuneTask(tasks[k], elapsed() + (budget_ - elapsed()) / double(tasks.size() - k), k == 0); !st)
      return st;
  finishReport(out, tasks.size());
  return {};
}

// The classes to tune, the largest count of each and what its tasks sort.
void Search::readClasses() {
  for (uint32_t cls = 0; cls < kTileClasses; ++cls) configs_[cls] = taskConfig(cls, info_);
  if (info_.sortCount == 0) {
    for (uint32_t& m : maxCount_) m = 1u << 26;
  } else {
    for (uint32_t i = 0; i < info_.sortCount; ++i) {
      const PreparedSort& p = info_.pSorts[i];
      const uint32_t cls = tileClass(p.config);
      maxCount_[cls] = std::max(maxCount_[cls], p.maxCount);
    }
  }
}

// The algorithm: the caller's, else the faster of the two over the classes' middle counts.
Status Search::chooseAlgorithm() {
  algorithm_ = info_.pSorterCreateInfo->algorithm;
  // Its pipelines are built with the tasks', for every task at once (buildWhileHeating()).
  if (Status st = bench_.makeSorter(algorithm_ == Algorithm::automatic ? Algorithm::onesweep : algorithm_, nullptr,
                                    nullptr, &baseline_);
      !st)
    return st;
  for (uint32_t cls = 0; cls < kTileClasses; ++cls) {
    const SortConfig &c = configs_[cls], plain = configOfClass(cls);
    const bool callers = c.keyType != plain.keyType || c.order != plain.order || c.beginBit != plain.beginBit ||
                         c.endBit != plain.endBit;
    if (maxCount_[cls] == 0 || !callers) continue;
    say("%s measured with the caller's keys: %s, bits [%u, %u), %s\n", className(cls), keyTypeName(c.keyType),
        c.beginBit, c.endBit, c.order == SortOrder::descending ? "descending" : "ascending");
  }
  if (algorithm_ == Algorithm::automatic && baseline_->tuning.onesweepMeasured) {
    // The vendor's tables measured it: the budget goes to tiles.
    algorithm_ = Algorithm::onesweep;
    report_ += "algorithm: Onesweep, which the vendor's tables measured faster (not compared again)\n";
  }
  if (algorithm_ != Algorithm::automatic) return {};
  SorterPtr other;
  if (Status st = bench_.makeSorter(Algorithm::reduceThenScan, nullptr, nullptr, &other); !st) return st;
  std::vector<Task> compared;  // per class, at its largest count up to 2^20
  for (uint32_t cls = 0; cls < kTileClasses; ++cls)
    if (maxCount_[cls] > baseline_->tuning.smallSortKeys[classWords(cls) - 1])
      compared.push_back({0, cls, std::min(maxCount_[cls], 1u << 20), configs_[cls]});
  Sorter_T* both[2] = {baseline_.get(), other.get()};
  if (Status st = bench_.buildWhileHeating(2 * compared.size(),
                                           [&](size_t i) { return TuningBench::prepare(both[i % 2], compared[i / 2]); });
      !st)
    return st;
  // Each class's comparison must end within half the budget. A sort of a few keys first gives the
  // time a key takes (it falls with the count, so the estimate errs long): lavapipe sorts 2^20
  // pairs in about a second, so comparing them takes half a minute, and a smaller count would not
  // decide as 2^20 does there (Onesweep wins to 2^16 pairs, reduce-then-scan from 2^18:
  // PERFORMANCE-LOG.md, s51).
  double nanosPerKey = 0;
  if (!compared.empty()) {
    Task probe = compared.front();
    probe.count = std::min(probe.count, kComparisonProbeKeys);
    double nanos;
    if (Status st = TuningBench::prepare(baseline_.get(), probe); !st) return st;
    if (Status st = bench_.measure(baseline_.get(), probe, 1, &nanos); !st) return st;
    nanosPerKey = nanos / probe.count;
  }
  double logRatio = 0;
  uint32_t measured = 0;
  for (const Task& task : compared) {
    double onesweep = 0, scan = 0;
    if (!progress("algorithm")) return fail(Result::errorCancelled, "tuning cancelled");
    const double heatMs = measured ? 100 : 1000;
    const double seconds = heatMs * 1e-3 + 2 * measureSeconds(task.count, nanosPerKey);
    if (elapsed() + seconds > budget_ / 2) {
      say("algorithm, %s at %u keys: not compared (about %.0f s, past half the budget)\n", className(task.cls),
          task.count, seconds);
      break;
    }
    if (Status st = bench_.heat(baseline_.get(), task, heatMs); !st) return st;  // clocks up first
    for (auto [sorter, nanos] : {std::pair{baseline_.get(), &onesweep}, std::pair{other.get(), &scan}})
      if (Status st = bench_.measure(sorter, task, 1, nanos); !st) return st;
    logRatio += std::log(scan / onesweep);
    ++measured;
    say("algorithm, %s at %u keys: Onesweep %.4f ms, reduce-then-scan %.4f ms\n", className(task.cls), task.count,
        onesweep * 1e-6, scan * 1e-6);
    // One algorithm a quarter faster than the other on a class decides it, and so does a third of
    // the budget spent (lavapipe: a class's two measurements at 2^20 keys take a minute): the rest
    // of the budget goes to tiles.
    if (std::abs(std::log(scan / onesweep)) > std::log(1.25) || elapsed() > budget_ / 3) break;
  }
  algorithm_ = measured && logRatio / measured < std::log(0.98) ? Algorithm::reduceThenScan : Algorithm::onesweep;
  if (!measured) report_ += "algorithm: Onesweep, the tables' choice (not compared)\n";
  if (algorithm_ == Algorithm::reduceThenScan) baseline_ = std::move(other);
  return {};
}

// One task per class and tier it reaches beyond the one-workgroup sort, measured at the geometric
// middle of the counts the tier takes.
std::vector<Task> Search::makeTasks() const {
  const Tuning& base = baseline_->tuning;
  std::vector<Task> tasks;
  for (uint32_t cls = 0; cls < kTileClasses; ++cls)
    for (uint32_t i = 0; i < base.tierCount; ++i) {
      const uint64_t lo = std::max<uint64_t>(base.tiers[i].from, base.smallSortKeys[classWords(cls) - 1] + 1);
      const uint64_t hi =
          std::min<uint64_t>(i + 1 < base.tierCount ? base.tiers[i + 1].from - 1 : maxCount_[cls], maxCount_[cls]);
      if (lo > hi) continue;
      tasks.push_back({i, cls, uint32_t(std::sqrt(double(lo) * double(hi))), configs_[cls], uint32_t(lo), uint32_t(hi)});
    }
  return tasks;
}

// A task within its share of the budget (until `taskBudget` seconds in): the row measured, the
// climb, the confirmation of what it found, the report's line and, where kept, the tuned tile.
Status Search::tuneTask(const Task& task, double taskBudget, bool first) {
  const TileShape builtIn = baseline_->tuning.tiers[task.tier].shape[task.cls];
  if (!progress(className(task.cls))) return fail(Result::errorCancelled, "tuning cancelled");
  if (elapsed() >= budget_) {  // the row stays; the report says it was not measured
    say("%-11s %-5u %-11u (not measured: the time budget was spent)\n", className(task.cls), task.tier, task.count);
    return {};
  }
  double builtInNanos;
  // Clocks up first (the GPU has been busy since, but for the CPU's turns between tasks).
  if (Status st = bench_.heat(baseline_.get(), task, first ? 1000 : 30); !st) return st;
  const double measureStart = elapsed();
  if (Status st = bench_.measure(baseline_.get(), task, 1, &builtInNanos); !st) return st;
  const double rowSeconds = elapsed() - measureStart;  // one measurement
  // Once a tile wins, the climb leaves the task's budget room for checking it (confirm()).
  const double checkSeconds = keepCheckSeconds(rowSeconds, task);
  Climb c{builtIn, nullptr, builtInNanos};
  if (Status st = climb(task, rowSeconds, taskBudget, checkSeconds, &c); !st) return st;
  double rowNanos = builtInNanos;
  bool keep = false;
  if (Status st = confirm(task, c, &rowNanos, &keep); !st) return st;
  say("%-11s %-5u %-11u %-12.4f %-9.4f %-8.3f %s\n", className(task.cls), task.tier, task.count, rowNanos * 1e-6,
      (keep ? c.nanos : rowNanos) * 1e-6, keep ? rowNanos / c.nanos : 1.0,
      keep ? shapeText(c.best).c_str() : ("the row's: " + shapeText(builtIn)).c_str());
  if (keep)
    tuned_.tiles[tuned_.tileCount++] = {task.tier, task.cls, baseline_->tuning.tiers[task.tier].from, task.count,
                                        uint32_t(std::min(rowNanos, 4e9)), uint32_t(std::min(c.nanos, 4e9)), c.best};
  return {};
}

// The climb: the best tile's neighbours not yet measured, in waves of as many as build at once
// (while the GPU sorts with the best tile); the fastest of a wave that beats the best climbs, until
// none does or the task's time is up (`taskBudget`, less `checkSeconds` once a tile has won).
Status Search::climb(const Task& task, double rowSeconds, double taskBudget, double checkSeconds, Climb* c) {
  auto climbEnd = [&] { return taskBudget - (c->sorter ? checkSeconds : 0); };
  TunedTiles candidate;
  candidate.algorithm = algorithm_;
  candidate.tileCount = 1;
  candidate.tiles[0] = {task.tier, task.cls, baseline_->tuning.tiers[task.tier].from, task.count, 0, 0, c->best};
  std::vector<TileShape> seen{c->best};
  const uint32_t wavesBefore = waves_;
  bool waveSkipped = false;
  for (bool improved = true; improved && elapsed() < climbEnd();) {
    improved = false;
    std::vector<TileShape> shapes = neighbours(c->best, task.tier, task.cls, baseline_->tuning);
    shapes.erase(std::remove_if(shapes.begin(), shapes.end(),
                                [&](const TileShape& s) { return std::find(seen.begin(), seen.end(), s) != seen.end(); }),
                 shapes.end());
    for (size_t from = 0; from < shapes.size() && !improved && elapsed() < climbEnd(); from += bench_.buildThreads()) {
      if (waves_ && !waveFits(elapsed(), compileSeconds_ / waves_, rowSeconds, climbEnd())) {
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
                if (!bench_.makeSorter(algorithm_, &candidates[i], &task, &sorters[i])) sorters[i].reset();
                return Status{};
              },
              c->sorter ? c->sorter.get() : baseline_.get(), &task);
          !st)
        return st;
      compileSeconds_ += elapsed() - compileStart;
      ++waves_;
      SorterPtr* fastest = nullptr;
      double fastestNanos = 0;
      for (SorterPtr& sorter : sorters) {
        if (elapsed() >= climbEnd()) break;
        if (!sorter) continue;
        const TileShape fitted = sorter->tuning.tiers[task.tier].shape[task.cls];
        if (std::find(seen.begin(), seen.end(), fitted) != seen.end()) continue;
        seen.push_back(fitted);
        ++measuredTiles_;
        double nanos;
        if (!progress(className(task.cls))) return fail(Result::errorCancelled, "tuning cancelled");
        if (Status st = bench_.measure(sorter.get(), task, 1, &nanos); !st) return st;
        if (!fastest || nanos < fastestNanos) fastest = &sorter, fastestNanos = nanos;
      }
      if (!fastest || fastestNanos >= 0.99 * c->nanos) continue;
      // A win is measured again, after the best so far, so that a lucky median does not climb.
      double again;
      if (Status st = bench_.measure(c->sorter ? c->sorter.get() : baseline_.get(), task, 1, &c->nanos); !st) return st;
      if (Status st = bench_.measure(fastest->get(), task, 1, &again); !st) return st;
      if (std::max(fastestNanos, again) >= 0.99 * c->nanos) continue;
      c->best = (*fastest)->tuning.tiers[task.tier].shape[task.cls];
      c->nanos = std::max(fastestNanos, again);
      c->sorter = std::move(*fastest);
      improved = true;  // climb from the new best
    }
  }
  if (waveSkipped && waves_ == wavesBefore) ++tasksWithoutWave_;
  return {};
}

// Whether the climb's tile is kept: where it still wins, interleaved with the row, on uniform keys
// and on crowded ones (q 8: a few digits hold most keys), sorts correctly, and loses nothing at
// tierCheckCounts(). *rowNanos and c.nanos become the interleaved uniform times.
Status Search::confirm(const Task& task, Climb& c, double* rowNanos, bool* keep) {
  *keep = c.sorter != nullptr;
  if (!*keep) return {};
  double tiles[2][2];  // [row, tuned][uniform, crowded]
  for (uint32_t q : {8u, 1u})
    for (int which = 0; which < 2; ++which)
      if (Status st = bench_.measure(which ? c.sorter.get() : baseline_.get(), task, q, &tiles[which][q == 1 ? 0 : 1]);
          !st)
        return st;
  *rowNanos = tiles[0][0];
  c.nanos = tiles[1][0];
  bool sorted = false;
  if (Status st = bench_.checkSort(c.sorter.get(), task, &sorted); !st) return st;
  *keep = c.nanos < 0.99 * *rowNanos && tiles[1][1] <= 1.01 * tiles[0][1] && sorted;
  if (!sorted) report_ += "  (a candidate sorted wrongly and was dropped: please report it)\n";
  // A tile that wins at the tier's middle count may lose by as much elsewhere in it (an H200's
  // pairs-wide 768 x 14: 1.15x at 2.8M keys, 0.91x at 2^21, 0.94x at 3M): it must lose nothing at
  // tierCheckCounts().
  for (uint32_t count : tierCheckCounts(task.first, task.last)) {
    if (!*keep) break;
    Task other = task;
    other.count = count;
    double row, tile;
    for (Sorter_T* sorter : {baseline_.get(), c.sorter.get()})
      if (Status st = TuningBench::prepare(sorter, other); !st) return st;
    if (Status st = bench_.heat(baseline_.get(), other, kCheckHeatMs); !st) return st;
    if (Status st = bench_.measure(baseline_.get(), other, 1, &row); !st) return st;
    if (Status st = bench_.measure(c.sorter.get(), other, 1, &tile); !st) return st;
    if (tile > 1.01 * row) {
      *keep = false;
      say("  (%s, tier %u: %s won at %u keys, %.3fx the row at %u: dropped)\n", className(task.cls), task.tier,
          shapeText(c.best).c_str(), task.count, row / tile, other.count);
    }
  }
  return {};
}

// The tuning data, and the report: its summary first, the tuned tiles as table rows last.
void Search::finishReport(TuningResult* out, size_t taskCount) {
  if (tasksWithoutWave_)
    say("%u of %zu tasks tried no other tile: a wave of candidates builds in about %.1f s on %u threads, "
        "more than their share of the budget left (a larger budget tries them)\n",
        tasksWithoutWave_, taskCount, compileSeconds_ / waves_, bench_.buildThreads());
  out->data = encodeTuningData(baseline_->caps, tuned_);
  out->seconds = elapsed();
  char line[512];
  std::snprintf(line, sizeof line,
                "%s: %s, %u of %zu tiles tuned in %.1f s; %u other tiles measured, their pipelines built in %.1f s "
                "on %u threads\n",
                baseline_->caps.deviceName, algorithm_ == Algorithm::onesweep ? "Onesweep" : "reduce-then-scan",
                tuned_.tileCount, taskCount, out->seconds, measuredTiles_, compileSeconds_, bench_.buildThreads());
  out->report = line + report_;
  if (tuned_.tileCount)
    out->report += "\nAs rows of src/tuning_tables.cpp (each from its tier's start; the class's row before it "
                   "resumes at the next tier's start, where that is no row of the class):\n";
  for (uint32_t i = 0; i < tuned_.tileCount; ++i)
    out->report += std::string("  ") + className(tuned_.tiles[i].tileClass) + ", tier " +
                   std::to_string(tuned_.tiles[i].tier) + ":\n" + tableRow(tuned_.tiles[i], baseline_->caps.deviceName);
}

bool Search::progress(const char* what) {
  ++step_;
  steps_ = std::max(steps_, step_);
  if (info_.pfnProgress && !info_.pfnProgress({step_, steps_, what}, info_.pUserData)) cancelled_ = true;
  return !cancelled_;
}

double Search::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Search::say(const char* format, ...) {
  char line[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(line, sizeof line, format, args);
  va_end(args);
  report_ += line;
}

}  // namespace vksort::detail
