#include "device_table.hpp"

namespace vksort::detail {

const char* loadInstanceFunctions(VkInstance instance, PFN_vkGetInstanceProcAddr gipa, InstanceFunctions* out) {
  // The 1.1 core names, falling back to VK_KHR_get_physical_device_properties2 on 1.0 instances.
  out->getPhysicalDeviceProperties2 =
      reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(gipa(instance, "vkGetPhysicalDeviceProperties2"));
  if (!out->getPhysicalDeviceProperties2)
    out->getPhysicalDeviceProperties2 =
        reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(gipa(instance, "vkGetPhysicalDeviceProperties2KHR"));
  out->getPhysicalDeviceFeatures2 =
      reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures2>(gipa(instance, "vkGetPhysicalDeviceFeatures2"));
  if (!out->getPhysicalDeviceFeatures2)
    out->getPhysicalDeviceFeatures2 =
        reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures2>(gipa(instance, "vkGetPhysicalDeviceFeatures2KHR"));
  out->getDeviceProcAddr = reinterpret_cast<PFN_vkGetDeviceProcAddr>(gipa(instance, "vkGetDeviceProcAddr"));
  out->enumerateDeviceExtensionProperties = reinterpret_cast<PFN_vkEnumerateDeviceExtensionProperties>(
      gipa(instance, "vkEnumerateDeviceExtensionProperties"));
  if (!out->getPhysicalDeviceProperties2) return "vkGetPhysicalDeviceProperties2";
  if (!out->getPhysicalDeviceFeatures2) return "vkGetPhysicalDeviceFeatures2";
  if (!out->getDeviceProcAddr) return "vkGetDeviceProcAddr";
  if (!out->enumerateDeviceExtensionProperties) return "vkEnumerateDeviceExtensionProperties";
  return nullptr;
}

// Every device function vksort calls, and nothing else.
#define VKSORT_DEVICE_FUNCTIONS(X) \
  X(vkCreateShaderModule)          \
  X(vkDestroyShaderModule)         \
  X(vkCreatePipelineLayout)        \
  X(vkDestroyPipelineLayout)       \
  X(vkCreateComputePipelines)      \
  X(vkDestroyPipeline)             \
  X(vkCmdBindPipeline)             \
  X(vkCmdPushConstants)            \
  X(vkCmdDispatch)                 \
  X(vkCmdDispatchIndirect)         \
  X(vkCmdPipelineBarrier)          \
  X(vkCmdWriteTimestamp)

const char* loadDeviceTable(VkDevice device, PFN_vkGetDeviceProcAddr gdpa, VolkDeviceTable* out) {
#define VKSORT_LOAD(name)                                        \
  out->name = reinterpret_cast<PFN_##name>(gdpa(device, #name)); \
  if (!out->name) return #name;
  VKSORT_DEVICE_FUNCTIONS(VKSORT_LOAD)
#undef VKSORT_LOAD
  out->vkGetBufferDeviceAddress =
      reinterpret_cast<PFN_vkGetBufferDeviceAddress>(gdpa(device, "vkGetBufferDeviceAddress"));
  if (!out->vkGetBufferDeviceAddress)
    out->vkGetBufferDeviceAddress =
        reinterpret_cast<PFN_vkGetBufferDeviceAddress>(gdpa(device, "vkGetBufferDeviceAddressKHR"));
  if (!out->vkGetBufferDeviceAddress) return "vkGetBufferDeviceAddress";
  // Optional: pipeline statistics for developers (VKSORT_PIPELINE_STATS).
  out->vkGetPipelineExecutablePropertiesKHR =
      reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(gdpa(device, "vkGetPipelineExecutablePropertiesKHR"));
  out->vkGetPipelineExecutableStatisticsKHR =
      reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(gdpa(device, "vkGetPipelineExecutableStatisticsKHR"));
  return nullptr;
}

}  // namespace vksort::detail
