#include "tuning.hpp"

#include <algorithm>

#include "shader_interface.h"

namespace vksort::detail {
namespace {

constexpr uint32_t kVendorAmd = 0x1002;
constexpr uint32_t kVendorNvidia = 0x10DE;
constexpr uint32_t kVendorIntel = 0x8086;

struct Preferred {
  uint32_t subgroupSize;
  uint32_t workgroupSize;
  uint32_t keysPerInvocation;
  uint32_t histogramTilesPerWorkgroup;
};

// Starting points per vendor. NVIDIA: measured on H100/H200 (README, "Performance").
// Others: untested shapes sized for their shared memory (AMD/Intel 64 KiB), wave64 on AMD.
Preferred preferredFor(const DeviceCaps& caps) {
  switch (caps.vendorId) {
    case kVendorNvidia: return {32, 256, 16, 8};
    case kVendorAmd: return {64, 256, 16, 8};
    case kVendorIntel: return {16, 256, 8, 8};
    default: return {caps.subgroupSize, 256, 8, 8};
  }
}

}  // namespace

uint32_t binningSharedBytes(const Tuning& t) {
  uint32_t maxSubgroups = t.workgroupSize / t.minSubgroupSize;
  uint32_t words = t.tileKeys()                 // s_tile
                   + maxSubgroups * kRadix      // s_subgroupCounts
                   + 3 * kRadix                 // s_digitCount, s_digitDest, s_digitScan
                   + maxSubgroups               // s_subgroupTotals
                   + 2;                         // s_ticket, s_mixedDigits
  return words * 4;
}

Tuning chooseTuning(const DeviceCaps& caps) {
  Preferred want = preferredFor(caps);
  Tuning t{};
  if (caps.canRequireSubgroupSize) {
    t.subgroupSize = std::clamp(want.subgroupSize, caps.minSubgroupSize, caps.maxSubgroupSize);
    t.requireSubgroupSize = true;
    t.minSubgroupSize = t.subgroupSize;
  } else {
    // Without size control, SPIR-V 1.5 compute shaders run at the device's subgroupSize.
    t.subgroupSize = caps.subgroupSize;
    t.requireSubgroupSize = false;
    t.minSubgroupSize = std::min(caps.subgroupSize, caps.minSubgroupSize);
  }
  t.workgroupSize = std::max(want.workgroupSize, t.subgroupSize);
  t.keysPerInvocation = want.keysPerInvocation;
  t.histogramTilesPerWorkgroup = want.histogramTilesPerWorkgroup;

  // Shrink the workgroup until it fits the device: per-subgroup counter rows grow with
  // workgroupSize / minSubgroupSize, which small subgroups (lavapipe: 4) make large.
  auto fits = [&](const Tuning& c) {
    return c.workgroupSize <= caps.maxWorkgroupInvocations && binningSharedBytes(c) <= caps.maxSharedMemory &&
           (!c.requireSubgroupSize || c.workgroupSize / c.subgroupSize <= caps.maxWorkgroupSubgroups);
  };
  while (!fits(t) && t.workgroupSize > t.subgroupSize) t.workgroupSize /= 2;
  while (!fits(t) && t.keysPerInvocation > 1) t.keysPerInvocation /= 2;
  t.histogramWorkgroupSize = t.workgroupSize;
  return t;
}

}  // namespace vksort::detail
