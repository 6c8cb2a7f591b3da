#include "vk_context.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace vkctx {

void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) throw std::runtime_error(std::string(what) + " failed: VkResult " + std::to_string(r));
}

void check(const vksort::Status& s, const char* what) {
  if (!s) throw std::runtime_error(std::string(what) + ": " + s.message);
}

void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags srcAccess, VkPipelineStageFlags dst,
                   VkAccessFlags dstAccess) {
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, srcAccess, dstAccess};
  vkCmdPipelineBarrier(cmd, src, dst, 0, 1, &b, 0, nullptr, 0, nullptr);
}

static VKAPI_ATTR VkBool32 VKAPI_CALL debugCallback(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                    VkDebugUtilsMessageTypeFlagsEXT,
                                                    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  Context::onMessage(static_cast<Context*>(user), data->pMessage);
  return VK_FALSE;
}

void Context::onMessage(Context* self, const char* text) {
  std::fprintf(stderr, "[validation] %s\n", text);
  ++self->messages_;
  self->lastMessage_ = text;
}

static bool hasLayer(const char* name) {
  uint32_t n = 0;
  vkEnumerateInstanceLayerProperties(&n, nullptr);
  std::vector<VkLayerProperties> layers(n);
  vkEnumerateInstanceLayerProperties(&n, layers.data());
  return std::any_of(layers.begin(), layers.end(), [&](auto& l) { return std::strcmp(l.layerName, name) == 0; });
}

static VkPhysicalDevice pickDevice(VkInstance instance) {
  uint32_t n = 0;
  vkEnumeratePhysicalDevices(instance, &n, nullptr);
  std::vector<VkPhysicalDevice> devices(n);
  vkEnumeratePhysicalDevices(instance, &n, devices.data());
  if (devices.empty()) throw std::runtime_error("no Vulkan device found");
  auto nameOf = [](VkPhysicalDevice d) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(d, &p);
    return p;
  };
  if (const char* want = std::getenv("VKSORT_DEVICE"); want && *want) {
    char* end = nullptr;
    unsigned long index = std::strtoul(want, &end, 10);
    if (*end == '\0' && index < devices.size()) return devices[index];
    for (VkPhysicalDevice d : devices)
      if (std::strstr(nameOf(d).deviceName, want)) return d;
    throw std::runtime_error(std::string("VKSORT_DEVICE=") + want + " matches no device");
  }
  for (VkPhysicalDevice d : devices)
    if (nameOf(d).deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU) return d;
  return devices[0];
}

namespace {
// A whole file's bytes (tuning data); throws where it cannot be read.
std::vector<char> readFile(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot read " + path);
  std::vector<char> bytes;
  for (int c; (c = std::fgetc(f)) != EOF;) bytes.push_back(char(c));
  std::fclose(f);
  return bytes;
}
}  // namespace

