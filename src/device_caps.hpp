// What vksort needs to know about a device: its identity, limits, subgroup properties and which
// optional features the caller enabled; and the check that it can run vksort at all.
#pragma once
#include "device_table.hpp"
#include "status.hpp"

namespace vksort::detail {

struct DeviceCaps {
  uint32_t vendorId = 0;
  uint32_t apiVersion = 0;
  VkDriverId driverId = VkDriverId(0);  // 0 where the device cannot say (before Vulkan 1.2)
  char deviceName[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE] = {};
  uint32_t maxSharedMemory = 0;        // maxComputeSharedMemorySize
  uint32_t maxWorkgroupInvocations = 0;
  uint32_t maxWorkgroupCount[2] = {};  // x and y
  uint32_t subgroupSize = 0;           // the size compute shaders get when none is required
  uint32_t minSubgroupSize = 0;        // with subgroup size control; else subgroupSize
  uint32_t maxSubgroupSize = 0;
  uint32_t maxWorkgroupSubgroups = 0;  // with subgroup size control; else unbounded
  bool canRequireSubgroupSize = false; // subgroupSizeControl + computeFullSubgroups enabled, and
                                       // compute in requiredSubgroupSizeStages
  uint32_t multiprocessors = 0;        // SMs (VK_NV_shader_sm_builtins' shaderSMCount); 0: unknown
  bool partitionedSubgroups = false;   // VK_NV_shader_subgroup_partitioned enabled, in compute
  bool pipelineStatistics = false;     // asked for (SorterDeveloperOptions) and the caller enabled
                                       // VK_KHR_pipeline_executable_properties (a developer's aid)
  bool hasSubgroupSizeControl = false; // the device offers it (Vulkan 1.3 or the extension)
  bool hasPartitionedSubgroups = false;// the device offers VK_NV_shader_subgroup_partitioned
};

// Fills *caps; fails with errorFeatureNotPresent if the device cannot run vksort. `info`: what
// the device was created with (null: unknown; bufferDeviceAddress taken as enabled).
Status queryDeviceCaps(const InstanceFunctions& fn, VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* info,
                       bool pipelineStatistics, DeviceCaps* caps);

// Whether the device offers subgroup size control with full subgroups for compute (features and
// property), which vksort uses where it is enabled.
bool offersSubgroupSizeControl(const InstanceFunctions& fn, VkPhysicalDevice physicalDevice, const DeviceCaps& caps);

}  // namespace vksort::detail
