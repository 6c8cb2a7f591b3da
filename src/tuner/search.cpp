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
// The counts the algorithms are compared at, per class (at most its largest).
constexpr uint32_t kComparisonLargeKeys = 1u << 20;
constexpr uint32_t kComparisonSmallKeys = 1u << 15;
// The share of the budget by whose end the first round over the tasks (rows and starting tiles)
// should be done.
constexpr double kFirstRoundShare = 0.6;

}  // namespace

Status Search::run(TuningResult* out) {
  readClasses();
  if (Status st = chooseAlgorithm(); !st) return st;
  const std::vector<Task> tasks = makeTasks();
  steps_ = step_ + uint32_t(tasks.size()) * 20;
  // Every task's built-in pipelines first, side by side, so that no task starts on a GPU left idle.
  if (Status st = bench_.buildWhileHeating(tasks.size(),
                                           [&](size_t i) { return TuningBench::prepare(baseline_.get(), tasks[i]); });
      !st)
    return st;
  tuned_.algorithm = algorithm_;  // the tiers the tiles replace are this algorithm's
  tuned_.algorithmClasses = comparedClasses_;
  report_ += "class       tier  keys        built-in ms  tuned ms  speedup  tile\n";
  // Two rounds over the tasks, each task a share of what is left: first every row measured (and,
  // where the tables never measured the device, its starting tiles tried), then every climb and
  // confirmation. A never-measured device's gains are mostly in the first wave; in one round its
  // first tasks' climbs left the later ones no wave (PERFORMANCE-LOG.md, s56).
  const double firstRoundEnd = budget_ * kFirstRoundShare;
  std::vector<TaskState> states(tasks.size());
  for (size_t k = 0; k < tasks.size(); ++k)
    if (Status st =
            beginTask(tasks[k], elapsed() + (firstRoundEnd - elapsed()) / double(tasks.size() - k), k == 0, &states[k]);
        !st)
      return st;
  for (size_t k = 0; k < tasks.size(); ++k)
    if (Status st = finishTask(tasks[k], elapsed() + (budget_ - elapsed()) / double(tasks.size() - k), states[k]); !st)
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
  // Per class, at its largest count up to 2^20 and at a small one (2^15): one algorithm may win
  // the large sorts and lose the small ones (PERFORMANCE-LOG.md, s56).
  std::vector<Task> compared;
  for (uint32_t cls = 0; cls < kTileClasses; ++cls) {
    const uint32_t small = baseline_->tuning.smallSortKeys[classWords(cls) - 1];
    if (maxCount_[cls] <= small) continue;
    const uint32_t large = std::min(maxCount_[cls], kComparisonLargeKeys);
    compared.push_back({0, cls, large, configs_[cls]});
    const uint32_t low = std::max(small + 1, kComparisonSmallKeys);
    if (low < large) compared.push_back({0, cls, low, configs_[cls]});
  }
  Sorter_T* both[2] = {baseline_.get(), other.get()};
  if (Status st = bench_.buildWhileHeating(
          2 * compared.size(), [&](size_t i) { return TuningBench::prepare(both[i % 2], compared[i / 2]); });
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
  std::vector<Comparison> made;
  for (const Task& task : compared) {
    double onesweep = 0, scan = 0;
    if (!progress("algorithm")) return fail(Result::errorCancelled, "tuning cancelled");
    const double heatMs = made.empty() ? 1000 : 100;
    const double seconds = heatMs * 1e-3 + 2 * measureSeconds(task.count, nanosPerKey);
    if (elapsed() + seconds > budget_ / 2) {
      say("algorithm, %s at %u keys: not compared (about %.0f s, past half the budget)\n", className(task.cls),
          task.count, seconds);
      break;
    }
    if (Status st = bench_.heat(baseline_.get(), task, heatMs); !st) return st;  // clocks up first
    for (auto [sorter, nanos] : {std::pair{baseline_.get(), &onesweep}, std::pair{other.get(), &scan}})
      if (Status st = bench_.measure(sorter, task, 1, nanos); !st) return st;
    made.push_back({onesweep, scan});
    comparedClasses_ |= 1u << task.cls;
    say("algorithm, %s at %u keys: Onesweep %.4f ms, reduce-then-scan %.4f ms\n", className(task.cls), task.count,
        onesweep * 1e-6, scan * 1e-6);
    // Onesweep winning once decides (fasterAlgorithm()), and so does a third of the budget spent
    // (lavapipe: a class's two measurements at 2^20 keys take a minute): the rest of the budget
    // goes to tiles.
    if (made.back().scan >= kScanMustWin * made.back().onesweep || elapsed() > budget_ / 3) break;
  }
  algorithm_ = fasterAlgorithm(made, compared.size());
  if (made.empty()) report_ += "algorithm: Onesweep, the tables' choice (not compared)\n";
  else
    say("algorithm: %s (reduce-then-scan must win every comparison, each made: %zu of %zu made)\n",
        algorithm_ == Algorithm::onesweep ? "Onesweep" : "reduce-then-scan", made.size(), compared.size());
  if (algorithm_ == Algorithm::reduceThenScan) baseline_ = std::move(other);
  return {};
}

// One task per class and tier it reaches beyond the one-workgroup sort (a long tier in parts:
// kSplitSpan), measured at the geometric middle of the counts the tier or part takes; the classes
// taking turns, each in ascending counts (a part's starting tiles include the tile of the part
// below).
std::vector<Task> Search::makeTasks() const {
  const Tuning& base = baseline_->tuning;
  std::vector<Task> perClass[kTileClasses];
  for (uint32_t cls = 0; cls < kTileClasses; ++cls) {
    std::vector<Task>& tasks = perClass[cls];
    for (uint32_t i = 0; i < base.tierCount; ++i) {
      const uint64_t lo = std::max<uint64_t>(base.tiers[i].from, base.smallSortKeys[classWords(cls) - 1] + 1);
      const uint64_t hi =
          std::min<uint64_t>(i + 1 < base.tierCount ? base.tiers[i + 1].from - 1 : maxCount_[cls], maxCount_[cls]);
      if (lo > hi) continue;
      std::vector<uint64_t> starts{base.tiers[i].from};
      if (hi > lo * kSplitSpan)
        for (uint64_t at = uint64_t(1) << kSplitFirstLog2; at <= hi; at <<= kSplitStepLog2)
          if (at > lo) starts.push_back(at);
      for (size_t k = 0; k < starts.size(); ++k) {
        const uint64_t first = std::max(starts[k], lo), last = k + 1 < starts.size() ? starts[k + 1] - 1 : hi;
        tasks.push_back({i, cls, uint32_t(std::sqrt(double(first) * double(last))), configs_[cls], uint32_t(first),
                         uint32_t(last), uint32_t(starts[k])});
      }
    }
  }
  size_t total = 0;
  for (const std::vector<Task>& own : perClass) total += own.size();
  std::vector<Task> tasks;
  for (size_t k = 0; tasks.size() < total; ++k)
    for (const std::vector<Task>& own : perClass)
      if (k < own.size()) tasks.push_back(own[k]);
  return tasks;
}

// A task's first round, within its share (until `end` seconds in): the row measured and, where
// the tables never measured the device, the starting tiles tried (climb()'s first wave).
Status Search::beginTask(const Task& task, double end, bool first, TaskState* state) {
  const TileShape builtIn = baseline_->tuning.tiers[task.tier].shape[task.cls];
  state->c = {builtIn, nullptr, 0, {builtIn}};
  if (!progress(className(task.cls))) return fail(Result::errorCancelled, "tuning cancelled");
  // A task whose measurement would not end within the budget is not started (the row stays; the
  // report says so): at lavapipe's speed one measurement of 2^26 keys takes minutes (s56). The
  // estimate, from the class's last task, errs long (a key's time falls as the count grows).
  const double perKey = perKeyNanos_[task.cls];
  const double seconds = perKey > 0 ? measureSeconds(task.count, perKey) + perKey * task.count * 1e-9 : 0;
  if (elapsed() >= budget_ || elapsed() + seconds > budget_) {
    state->skipped =
        elapsed() >= budget_ ? "the time budget was spent" : "a measurement would run past the time budget";
    below_[task.cls] = builtIn;
    return {};
  }
  // Clocks up first (the GPU has been busy since, but for the CPU's turns between tasks).
  if (Status st = bench_.heat(baseline_.get(), task, first ? 1000 : 30); !st) return st;
  const double measureStart = elapsed();
  if (Status st = bench_.measure(baseline_.get(), task, 1, &state->c.nanos); !st) return st;
  state->rowNanos = state->c.nanos;
  state->rowSeconds = elapsed() - measureStart;  // one measurement
  perKeyNanos_[task.cls] = state->c.nanos / task.count;
  const uint32_t wavesBefore = waves_;
  if (!baseline_->tuning.onesweepMeasured) {
    std::vector<TileShape> start = startingTiles(builtIn, task.from == 0, task.cls);
    if (below_[task.cls].has_value() && !(*below_[task.cls] == builtIn)) start.push_back(*below_[task.cls]);
    if (Status st = climb(task, state->rowSeconds, end, 0, start, &state->c); !st) return st;
  }
  state->waves = waves_ - wavesBefore;
  below_[task.cls] = state->c.best;
  return {};
}

// A task's second round, within its share (until `taskBudget` seconds in): the climb from the best
// tile so far, the confirmation of what it found, the report's line and the tuned tile.
Status Search::finishTask(const Task& task, double taskBudget, TaskState& state) {
  const TileShape builtIn = baseline_->tuning.tiers[task.tier].shape[task.cls];
  if (state.skipped) {
    say("%-11s %-5u %-11u (not measured: %s)\n", className(task.cls), task.tier, task.count, state.skipped);
    // A part of a tier still ends the tile of the part below (no times: nothing was measured).
    if (task.from != baseline_->tuning.tiers[task.tier].from)
      tuned_.tiles[tuned_.tileCount++] = {task.tier, task.cls, task.from, task.count, 0, 0, builtIn};
    return {};
  }
  Climb& c = state.c;
  const uint32_t wavesBefore = waves_;
  if (!progress(className(task.cls))) return fail(Result::errorCancelled, "tuning cancelled");
  if (Status st = bench_.heat(c.sorter ? c.sorter.get() : baseline_.get(), task, 30); !st) return st;
  // Once a tile wins, the climb leaves the task's budget room for checking it (confirm()).
  if (Status st = climb(task, state.rowSeconds, taskBudget, keepCheckSeconds(state.rowSeconds, task), {}, &c); !st)
    return st;
  if (state.waves == 0 && waves_ == wavesBefore && wavesSkipped_) ++tasksWithoutWave_;
  double rowNanos = state.rowNanos;
  bool keep = false;
  if (Status st = confirm(task, c, &rowNanos, &keep); !st) return st;
  say("%-11s %-5u %-11u %-12.4f %-9.4f %-8.3f %s\n", className(task.cls), task.tier, task.count, rowNanos * 1e-6,
      (keep ? c.nanos : rowNanos) * 1e-6, keep ? rowNanos / c.nanos : 1.0,
      keep ? shapeText(c.best).c_str() : ("the row's: " + shapeText(builtIn)).c_str());
  // The row where it stayed too: describeSort() then says it was measured, and a part of a tier
  // starts a tier of the data (the tile kept in the part below ends there).
  keptTiles_ += keep;
  tuned_.tiles[tuned_.tileCount++] = {task.tier,
                                      task.cls,
                                      task.from,
                                      task.count,
                                      uint32_t(std::min(rowNanos, 4e9)),
                                      uint32_t(std::min(keep ? c.nanos : rowNanos, 4e9)),
                                      keep ? c.best : builtIn};
  c.sorter.reset();  // its pipelines are not needed again
  return {};
}

// The climb: the best tile's neighbours not yet measured, in waves of as many as build at once
// (while the GPU sorts with the best tile); the fastest of a wave that beats the best climbs, until
// none does or the task's time is up (`taskBudget`, less `checkSeconds` once a tile has won).
// With `start`, those tiles alone (the first round's starting tiles), the fastest kept where it
// beats the best.
Status Search::climb(const Task& task, double rowSeconds, double taskBudget, double checkSeconds,
                     const std::vector<TileShape>& start, Climb* c) {
  auto climbEnd = [&] { return taskBudget - (c->sorter ? checkSeconds : 0); };
  TunedTiles candidate;
  candidate.algorithm = algorithm_;
  candidate.tileCount = 1;
  candidate.tiles[0] = {task.tier, task.cls, task.from, task.count, 0, 0, c->best};
  std::vector<TileShape>& seen = c->seen;
  wavesSkipped_ = false;
  for (bool improved = true, first = true; improved && elapsed() < climbEnd(); first = false) {
    improved = false;
    std::vector<TileShape> shapes =
        first && !start.empty() ? start : neighbours(c->best, task.from == 0, task.cls, baseline_->tuning);
    shapes.erase(
        std::remove_if(shapes.begin(), shapes.end(),
                       [&](const TileShape& s) { return std::find(seen.begin(), seen.end(), s) != seen.end(); }),
        shapes.end());
    for (size_t from = 0; from < shapes.size() && !improved && elapsed() < climbEnd(); from += bench_.buildThreads()) {
      if (waves_ && !waveFits(elapsed(), lastWaveSeconds_, rowSeconds, climbEnd())) {
        wavesSkipped_ = true;
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
      lastWaveSeconds_ = elapsed() - compileStart;
      compileSeconds_ += lastWaveSeconds_;
      ++waves_;
      SorterPtr* fastest = nullptr;
      double fastestNanos = 0;
      for (SorterPtr& sorter : sorters) {
        if (elapsed() >= climbEnd()) break;
        if (!sorter) continue;
        const TileShape fitted = sorter->tuning.tileFor(task.cls, task.count);
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
      c->best = (*fastest)->tuning.tileFor(task.cls, task.count);
      c->nanos = std::max(fastestNanos, again);
      c->sorter = std::move(*fastest);
      improved = true;  // climb from the new best
    }
    if (!start.empty()) break;  // the starting tiles: the second round climbs from the best of them
  }
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
                keptTiles_, taskCount, out->seconds, measuredTiles_, compileSeconds_, bench_.buildThreads());
  out->report = line + report_;
  if (keptTiles_)
    out->report +=
        "\nAs rows of src/tuning_tables.cpp (each from its tier's start; the class's row before it "
        "resumes at the next tier's start, where that is no row of the class):\n";
  for (uint32_t i = 0; i < tuned_.tileCount; ++i) {
    const TunedTile& tile = tuned_.tiles[i];
    if (tile.rowStayed()) continue;
    out->report += std::string("  ") + className(tile.tileClass) + ", tier " + std::to_string(tile.tier) + ":\n" +
                   tableRow(tile, baseline_->caps.deviceName);
  }
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
