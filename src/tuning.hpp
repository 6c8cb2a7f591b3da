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
  bool partitionedRanking;             // subgroupPartitionNV rather than eight ballots per key
  bool lookbackPlainLoads;             // look-back reads status words with loads, not atomics
  uint32_t ballotWords;                // 32-bit words of a ballot the largest subgroup needs
  uint32_t histogramCopies;            // copies of the histogram kernel's shared counters

  uint32_t tileKeys() const { return workgroupSize * keysPerInvocation; }
};

// Shared memory of the binning kernel under `t`; mirrors onesweep.glsl's declarations.
uint32_t binningSharedBytes(const Tuning& t);

// The tuning for a device: a preferred shape per vendor, fitted to the device's limits.
// For measurements, the environment variable VKSORT_TUNING overrides the preferred shape, e.g.
// "workgroup=384,keys=20,histogram_tiles=8,histogram_copies=4,partitioned=0,plain_loads=1"
// (any subset); the fitting still applies.
Tuning chooseTuning(const DeviceCaps& caps);

}  // namespace vksort::detail
