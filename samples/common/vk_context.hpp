// A minimal Vulkan host for vksort's samples and tests: instance (with validation on request),
// one device with the features vksort uses, buffers, one-shot submissions, timestamps.
// Sample code: it throws std::runtime_error on any failure.
#pragma once
#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

#include "vksort/vksort.hpp"

namespace vkctx {

// A Vulkan struct zeroed, with its sType (and pNext): the fields a caller sets are named.
template <typename T>
T vkStruct(VkStructureType type, const void* next = nullptr) {
  T s{};
  s.sType = type;
  s.pNext = const_cast<void*>(next);
  return s;
}

struct Options {
  bool validation = false;  // Khronos validation with synchronization validation; fails if absent
  // What another library compared in the benchmark, or a window (the splats sample), needs beyond
  // vksort's requirements.
  std::vector<const char*> extraDeviceExtensions;
  std::vector<const char*> extraInstanceExtensions;
  bool synchronization2 = false;
  // Create the device even where vksort refuses its subgroup size (wave64-only GCN), enabling
  // what a sorter needs by hand: for tools that only compile pipelines with the developer
  // override `subgroup=64` (tests/radv_pipelines.cpp). Sorting on such a device is unproven.
  bool subgroupsBeyondProven = false;
  // A file of tuning data (vksort_tune) every sorter of this context must use; empty: the file
  // VKSORT_TUNING_DATA names, where it names one (so that a whole test suite runs tuned).
  std::string tuningData;
};

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  void* mapped = nullptr;  // host-visible buffers only
  vksort::BufferRange range() const { return {buffer, 0, size}; }
};

struct Submission {
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
};

class Context {
 public:
  // Picks the device named by VKSORT_DEVICE (an index or part of its name), else the first
  // discrete GPU, else the first device.
  explicit Context(const Options& options);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  bool hasGraphics = false;  // the queue draws too, with dynamicRendering enabled

  // The createSorter arguments for this device (developer options: see below), with the tuning
  // data of Options::tuningData, where there is one (required to match).
  vksort::SorterCreateInfo sorterCreateInfo(const vksort::SorterDeveloperOptions* developer = nullptr) const;

  // Device-local buffer usable by vksort (device address, storage) and by transfers.
  Buffer createDeviceBuffer(VkDeviceSize size, VkBufferUsageFlags extraUsage = 0);
  // Host-visible, mapped staging buffer.
  Buffer createHostBuffer(VkDeviceSize size);
  void destroy(Buffer& b);
  VkDeviceAddress address(const Buffer& b) const;

  // A one-time command buffer from the context's pool, begun.
  VkCommandBuffer beginCommands();
  void submitAndWait(VkCommandBuffer cmd);      // ends, submits, waits, frees
  Submission submitAsync(VkCommandBuffer cmd);  // ends and submits; finish() waits and frees
  void finish(Submission& s);

  void upload(const Buffer& dst, const void* data, VkDeviceSize bytes);
  void download(const Buffer& src, void* data, VkDeviceSize bytes);

  // Validation messages (warnings and errors) seen so far.
  uint32_t validationMessages() const { return messages_; }
  std::string lastValidationMessage() const { return lastMessage_; }
  static void onMessage(Context* self, const char* text);

 private:
  uint32_t findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags flags) const;
  Buffer createBuffer(VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags flags);

  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDeviceVulkan12Features features12_{};
  VkPhysicalDeviceVulkan13Features features13_{};
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR statistics_ =
      vkStruct<VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
  VkPhysicalDeviceFeatures2 features_{};
  std::vector<const char*> extensions_;    // device extensions enabled
  VkDeviceCreateInfo deviceCreateInfo_{};  // as the device was created, without its queues
  uint32_t messages_ = 0;
  std::string lastMessage_;
  std::vector<char> tuningData_;
};

// For the benchmark and the tests, which measure and test vksort's tuning: VKSORT_TUNING (the
// tuning override) and VKSORT_PIPELINE_STATS from the environment. The shipped library reads no
// environment variable.
vksort::SorterDeveloperOptions developerOptionsFromEnvironment();

// A compute pipeline of the samples' and tests' own kernels: SPIR-V and one push-constant range.
class ComputePipeline {
 public:
  ComputePipeline(const Context& ctx, const uint32_t* code, size_t codeBytes, uint32_t pushBytes);
  ~ComputePipeline();
  ComputePipeline(const ComputePipeline&) = delete;
  ComputePipeline& operator=(const ComputePipeline&) = delete;
  // Binds, pushes pushBytes from `push`, dispatches `groups` workgroups (past the device's x limit
  // they spill into y).
  void dispatch(VkCommandBuffer cmd, const void* push, uint32_t groups) const;

 private:
  VkDevice device_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  uint32_t pushBytes_;
  uint32_t maxGroupsX_;
};

void check(VkResult r, const char* what);
void check(const vksort::Status& s, const char* what);

// Records a global memory barrier.
void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags srcAccess, VkPipelineStageFlags dst,
                   VkAccessFlags dstAccess);

}  // namespace vkctx
