// A developer's override of the tuning, for measurements and tests: the text of
// SorterDeveloperOptions::tuning, "name=value,..." (unsigned values; the benchmark and the tests
// take it from VKSORT_TUNING). chooseTuning() applies it in two steps:
// device-wide names to the vendor's choices before the tables are read, tile names to the tiers
// built from the tables (before they are fitted to the device). The names: docs/TUNING.md.
// An unknown name or a malformed item is an error.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "status.hpp"
#include "tuning_types.hpp"

namespace vksort::detail {

struct TuningOverride {
  std::vector<std::pair<std::string, uint32_t>> settings;  // in the order given
  // The value `name` takes: its last item's (items apply in order); none where it is not named.
  std::optional<uint32_t> last(const char* name) const {
    std::optional<uint32_t> value;
    for (const auto& setting : settings)
      if (setting.first == name) value = setting.second;
    return value;
  }
  bool names(const char* name) const { return last(name).has_value(); }
};

// `text` (null: none), parsed; an error names an item that is malformed or names nothing.
Status parseTuningOverride(const char* text, TuningOverride* out);

// What the override sets beyond a vendor's choices.
struct OverrideExtras {
  Algorithm algorithm = Algorithm::automatic;  // automatic: the caller's
  uint32_t portionTiles = 0;
  uint32_t wideAddressesFrom = ~0u;
  std::optional<uint32_t> waveWorkgroups;  // none: the device's
  bool skipConstantPasses = true;
  uint32_t lookbackWithheld = 0;  // one tile in N publishes no look-back status
};

// The device-wide names, onto `vendor` and `extras`.
void overrideDeviceChoices(const TuningOverride& o, VendorTuning* vendor, OverrideExtras* extras);

// The tier and tile names, onto the tiers built from the tables.
void overrideTiles(const TuningOverride& o, BinningTier* tiers, uint32_t* tierCount);

}  // namespace vksort::detail
