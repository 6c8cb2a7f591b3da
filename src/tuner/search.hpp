// The tuner's search (tuneSorts()): per tile class and tier of the tables (a long tier in parts),
// a hill climb from the table's row over neighbouring tiles (search_space.hpp), each timed on the
// device (bench.hpp); what beats the row, confirmed by interleaved re-measurement and one checked
// sort, becomes tuning data (tuning_data.cpp). Candidates go through the same fitting as the
// tables' rows (chooseTuning(), via createSorterTuned()), so only shapes the suites build are
// tried. Its phases, in order: the classes and what they sort, the algorithm (compared where the
// caller forced none and the tables did not measure it), the tasks, then two rounds over them:
// every row measured (and a never-measured device's starting tiles tried: beginTask()), then
// every climb and the confirmation of what it found (finishTask()); the report throughout.
#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "bench.hpp"

namespace vksort::detail {

class Search {
 public:
  // `start`: when tuneSorts() was called (the budget and the report's seconds count from there).
  Search(const TuneInfo& info, TuningBench& bench, double budget, std::chrono::steady_clock::time_point start)
      : info_(info), bench_(bench), budget_(budget), start_(start) {}
  Status run(TuningResult* out);

 private:
  // A task's climb so far: the best tile, its sorter (null: the row's), its time and the tiles
  // measured.
  struct Climb {
    TileShape best;
    SorterPtr sorter;
    double nanos;
    std::vector<TileShape> seen;
  };
  // A task between the two rounds (run()).
  struct TaskState {
    Climb c;
    double rowNanos = 0, rowSeconds = 0;  // the row's measurement, and how long it took
    uint32_t waves = 0;                   // built in the first round
    const char* skipped = nullptr;        // why the task was not measured (null: it was)
  };

  void readClasses();
  Status chooseAlgorithm();
  std::vector<Task> makeTasks() const;
  Status beginTask(const Task& task, double end, bool first, TaskState* state);
  Status finishTask(const Task& task, double taskBudget, TaskState& state);
  Status climb(const Task& task, double rowSeconds, double climbEnd, double checkSeconds,
               const std::vector<TileShape>& start, Climb* c);
  Status confirm(const Task& task, Climb& c, double* rowNanos, bool* keep);
  void finishReport(TuningResult* out, size_t taskCount);

  bool progress(const char* what);  // false: cancelled
  double elapsed() const;
  void say(const char* format, ...);  // a line of the report

  const TuneInfo& info_;
  TuningBench& bench_;
  double budget_;
  std::chrono::steady_clock::time_point start_;
  uint32_t step_ = 0, steps_ = 1;
  bool cancelled_ = false;

  uint32_t maxCount_[kTileClasses] = {};  // per class, the largest count tuned (0: not tuned)
  SortConfig configs_[kTileClasses];      // per class, what its tasks sort
  Algorithm algorithm_ = Algorithm::automatic;
  uint32_t comparedClasses_ = 0;                  // a bit per class whose sorts the algorithms were compared on
  SorterPtr baseline_;                            // the tables' tiles, of algorithm_
  double perKeyNanos_[kTileClasses] = {};         // per class, a key's time in its last task's row (0: none yet)
  std::optional<TileShape> below_[kTileClasses];  // per class, the tile of the last task (the counts below)
  std::string report_;
  TunedTiles tuned_;
  uint32_t measuredTiles_ = 0;     // tiles measured beyond the rows
  uint32_t keptTiles_ = 0;         // tiles that beat their rows (tuned_ holds the rows that stayed too)
  double compileSeconds_ = 0;      // spent building candidates' pipelines
  double lastWaveSeconds_ = 0;     // the last wave's (the first ones fill the pipeline cache)
  bool wavesSkipped_ = false;      // the last climb built no wave its budget could not measure
  uint32_t waves_ = 0;             // of candidates built
  uint32_t tasksWithoutWave_ = 0;  // measured tasks whose share of the budget fit no wave
};

}  // namespace vksort::detail
