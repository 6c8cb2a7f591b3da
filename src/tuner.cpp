// On-device tuning (tuneSorts()): per tile class and tier of the tables, a hill climb from the
// table's row over neighbouring tiles, each timed with timestamp queries on keys generated on the
// GPU; what beats the row, confirmed by interleaved re-measurement and one checked sort, becomes
// tuning data (tuning_data.cpp). Candidates go through the same fitting as the tables' rows
// (chooseTuning(), via createSorterTuned()), so only shapes the suites build are tried.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "sorter_state.hpp"
#include "status.hpp"
#include "tuning_data.hpp"

namespace vksort {
using namespace detail;

namespace {

const uint32_t kTuneInputSpirv[] = {
#include "tune_input.comp.spv.inc"
};
struct InputPush {  // tune_input.comp
  VkDeviceAddress dst;
  uint32_t count, words, q, values;
};

// The device functions the tuner calls beyond the sorter's: buffers, memory, submission, queries.
#define VKSORT_TUNER_FUNCTIONS(X)                                                                            \
  X(vkCreateBuffer) X(vkDestroyBuffer) X(vkGetBufferMemoryRequirements) X(vkAllocateMemory) X(vkFreeMemory) \
  X(vkBindBufferMemory) X(vkMapMemory) X(vkUnmapMemory) X(vkCreateCommandPool) X(vkDestroyCommandPool)      \
  X(vkAllocateCommandBuffers) X(vkResetCommandPool) X(vkBeginCommandBuffer) X(vkEndCommandBuffer)           \
  X(vkQueueSubmit) X(vkCreateFence) X(vkDestroyFence) X(vkWaitForFences) X(vkResetFences)                   \
  X(vkCreateQueryPool) X(vkDestroyQueryPool) X(vkGetQueryPoolResults) X(vkCmdResetQueryPool)                \
  X(vkCmdCopyBuffer) X(vkCreatePipelineCache) X(vkDestroyPipelineCache) X(vkCreateShaderModule)             \
  X(vkDestroyShaderModule) X(vkCreatePipelineLayout) X(vkDestroyPipelineLayout) X(vkCreateComputePipelines) \
  X(vkDestroyPipeline) X(vkCmdBindPipeline) X(vkCmdPushConstants) X(vkCmdDispatch) X(vkCmdPipelineBarrier)  \
  X(vkCmdWriteTimestamp) X(vkGetBufferDeviceAddress)

struct SorterDeleter {
  void operator()(Sorter_T* s) const { destroySorter(s); }
};
using SorterPtr = std::unique_ptr<Sorter_T, SorterDeleter>;

// What one tuned sort measures: a config of the class, at a count of the tier.
struct Task {
  uint32_t tier, cls, count;
  SortConfig config;
};

// The configs the tuner sorts per tile class: unsigned keys, u32 values.
SortConfig configOfClass(uint32_t cls) {
  SortConfig c;
  c.keyType = classWords(cls) == 2 ? KeyType::u64 : KeyType::u32;
  c.valueType = classKeysAlone(cls) ? ValueType::none : ValueType::u32;
  return c;
}

class Tuner {
 public:
  explicit Tuner(const TuneInfo& info) : info_(info), ci_(*info.pSorterCreateInfo) {}
  ~Tuner() { release(); }

  Status init();
  Status run(TuningResult* out);

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
  // Two command buffers, each with its fence: kMeasure for what the tuner waits on, kHeat for
  // sorts submitted ahead that keep the GPU (and its clocks) busy while a candidate compiles.
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
  Status submitAndWait(VkCommandBuffer) { return submit(kMeasure) ? wait(kMeasure) : submit(kMeasure); }
  // `count` sorts of `task` into `cmd`, each from the unsorted input (restored by copies); the
  // last `timed` of them between timestamps.
  Status recordSorts(VkCommandBuffer cmd, Sorter_T* sorter, const Task& task, uint32_t count, uint32_t timed);
  // Submits about `ms` of sorts of `task` with `sorter` on the heat slot, without waiting.
  Status heat(Sorter_T* sorter, const Task& task, double ms);
  void barrier(VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags srcAccess, VkPipelineStageFlags dst,
               VkAccessFlags dstAccess);
  Status prepareInput(const Task& task);
  Status makeSorter(Algorithm algorithm, const TunedTiles* tuned, SorterPtr* out);
  Status measure(Sorter_T* sorter, const Task& task, uint32_t q, double* medianNanos);
  Status checkSort(Sorter_T* sorter, const Task& task, bool* ok);
  bool progress(const char* what);
  double elapsed() const;

