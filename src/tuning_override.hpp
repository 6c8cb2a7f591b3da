// A developer's override of the tuning, for measurements and tests: the text of
// SorterDeveloperOptions::tuning, "name=value,..." (unsigned values; the benchmark and the tests
// take it from VKSORT_TUNING). chooseTuning() applies it in two steps:
// device-wide names to the vendor's choices before the tables are read, tile names to the tiers
// built from the tables (before they are fitted to the device). Names:
//   device-wide   algorithm (1 Onesweep, 2 reduce-then-scan: overrides the caller's), subgroup,
//                 histogram_workgroup, histogram_tiles, histogram_min_groups, histogram_copies,
//                 partitioned, atomic_ranking, plain_stores, patient_waits, chained_up_to,
//                 small_keys, small_kpi, small_tiles, small_workgroup, bitonic_keys_per_pass,
//                 bitonic_kpi, bitonic_workgroup, wave_workgroups (default: the device's SMs),
//                 portion_tiles (tiles per portion), wide_from (64-bit scatter addresses from
//                 this count)
//   tiers         tiers=N (drops tiers past N, or repeats the last one), tierN_from=count
//   a tile        [tierN_][CLASS]workgroup / keys / rounds, CLASS one of "" (32-bit pairs),
//                 wide_, alone_, wide_alone_; without tierN_, tier 0. A pairs class's value goes
//                 to its keys-alone class too where that had the same tile, unless it is named
//                 as well. "workgroup" alone:
//                 every class of tier 0.
//                 tierN_prefetch, tierN_wide_prefetch; tierN_fit (1: the tier's tiles fitted
//                 with the class's fit_percent)
//   per class     [tierN_]STEM[_SUFFIX]=value for STEM lookback_window, plain_loads, fit_percent,
//                 rank_first, persistent, hot_digit_from, hot_digit_to; SUFFIX one of _pairs,
//                 _wide, _alone, _wide_alone (none: every class); without tierN_, every tier.
//                 fit_percent without a tier changes only tiles that are fitted.
//   every tile    riding_values
// An unknown name or a malformed item is an error.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "status.hpp"
#include "tuning.hpp"

namespace vksort::detail {

struct TuningOverride {
  std::vector<std::pair<std::string, uint32_t>> settings;  // in the order given
};

// `text` (null: none), parsed; an error names an item that is malformed or names nothing.
Status parseTuningOverride(const char* text, TuningOverride* out);

// What the override sets beyond a vendor's choices.
struct OverrideExtras {
  Algorithm algorithm = Algorithm::automatic;  // automatic: the caller's
  uint32_t portionTiles = 0;
  uint32_t wideAddressesFrom = ~0u;
  std::optional<uint32_t> waveWorkgroups;      // none: the device's
};

// The device-wide names, onto `vendor` and `extras`.
void overrideDeviceChoices(const TuningOverride& o, VendorTuning* vendor, OverrideExtras* extras);

// The tier and tile names, onto the tiers built from the tables.
void overrideTiles(const TuningOverride& o, BinningTier* tiers, uint32_t* tierCount);

}  // namespace vksort::detail
