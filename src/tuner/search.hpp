// The tuner's search (tuneSorts()): per tile class and tier of the tables, a hill climb from the
// table's row over neighbouring tiles (search_space.hpp), each timed on the device (bench.hpp);
// what beats the row, confirmed by interleaved re-measurement and one checked sort, becomes
// tuning data (tuning_data.cpp). Candidates go through the same fitting as the tables' rows
// (chooseTuning(), via createSorterTuned()), so only shapes the suites build are tried.
// Its phases, in order: the classes and what they sort, the algorithm (compared where the caller
// forced none and the tables did not measure it), the tasks, then per task the climb and the
// confirmation of what it found; the report throughout.
#pragma once
#include <chrono>
#include <string>
#include <vector>

#include "bench.hpp"

namespace vksort::detail {

class Search {
 public:
  Search(const TuneInfo& info, TuningBench& bench, double budget) : info_(info), bench_(bench), budget_(budget) {}
  Status run(TuningResult* out);

 private:
  // A task's climb so far: the best tile, its sorter (null: the row's) and its time.
  struct Climb {
    TileShape best;
    SorterPtr sorter;
    double nanos;
  };

  void readClasses();
  Status chooseAlgorithm();
  std::vector<Task> makeTasks() const;
  Status tuneTask(const Task& task, double taskBudget, bool first);
  Status climb(const Task& task, double rowSeconds, double climbEnd, double checkSeconds, Climb* c);
  Status confirm(const Task& task, Climb& c, double* rowNanos, bool* keep);
  void finishReport(TuningResult* out, size_t taskCount);

  bool progress(const char* what);  // false: cancelled
  double elapsed() const;
  void say(const char* format, ...);  // a line of the report

  const TuneInfo& info_;
  TuningBench& bench_;
  double budget_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  uint32_t step_ = 0, steps_ = 1;
  bool cancelled_ = false;

  uint32_t maxCount_[kTileClasses] = {};  // per class, the largest count tuned (0: not tuned)
  SortConfig configs_[kTileClasses];      // per class, what its tasks sort
  Algorithm algorithm_ = Algorithm::automatic;
  SorterPtr baseline_;  // the tables' tiles, of algorithm_
  std::string report_;
  TunedTiles tuned_;
  uint32_t measuredTiles_ = 0;     // tiles measured beyond the rows
  double compileSeconds_ = 0;      // spent building candidates' pipelines
  uint32_t waves_ = 0;             // of candidates built
  uint32_t tasksWithoutWave_ = 0;  // measured tasks whose share of the budget fit no wave
};

}  // namespace vksort::detail
