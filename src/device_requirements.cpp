// What a renderer enables on its device for vksort, asked before vkCreateDevice: the extensions
// to list, and the features set in the caller's own feature structs.
#include "device_caps.hpp"
#include "tuning.hpp"

namespace vksort {
using namespace detail;

Status getDeviceRequirements(VkInstance instance, PFN_vkGetInstanceProcAddr getInstanceProcAddr,
                             VkPhysicalDevice physicalDevice, VkPhysicalDeviceFeatures2* features,
                             DeviceRequirements* out) {
  if (!instance || !getInstanceProcAddr || !physicalDevice)
    return fail(Result::errorInvalidArgument,
                "getDeviceRequirements needs instance, vkGetInstanceProcAddr and physicalDevice");
  if (!features)
    return fail(Result::errorInvalidArgument,
                "pFeatures is null: pass the VkPhysicalDeviceFeatures2 at the head of your VkDeviceCreateInfo's pNext "
                "chain (the chain must hold a VkPhysicalDeviceVulkan12Features or a "
                "VkPhysicalDeviceBufferDeviceAddressFeatures)");
  // Checked before any pNext is followed: a VkPhysicalDeviceFeatures (what pEnabledFeatures takes)
  // passed through a cast has VkBool32s where sType and pNext belong.
  if (features->sType != VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)
    return fail(Result::errorInvalidArgument,
                "pFeatures has sType %d, not VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2: pass a "
                "VkPhysicalDeviceFeatures2 (a VkPhysicalDeviceFeatures for pEnabledFeatures cannot carry a chain)",
                int(features->sType));
  if (Status st = checkChain(reinterpret_cast<const VkBaseInStructure*>(features), "pFeatures", "Vulkan feature struct",
                             ": chain only structs that extend VkDeviceCreateInfo");
      !st)
    return st;
  if (!out) return fail(Result::errorInvalidArgument, "pRequirements is null");
  InstanceFunctions fn;
  if (const char* missing = loadInstanceFunctions(instance, getInstanceProcAddr, &fn))
    return fail(Result::errorFeatureNotPresent, "the instance does not provide %s", missing);
  DeviceCaps caps;
  if (Status st = queryDeviceCaps(fn, physicalDevice, nullptr, false, &caps); !st) return st;
  const bool v12 = caps.apiVersion >= VK_API_VERSION_1_2, v13 = caps.apiVersion >= VK_API_VERSION_1_3;
  const bool sizeControl = offersSubgroupSizeControl(fn, physicalDevice, caps);

  // The features first: nothing is written to *out unless the chain can take what vksort needs.
  VkBool32* bufferDeviceAddress = nullptr;
  VkBool32* subgroupSizeControl = nullptr;
  VkBool32* computeFullSubgroups = nullptr;
  visitFeatureFields(reinterpret_cast<VkBaseOutStructure*>(features),
                     [&](VkStructureType type, Feature feature, VkBool32* field) {
                       if (type == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES && !v13)
                         return;  // not this device's struct
                       (feature == Feature::bufferDeviceAddress   ? bufferDeviceAddress
                        : feature == Feature::subgroupSizeControl ? subgroupSizeControl
                                                                  : computeFullSubgroups) = field;
                     });
  if (!bufferDeviceAddress)
    return fail(Result::errorInvalidArgument, "no struct in pFeatures's chain holds bufferDeviceAddress: chain a %s",
                v12 ? "VkPhysicalDeviceVulkan12Features" : "VkPhysicalDeviceBufferDeviceAddressFeatures");
  const bool useSizeControl = sizeControl && subgroupSizeControl;
  if (Status st = checkProvenSubgroupSize(caps, useSizeControl); !st) {
    if (sizeControl && !subgroupSizeControl && checkProvenSubgroupSize(caps, true))
      return fail(Result::errorInvalidArgument,
                  "%s may run subgroups of up to %u invocations, larger than vksort's kernels are proven at, and no "
                  "struct in pFeatures's chain holds subgroupSizeControl: chain a %s so that vksort can require %u",
                  caps.deviceName, caps.maxSubgroupSize,
                  v13 ? "VkPhysicalDeviceVulkan13Features" : "VkPhysicalDeviceSubgroupSizeControlFeatures",
                  kMaxProvenSubgroupSize);
    return st;
  }
  *bufferDeviceAddress = VK_TRUE;
  if (useSizeControl) *subgroupSizeControl = *computeFullSubgroups = VK_TRUE;

  *out = DeviceRequirements{};
  auto add = [&](const char* name) { out->extensionNames[out->extensionCount++] = name; };
  if (!v12) add(VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME);
  if (useSizeControl && !v13) add(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  // Ranking with subgroupPartitionNV, where a vendor's table asks for it.
  if (caps.hasPartitionedSubgroups && vendorTuning(caps).ranking == Ranking::partitioned)
    add(VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME);
  return {};
}

}  // namespace vksort
