// Devices as queryDeviceCaps() would describe them, for the tests that need no GPU: the tuning
// each vendor's table gives, and the plans it makes.
#pragma once
#include <cstdint>
#include <vector>

#include "device_caps.hpp"

namespace vksort_test {

// Subgroup size control, 48 KiB of shared memory, 1024 invocations.
inline vksort::detail::DeviceCaps capsOf(uint32_t vendorId, VkDriverId driver, uint32_t subgroupSize,
                                         uint32_t multiprocessors) {
  vksort::detail::DeviceCaps caps;
  caps.vendorId = vendorId;
  caps.apiVersion = VK_API_VERSION_1_3;
  caps.driverId = driver;
  caps.maxSharedMemory = 48u << 10;
  caps.maxWorkgroupInvocations = 1024;
  caps.maxWorkgroupCount[0] = 0x7FFFFFFFu;
  caps.maxWorkgroupCount[1] = 65535;
  caps.subgroupSize = caps.minSubgroupSize = caps.maxSubgroupSize = subgroupSize;
  caps.maxWorkgroupSubgroups = 1024 / subgroupSize;
  caps.canRequireSubgroupSize = true;
  caps.multiprocessors = multiprocessors;
  return caps;
}

inline vksort::detail::DeviceCaps h100() { return capsOf(0x10DE, VK_DRIVER_ID_NVIDIA_PROPRIETARY, 32, 132); }

// AMD RDNA: wave64 by default, wave32 where a size is required.
inline vksort::detail::DeviceCaps rdna() {
  vksort::detail::DeviceCaps caps = capsOf(0x1002, VK_DRIVER_ID_AMD_OPEN_SOURCE, 64, 0);
  caps.minSubgroupSize = 32;
  caps.maxWorkgroupSubgroups = 1024 / 32;
  caps.hasSubgroupSizeControl = true;
  return caps;
}

struct FakeDevice {
  const char* name;
  vksort::detail::DeviceCaps caps;
};

// One device per vendor table, and lavapipe (32 KiB, subgroups 4 to 16, no size control).
inline std::vector<FakeDevice> fakeDevices() {
  vksort::detail::DeviceCaps lavapipe = capsOf(0x10005, VK_DRIVER_ID_MESA_LLVMPIPE, 8, 0);
  lavapipe.maxSharedMemory = 32u << 10;
  lavapipe.minSubgroupSize = 4;
  lavapipe.maxSubgroupSize = 16;
  lavapipe.canRequireSubgroupSize = false;
  return {{"nvidia-h100", h100()},
          {"amd", rdna()},
          {"intel", capsOf(0x8086, VK_DRIVER_ID_INTEL_OPEN_SOURCE_MESA, 16, 0)},
          {"unknown", capsOf(0x1234, VkDriverId(0), 32, 0)},
          {"lavapipe", lavapipe}};
}

}  // namespace vksort_test
