// Tuning data: what on-device tuning found (TunedTiles), as the bytes an application stores
// beside its pipeline cache and gives back to createSorter. They are keyed to the device (vendor
// and device ID), its driver (version and pipeline cache UUID) and this library's version, and
// carry a checksum: data from anywhere else, or damaged, is refused whole, never half-used.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "device_caps.hpp"
#include "for_tuner.hpp"
#include "status.hpp"
#include "tuning_types.hpp"

namespace vksort::detail {

VKSORT_FOR_TUNER std::vector<uint8_t> encodeTuningData(const DeviceCaps& caps, const TunedTiles& tuned);

// Reads `size` bytes at `data` into *out; fails with errorIncompatibleTuning, saying why, where
// they are not vksort's tuning data, are damaged, or were made by another library version, on
// another device or with another driver. *out is untouched then.
Status decodeTuningData(const DeviceCaps& caps, const void* data, size_t size, TunedTiles* out);

}  // namespace vksort::detail