Context::Context(const Options& options) {
  const char* tuningPath = std::getenv("VKSORT_TUNING_DATA");
  if (!options.tuningData.empty()) tuningData_ = readFile(options.tuningData);
  else if (tuningPath && *tuningPath) tuningData_ = readFile(tuningPath);
  const char* layer = "VK_LAYER_KHRONOS_validation";
  if (options.validation && !hasLayer(layer))
    throw std::runtime_error("validation requested but VK_LAYER_KHRONOS_validation is not installed");

  VkApplicationInfo app = vkStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "vksort";
  app.apiVersion = VK_API_VERSION_1_3;
  const char* debugExt = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT vf = vkStruct<VkValidationFeaturesEXT>(VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT);
  vf.enabledValidationFeatureCount = 1;
  vf.pEnabledValidationFeatures = enables;
  VkDebugUtilsMessengerCreateInfoEXT dm =
      vkStruct<VkDebugUtilsMessengerCreateInfoEXT>(VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
  dm.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  dm.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                   VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  dm.pfnUserCallback = debugCallback;
  dm.pUserData = this;
  vf.pNext = &dm;

  std::vector<const char*> instanceExtensions = options.extraInstanceExtensions;
  VkInstanceCreateInfo ici = vkStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  ici.pApplicationInfo = &app;
  if (options.validation) {
    ici.pNext = &vf;
    ici.enabledLayerCount = 1;
    ici.ppEnabledLayerNames = &layer;
    instanceExtensions.push_back(debugExt);
  }
  ici.enabledExtensionCount = uint32_t(instanceExtensions.size());
  ici.ppEnabledExtensionNames = instanceExtensions.data();
  check(vkCreateInstance(&ici, nullptr, &instance), "vkCreateInstance");
  if (options.validation) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    check(create(instance, &dm, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");
  }

  physicalDevice = pickDevice(instance);
  vkGetPhysicalDeviceProperties(physicalDevice, &properties);
  if (properties.apiVersion < VK_API_VERSION_1_2)
    throw std::runtime_error(std::string(properties.deviceName) + " has Vulkan below 1.2");

  uint32_t nq = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &nq, nullptr);
  std::vector<VkQueueFamilyProperties> families(nq);
  vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &nq, families.data());
  // A family with compute and timestamps; one with graphics too where there is one (the splats
  // sample draws).
  queueFamily = UINT32_MAX;
  for (VkQueueFlags want :
       {VkQueueFlags(VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT), VkQueueFlags(VK_QUEUE_COMPUTE_BIT)})
    for (uint32_t i = 0; i < nq && queueFamily == UINT32_MAX; ++i)
      if ((families[i].queueFlags & want) == want && families[i].timestampValidBits) queueFamily = i;
  hasGraphics = queueFamily != UINT32_MAX && (families[queueFamily].queueFlags & VK_QUEUE_GRAPHICS_BIT);
  if (queueFamily == UINT32_MAX) throw std::runtime_error("no compute queue with timestamps");

  // Enable what vksort needs and uses (vksort::getDeviceRequirements sets it in our feature
  // structs and lists the extensions), plus what the splats sample draws with.
  VkPhysicalDeviceVulkan13Features has13 =
      vkStruct<VkPhysicalDeviceVulkan13Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  const bool v13 = properties.apiVersion >= VK_API_VERSION_1_3;
  VkPhysicalDeviceFeatures2 has =
      vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, v13 ? &has13 : nullptr);
  vkGetPhysicalDeviceFeatures2(physicalDevice, &has);
  features13_ = vkStruct<VkPhysicalDeviceVulkan13Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  features13_.dynamicRendering = has13.dynamicRendering;
  features13_.synchronization2 = options.synchronization2 ? VK_TRUE : VK_FALSE;
  hasGraphics = hasGraphics && has13.dynamicRendering;
  features12_ = vkStruct<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                                           v13 ? &features13_ : nullptr);
  features_ = vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features12_);
  features_.features.shaderInt64 = has.features.shaderInt64;
  vksort::DeviceRequirements required;
  const vksort::Status requirements =
      vksort::getDeviceRequirements(instance, vkGetInstanceProcAddr, physicalDevice, &features_, &required);
  if (!requirements && options.subgroupsBeyondProven && requirements.result == vksort::Result::errorFeatureNotPresent &&
      requirements.message.find("proven") != std::string::npos) {
    features12_.bufferDeviceAddress = VK_TRUE;
    if (v13) features13_.subgroupSizeControl = features13_.computeFullSubgroups = VK_TRUE;
    required = {};
  } else {
    check(requirements, "vksort::getDeviceRequirements");
  }
  extensions_.assign(required.extensionNames, required.extensionNames + required.extensionCount);
  extensions_.insert(extensions_.end(), options.extraDeviceExtensions.begin(), options.extraDeviceExtensions.end());

  uint32_t ne = 0;
  vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr, &ne, nullptr);
  std::vector<VkExtensionProperties> available(ne);
  vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr, &ne, available.data());
  // VKSORT_PIPELINE_STATS: vksort prints its pipelines' statistics where the driver has them
  // (developerOptionsFromEnvironment() asks vksort for them).
  const bool wantStatistics = std::getenv("VKSORT_PIPELINE_STATS") != nullptr;
  for (const VkExtensionProperties& e : available) {
    // subgroupPartitionNV wherever the device has it, though no vendor table asks for it: the
    // tuning override `partitioned=1` (benchmark, tests) can only rank so on a device created with
    // it (createSorter refuses it otherwise).
    if (std::strcmp(e.extensionName, VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME) == 0 &&
        std::find_if(extensions_.begin(), extensions_.end(), [](const char* n) {
          return std::strcmp(n, VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME) == 0;
        }) == extensions_.end())
      extensions_.push_back(VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME);
    if (wantStatistics && std::strcmp(e.extensionName, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME) == 0) {
      extensions_.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
      statistics_.pNext = features_.pNext;
      statistics_.pipelineExecutableInfo = VK_TRUE;
      features_.pNext = &statistics_;
    }
  }

  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci = vkStruct<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  qci.queueFamilyIndex = queueFamily;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci = vkStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features_);
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = uint32_t(extensions_.size());
  dci.ppEnabledExtensionNames = extensions_.data();
  check(vkCreateDevice(physicalDevice, &dci, nullptr, &device), "vkCreateDevice");
  // vksort reads the features and extensions from it; the queue list is not kept.
  deviceCreateInfo_ = dci;
  deviceCreateInfo_.queueCreateInfoCount = 0;
  deviceCreateInfo_.pQueueCreateInfos = nullptr;
  vkGetDeviceQueue(device, queueFamily, 0, &queue);

  VkCommandPoolCreateInfo pci = vkStruct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pci.queueFamilyIndex = queueFamily;
  check(vkCreateCommandPool(device, &pci, nullptr, &commandPool), "vkCreateCommandPool");
}

