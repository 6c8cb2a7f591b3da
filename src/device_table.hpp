// Vulkan functions of one device, in a per-device VolkDeviceTable. vksort never touches global
// Vulkan function pointers: a host application's own loader (volk or otherwise) is left alone.
#pragma once
// The library is compiled with VK_NO_PROTOTYPES and VOLK_NO_DEVICE_PROTOTYPES (CMakeLists.txt):
// no Vulkan prototype is declared in src/, so nothing here can call a global Vulkan symbol.
#include <volk.h>

namespace vksort::detail {

// A Vulkan struct zeroed, with its sType: every field named or zero (-Wmissing-field-initializers).
template <typename T>
T vkStruct(VkStructureType type, const void* next = nullptr) {
  T s{};
  s.sType = type;
  s.pNext = const_cast<void*>(next);
  return s;
}

// Instance-level queries vksort makes about the physical device.
struct InstanceFunctions {
  PFN_vkGetPhysicalDeviceProperties2 getPhysicalDeviceProperties2 = nullptr;
  PFN_vkGetPhysicalDeviceFeatures2 getPhysicalDeviceFeatures2 = nullptr;
  PFN_vkEnumerateDeviceExtensionProperties enumerateDeviceExtensionProperties = nullptr;
  PFN_vkGetDeviceProcAddr getDeviceProcAddr = nullptr;
};

// Loads the instance functions; returns the name of the first one missing, or null.
const char* loadInstanceFunctions(VkInstance instance, PFN_vkGetInstanceProcAddr getInstanceProcAddr,
                                  InstanceFunctions* out);

// Loads the device functions vksort calls (vkGetBufferDeviceAddress from its KHR twin where the
// device has only that); returns the name of the first one missing, or null.
const char* loadDeviceTable(VkDevice device, PFN_vkGetDeviceProcAddr getDeviceProcAddr, VolkDeviceTable* out);

}  // namespace vksort::detail