  const TuneInfo& info_;
  SorterCreateInfo ci_;
  VolkDeviceTable vk_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  double timestampNanos_ = 1;
  Slot slots_[2];
  VkQueryPool queries_ = VK_NULL_HANDLE;
  VkPipelineCache cache_ = VK_NULL_HANDLE;  // ours where the caller gave none
  VkPipelineLayout inputLayout_ = VK_NULL_HANDLE;
  VkPipeline inputPipeline_ = VK_NULL_HANDLE;
  Buffer pristineKeys_, keys_, pristineValues_, values_, scratch_;
  Task input_{~0u, ~0u, 0, {}};  // what pristineKeys_ holds
  uint32_t inputQ_ = 0;
  double lastNanosPerKey_ = 0;  // of the last measurement: sizes the next one's warm-up
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double budget_ = 60;
  uint32_t step_ = 0, steps_ = 1;
  bool cancelled_ = false;
  static constexpr uint32_t kTimedSorts = 15;
};

Status Tuner::init() {
  PFN_vkGetDeviceProcAddr gdpa = ci_.vkGetDeviceProcAddr;
  if (!gdpa)
    gdpa = reinterpret_cast<PFN_vkGetDeviceProcAddr>(ci_.vkGetInstanceProcAddr(ci_.instance, "vkGetDeviceProcAddr"));
  auto memoryProperties = reinterpret_cast<PFN_vkGetPhysicalDeviceMemoryProperties>(
      ci_.vkGetInstanceProcAddr(ci_.instance, "vkGetPhysicalDeviceMemoryProperties"));
  auto properties = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties>(
      ci_.vkGetInstanceProcAddr(ci_.instance, "vkGetPhysicalDeviceProperties"));
  if (!gdpa || !memoryProperties || !properties)
    return fail(Result::errorFeatureNotPresent, "the instance does not provide the functions tuneSorts needs");
#define VKSORT_LOAD(name)                                                                                     \
  vk_.name = reinterpret_cast<PFN_##name>(gdpa(ci_.device, #name));                                           \
  if (!vk_.name) return fail(Result::errorFeatureNotPresent, "the device does not provide %s", #name);
  VKSORT_TUNER_FUNCTIONS(VKSORT_LOAD)
#undef VKSORT_LOAD
  memoryProperties(ci_.physicalDevice, &memory_);
  VkPhysicalDeviceProperties props;
  properties(ci_.physicalDevice, &props);
  timestampNanos_ = props.limits.timestampPeriod;
  if (!props.limits.timestampComputeAndGraphics)
    return fail(Result::errorFeatureNotPresent, "%s does not time compute work (timestampComputeAndGraphics)",
                props.deviceName);
  budget_ = info_.timeBudgetSeconds > 0 ? info_.timeBudgetSeconds : 60;

  for (Slot& slot : slots_) {
    auto poolInfo = vkStruct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    poolInfo.queueFamilyIndex = info_.queueFamilyIndex;
    if (VkResult r = vk_.vkCreateCommandPool(ci_.device, &poolInfo, nullptr, &slot.pool)) return failVulkan(r, "vkCreateCommandPool");
    auto allocInfo = vkStruct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    allocInfo.commandPool = slot.pool;
    allocInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocInfo.commandBufferCount = 1;
    if (VkResult r = vk_.vkAllocateCommandBuffers(ci_.device, &allocInfo, &slot.cmd)) return failVulkan(r, "vkAllocateCommandBuffers");
    auto fenceInfo = vkStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    if (VkResult r = vk_.vkCreateFence(ci_.device, &fenceInfo, nullptr, &slot.fence)) return failVulkan(r, "vkCreateFence");
  }
  auto queryInfo = vkStruct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
  queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
  queryInfo.queryCount = 2 * kTimedSorts;
  if (VkResult r = vk_.vkCreateQueryPool(ci_.device, &queryInfo, nullptr, &queries_)) return failVulkan(r, "vkCreateQueryPool");
  if (!ci_.pipelineCache) {  // candidates share every pipeline but their binning kernels
    auto cacheInfo = vkStruct<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
    if (VkResult r = vk_.vkCreatePipelineCache(ci_.device, &cacheInfo, nullptr, &cache_)) return failVulkan(r, "vkCreatePipelineCache");
    ci_.pipelineCache = cache_;
  }
  ci_.preparedSortCount = 0;
  ci_.pPreparedSorts = nullptr;
  ci_.pTuningData = nullptr;  // the baseline is the built-in tables
  ci_.tuningDataSize = 0;

  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(InputPush)};
  auto layoutInfo = vkStruct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layoutInfo.pushConstantRangeCount = 1;
  layoutInfo.pPushConstantRanges = &range;
  if (VkResult r = vk_.vkCreatePipelineLayout(ci_.device, &layoutInfo, nullptr, &inputLayout_)) return failVulkan(r, "vkCreatePipelineLayout");
  auto moduleInfo = vkStruct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  moduleInfo.codeSize = sizeof kTuneInputSpirv;
  moduleInfo.pCode = kTuneInputSpirv;
  VkShaderModule module;
  if (VkResult r = vk_.vkCreateShaderModule(ci_.device, &moduleInfo, nullptr, &module)) return failVulkan(r, "vkCreateShaderModule");
  auto pipelineInfo = vkStruct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  pipelineInfo.stage = vkStruct<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipelineInfo.stage.module = module;
  pipelineInfo.stage.pName = "main";
  pipelineInfo.layout = inputLayout_;
  VkResult r = vk_.vkCreateComputePipelines(ci_.device, ci_.pipelineCache, 1, &pipelineInfo, nullptr, &inputPipeline_);
  vk_.vkDestroyShaderModule(ci_.device, module, nullptr);
  if (r) return failVulkan(r, "vkCreateComputePipelines");
  return {};
}

void Tuner::release() {
  if (!vk_.vkDestroyPipeline) return;  // init() loaded nothing
  for (SlotIndex slot : {kMeasure, kHeat}) wait(slot);  // nothing in flight uses what goes next
  for (Buffer* b : {&pristineKeys_, &keys_, &pristineValues_, &values_, &scratch_}) destroy(b);
  vk_.vkDestroyPipeline(ci_.device, inputPipeline_, nullptr);
  vk_.vkDestroyPipelineLayout(ci_.device, inputLayout_, nullptr);
  vk_.vkDestroyPipelineCache(ci_.device, cache_, nullptr);
  vk_.vkDestroyQueryPool(ci_.device, queries_, nullptr);
  for (Slot& slot : slots_) {
    vk_.vkDestroyFence(ci_.device, slot.fence, nullptr);
    vk_.vkDestroyCommandPool(ci_.device, slot.pool, nullptr);
  }
}

Status Tuner::createBuffer(VkDeviceSize size, bool hostVisible, Buffer* out) {
  auto bufferInfo = vkStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bufferInfo.size = std::max<VkDeviceSize>(size, 16);
  bufferInfo.usage = kRequiredBufferUsage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                     VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  Buffer b;
  b.size = bufferInfo.size;
  if (VkResult r = vk_.vkCreateBuffer(ci_.device, &bufferInfo, nullptr, &b.buffer)) return failVulkan(r, "vkCreateBuffer");
  VkMemoryRequirements req;
  vk_.vkGetBufferMemoryRequirements(ci_.device, b.buffer, &req);
  const VkMemoryPropertyFlags want = hostVisible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                                 : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  uint32_t type = 0;
  while (type < memory_.memoryTypeCount &&
         !((req.memoryTypeBits >> type & 1) && (memory_.memoryTypes[type].propertyFlags & want) == want))
    ++type;
  if (type == memory_.memoryTypeCount) {
    vk_.vkDestroyBuffer(ci_.device, b.buffer, nullptr);
    return fail(Result::errorFeatureNotPresent, "no memory type holds the tuner's %s buffers",
                hostVisible ? "host-visible" : "device-local");
  }
  auto flags = vkStruct<VkMemoryAllocateFlagsInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  auto allocInfo = vkStruct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &flags);
  allocInfo.allocationSize = req.size;
  allocInfo.memoryTypeIndex = type;
  VkResult r = vk_.vkAllocateMemory(ci_.device, &allocInfo, nullptr, &b.memory);
  if (!r) r = vk_.vkBindBufferMemory(ci_.device, b.buffer, b.memory, 0);
  if (r) {
    destroy(&b);
    return fail(Result::errorVulkan, "the tuner could not allocate %llu bytes (VkResult %d): tune smaller sorts",
                (unsigned long long)size, int(r));
  }
  auto addressInfo = vkStruct<VkBufferDeviceAddressInfo>(VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
  addressInfo.buffer = b.buffer;
  b.address = vk_.vkGetBufferDeviceAddress(ci_.device, &addressInfo);
  *out = b;
  return {};
}

void Tuner::destroy(Buffer* b) {
  if (b->buffer) vk_.vkDestroyBuffer(ci_.device, b->buffer, nullptr);
  if (b->memory) vk_.vkFreeMemory(ci_.device, b->memory, nullptr);
  *b = Buffer{};
}

Status Tuner::begin(VkCommandBuffer* cmd, SlotIndex index) {
  if (Status st = wait(index); !st) return st;
  Slot& slot = slots_[index];
  vk_.vkResetCommandPool(ci_.device, slot.pool, 0);
  auto beginInfo = vkStruct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  beginInfo.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (VkResult r = vk_.vkBeginCommandBuffer(slot.cmd, &beginInfo)) return failVulkan(r, "vkBeginCommandBuffer");
  *cmd = slot.cmd;
  return {};
}

Status Tuner::submit(SlotIndex index) {
  Slot& slot = slots_[index];
  if (VkResult r = vk_.vkEndCommandBuffer(slot.cmd)) return failVulkan(r, "vkEndCommandBuffer");
  auto info = vkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  info.commandBufferCount = 1;
  info.pCommandBuffers = &slot.cmd;
  if (VkResult r = vk_.vkQueueSubmit(info_.queue, 1, &info, slot.fence)) return failVulkan(r, "vkQueueSubmit");
  slot.pending = true;
  return {};
}

Status Tuner::wait(SlotIndex index) {
  Slot& slot = slots_[index];
  if (!slot.pending) return {};
  slot.pending = false;
  VkResult r = vk_.vkWaitForFences(ci_.device, 1, &slot.fence, VK_TRUE, UINT64_MAX);
  vk_.vkResetFences(ci_.device, 1, &slot.fence);
  return r ? failVulkan(r, "vkWaitForFences") : Status{};
}

void Tuner::barrier(VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags srcAccess, VkPipelineStageFlags dst,
                    VkAccessFlags dstAccess) {
  auto b = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  b.srcAccessMask = srcAccess;
  b.dstAccessMask = dstAccess;
  vk_.vkCmdPipelineBarrier(cmd, src, dst, 0, 1, &b, 0, nullptr, 0, nullptr);
}

// Keys (and values) of `task` generated into the pristine buffers, which grow as needed.
Status Tuner::prepareInput(const Task& task) {
  if (input_.cls == task.cls && input_.count == task.count) return {};
  if (Status st = wait(kHeat); !st) return st;  // heat sorts read the buffers about to change
  const uint32_t kb = keyBytes(task.config.keyType), vb = valueBytes(task.config.valueType);
  auto ensure = [&](Buffer* b, VkDeviceSize bytes) -> Status {
    if (b->size >= bytes) return {};
    destroy(b);
    return createBuffer(bytes, false, b);
  };
  for (auto [buffer, bytes] : {std::pair{&pristineKeys_, VkDeviceSize(task.count) * kb}, std::pair{&keys_, VkDeviceSize(task.count) * kb},
                               std::pair{&pristineValues_, VkDeviceSize(task.count) * vb}, std::pair{&values_, VkDeviceSize(task.count) * vb}})
    if (Status st = ensure(buffer, bytes); !st) return st;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (Status st = begin(&cmd); !st) return st;
  vk_.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, inputPipeline_);
  const uint32_t groups = std::min<uint32_t>((task.count + 255) / 256, 4096);
  InputPush keysPush{pristineKeys_.address, task.count, kb / 4, 1, 0};
  vk_.vkCmdPushConstants(cmd, inputLayout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof keysPush, &keysPush);
  vk_.vkCmdDispatch(cmd, groups, 1, 1);
  if (vb) {
    InputPush valuesPush{pristineValues_.address, task.count, vb / 4, 0, 1};
    vk_.vkCmdPushConstants(cmd, inputLayout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof valuesPush, &valuesPush);
    vk_.vkCmdDispatch(cmd, groups, 1, 1);
  }
  if (Status st = submitAndWait(cmd); !st) return st;
  input_ = task;
  inputQ_ = 1;
  return {};
}

Status Tuner::makeSorter(Algorithm algorithm, const TunedTiles* tuned, SorterPtr* out) {
  SorterCreateInfo ci = ci_;
  ci.algorithm = algorithm;
  Sorter s = nullptr;
  if (Status st = createSorterTuned(ci, tuned, &s); !st) return st;
  out->reset(s);
  return {};
}

// The median of kTimedSorts sorts of `task` (keys AND-ed from q hashes), in one submission after
// as many untimed ones as bring the clocks up; each starts from the unsorted input, restored by
// copies outside the timestamps.
Status Tuner::measure(Sorter_T* sorter, const Task& task, uint32_t q, double* medianNanos) {
  if (Status st = prepareInput(task); !st) return st;
  if (q != inputQ_) {  // the same buffers, keys of another entropy
    if (Status st = wait(kHeat); !st) return st;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    if (Status st = begin(&cmd); !st) return st;
    vk_.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, inputPipeline_);
    InputPush push{pristineKeys_.address, task.count, keyBytes(task.config.keyType) / 4, q, 0};
    vk_.vkCmdPushConstants(cmd, inputLayout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
    vk_.vkCmdDispatch(cmd, std::min<uint32_t>((task.count + 255) / 256, 4096), 1, 1);
    if (Status st = submitAndWait(cmd); !st) return st;
    inputQ_ = q;
  }
  // About 20 ms of untimed sorts first (clocks fall while the CPU compiles: heat() runs before).
  const uint32_t warmup = lastNanosPerKey_ > 0 ? uint32_t(std::clamp(2e7 / (lastNanosPerKey_ * task.count), 2.0, 200.0)) : 3;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (Status st = begin(&cmd); !st) return st;
  vk_.vkCmdResetQueryPool(cmd, queries_, 0, 2 * kTimedSorts);
  if (Status st = recordSorts(cmd, sorter, task, warmup + kTimedSorts, kTimedSorts); !st) {
    vk_.vkEndCommandBuffer(cmd);
    return st;
  }
  if (Status st = submitAndWait(cmd); !st) return st;
  uint64_t ticks[2 * kTimedSorts];
  if (VkResult r = vk_.vkGetQueryPoolResults(ci_.device, queries_, 0, 2 * kTimedSorts, sizeof ticks, ticks, 8,
                                             VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT))
    return failVulkan(r, "vkGetQueryPoolResults");
  std::vector<double> nanos(kTimedSorts);
  for (uint32_t i = 0; i < kTimedSorts; ++i) nanos[i] = double(ticks[2 * i + 1] - ticks[2 * i]) * timestampNanos_;
  std::nth_element(nanos.begin(), nanos.begin() + kTimedSorts / 2, nanos.end());
  *medianNanos = nanos[kTimedSorts / 2];
  lastNanosPerKey_ = *medianNanos / task.count;
  return {};
}

Status Tuner::recordSorts(VkCommandBuffer cmd, Sorter_T* sorter, const Task& task, uint32_t count, uint32_t timed) {
  ScratchRequirements req;
  if (Status st = getScratchRequirements(sorter, task.config, task.count, &req); !st) return st;
  if (scratch_.size < req.size) {  // a larger scratch: nothing in flight may use the old one
    for (SlotIndex slot : {kMeasure, kHeat})
      if (slots_[slot].cmd != cmd)
        if (Status st = wait(slot); !st) return st;
    destroy(&scratch_);
    if (Status st = createBuffer(req.size, false, &scratch_); !st) return st;
  }
  SortInfo info;
  info.config = task.config;
  info.count = info.maxCount = task.count;
  info.keys = {keys_.buffer, 0, keys_.size, 0};
  info.values = {values_.buffer, 0, values_.size, 0};
  info.scratch = {scratch_.buffer, 0, scratch_.size, 0};
  const bool pairs = task.config.valueType != ValueType::none;
  const VkBufferCopy keyCopy{0, 0, VkDeviceSize(task.count) * keyBytes(task.config.keyType)};
  const VkBufferCopy valueCopy{0, 0, VkDeviceSize(task.count) * valueBytes(task.config.valueType)};
  for (uint32_t i = 0; i < count; ++i) {
    // After the last sort, the last restore and the input's generation, whichever came last.
    barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
    vk_.vkCmdCopyBuffer(cmd, pristineKeys_.buffer, keys_.buffer, 1, &keyCopy);
    if (pairs) vk_.vkCmdCopyBuffer(cmd, pristineValues_.buffer, values_.buffer, 1, &valueCopy);
    barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, kSortDstStage, kSortDstAccess);
    const uint32_t t = i + timed - count;  // the timed sort's index, where i >= count - timed
    if (i + timed >= count) vk_.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries_, 2 * t);
    if (Status st = recordSort(sorter, cmd, info); !st) return st;
    if (i + timed >= count) vk_.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries_, 2 * t + 1);
  }
  return {};
}