Context::~Context() {
  if (device) {
    vkDeviceWaitIdle(device);
    vkDestroyCommandPool(device, commandPool, nullptr);
    vkDestroyDevice(device, nullptr);
  }
  if (messenger_) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    destroy(instance, messenger_, nullptr);
  }
  if (instance) vkDestroyInstance(instance, nullptr);
}

vksort::SorterCreateInfo Context::sorterCreateInfo(const vksort::SorterDeveloperOptions* developer) const {
  vksort::SorterCreateInfo ci;
  ci.instance = instance;
  ci.vkGetInstanceProcAddr = vkGetInstanceProcAddr;
  ci.physicalDevice = physicalDevice;
  ci.device = device;
  ci.vkGetDeviceProcAddr = vkGetDeviceProcAddr;
  ci.pDeviceCreateInfo = &deviceCreateInfo_;
  ci.pDeveloperOptions = developer;
  if (!tuningData_.empty()) {
    ci.pTuningData = tuningData_.data();
    ci.tuningDataSize = tuningData_.size();
    ci.requireTuningData = true;
  }
  return ci;
}

vksort::SorterDeveloperOptions developerOptionsFromEnvironment() {
  static const std::string tuning = std::getenv("VKSORT_TUNING") ? std::getenv("VKSORT_TUNING") : "";
  vksort::SorterDeveloperOptions o;
  o.tuning = tuning.c_str();
  o.pipelineStatistics = std::getenv("VKSORT_PIPELINE_STATS") != nullptr;
  return o;
}

uint32_t Context::findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags flags) const {
  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(physicalDevice, &mp);
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
    if ((typeBits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & flags) == flags) return i;
  throw std::runtime_error("no suitable memory type");
}

