#include "device_caps.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace vksort::detail {
namespace {

struct EnabledFeatures {
  bool known = false;  // a VkDeviceCreateInfo was given
  bool bufferDeviceAddress = false;
  bool subgroupSizeControl = false;
  bool computeFullSubgroups = false;
};

// The features a VkDeviceCreateInfo enables that vksort cares about: from its pNext chain (the
// 1.0 features in pEnabledFeatures hold none of them).
EnabledFeatures readEnabledFeatures(const VkDeviceCreateInfo* info) {
  EnabledFeatures f;
  f.known = info != nullptr;
  visitFeatureFields(static_cast<const VkBaseInStructure*>(info ? info->pNext : nullptr),
                     [&](VkStructureType, Feature feature, const VkBool32* field) {
                       bool& enabled = feature == Feature::bufferDeviceAddress   ? f.bufferDeviceAddress
                                       : feature == Feature::subgroupSizeControl ? f.subgroupSizeControl
                                                                                 : f.computeFullSubgroups;
                       enabled |= *field != VK_FALSE;
                     });
  return f;
}

// Subgroup operations every kernel uses.
constexpr VkSubgroupFeatureFlags kRequiredSubgroupOps =
    VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT |
    VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_BIT;

// The device's extensions (empty where it cannot say).
std::vector<VkExtensionProperties> deviceExtensions(const InstanceFunctions& fn, VkPhysicalDevice physicalDevice) {
  uint32_t count = 0;
  if (fn.enumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, nullptr) != VK_SUCCESS) return {};
  std::vector<VkExtensionProperties> extensions(count);
  if (fn.enumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, extensions.data()) < VK_SUCCESS) return {};
  extensions.resize(count);
  return extensions;
}

bool listed(const std::vector<VkExtensionProperties>& extensions, const char* name) {
  for (const VkExtensionProperties& e : extensions)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

bool extensionEnabled(const VkDeviceCreateInfo* info, const char* name) {
  for (uint32_t i = 0; info && info->ppEnabledExtensionNames && i < info->enabledExtensionCount; ++i)
    if (info->ppEnabledExtensionNames[i] && std::strcmp(info->ppEnabledExtensionNames[i], name) == 0) return true;
  return false;
}

}  // namespace