Status Tuner::heat(Sorter_T* sorter, const Task& task, double ms) {
  if (Status st = prepareInput(task); !st) return st;
  // Two sorts where no time is known yet; never more than a twentieth of the budget.
  ms = std::min(ms, budget_ * 50);
  const uint32_t sorts = lastNanosPerKey_ > 0 ? uint32_t(std::clamp(ms * 1e6 / (lastNanosPerKey_ * task.count), 1.0, 4000.0)) : 2;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (Status st = begin(&cmd, kHeat); !st) return st;
  if (Status st = recordSorts(cmd, sorter, task, sorts, 0); !st) {
    vk_.vkEndCommandBuffer(cmd);
    return st;
  }
  return submit(kHeat);
}

// One sort of `task` with `sorter`, read back and checked: ordered, stable, and a permutation of
// the input (pairs: each value is its key's input index; keys alone: equal hash sums).
Status Tuner::checkSort(Sorter_T* sorter, const Task& task, bool* ok) {
  double unused;
  if (Status st = measure(sorter, task, inputQ_, &unused); !st) return st;  // leaves the last sort's output
  const VkDeviceSize kb = keyBytes(task.config.keyType), vb = valueBytes(task.config.valueType);
  const VkDeviceSize keyBytesAll = kb * task.count, valueBytesAll = vb * task.count;
  Buffer staging;
  if (Status st = createBuffer(2 * keyBytesAll + valueBytesAll, true, &staging); !st) return st;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  Status st = begin(&cmd);
  if (st) {
    barrier(cmd, kSortSrcStage, kSortSrcAccess, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    const VkBufferCopy pristine{0, 0, keyBytesAll}, sorted{0, keyBytesAll, keyBytesAll}, values{0, 2 * keyBytesAll, valueBytesAll};
    vk_.vkCmdCopyBuffer(cmd, pristineKeys_.buffer, staging.buffer, 1, &pristine);
    vk_.vkCmdCopyBuffer(cmd, keys_.buffer, staging.buffer, 1, &sorted);
    if (vb) vk_.vkCmdCopyBuffer(cmd, values_.buffer, staging.buffer, 1, &values);
    barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    st = submitAndWait(cmd);
  }
  void* mapped = nullptr;
  if (st)
    if (VkResult r = vk_.vkMapMemory(ci_.device, staging.memory, 0, VK_WHOLE_SIZE, 0, &mapped)) st = failVulkan(r, "vkMapMemory");
  if (st) {
    const uint32_t* words = static_cast<const uint32_t*>(mapped);
    const uint32_t kw = uint32_t(kb / 4), n = task.count;
    auto key = [&](uint32_t which, size_t i) {  // 0: input, 1: output
      const uint32_t* k = words + size_t(which) * n * kw + i * kw;
      return kw == 1 ? uint64_t(k[0]) : uint64_t(k[0]) | uint64_t(k[1]) << 32;
    };
    const uint32_t* vals = words + 2 * size_t(n) * kw;
    bool good = true;
    for (size_t i = 0; good && i + 1 < n; ++i)
      good = key(1, i) < key(1, i + 1) || (key(1, i) == key(1, i + 1) && (!vb || vals[i] < vals[i + 1]));
    if (vb) {
      for (size_t i = 0; good && i < n; ++i) good = vals[i] < n && key(0, vals[i]) == key(1, i);
    } else {
      auto mix = [](uint64_t x) {
        x ^= x >> 31, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 29, x *= 0x94D049BB133111EBull;
        return x ^ (x >> 32);
      };
      uint64_t sums[2] = {};
      for (size_t i = 0; i < n; ++i) sums[0] += mix(key(0, i)), sums[1] += mix(key(1, i));
      good = good && sums[0] == sums[1];
    }
    *ok = good;
    vk_.vkUnmapMemory(ci_.device, staging.memory);
  }
  destroy(&staging);
  return st;
}

bool Tuner::progress(const char* what) {
  ++step_;
  steps_ = std::max(steps_, step_);
  if (info_.pfnProgress && !info_.pfnProgress({step_, steps_, what}, info_.pUserData)) cancelled_ = true;
  return !cancelled_;
}

double Tuner::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

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
  std::snprintf(text, sizeof text, "%u x %u, %u round%s%s%s%s, window %u%s%s", s.workgroupSize, s.keysPerInvocation,
                s.reorderRounds, s.reorderRounds == 1 ? "" : "s", s.rankFirst ? ", rank first" : "",
                s.persistentTiles ? ", persistent" : "", s.fitPercent ? ", fitted" : "", s.lookbackWindow,
                s.lookbackPlainLoads ? " plain" : "", s.ridingValues ? ", riding values" : "");
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
                "         .ridingValues = %s},\n"
                "     \"Measured by vksort_tune on %s: %.2fx the row at %u keys.\"},\n",
                t.from, s.workgroupSize, s.keysPerInvocation, s.reorderRounds, s.fitPercent, s.hotDigitFrom, s.hotDigitTo,
                s.hotRankTo, s.lookbackWindow, flag(s.lookbackPlainLoads), flag(s.rankFirst), flag(s.persistentTiles),
                flag(s.prefetchPairs), flag(s.ridingValues), device, double(t.builtInNanos) / std::max(t.tunedNanos, 1u),
                t.count);
  return text;
}

