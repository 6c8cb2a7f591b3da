// Tuning: the shape of every kernel, chosen per device as plain data when a sorter is created.
#pragma once
#include <cstdint>

#include "device_caps.hpp"

namespace vksort::detail {

struct Tuning {
  uint32_t subgroupSize;               // the size the kernels are built for
  bool requireSubgroupSize;            // pipelines require it, with full subgroups
  uint32_t minSubgroupSize;            // smallest size they may run with: sizes per-subgroup arrays
  uint32_t workgroupSize;              // binning and scan workgroups
  uint32_t keysPerInvocation;          // binning tile = workgroupSize * keysPerInvocation
  uint32_t histogramWorkgroupSize;
  uint32_t histogramTilesPerWorkgroup; // binning tiles one histogram workgroup reads

  uint32_t tileKeys() const { return workgroupSize * keysPerInvocation; }
};

// Shared memory of the binning kernel under `t`; mirrors onesweep.comp's declarations.
uint32_t binningSharedBytes(const Tuning& t);

// The tuning for a device: a preferred shape per vendor, fitted to the device's limits.
Tuning chooseTuning(const DeviceCaps& caps);

}  // namespace vksort::detail
