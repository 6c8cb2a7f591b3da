// A renderer's use of vksort, written from the README alone (its snippets are taken from here): the device made from
// vksort's requirements, the sorter made with the VkDeviceCreateInfo and the frame's sort prepared, then per frame an
// indirect sort of f32 depths with u32 indices whose count a pass earlier in the same command buffer writes; last, the
// same depths as 16-bit keys (recordDepthKeys) sorted as a permutation. Plain Vulkan, the public headers only. Checks
// every frame on the CPU; with the validation layer present, any message fails it.
//   usage: consumer [MAX_COUNT] [FRAMES]
#include <vksort/vksort.hpp>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

int validationMessages = 0;

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  std::fprintf(stderr, "validation: %s\n", data->pMessage);
  ++validationMessages;
  return VK_FALSE;
}

void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + std::to_string(r));
}
void check(const vksort::Status& s, const char* what) {
  if (!s) throw std::runtime_error(std::string(what) + ": " + s.message);
}

bool hasLayer(const char* name) {
  uint32_t n = 0;
  vkEnumerateInstanceLayerProperties(&n, nullptr);
  std::vector<VkLayerProperties> layers(n);
  vkEnumerateInstanceLayerProperties(&n, layers.data());
  for (const VkLayerProperties& l : layers)
    if (std::strcmp(l.layerName, name) == 0) return true;
  return false;
}

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;
};

}  // namespace

