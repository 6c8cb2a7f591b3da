// Where each part of the scratch buffer lies, for a tuning, a configuration and a maximum count.
// The one place that knows the scratch layout.
#pragma once
#include <cstdint>

#include "tuning.hpp"

namespace vksort::detail {

// Byte offsets from the start of the scratch range.
struct ScratchLayout {
  VkDeviceSize header;     // shader_interface.h: histograms / bin starts, count, dispatches
  VkDeviceSize tickets;    // one tile-ticket counter per binning dispatch
  VkDeviceSize status[2];  // Onesweep: look-back words of even and odd binning dispatches:
                           // [tile][kRadix] each, for the tiles of one portion
  VkDeviceSize table;      // reduce-then-scan: the tile table [kRadix][tile]
  VkDeviceSize keysAlt;    // the other buffer of the key ping-pong
  VkDeviceSize valuesAlt;  // the other buffer of the value ping-pong (pairs only)
  VkDeviceSize size;       // total bytes
};

// Every part starts at a multiple of this (wide loads; generous for any device).
constexpr VkDeviceSize kScratchAlignment = 256;

ScratchLayout scratchLayout(const Tuning& tuning, const SortConfig& config, uint32_t maxCount);

}  // namespace vksort::detail