Status Tuner::run(TuningResult* out) {
  // The classes to tune and the largest count of each.
  uint32_t maxCount[kTileClasses] = {};
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
  Algorithm algorithm = ci_.algorithm;
  SorterPtr baseline;
  if (Status st = makeSorter(algorithm == Algorithm::automatic ? Algorithm::onesweep : algorithm, nullptr, &baseline); !st) return st;
  std::string report;
  char line[512];
  if (algorithm == Algorithm::automatic) {
    SorterPtr other;
    if (Status st = makeSorter(Algorithm::reduceThenScan, nullptr, &other); !st) return st;
    double logRatio = 0;
    uint32_t measured = 0;
    for (uint32_t cls = 0; cls < kTileClasses; ++cls) {
      if (maxCount[cls] <= baseline->tuning.smallSortKeys[classWords(cls) - 1]) continue;
      const Task task{0, cls, std::min(maxCount[cls], 1u << 20), configOfClass(cls)};
      double onesweep = 0, scan = 0;
      if (!progress("algorithm")) return fail(Result::errorCancelled, "tuning cancelled");
      if (Status st = heat(baseline.get(), task, measured ? 100 : 1000); !st) return st;  // clocks up first
      for (auto [sorter, nanos] : {std::pair{baseline.get(), &onesweep}, std::pair{other.get(), &scan}})
        if (Status st = measure(sorter, task, 1, nanos); !st) return st;
      logRatio += std::log(scan / onesweep);
      ++measured;
      std::snprintf(line, sizeof line, "algorithm, %s at %u keys: Onesweep %.4f ms, reduce-then-scan %.4f ms\n",
                    className(cls), task.count, onesweep * 1e-6, scan * 1e-6);
      report += line;
    }
    algorithm = measured && logRatio / measured < std::log(0.98) ? Algorithm::reduceThenScan : Algorithm::onesweep;
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
      tasks.push_back({i, cls, uint32_t(std::sqrt(double(lo) * double(hi))), configOfClass(cls)});
    }
  steps_ = step_ + uint32_t(tasks.size()) * 20;

  uint32_t candidates = 0;     // tiles measured beyond the rows
  double compileSeconds = 0;  // spent building candidates' pipelines
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
    if (Status st = heat(baseline.get(), task, k == 0 ? 1000 : 100); !st) return st;
    if (Status st = measure(baseline.get(), task, 1, &builtInNanos); !st) return st;
    TunedTiles candidate;
    candidate.algorithm = algorithm;
    candidate.tileCount = 1;
    candidate.tiles[0] = {task.tier, task.cls, base.tiers[task.tier].from, task.count, 0, 0, builtIn};
    TileShape best = builtIn;
    SorterPtr bestSorter;
    double bestNanos = builtInNanos;
    std::vector<TileShape> seen{builtIn};
    double compileMs = 50;  // the last candidate's creation
    for (bool improved = true; improved && elapsed() < taskBudget;) {
      improved = false;
      for (const TileShape& next : neighbours(best, task.tier, task.cls, base)) {
        if (elapsed() >= taskBudget) break;
        candidate.tiles[0].shape = next;
        SorterPtr sorter;
        // The GPU sorts with the best tile while the CPU builds the candidate's pipelines.
        if (Status st = heat(bestSorter ? bestSorter.get() : baseline.get(), task, std::clamp(1.5 * compileMs, 30.0, 300.0)); !st)
          return st;
        const double compileStart = elapsed();
        if (!makeSorter(algorithm, &candidate, &sorter)) continue;  // a shape this device cannot build
        compileMs = (elapsed() - compileStart) * 1e3;
        compileSeconds += compileMs * 1e-3;
        const TileShape fitted = sorter->tuning.tiers[task.tier].shape[task.cls];
        if (std::find(seen.begin(), seen.end(), fitted) != seen.end()) continue;
        seen.push_back(fitted);
        ++candidates;
        double nanos, again;
        if (!progress(className(task.cls))) return fail(Result::errorCancelled, "tuning cancelled");
        if (Status st = measure(sorter.get(), task, 1, &nanos); !st) return st;
        if (nanos >= 0.99 * bestNanos) continue;
        // A win is measured again, after the best so far, so that a lucky median does not climb.
        if (Status st = measure(bestSorter ? bestSorter.get() : baseline.get(), task, 1, &bestNanos); !st) return st;
        if (Status st = measure(sorter.get(), task, 1, &again); !st) return st;
        if (std::max(nanos, again) >= 0.99 * bestNanos) continue;
        best = fitted;
        bestNanos = std::max(nanos, again);
        bestSorter = std::move(sorter);
        improved = true;
        break;  // climb from the new best
      }
    }
    // Keep it where it still wins, interleaved with the row, on uniform keys and on crowded ones
    // (q 8: a few digits hold most keys), and sorts correctly.
    bool keep = bestSorter != nullptr;
    double rowNanos = builtInNanos;
    if (keep) {
      double tiles[2][2];  // [row, tuned][uniform, crowded]
      for (uint32_t q : {8u, 1u})
        for (int which = 0; which < 2; ++which)
          if (Status st = measure(which ? bestSorter.get() : baseline.get(), task, q, &tiles[which][q == 1 ? 0 : 1]); !st) return st;
      rowNanos = tiles[0][0];
      bestNanos = tiles[1][0];
      bool sorted = false;
      if (Status st = checkSort(bestSorter.get(), task, &sorted); !st) return st;
      keep = bestNanos < 0.99 * rowNanos && tiles[1][1] <= 1.01 * tiles[0][1] && sorted;
      if (!sorted) report += "  (a candidate sorted wrongly and was dropped: please report it)\n";
    }
    std::snprintf(line, sizeof line, "%-11s %-5u %-11u %-12.4f %-9.4f %-8.3f %s\n", className(task.cls), task.tier,
                  task.count, rowNanos * 1e-6, (keep ? bestNanos : rowNanos) * 1e-6, keep ? rowNanos / bestNanos : 1.0,
                  keep ? shapeText(best).c_str() : ("the row's: " + shapeText(builtIn)).c_str());
    report += line;
    if (keep)
      tuned.tiles[tuned.tileCount++] = {task.tier, task.cls, base.tiers[task.tier].from, task.count,
                                        uint32_t(std::min(rowNanos, 4e9)), uint32_t(std::min(bestNanos, 4e9)), best};
  }
  out->data = encodeTuningData(baseline->caps, tuned);
  out->seconds = elapsed();
  std::snprintf(line, sizeof line,
                "%s: %s, %u of %zu tiles tuned in %.1f s; %u other tiles measured, their pipelines built in %.1f s\n",
                baseline->caps.deviceName, algorithm == Algorithm::onesweep ? "Onesweep" : "reduce-then-scan",
                tuned.tileCount, tasks.size(), out->seconds, candidates, compileSeconds);
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
    if (uint32_t(c.keyType) > uint32_t(KeyType::f64) || uint32_t(c.valueType) > uint32_t(ValueType::u64))
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
  Tuner tuner(info);
  if (Status st = tuner.init(); !st) return st;
  TuningResult result;
  if (Status st = tuner.run(&result); !st) return st;
  *pResult = std::move(result);
  return {};
}

}  // namespace vksort
