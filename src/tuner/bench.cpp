#include "bench.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "recorder.hpp"

namespace vksort::detail {
namespace {

const uint32_t kTuneInputSpirv[] = {
#include "tune_input.comp.spv.inc"
};
struct InputPush {  // tune_input.comp
  VkDeviceAddress dst;
  uint32_t count, words, q, values;
};

// The device functions the tuner calls beyond the sorter's: buffers, memory, submission, queries.
// One function list, wrapped by hand.
// clang-format off
#define VKSORT_TUNER_FUNCTIONS(X)                                                                            \
  X(vkCreateBuffer) X(vkDestroyBuffer) X(vkGetBufferMemoryRequirements) X(vkAllocateMemory) X(vkFreeMemory) \
  X(vkBindBufferMemory) X(vkMapMemory) X(vkUnmapMemory) X(vkCreateCommandPool) X(vkDestroyCommandPool)      \
  X(vkAllocateCommandBuffers) X(vkResetCommandPool) X(vkBeginCommandBuffer) X(vkEndCommandBuffer)           \
  X(vkQueueSubmit) X(vkCreateFence) X(vkDestroyFence) X(vkWaitForFences) X(vkResetFences)                   \
  X(vkCreateQueryPool) X(vkDestroyQueryPool) X(vkGetQueryPoolResults) X(vkCmdResetQueryPool)                \
  X(vkCmdCopyBuffer) X(vkCreatePipelineCache) X(vkDestroyPipelineCache) X(vkGetPipelineCacheData)          \
  X(vkMergePipelineCaches) X(vkCreateShaderModule) X(vkDestroyShaderModule) X(vkCreatePipelineLayout)       \
  X(vkDestroyPipelineLayout) X(vkCreateComputePipelines)                                                    \
  X(vkDestroyPipeline) X(vkCmdBindPipeline) X(vkCmdPushConstants) X(vkCmdDispatch) X(vkCmdPipelineBarrier)  \
  X(vkCmdWriteTimestamp) X(vkGetBufferDeviceAddress)
// clang-format on

}  // namespace

Status TuningBench::init() {
  PFN_vkGetDeviceProcAddr gdpa = ci_.vkGetDeviceProcAddr;
  if (!gdpa)
    gdpa = reinterpret_cast<PFN_vkGetDeviceProcAddr>(ci_.vkGetInstanceProcAddr(ci_.instance, "vkGetDeviceProcAddr"));
  auto memoryProperties = reinterpret_cast<PFN_vkGetPhysicalDeviceMemoryProperties>(
      ci_.vkGetInstanceProcAddr(ci_.instance, "vkGetPhysicalDeviceMemoryProperties"));
  auto properties = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties>(
      ci_.vkGetInstanceProcAddr(ci_.instance, "vkGetPhysicalDeviceProperties"));
  if (!gdpa || !memoryProperties || !properties)
    return fail(Result::errorFeatureNotPresent, "the instance does not provide the functions tuneSorts needs");
#define VKSORT_LOAD(name)                                           \
  vk_.name = reinterpret_cast<PFN_##name>(gdpa(ci_.device, #name)); \
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

  for (Slot& slot : slots_) {
    auto poolInfo = vkStruct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    poolInfo.queueFamilyIndex = info_.queueFamilyIndex;
    if (VkResult r = vk_.vkCreateCommandPool(ci_.device, &poolInfo, nullptr, &slot.pool))
      return failVulkan(r, "vkCreateCommandPool");
    auto allocInfo = vkStruct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    allocInfo.commandPool = slot.pool;
    allocInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocInfo.commandBufferCount = 1;
    if (VkResult r = vk_.vkAllocateCommandBuffers(ci_.device, &allocInfo, &slot.cmd))
      return failVulkan(r, "vkAllocateCommandBuffers");
    auto fenceInfo = vkStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    if (VkResult r = vk_.vkCreateFence(ci_.device, &fenceInfo, nullptr, &slot.fence))
      return failVulkan(r, "vkCreateFence");
  }
  auto queryInfo = vkStruct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
  queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
  queryInfo.queryCount = 2 * kTimedSorts;
  if (VkResult r = vk_.vkCreateQueryPool(ci_.device, &queryInfo, nullptr, &queries_))
    return failVulkan(r, "vkCreateQueryPool");
  // Candidates share every pipeline but their binning kernels, and are built on several threads:
  // a cache of our own, internally synchronized (the caller's may have been created otherwise),
  // seeded on this thread with the caller's cache, where one is given: an application that
  // prepared its sorts holds the tables' pipelines there, and only the candidates then compile.
  std::vector<uint8_t> seed;
  if (callerCache_ != VK_NULL_HANDLE) {
    size_t bytes = 0;
    if (vk_.vkGetPipelineCacheData(ci_.device, callerCache_, &bytes, nullptr) == VK_SUCCESS) {
      seed.resize(bytes);
      if (vk_.vkGetPipelineCacheData(ci_.device, callerCache_, &bytes, seed.data()) != VK_SUCCESS) bytes = 0;
      seed.resize(bytes);
    }
  }
  auto cacheInfo = vkStruct<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
  cacheInfo.initialDataSize = seed.size();
  cacheInfo.pInitialData = seed.empty() ? nullptr : seed.data();
  if (VkResult r = vk_.vkCreatePipelineCache(ci_.device, &cacheInfo, nullptr, &cache_))
    return failVulkan(r, "vkCreatePipelineCache");
  ci_.pipelineCache = cache_;
  ci_.preparedSortCount = 0;
  ci_.pPreparedSorts = nullptr;
  ci_.pTuningData = nullptr;  // the baseline is the built-in tables
  ci_.tuningDataSize = 0;
  ci_.requireTuningData = false;

  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(InputPush)};
  auto layoutInfo = vkStruct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layoutInfo.pushConstantRangeCount = 1;
  layoutInfo.pPushConstantRanges = &range;
  if (VkResult r = vk_.vkCreatePipelineLayout(ci_.device, &layoutInfo, nullptr, &inputLayout_))
    return failVulkan(r, "vkCreatePipelineLayout");
  auto moduleInfo = vkStruct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  moduleInfo.codeSize = sizeof kTuneInputSpirv;
  moduleInfo.pCode = kTuneInputSpirv;
  VkShaderModule module;
  if (VkResult r = vk_.vkCreateShaderModule(ci_.device, &moduleInfo, nullptr, &module))
    return failVulkan(r, "vkCreateShaderModule");
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

void TuningBench::release() {
  if (!vk_.vkDestroyPipeline) return;                   // init() loaded nothing
  for (SlotIndex slot : {kMeasure, kHeat}) wait(slot);  // nothing in flight uses what goes next
  for (Buffer* b : {&pristineKeys_, &keys_, &pristineValues_, &values_, &scratch_}) destroy(b);
  vk_.vkDestroyPipeline(ci_.device, inputPipeline_, nullptr);
  vk_.vkDestroyPipelineLayout(ci_.device, inputLayout_, nullptr);
  // What was built goes into the caller's cache (on this thread): the tuned tiles' pipelines are
  // then warm for the sorter the application creates with the data.
  if (callerCache_ != VK_NULL_HANDLE && cache_ != VK_NULL_HANDLE)
    vk_.vkMergePipelineCaches(ci_.device, callerCache_, 1, &cache_);
  vk_.vkDestroyPipelineCache(ci_.device, cache_, nullptr);
  vk_.vkDestroyQueryPool(ci_.device, queries_, nullptr);
  for (Slot& slot : slots_) {
    vk_.vkDestroyFence(ci_.device, slot.fence, nullptr);
    vk_.vkDestroyCommandPool(ci_.device, slot.pool, nullptr);
  }
}

Status TuningBench::createBuffer(VkDeviceSize size, bool hostVisible, Buffer* out) {
  auto bufferInfo = vkStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bufferInfo.size = std::max<VkDeviceSize>(size, 16);
  bufferInfo.usage = kRequiredBufferUsage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                     VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  Buffer b;
  b.size = bufferInfo.size;
  if (VkResult r = vk_.vkCreateBuffer(ci_.device, &bufferInfo, nullptr, &b.buffer))
    return failVulkan(r, "vkCreateBuffer");
  VkMemoryRequirements req;
  vk_.vkGetBufferMemoryRequirements(ci_.device, b.buffer, &req);
  const VkMemoryPropertyFlags want = hostVisible
                                         ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
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

void TuningBench::destroy(Buffer* b) {
  if (b->buffer) vk_.vkDestroyBuffer(ci_.device, b->buffer, nullptr);
  if (b->memory) vk_.vkFreeMemory(ci_.device, b->memory, nullptr);
  *b = Buffer{};
}

Status TuningBench::begin(VkCommandBuffer* cmd, SlotIndex index) {
  if (Status st = wait(index); !st) return st;
  Slot& slot = slots_[index];
  vk_.vkResetCommandPool(ci_.device, slot.pool, 0);
  auto beginInfo = vkStruct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  beginInfo.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (VkResult r = vk_.vkBeginCommandBuffer(slot.cmd, &beginInfo)) return failVulkan(r, "vkBeginCommandBuffer");
  *cmd = slot.cmd;
  return {};
}

Status TuningBench::submit(SlotIndex index) {
  Slot& slot = slots_[index];
  if (VkResult r = vk_.vkEndCommandBuffer(slot.cmd)) return failVulkan(r, "vkEndCommandBuffer");
  auto info = vkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  info.commandBufferCount = 1;
  info.pCommandBuffers = &slot.cmd;
  if (VkResult r = vk_.vkQueueSubmit(info_.queue, 1, &info, slot.fence)) return failVulkan(r, "vkQueueSubmit");
  slot.pending = true;
  return {};
}

Status TuningBench::submitAndWait() {
  if (Status st = submit(kMeasure); !st) return st;
  return wait(kMeasure);
}

Status TuningBench::wait(SlotIndex index) {
  Slot& slot = slots_[index];
  if (!slot.pending) return {};
  slot.pending = false;
  VkResult r = vk_.vkWaitForFences(ci_.device, 1, &slot.fence, VK_TRUE, UINT64_MAX);
  vk_.vkResetFences(ci_.device, 1, &slot.fence);
  return r ? failVulkan(r, "vkWaitForFences") : Status{};
}

void TuningBench::barrier(VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags srcAccess,
                          VkPipelineStageFlags dst, VkAccessFlags dstAccess) {
  auto b = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  b.srcAccessMask = srcAccess;
  b.dstAccessMask = dstAccess;
  vk_.vkCmdPipelineBarrier(cmd, src, dst, 0, 1, &b, 0, nullptr, 0, nullptr);
}

// Keys (and values) of `task` generated into the pristine buffers, which grow as needed.
Status TuningBench::prepareInput(const Task& task) {
  if (input_.cls == task.cls && input_.count == task.count) return {};
  if (Status st = wait(kHeat); !st) return st;  // heat sorts read the buffers about to change
  const uint32_t kb = keyBytes(task.config.keyType), vb = valueBytes(task.config.valueType);
  auto ensure = [&](Buffer* b, VkDeviceSize bytes) -> Status {
    if (b->size >= bytes) return {};
    destroy(b);
    return createBuffer(bytes, false, b);
  };
  for (auto [buffer, bytes] :
       {std::pair{&pristineKeys_, VkDeviceSize(task.count) * kb}, std::pair{&keys_, VkDeviceSize(task.count) * kb},
        std::pair{&pristineValues_, VkDeviceSize(task.count) * vb}, std::pair{&values_, VkDeviceSize(task.count) * vb}})
    if (Status st = ensure(buffer, bytes); !st) return st;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (Status st = begin(&cmd); !st) return st;
  recordInput(cmd, pristineKeys_.address, task.count, kb / 4, 1, false);
  if (vb) recordInput(cmd, pristineValues_.address, task.count, vb / 4, 0, true);
  if (Status st = submitAndWait(); !st) return st;
  input_ = task;
  inputQ_ = 1;
  return {};
}

void TuningBench::recordInput(VkCommandBuffer cmd, VkDeviceAddress dst, uint32_t count, uint32_t words, uint32_t q,
                              bool values) {
  const InputPush push{dst, count, words, q, values ? 1u : 0u};
  vk_.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, inputPipeline_);
  vk_.vkCmdPushConstants(cmd, inputLayout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
  vk_.vkCmdDispatch(cmd, std::min<uint32_t>((count + 255) / 256, 4096), 1, 1);  // a grid-stride loop
}

Status TuningBench::makeSorter(Algorithm algorithm, const TunedTiles* tuned, const Task* task, SorterPtr* out) {
  SorterCreateInfo ci = ci_;
  ci.algorithm = algorithm;
  Sorter s = nullptr;
  if (Status st = createSorterTuned(ci, tuned, &s); !st) return st;
  out->reset(s);
  return task ? prepare(s, *task) : Status{};
}

uint32_t TuningBench::buildThreads() const {
  if (ci_.pAllocationCallbacks) return 1;
  return std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
}

Status TuningBench::buildWhileHeating(size_t n, const std::function<Status(size_t)>& build, Sorter_T* heater,
                                      const Task* heatTask) {
  std::atomic<size_t> next{0}, done{0};
  std::mutex failureLock;
  Status failure;
  auto work = [&] {
    for (size_t i; (i = next++) < n; ++done)
      if (Status st = build(i); !st) {
        std::lock_guard<std::mutex> lock(failureLock);
        if (failure) failure = st;
      }
  };
  std::vector<std::thread> builders;
  for (uint32_t i = 0; i < std::min<size_t>(buildThreads(), n); ++i) builders.emplace_back(work);
  Status st;
  // Each heat() waits for the one before it: the queue stays fed, a few sorts ahead.
  while (heater && st && done < n) st = heat(heater, *heatTask, 20);
  for (std::thread& t : builders) t.join();
  return st ? failure : st;
}

Status TuningBench::prepare(Sorter_T* sorter, const Task& task) {
  // Only what the measured (direct) sort records: prepareSorts() would build every tier's.
  SortPipelines unused;
  return getSortPipelines(*sorter, planSort(sorter->tuning, task.config, task.count, task.count, false), &unused);
}

// The median of kTimedSorts sorts of `task` (keys AND-ed from q hashes), in one submission after
// as many untimed ones as bring the clocks up; each starts from the unsorted input, restored by
// copies outside the timestamps.
Status TuningBench::measure(Sorter_T* sorter, const Task& task, uint32_t q, double* medianNanos) {
  if (Status st = prepareInput(task); !st) return st;
  if (q != inputQ_) {  // the same buffers, keys of another entropy
    if (Status st = wait(kHeat); !st) return st;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    if (Status st = begin(&cmd); !st) return st;
    recordInput(cmd, pristineKeys_.address, task.count, keyBytes(task.config.keyType) / 4, q, false);
    if (Status st = submitAndWait(); !st) return st;
    inputQ_ = q;
  }
  // Untimed sorts first, kWarmupNanos of them by the last estimate (heat() ran before them).
  const uint32_t warmup = warmupSorts(task.count, lastNanosPerKey_);
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (Status st = begin(&cmd); !st) return st;
  vk_.vkCmdResetQueryPool(cmd, queries_, 0, 2 * kTimedSorts);
  if (Status st = recordSorts(cmd, sorter, task, warmup + kTimedSorts, kTimedSorts); !st) {
    vk_.vkEndCommandBuffer(cmd);
    return st;
  }
  if (Status st = submitAndWait(); !st) return st;
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

Status TuningBench::recordSorts(VkCommandBuffer cmd, Sorter_T* sorter, const Task& task, uint32_t count,
                                uint32_t timed) {
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

Status TuningBench::heat(Sorter_T* sorter, const Task& task, double ms) {
  if (Status st = prepareInput(task); !st) return st;
  if (lastNanosPerKey_ == 0) {  // a first measurement sizes the heat
    double unused;
    if (Status st = measure(sorter, task, 1, &unused); !st) return st;
  }
  ms = std::min(ms, maxHeatMs_);
  const uint32_t sorts = uint32_t(std::clamp(ms * 1e6 / (lastNanosPerKey_ * task.count), 1.0, 4000.0));
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (Status st = begin(&cmd, kHeat); !st) return st;
  if (Status st = recordSorts(cmd, sorter, task, sorts, 0); !st) {
    vk_.vkEndCommandBuffer(cmd);
    return st;
  }
  if (Status st = submit(kHeat); !st) return st;
  return wait(kHeat);
}

// One sort of `task` with `sorter`, read back and checked: ordered, stable, and a permutation of
// the input (pairs: each value is its key's input index; keys alone: equal hash sums).
Status TuningBench::checkSort(Sorter_T* sorter, const Task& task, bool* ok) {
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
    const VkBufferCopy pristine{0, 0, keyBytesAll}, sorted{0, keyBytesAll, keyBytesAll},
        values{0, 2 * keyBytesAll, valueBytesAll};
    vk_.vkCmdCopyBuffer(cmd, pristineKeys_.buffer, staging.buffer, 1, &pristine);
    vk_.vkCmdCopyBuffer(cmd, keys_.buffer, staging.buffer, 1, &sorted);
    if (vb) vk_.vkCmdCopyBuffer(cmd, values_.buffer, staging.buffer, 1, &values);
    barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
            VK_ACCESS_HOST_READ_BIT);
    st = submitAndWait();
  }
  void* mapped = nullptr;
  if (st)
    if (VkResult r = vk_.vkMapMemory(ci_.device, staging.memory, 0, VK_WHOLE_SIZE, 0, &mapped))
      st = failVulkan(r, "vkMapMemory");
  if (st) {
    const uint32_t* words = static_cast<const uint32_t*>(mapped);
    const uint32_t kw = uint32_t(kb / 4), n = task.count;
    auto key = [&](uint32_t which, size_t i) {  // 0: input, 1: output
      const uint32_t* k = words + size_t(which) * n * kw + i * kw;
      return kw == 1 ? uint64_t(k[0]) : uint64_t(k[0]) | uint64_t(k[1]) << 32;
    };
    const uint32_t* vals = words + 2 * size_t(n) * kw;
    bool good = true;
    uint64_t before = keyOrderBits(task.config, key(1, 0));  // the bits the sort orders by
    for (size_t i = 0; good && i + 1 < n; ++i) {
      const uint64_t after = keyOrderBits(task.config, key(1, i + 1));
      good = before < after || (before == after && (!vb || vals[i] < vals[i + 1]));
      before = after;
    }
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

}  // namespace vksort::detail