int main(int argc, char** argv) try {
  const uint32_t maxCount = argc > 1 ? uint32_t(std::strtoul(argv[1], nullptr, 10)) : 100000;
  const uint32_t frames = argc > 2 ? uint32_t(std::strtoul(argv[2], nullptr, 10)) : 3;

  // An instance, with validation (synchronization validation too) where the layer is installed.
  const bool validate = hasLayer("VK_LAYER_KHRONOS_validation");
  const char* layer = "VK_LAYER_KHRONOS_validation";
  const char* debugExtension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT, nullptr, 1, &sync, 0, nullptr};
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO, nullptr, "consumer", 1, nullptr, 0, VK_API_VERSION_1_3};
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pNext = validate ? &features : nullptr;
  ici.pApplicationInfo = &app;
  ici.enabledLayerCount = validate ? 1 : 0;
  ici.ppEnabledLayerNames = &layer;
  ici.enabledExtensionCount = validate ? 1 : 0;
  ici.ppEnabledExtensionNames = &debugExtension;
  VkInstance instance;
  check(vkCreateInstance(&ici, nullptr, &instance), "vkCreateInstance");
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  if (validate) {
    VkDebugUtilsMessengerCreateInfoEXT dm{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    dm.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    dm.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    dm.pfnUserCallback = onMessage;
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    check(create(instance, &dm, nullptr, &messenger), "vkCreateDebugUtilsMessengerEXT");
  }
  uint32_t deviceCount = 1;
  VkPhysicalDevice physicalDevice;
  if (vkEnumeratePhysicalDevices(instance, &deviceCount, &physicalDevice) < 0 || deviceCount == 0)
    throw std::runtime_error("no Vulkan device");
  uint32_t familyCount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount, nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount, families.data());
  uint32_t family = 0;
  while (family < familyCount && !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;

  // --- The README's "Adding it to a build": the device, with what vksort needs.
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(physicalDevice, &properties);
  VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                              properties.apiVersion >= VK_API_VERSION_1_3 ? &features13 : nullptr};
  VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features12};
  vksort::DeviceRequirements required;
  check(vksort::getDeviceRequirements(instance, vkGetInstanceProcAddr, physicalDevice, &features2, &required),
        "getDeviceRequirements");
  std::vector<const char*> extensions(required.extensionNames, required.extensionNames + required.extensionCount);
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, family, 1, &priority};
  VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features2};
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.enabledExtensionCount = uint32_t(extensions.size());
  deviceInfo.ppEnabledExtensionNames = extensions.data();
  VkDevice device;
  check(vkCreateDevice(physicalDevice, &deviceInfo, nullptr, &device), "vkCreateDevice");
  VkQueue queue;
  vkGetDeviceQueue(device, family, 0, &queue);

  // --- The README's "API in 30 lines": the sorter, with the frame's sort prepared.
  vksort::SortConfig config;
  config.keyType = vksort::KeyType::f32;
  config.valueType = vksort::ValueType::u32;
  config.order = vksort::SortOrder::descending;  // far to near
  const vksort::PreparedSort prepared{config, maxCount};
  vksort::SorterCreateInfo sci;
  sci.instance = instance;
  sci.vkGetInstanceProcAddr = vkGetInstanceProcAddr;
  sci.physicalDevice = physicalDevice;
  sci.device = device;
  sci.pDeviceCreateInfo = &deviceInfo;
  sci.preparedSortCount = 1;
  sci.pPreparedSorts = &prepared;
  vksort::Sorter sorter;
  check(vksort::createSorter(sci, &sorter), "createSorter");

  // --- Buffers. Sizes in 64 bits: maxCount * 4 overflows 32 bits from 2^30 keys.
  vksort::ScratchRequirements scratchNeeds;
  check(vksort::getScratchRequirements(sorter, config, maxCount, &scratchNeeds), "getScratchRequirements");
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physicalDevice, &memory);
  auto makeBuffer = [&](VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags want) {
    Buffer b;
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size;
    bci.usage = usage;
    check(vkCreateBuffer(device, &bci, nullptr, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, b.buffer, &req);
    uint32_t type = 0;
    while (!((req.memoryTypeBits >> type & 1) && (memory.memoryTypes[type].propertyFlags & want) == want)) ++type;
    VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO, nullptr,
                                    VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT, 0};
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &flags, req.size, type};
    check(vkAllocateMemory(device, &mai, nullptr, &b.memory), "vkAllocateMemory");
    check(vkBindBufferMemory(device, b.buffer, b.memory, 0), "vkBindBufferMemory");
    if (want & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
      check(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
    return b;
  };
  const VkDeviceSize bytes = VkDeviceSize(maxCount) * 4;
  const VkBufferUsageFlags usage =
      vksort::kRequiredBufferUsage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  Buffer depths = makeBuffer(bytes, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  Buffer indices = makeBuffer(bytes, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  Buffer count = makeBuffer(4, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  Buffer scratch = makeBuffer(scratchNeeds.size, scratchNeeds.usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  Buffer staging = makeBuffer(2 * bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, host);

  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr,
                              VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, family};
  VkCommandPool pool;
  check(vkCreateCommandPool(device, &pci, nullptr, &pool), "vkCreateCommandPool");
  VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                  VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  check(vkAllocateCommandBuffers(device, &cai, &cmd), "vkAllocateCommandBuffers");
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  check(vkCreateFence(device, &fci, nullptr, &fence), "vkCreateFence");

  // The copies back made visible to the host, the command buffer submitted, and waited for.
  auto toHostAndWait = [&] {
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                           VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr, 0,
                         nullptr);
    check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    check(vkQueueSubmit(queue, 1, &submit, fence), "vkQueueSubmit");
    check(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    check(vkResetFences(device, 1, &fence), "vkResetFences");
  };

  std::mt19937 rng(7);
  bool ok = true;
  for (uint32_t frame = 0; frame < frames && ok; ++frame) {
    // The frame's splats: depths with ties, indices 0..n-1; n known only "on the GPU".
    const uint32_t n = frame == 0 ? maxCount : uint32_t(rng() % (maxCount + 1));
    std::vector<float> keys(maxCount);
    for (float& k : keys) k = float(rng() % 5000) * 0.25f - 100.0f;
    std::vector<uint32_t> values(maxCount);
    std::iota(values.begin(), values.end(), 0u);
    std::memcpy(staging.mapped, keys.data(), bytes);
    std::memcpy(static_cast<char*>(staging.mapped) + bytes, values.data(), bytes);

    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                   VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, nullptr};
    check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
    // Stand-ins for a cull pass: the keys, values and count arrive by transfer.
    const VkBufferCopy toKeys{0, 0, bytes}, toValues{bytes, 0, bytes};
    vkCmdCopyBuffer(cmd, staging.buffer, depths.buffer, 1, &toKeys);
    vkCmdCopyBuffer(cmd, staging.buffer, indices.buffer, 1, &toValues);
    vkCmdUpdateBuffer(cmd, count.buffer, 0, 4, &n);

    // --- The sort, between the contract's barriers.
    VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                           vksort::kSortDstAccess};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, vksort::kSortDstStage, 0, 1, &before, 0, nullptr, 0,
                         nullptr);
    vksort::SortInfo sort;
    sort.config = config;
    sort.maxCount = maxCount;
    sort.countBuffer = {count.buffer, 0, 4, usage};  // with their usage, vksort checks it
    sort.keys = {depths.buffer, 0, bytes, usage};
    sort.values = {indices.buffer, 0, bytes, usage};
    sort.scratch = {scratch.buffer, 0, scratchNeeds.size, scratchNeeds.usage};
    check(vksort::recordSort(sorter, cmd, sort), "recordSort");
    VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, vksort::kSortSrcAccess,
                          VK_ACCESS_TRANSFER_READ_BIT};
    vkCmdPipelineBarrier(cmd, vksort::kSortSrcStage, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &after, 0, nullptr, 0,
                         nullptr);

    // The reader: back to the host.
    const VkBufferCopy back{0, 0, bytes}, backValues{0, bytes, bytes};
    vkCmdCopyBuffer(cmd, depths.buffer, staging.buffer, 1, &back);
    vkCmdCopyBuffer(cmd, indices.buffer, staging.buffer, 1, &backValues);
    toHostAndWait();

    // The first n sorted far to near, stable; the rest untouched.
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] > keys[b]; });
    const float* sortedKeys = static_cast<const float*>(staging.mapped);
    const uint32_t* sortedValues = reinterpret_cast<const uint32_t*>(static_cast<const char*>(staging.mapped) + bytes);
    for (uint32_t i = 0; i < maxCount && ok; ++i) {
      const uint32_t want = i < n ? order[i] : i;
      ok = sortedValues[i] == want && sortedKeys[i] == keys[want];
    }
    std::printf("frame %u: %u of %u splats sorted far to near: %s\n", frame, n, maxCount, ok ? "right" : "WRONG");
  }

  // --- The README's "For renderers": the depths as 16-bit keys over their range, found on the
  // GPU, then a permutation sort of them (indices generated, keys not written back).
  if (ok) {
    const uint32_t n = maxCount - maxCount / 3;
    std::vector<float> keys(maxCount);
    for (float& k : keys) k = float(rng() % 100000) * 0.01f + 0.2f;
    std::memcpy(staging.mapped, keys.data(), bytes);
    vksort::SortConfig shortKeys;  // u32 keys of 16 bits, ascending: the depth keys say the order
    shortKeys.valueType = vksort::ValueType::index;
    shortKeys.discardKeys = true;
    shortKeys.endBit = 16;
    vksort::ScratchRequirements shortNeeds;
    check(vksort::getScratchRequirements(sorter, shortKeys, maxCount, &shortNeeds), "getScratchRequirements");
    Buffer shortScratch = makeBuffer(shortNeeds.size, shortNeeds.usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    Buffer smallBuffer = makeBuffer(vksort::kDepthKeysScratchBytes, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                   VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, nullptr};
    check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
    const VkBufferCopy toKeys{0, 0, bytes};
    vkCmdCopyBuffer(cmd, staging.buffer, depths.buffer, 1, &toKeys);
    vkCmdUpdateBuffer(cmd, count.buffer, 0, 4, &n);
    VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                           vksort::kSortDstAccess};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, vksort::kSortDstStage, 0, 1, &before, 0, nullptr, 0,
                         nullptr);
    vksort::SortInfo sort;
    sort.config = shortKeys;
    sort.maxCount = maxCount;
    sort.countBuffer = {count.buffer, 0, 4, usage};
    sort.keys = {depths.buffer, 0, bytes, usage};
    sort.values = {indices.buffer, 0, bytes, usage};
    sort.scratch = {shortScratch.buffer, 0, shortNeeds.size, shortNeeds.usage};
    vksort::DepthKeysInfo depth;
    depth.depths = sort.keys;
    depth.maxCount = maxCount;
    depth.countBuffer = sort.countBuffer;
    depth.order = vksort::SortOrder::descending;  // far to near
    depth.scratch = {smallBuffer.buffer, 0, vksort::kDepthKeysScratchBytes, usage};
    check(vksort::recordDepthKeys(sorter, cmd, depth), "recordDepthKeys");
    VkMemoryBarrier between{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, vksort::kSortSrcAccess, vksort::kSortDstAccess};
    vkCmdPipelineBarrier(cmd, vksort::kSortSrcStage, vksort::kSortDstStage, 0, 1, &between, 0, nullptr, 0, nullptr);
    check(vksort::recordSort(sorter, cmd, sort), "recordSort");
    VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, vksort::kSortSrcAccess,
                          VK_ACCESS_TRANSFER_READ_BIT};
    vkCmdPipelineBarrier(cmd, vksort::kSortSrcStage, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &after, 0, nullptr, 0,
                         nullptr);
    const VkBufferCopy back{0, 0, bytes};
    vkCmdCopyBuffer(cmd, indices.buffer, staging.buffer, 1, &back);
    toHostAndWait();
    // Every one of the first n once, far to near up to a step of their range.
    float lo = keys[0], hi = keys[0];
    for (uint32_t i = 0; i < n; ++i) lo = std::min(lo, keys[i]), hi = std::max(hi, keys[i]);
    const float step = (hi - lo) / 65536.0f * 1.001f;
    const uint32_t* order = static_cast<const uint32_t*>(staging.mapped);
    std::vector<bool> seen(n);
    for (uint32_t i = 0; i < n && ok; ++i) {
      ok = order[i] < n && !seen[order[i]] && (i == 0 || keys[order[i]] <= keys[order[i - 1]] + step);
      if (ok) seen[order[i]] = true;
    }
    std::printf("depth keys: %u of %u splats in 16-bit keys, sorted far to near: %s\n", n, maxCount,
                ok ? "right" : "WRONG");
    for (Buffer* b : {&shortScratch, &smallBuffer}) {
      vkDestroyBuffer(device, b->buffer, nullptr);
      vkFreeMemory(device, b->memory, nullptr);
    }
  }

  vkDestroyFence(device, fence, nullptr);
  vkDestroyCommandPool(device, pool, nullptr);
  for (Buffer* b : {&depths, &indices, &count, &scratch, &staging}) {
    vkDestroyBuffer(device, b->buffer, nullptr);
    vkFreeMemory(device, b->memory, nullptr);
  }
  vksort::destroySorter(sorter);
  vkDestroyDevice(device, nullptr);
  if (messenger) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    destroy(instance, messenger, nullptr);
  }
  vkDestroyInstance(instance, nullptr);
  std::printf("validation: %s, %d messages\n", validate ? "on" : "layer not installed", validationMessages);
  return ok && validationMessages == 0 ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "consumer: %s\n", e.what());
  return 2;
}