Status queryDeviceCaps(const InstanceFunctions& fn, VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* info,
                       bool pipelineStatistics, DeviceCaps* caps) {
  EnabledFeatures enabled = readEnabledFeatures(info);

  VkPhysicalDeviceProperties2 base =
      vkStruct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  fn.getPhysicalDeviceProperties2(physicalDevice, &base);
  const VkPhysicalDeviceProperties& p = base.properties;
  if (p.apiVersion < VK_API_VERSION_1_1)
    return fail(Result::errorFeatureNotPresent, "vksort needs Vulkan 1.1 or later; %s has %u.%u", p.deviceName,
                VK_API_VERSION_MAJOR(p.apiVersion), VK_API_VERSION_MINOR(p.apiVersion));

  // Chain the size-control properties only where they exist: Vulkan 1.3, or the extension, which
  // enabling its features proves.
  bool haveSizeControl = p.apiVersion >= VK_API_VERSION_1_3 || enabled.subgroupSizeControl;
  // The SM count, where the device reports it (a property: the extension need not be enabled).
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm = vkStruct<VkPhysicalDeviceShaderSMBuiltinsPropertiesNV>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV);
  const std::vector<VkExtensionProperties> extensions = deviceExtensions(fn, physicalDevice);
  const bool haveSmCount = listed(extensions, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
  auto sizeControl = vkStruct<VkPhysicalDeviceSubgroupSizeControlProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES, haveSmCount ? &sm : nullptr);
  auto subgroup = vkStruct<VkPhysicalDeviceSubgroupProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
                                                               haveSizeControl ? static_cast<void*>(&sizeControl)
                                                               : haveSmCount   ? static_cast<void*>(&sm)
                                                                               : nullptr);
  auto driver =
      vkStruct<VkPhysicalDeviceDriverProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES, &subgroup);
  bool haveDriver = p.apiVersion >= VK_API_VERSION_1_2;
  auto props = vkStruct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                                     haveDriver ? static_cast<void*>(&driver) : &subgroup);
  fn.getPhysicalDeviceProperties2(physicalDevice, &props);

  VkPhysicalDeviceBufferDeviceAddressFeatures bda = vkStruct<VkPhysicalDeviceBufferDeviceAddressFeatures>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES);
  auto features = vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &bda);
  fn.getPhysicalDeviceFeatures2(physicalDevice, &features);

  *caps = DeviceCaps{};
  caps->vendorId = p.vendorID;
  caps->deviceId = p.deviceID;
  caps->driverVersion = p.driverVersion;
  std::memcpy(caps->pipelineCacheUuid, p.pipelineCacheUUID, VK_UUID_SIZE);
  caps->apiVersion = p.apiVersion;
  caps->driverId = haveDriver ? driver.driverID : VkDriverId(0);
  std::memcpy(caps->deviceName, p.deviceName, sizeof caps->deviceName);
  caps->maxSharedMemory = p.limits.maxComputeSharedMemorySize;
  caps->maxWorkgroupInvocations = p.limits.maxComputeWorkGroupInvocations;
  caps->maxWorkgroupCount[0] = p.limits.maxComputeWorkGroupCount[0];
  caps->maxWorkgroupCount[1] = p.limits.maxComputeWorkGroupCount[1];
  caps->subgroupSize = subgroup.subgroupSize;
  caps->minSubgroupSize = caps->maxSubgroupSize = subgroup.subgroupSize;
  caps->maxWorkgroupSubgroups = UINT32_MAX;
  if (haveSizeControl) {
    caps->minSubgroupSize = sizeControl.minSubgroupSize;
    caps->maxSubgroupSize = sizeControl.maxSubgroupSize;
    caps->maxWorkgroupSubgroups = sizeControl.maxComputeWorkgroupSubgroups;
    caps->canRequireSubgroupSize = enabled.subgroupSizeControl && enabled.computeFullSubgroups &&
                                   (sizeControl.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
  }

  caps->multiprocessors = haveSmCount ? sm.shaderSMCount : 0;
  caps->partitionedSubgroups = (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV) &&
                               extensionEnabled(info, VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME);
  caps->pipelineStatistics =
      pipelineStatistics && extensionEnabled(info, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  caps->hasSubgroupSizeControl = haveSizeControl || listed(extensions, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  caps->hasPartitionedSubgroups = (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV) &&
                                  listed(extensions, VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME);

  if (!(subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT))
    return fail(Result::errorFeatureNotPresent, "%s has no subgroup operations in compute shaders", p.deviceName);
  if ((subgroup.supportedOperations & kRequiredSubgroupOps) != kRequiredSubgroupOps)
    return fail(Result::errorFeatureNotPresent,
                "%s lacks subgroup operations vksort needs (basic, vote, arithmetic, ballot, shuffle): it has 0x%x",
                p.deviceName, subgroup.supportedOperations);
  if (subgroup.subgroupSize < 4 || caps->minSubgroupSize < 4)
    return fail(Result::errorFeatureNotPresent, "%s runs subgroups of fewer than 4 invocations", p.deviceName);
  if (!bda.bufferDeviceAddress)
    return fail(Result::errorFeatureNotPresent, "%s does not support bufferDeviceAddress", p.deviceName);
  if (enabled.known && !enabled.bufferDeviceAddress)
    return fail(Result::errorFeatureNotPresent,
                "bufferDeviceAddress is not enabled in SorterCreateInfo::pDeviceCreateInfo's pNext chain: set it in a "
                "VkPhysicalDeviceVulkan12Features there (vksort::getDeviceRequirements does it for you)");
  return {};
}

Status checkProvenSubgroupSize(const DeviceCaps& caps, bool sizeControl) {
  const uint32_t proven = kMaxProvenSubgroupSize;
  if (sizeControl ? caps.minSubgroupSize <= proven : caps.maxSubgroupSize <= proven) return {};
  if (!sizeControl && caps.hasSubgroupSizeControl && caps.minSubgroupSize <= proven)
    return fail(Result::errorFeatureNotPresent,
                "%s may run subgroups of up to %u invocations, and vksort's kernels are proven at 4 to %u: enable "
                "subgroupSizeControl and computeFullSubgroups (vksort::getDeviceRequirements does) so that vksort "
                "can require %u",
                caps.deviceName, caps.maxSubgroupSize, proven, std::min(caps.maxSubgroupSize, proven));
  return fail(Result::errorFeatureNotPresent,
              "%s %s %u invocations, and vksort's kernels are proven at 4 to %u only (docs/DEVICES.md)",
              caps.deviceName, sizeControl ? "runs no subgroups smaller than" : "may run subgroups of",
              sizeControl ? caps.minSubgroupSize : caps.maxSubgroupSize, proven);
}

bool offersSubgroupSizeControl(const InstanceFunctions& fn, VkPhysicalDevice physicalDevice, const DeviceCaps& caps) {
  if (!caps.hasSubgroupSizeControl) return false;
  auto features = vkStruct<VkPhysicalDeviceSubgroupSizeControlFeatures>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES);
  auto all = vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features);
  fn.getPhysicalDeviceFeatures2(physicalDevice, &all);
  auto properties = vkStruct<VkPhysicalDeviceSubgroupSizeControlProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES);
  auto props = vkStruct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &properties);
  fn.getPhysicalDeviceProperties2(physicalDevice, &props);
  return features.subgroupSizeControl && features.computeFullSubgroups &&
         (properties.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
}

Status checkChain(const VkBaseInStructure* chain, const char* name, const char* kind, const char* advice) {
  uint32_t at = 0;
  bool loops = false;
  const VkBaseInStructure* bad = implausibleLink(chain, &at, &loops);
  if (loops)
    return fail(Result::errorInvalidArgument,
                "%s's pNext chain loops: link %u's pNext leads back into it (or it passes %u links); end the chain "
                "with null",
                name, at, kMaxChainLinks);
  if (bad)
    return fail(Result::errorInvalidArgument, "link %u of %s's pNext chain is no %s (sType %d)%s", at, name, kind,
                int(bad->sType), advice);
  return {};
}

}  // namespace vksort::detail
