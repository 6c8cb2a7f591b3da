// Tuning: the shape of every kernel, chosen per device as plain data when a sorter is created.
// The vendors' wishes are literal tables (tuning_tables.cpp); chooseTuning() fits them to the
// device's limits. Which kernel variant a shape runs is decided later, in one place (variant.hpp).
#pragma once
#include <cstdint>

#include "device_caps.hpp"
#include "for_tuner.hpp"
#include "tuning_types.hpp"

namespace vksort::detail {

// The tables of the device's vendor (tuning_tables.cpp).
const VendorTuning& vendorTuning(const DeviceCaps& caps);
// The tables of a device no vendor table knows: what AMD, Intel and others start from (the
// developer option untuned=1 gives them to any device, to show what the tuner makes of them).
const VendorTuning& untunedTuning();

// A tile class's name, as the tables and the override name it: pairs32, pairs_wide, alone32, alone_wide.
VKSORT_FOR_TUNER const char* className(uint32_t cls);

// Shared memory of the binning kernel with tile `shape` for elements of `words`; mirrors
// binning_tile.glsl's declarations.
uint32_t binningSharedBytes(const Tuning& t, const TileShape& shape, uint32_t words, bool keysAlone);

// The tuning for a device: its vendor's tables for the algorithm (`requested`; for automatic,
// the tuned one, else Onesweep), with the tuned tiles and a developer's override (tuning_override.hpp) applied, fitted
// to the device's limits. `tuned`: tiles measured on the device (null: none), applied over the tables and under the
// override.
struct TuningOverride;
Tuning chooseTuning(const DeviceCaps& caps, Algorithm requested, const TuningOverride& developer,
                    const TunedTiles* tuned = nullptr);

}  // namespace vksort::detail
