// What vksort needs to know about a device: its identity, limits, subgroup properties and which
// optional features the caller enabled; and the check that it can run vksort at all.
#pragma once
#include <type_traits>

#include "device_table.hpp"
#include "status.hpp"

namespace vksort::detail {

struct DeviceCaps {
  uint32_t vendorId = 0;
  uint32_t deviceId = 0;
  uint32_t driverVersion = 0;
  uint8_t pipelineCacheUuid[VK_UUID_SIZE] = {};  // tuning data is keyed to these (tuning_data.cpp)
  uint32_t apiVersion = 0;
  VkDriverId driverId = VkDriverId(0);  // 0 where the device cannot say (before Vulkan 1.2)
  char deviceName[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE] = {};
  uint32_t maxSharedMemory = 0;  // maxComputeSharedMemorySize
  uint32_t maxWorkgroupInvocations = 0;
  uint32_t maxWorkgroupCount[2] = {};  // x and y
  uint32_t subgroupSize = 0;           // the size compute shaders get when none is required
  uint32_t minSubgroupSize = 0;        // with subgroup size control; else subgroupSize
  uint32_t maxSubgroupSize = 0;
  uint32_t maxWorkgroupSubgroups = 0;    // with subgroup size control; else unbounded
  bool canRequireSubgroupSize = false;   // subgroupSizeControl + computeFullSubgroups enabled, and
                                         // compute in requiredSubgroupSizeStages
  uint32_t multiprocessors = 0;          // SMs (VK_NV_shader_sm_builtins' shaderSMCount); 0: unknown
  bool partitionedSubgroups = false;     // VK_NV_shader_subgroup_partitioned enabled, in compute
  bool pipelineStatistics = false;       // asked for (SorterDeveloperOptions) and the caller enabled
                                         // VK_KHR_pipeline_executable_properties (a developer's aid)
  bool hasSubgroupSizeControl = false;   // the device offers it (Vulkan 1.3 or the extension)
  bool hasPartitionedSubgroups = false;  // the device offers VK_NV_shader_subgroup_partitioned
};

// The features vksort reads from a device's create info, or sets in a caller's feature chain.
enum class Feature { bufferDeviceAddress, subgroupSizeControl, computeFullSubgroups };

// Field `member` of the struct of type T that `s` points to, const where Base is.
template <class T, class Base>
auto* featureField(Base* s, VkBool32 T::*member) {
  using Struct = std::conditional_t<std::is_const_v<Base>, const T, T>;
  return &(reinterpret_cast<Struct*>(s)->*member);
}

// The first link of a pNext chain that may extend VkDeviceCreateInfo that is no Vulkan struct of
// that kind, and its position (1: the first); null where every link is plausible. The structs
// allowed there have an extension's sType (1000000000 and up) or are the core
// VkPhysicalDeviceVulkan1xFeatures (49, 51, 53; 1.4's 55); core 1.0's sTypes are below 49. So a
// struct of another kind, or a VkPhysicalDeviceFeatures (VkBool32s, not a chain: "sType" 0 or 1),
// stops the walk before its "pNext" is followed. *loops: the link returned is one whose pNext
// leads back into the chain, or the kMaxChainLinks-th (a walk of it would never end): a second
// pointer follows at half speed over the links already checked, and meets the first in a loop.
constexpr uint32_t kMaxChainLinks = 1024;  // far more than Vulkan has structs to chain
inline const VkBaseInStructure* implausibleLink(const VkBaseInStructure* chain, uint32_t* position, bool* loops) {
  *position = 1;
  *loops = false;
  const VkBaseInStructure* slow = chain;
  for (const VkBaseInStructure* s = chain; s; s = s->pNext, ++*position) {
    const uint32_t type = uint32_t(s->sType);
    const bool versionFeatures = type == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES ||
                                 type == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES ||
                                 type == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES || type == 55u;
    if (!versionFeatures && (type < 1000000000u || type >= 1001000000u)) return s;
    if (*position % 2 == 0) slow = slow->pNext;
    if (s->pNext && (s->pNext == slow || *position >= kMaxChainLinks)) return *loops = true, s;
  }
  return nullptr;
}

// The caller's pNext chain `name` checked by implausibleLink(): a loop, or a link that is no
// `kind` (followed by `advice`), refused with its position.
Status checkChain(const VkBaseInStructure* chain, const char* name, const char* kind, const char* advice);

// Calls visit(sType, feature, field) for each VkBool32 field, in the structs of `chain`, that
// holds one of those features: the one place that knows which struct holds which. `Base` is
// const VkBaseInStructure to read a chain (fields const VkBool32*), VkBaseOutStructure to set
// one (VkBool32*). Structs are told apart by sType only.
template <class Base, class Visit>
void visitFeatureFields(Base* chain, Visit&& visit) {
  for (Base* s = chain; s; s = s->pNext) {
    switch (s->sType) {
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES:
        visit(s->sType, Feature::bufferDeviceAddress,
              featureField(s, &VkPhysicalDeviceVulkan12Features::bufferDeviceAddress));
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES:
        visit(s->sType, Feature::bufferDeviceAddress,
              featureField(s, &VkPhysicalDeviceBufferDeviceAddressFeatures::bufferDeviceAddress));
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES:
        visit(s->sType, Feature::subgroupSizeControl,
              featureField(s, &VkPhysicalDeviceVulkan13Features::subgroupSizeControl));
        visit(s->sType, Feature::computeFullSubgroups,
              featureField(s, &VkPhysicalDeviceVulkan13Features::computeFullSubgroups));
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES:
        visit(s->sType, Feature::subgroupSizeControl,
              featureField(s, &VkPhysicalDeviceSubgroupSizeControlFeatures::subgroupSizeControl));
        visit(s->sType, Feature::computeFullSubgroups,
              featureField(s, &VkPhysicalDeviceSubgroupSizeControlFeatures::computeFullSubgroups));
        break;
      default: break;
    }
  }
}

// Fills *caps; fails with errorFeatureNotPresent if the device cannot run vksort. `info`: what
// the device was created with (null: unknown; bufferDeviceAddress taken as enabled).
Status queryDeviceCaps(const InstanceFunctions& fn, VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* info,
                       bool pipelineStatistics, DeviceCaps* caps);

// The largest subgroup size every kernel has been run at by the suites, with validation: 4, 8 and
// 16 on lavapipe in CI, 32 on NVIDIA GPUs. Larger sizes stay unproven: llvmpipe advertises 32 to
// 128 at LP_NATIVE_VECTOR_WIDTH 1024 to 4096 but runs subgroups of 16 there (its vectors stop at
// 512 bits; the setup suite's subgroup probe shows it), and no GPU lent to us runs them.
inline constexpr uint32_t kMaxProvenSubgroupSize = 32;

// Fails with errorFeatureNotPresent where the kernels could run at a subgroup size larger than
// kMaxProvenSubgroupSize: the device's minimum, where `sizeControl` (a size can be required), else
// its maximum. The message says what would let vksort require a proven size.
Status checkProvenSubgroupSize(const DeviceCaps& caps, bool sizeControl);

// Whether the device offers subgroup size control with full subgroups for compute (features and
// property), which vksort uses where it is enabled.
bool offersSubgroupSizeControl(const InstanceFunctions& fn, VkPhysicalDevice physicalDevice, const DeviceCaps& caps);

}  // namespace vksort::detail
