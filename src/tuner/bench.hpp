// The tuner's measuring bench (tuneSorts(), search.cpp): its own buffers, command buffers and
// timestamp queries on the caller's device and queue, keys generated on the GPU
// (glsl/tune_input.comp), and sorts timed, kept warm and checked there.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "sorter_state.hpp"
#include "status.hpp"
#include "tasks.hpp"

namespace vksort::detail {

struct SorterDeleter {
  void operator()(Sorter_T* s) const { destroySorter(s); }
};
using SorterPtr = std::unique_ptr<Sorter_T, SorterDeleter>;

class TuningBench {
 public:
  // `info` outlives the bench; `maxHeatMs` bounds one heat() (a share of the tuning's budget).
  TuningBench(const TuneInfo& info, double maxHeatMs)
      : info_(info), ci_(*info.pSorterCreateInfo), callerCache_(ci_.pipelineCache), maxHeatMs_(maxHeatMs) {}
  ~TuningBench() { release(); }
  TuningBench(const TuningBench&) = delete;
  TuningBench& operator=(const TuningBench&) = delete;

  Status init();
  // A sorter of the caller's device with `tuned` tiles (null: the tables), with the pipelines of
  // `task` built (null: none yet).
  Status makeSorter(Algorithm algorithm, const TunedTiles* tuned, const Task* task, SorterPtr* out);
  // Runs build(i) for each i in [0, n) on up to buildThreads() threads at once, and returns the
  // first failure among them (or the heater's). Meanwhile, where
  // `heater` is given, the calling thread keeps the GPU sorting `heatTask` with it, so that the
  // clocks do not fall while the CPU compiles (an idle GPU drops them within a second, and the
  // next measurements' short warm-up does not bring them back: PERFORMANCE-LOG.md, session 48).
  Status buildWhileHeating(size_t n, const std::function<Status(size_t)>& build, Sorter_T* heater = nullptr,
                           const Task* heatTask = nullptr);
  // 1 where the caller's allocation callbacks are used (they need not be thread-safe); else the
  // CPU's cores, up to 8.
  uint32_t buildThreads() const;
  // Builds the pipelines of `task`'s sorts, where `sorter` has not yet: a measurement must never
  // wait on the CPU building them, with the GPU idle and its clocks falling.
  static Status prepare(Sorter_T* sorter, const Task& task);
  // About `ms` of sorts of `task` with `sorter`, submitted and waited for (a sorter may be
  // destroyed whenever no call runs), to bring the clocks up or keep them there.
  Status heat(Sorter_T* sorter, const Task& task, double ms);
  // The median time of kTimedSorts sorts of `task` (keys AND-ed from q hashes), after
  // warmupSorts() untimed ones.
  Status measure(Sorter_T* sorter, const Task& task, uint32_t q, double* medianNanos);
  // One sort of `task` read back and checked: ordered, stable, a permutation of the input.
  Status checkSort(Sorter_T* sorter, const Task& task, bool* ok);

 private:
  struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
    VkDeviceAddress address = 0;
  };
  Status createBuffer(VkDeviceSize size, bool hostVisible, Buffer* out);
  void destroy(Buffer* b);
  void release();
  // Two command buffers, each with its fence: kMeasure for measurements, kHeat for the sorts that
  // keep the clocks up.
  enum SlotIndex { kMeasure, kHeat };
  struct Slot {
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    bool pending = false;
  };
  Status begin(VkCommandBuffer* cmd, SlotIndex slot = kMeasure);  // after that slot's last submission
  Status submit(SlotIndex slot = kMeasure);
  Status wait(SlotIndex slot);
  Status submitAndWait();  // the measure slot's
  void barrier(VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags srcAccess, VkPipelineStageFlags dst,
               VkAccessFlags dstAccess);
  // `count` sorts of `task` into `cmd`, each from the unsorted input (restored by copies); the
  // last `timed` of them between timestamps.
  Status recordSorts(VkCommandBuffer cmd, Sorter_T* sorter, const Task& task, uint32_t count, uint32_t timed);
  Status prepareInput(const Task& task);
  // Records tune_input.comp writing `count` elements of `words` words at `dst`: keys AND-ed from q
  // hashes, or (values) 0, 1, 2...
  void recordInput(VkCommandBuffer cmd, VkDeviceAddress dst, uint32_t count, uint32_t words, uint32_t q, bool values);

  const TuneInfo& info_;
  SorterCreateInfo ci_;          // the caller's, with our pipeline cache
  VkPipelineCache callerCache_;  // the caller's pipeline cache: seeds ours, receives what was built
  double maxHeatMs_;
  VolkDeviceTable vk_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  double timestampNanos_ = 1;
  Slot slots_[2];
  VkQueryPool queries_ = VK_NULL_HANDLE;
  VkPipelineCache cache_ = VK_NULL_HANDLE;  // ours: the caller's may be externally synchronized
  VkPipelineLayout inputLayout_ = VK_NULL_HANDLE;
  VkPipeline inputPipeline_ = VK_NULL_HANDLE;
  Buffer pristineKeys_, keys_, pristineValues_, values_, scratch_;
  Task input_{~0u, ~0u, 0, {}};  // what pristineKeys_ holds
  uint32_t inputQ_ = 0;
  double lastNanosPerKey_ = 0;  // of the last measurement: sizes the next one's warm-up
};

}  // namespace vksort::detail