Buffer Context::createBuffer(VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags flags) {
  Buffer b;
  b.size = size;
  VkBufferCreateInfo bci = vkStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bci.size = std::max<VkDeviceSize>(size, 16);
  bci.usage = usage;
  check(vkCreateBuffer(device, &bci, nullptr, &b.buffer), "vkCreateBuffer");
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device, b.buffer, &req);
  VkMemoryAllocateFlagsInfo flagsInfo =
      vkStruct<VkMemoryAllocateFlagsInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
  flagsInfo.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo mai = vkStruct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  mai.pNext = (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) ? &flagsInfo : nullptr;
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = findMemoryType(req.memoryTypeBits, flags);
  check(vkAllocateMemory(device, &mai, nullptr, &b.memory), "vkAllocateMemory");
  check(vkBindBufferMemory(device, b.buffer, b.memory, 0), "vkBindBufferMemory");
  if (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
    check(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
  return b;
}

Buffer Context::createDeviceBuffer(VkDeviceSize size, VkBufferUsageFlags extraUsage) {
  return createBuffer(
      size,
      vksort::kRequiredBufferUsage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | extraUsage,
      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
}

Buffer Context::createHostBuffer(VkDeviceSize size) {
  return createBuffer(size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
}

void Context::destroy(Buffer& b) {
  if (b.buffer) vkDestroyBuffer(device, b.buffer, nullptr);
  if (b.memory) vkFreeMemory(device, b.memory, nullptr);
  b = Buffer{};
}

VkDeviceAddress Context::address(const Buffer& b) const {
  VkBufferDeviceAddressInfo info = vkStruct<VkBufferDeviceAddressInfo>(VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
  info.buffer = b.buffer;
  return vkGetBufferDeviceAddress(device, &info);
}

VkCommandBuffer Context::beginCommands() {
  VkCommandBufferAllocateInfo ai =
      vkStruct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  ai.commandPool = commandPool;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VkCommandBuffer cmd;
  check(vkAllocateCommandBuffers(device, &ai, &cmd), "vkAllocateCommandBuffers");
  VkCommandBufferBeginInfo bi = vkStruct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(cmd, &bi), "vkBeginCommandBuffer");
  return cmd;
}

Submission Context::submitAsync(VkCommandBuffer cmd) {
  check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
  Submission s{cmd, VK_NULL_HANDLE};
  VkFenceCreateInfo fci = vkStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  check(vkCreateFence(device, &fci, nullptr, &s.fence), "vkCreateFence");
  VkSubmitInfo si = vkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd;
  check(vkQueueSubmit(queue, 1, &si, s.fence), "vkQueueSubmit");
  return s;
}

void Context::finish(Submission& s) {
  check(vkWaitForFences(device, 1, &s.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
  vkDestroyFence(device, s.fence, nullptr);
  vkFreeCommandBuffers(device, commandPool, 1, &s.cmd);
  s = Submission{};
}

void Context::submitAndWait(VkCommandBuffer cmd) {
  Submission s = submitAsync(cmd);
  finish(s);
}

// Transfers go through a host-visible staging buffer of at most kStagingBytes, chunk by chunk, so
// that multi-GiB buffers need no allocation that large.
constexpr VkDeviceSize kStagingBytes = VkDeviceSize(256) << 20;

void Context::upload(const Buffer& dst, const void* data, VkDeviceSize bytes) {
  if (bytes == 0) return;
  Buffer staging = createHostBuffer(std::min(bytes, kStagingBytes));
  for (VkDeviceSize at = 0; at < bytes; at += kStagingBytes) {
    VkDeviceSize chunk = std::min(bytes - at, kStagingBytes);
    std::memcpy(staging.mapped, static_cast<const char*>(data) + at, chunk);
    VkCommandBuffer cmd = beginCommands();
    VkBufferCopy region{0, at, chunk};
    vkCmdCopyBuffer(cmd, staging.buffer, dst.buffer, 1, &region);
    submitAndWait(cmd);
  }
  destroy(staging);
}

void Context::download(const Buffer& src, void* data, VkDeviceSize bytes) {
  if (bytes == 0) return;
  Buffer staging = createHostBuffer(std::min(bytes, kStagingBytes));
  for (VkDeviceSize at = 0; at < bytes; at += kStagingBytes) {
    VkDeviceSize chunk = std::min(bytes - at, kStagingBytes);
    VkCommandBuffer cmd = beginCommands();
    VkBufferCopy region{at, 0, chunk};
    vkCmdCopyBuffer(cmd, src.buffer, staging.buffer, 1, &region);
    submitAndWait(cmd);
    std::memcpy(static_cast<char*>(data) + at, staging.mapped, chunk);
  }
  destroy(staging);
}

ComputePipeline::ComputePipeline(const Context& ctx, const uint32_t* code, size_t codeBytes, uint32_t pushBytes)
    : device_(ctx.device), pushBytes_(pushBytes), maxGroupsX_(ctx.properties.limits.maxComputeWorkGroupCount[0]) {
  VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, codeBytes, code};
  VkShaderModule module;
  check(vkCreateShaderModule(device_, &mi, nullptr, &module), "vkCreateShaderModule");
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes};
  VkPipelineLayoutCreateInfo li = vkStruct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  li.pushConstantRangeCount = 1;
  li.pPushConstantRanges = &range;
  check(vkCreatePipelineLayout(device_, &li, nullptr, &layout_), "vkCreatePipelineLayout");
  VkComputePipelineCreateInfo ci =
      vkStruct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
              nullptr,
              0,
              VK_SHADER_STAGE_COMPUTE_BIT,
              module,
              "main",
              nullptr};
  ci.layout = layout_;
  VkResult r = vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline_);
  vkDestroyShaderModule(device_, module, nullptr);
  check(r, "vkCreateComputePipelines");
}

ComputePipeline::~ComputePipeline() {
  vkDestroyPipeline(device_, pipeline_, nullptr);
  vkDestroyPipelineLayout(device_, layout_, nullptr);
}

void ComputePipeline::dispatch(VkCommandBuffer cmd, const void* push, uint32_t groups) const {
  if (groups == 0) return;  // (and no division by a zero-wide grid below)
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
  vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes_, push);
  uint32_t x = std::min(groups, maxGroupsX_), y = (groups + x - 1) / x;
  vkCmdDispatch(cmd, x, y, 1);
}

}  // namespace vkctx
