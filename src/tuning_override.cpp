#include "tuning_override.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string_view>
#include <tuple>

namespace vksort::detail {
namespace {

// Suffixes of per-class stems and prefixes of tile fields, by tile class.
constexpr const char* kSuffixes[kTileClasses] = {"_pairs", "_wide", "_alone", "_wide_alone"};
constexpr const char* kPrefixes[kTileClasses] = {"", "wide_", "alone_", "wide_alone_"};

// `name` without "tierN_": N, or kMaxTileTiers where it names no tier.
uint32_t tierNamed(std::string_view* name) {
  if (name->size() > 6 && name->substr(0, 4) == "tier" && (*name)[4] >= '0' && (*name)[4] < char('0' + kMaxTileTiers) &&
      (*name)[5] == '_') {
    const uint32_t tier = uint32_t((*name)[4] - '0');
    name->remove_prefix(6);
    return tier;
  }
  return kMaxTileTiers;
}

// The classes that STEM[_SUFFIX] names (a bit each), or 0 where `name` is not the stem's.
uint32_t classesNamed(std::string_view name, std::string_view stem) {
  if (name.substr(0, stem.size()) != stem) return 0;
  const std::string_view rest = name.substr(stem.size());
  if (rest.empty()) return (1u << kTileClasses) - 1;
  for (uint32_t cls = 0; cls < kTileClasses; ++cls)
    if (rest == kSuffixes[cls]) return 1u << cls;
  return 0;
}

// A per-class field of a shape, by its stem (VKSORT_TILE_SHAPE_FIELDS).
bool setClassField(TileShape* s, std::string_view stem, uint32_t v) {
#define VKSORT_SET_FIELD(type, name, fieldStem)    \
  if (const char* f = fieldStem; f && stem == f) { \
    s->name = type(v);                             \
    return true;                                   \
  }
  VKSORT_TILE_SHAPE_FIELDS(VKSORT_SET_FIELD)
#undef VKSORT_SET_FIELD
  return false;
}
// The per-class stems, in the fields' order.
#define VKSORT_STEM(type, name, stem) stem,
constexpr const char* kAllStems[] = {VKSORT_TILE_SHAPE_FIELDS(VKSORT_STEM)};
#undef VKSORT_STEM
constexpr size_t kClassStemCount = [] {
  size_t n = 0;
  for (const char* s : kAllStems) n += s != nullptr;
  return n;
}();
constexpr std::array<const char*, kClassStemCount> kClassStems = [] {
  std::array<const char*, kClassStemCount> out{};
  size_t n = 0;
  for (const char* s : kAllStems)
    if (s) out[n++] = s;
  return out;
}();

// A device-wide name's value onto `v` or `x`; false where `name` is none of them.
bool setDeviceChoice(std::string_view name, uint32_t value, VendorTuning* v, OverrideExtras* x) {
  if (name == "algorithm") {
    if (value <= uint32_t(Algorithm::reduceThenScan)) x->algorithm = Algorithm(value);
  } else if (name == "subgroup") v->subgroupSize = value;
  else if (name == "histogram_workgroup") v->histogramWorkgroupSize = value;
  else if (name == "histogram_tiles") v->histogramTilesPerWorkgroup = value;
  else if (name == "histogram_min_groups") v->histogramMinWorkgroups = value;
  else if (name == "histogram_copies") v->histogramCopies = value;
  else if (name == "partitioned" || name == "atomic_ranking") {
    // The strategy named on; named off, the one the vendor's tables otherwise promise anywhere.
    const Ranking named = name == "partitioned" ? Ranking::partitioned : Ranking::atomics;
    if (value != 0) v->ranking = named;
    else if (v->ranking == named) v->ranking = Ranking::ballots;
  } else if (name == "plain_stores") v->lookbackPlainStores = value != 0;
  else if (name == "patient_waits") v->patientWaits = value != 0;
  else if (name == "lookback_wait") v->lookbackWait = value;
  else if (name == "chained_up_to") v->chainedUpTo = value;
  else if (name == "small_keys") v->smallSortKeys = value;
  else if (name == "small_kpi") v->smallKeysPerInvocation = value;
  else if (name == "small_tiles") v->smallTiles = std::clamp(value, 1u, kMaxSmallTiles / 2);
  else if (name == "small_workgroup") v->smallWorkgroupSize = value;
  else if (name == "bitonic_keys_per_pass") v->bitonicKeysPerPass = value;
  else if (name == "bitonic_kpi") v->bitonicKeysPerInvocation = value;
  else if (name == "bitonic_workgroup") v->bitonicWorkgroupSize = value;
  else if (name == "wave_workgroups") x->waveWorkgroups = value;
  else if (name == "portion_tiles") x->portionTiles = value;
  else if (name == "wide_from") x->wideAddressesFrom = value;
  else if (name == "skip_constant_passes") x->skipConstantPasses = value != 0;
  else if (name == "withhold_posts") x->lookbackWithheld = value;
  else return false;
  return true;
}

// Whether overrideDeviceChoices() or overrideTiles() reads `name`.
bool knownName(std::string_view name) {
  VendorTuning vendor{};
  OverrideExtras extras;
  // untuned: chooseTuning() reads it before the vendor's tables, in their place.
  if (setDeviceChoice(name, 0, &vendor, &extras) || name == "untuned" || name == "tiers" || name == "riding_values")
    return true;
  const bool tierNamedHere = tierNamed(&name) < kMaxTileTiers;
  if (tierNamedHere && (name == "from" || name == "prefetch" || name == "wide_prefetch" || name == "fit")) return true;
  for (const char* prefix : kPrefixes) {
    const std::string_view p = prefix;
    if (name.substr(0, p.size()) != p) continue;
    const std::string_view what = name.substr(p.size());
    if (what == "workgroup" || what == "keys" || what == "rounds") return true;
  }
  for (const char* stem : kClassStems)
    if (classesNamed(name, stem)) return true;
  return false;
}

}  // namespace

Status parseTuningOverride(const char* text, TuningOverride* out) {
  TuningOverride o;
  for (std::string_view rest = text ? text : ""; !rest.empty();) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string name(item.substr(0, eq));
    const std::string value(eq == std::string_view::npos ? "" : item.substr(eq + 1));
    char* end = nullptr;
    const unsigned long v = value.empty() ? 0 : std::strtoul(value.c_str(), &end, 10);
    if (eq == std::string_view::npos || value.empty() || *end != '\0' || value[0] == '-' || v > 0xFFFFFFFFul)
      return fail(Result::errorInvalidArgument,
                  "tuning override item \"%s\" is not name=value with an unsigned 32-bit value",
                  std::string(item).c_str());
    if (!knownName(name))
      return fail(Result::errorInvalidArgument,
                  "tuning override \"%s\" names nothing vksort tunes (docs/TUNING.md lists the names)", name.c_str());
    o.settings.emplace_back(name, uint32_t(v));
  }
  *out = std::move(o);
  return {};
}

void overrideDeviceChoices(const TuningOverride& o, VendorTuning* v, OverrideExtras* x) {
  for (const auto& [name, value] : o.settings) setDeviceChoice(name, value, v, x);
}

void overrideTiles(const TuningOverride& o, BinningTier* tiers, uint32_t* tierCount) {
  // The tiers first: their number, then where each starts (a tier added repeats the one before).
  auto grow = [&](uint32_t count) {
    for (; *tierCount < count; ++*tierCount) tiers[*tierCount] = tiers[*tierCount - 1];
  };
  for (const auto& [name, value] : o.settings) {
    std::string_view field = name;
    const uint32_t tier = tierNamed(&field);
    if (name == "tiers") {
      const uint32_t count = std::clamp(value, 1u, kMaxTileTiers);
      grow(count);
      *tierCount = count;
    } else if (tier < kMaxTileTiers && tier > 0 && field == "from") {
      grow(tier + 1);
      tiers[tier].from = value;
    }
  }
  // Then the tiles: pairs classes' shape fields (which their keys-alone classes take too where
  // they had the same tile), then the keys-alone classes' own, so that these win.
  uint32_t fitPercent[kTileClasses] = {100, 100, 100, 100};  // what tierN_fit=1 gives
  for (bool aloneOwn : {false, true})
    for (const auto& [name, value] : o.settings) {
      std::string_view field = name;
      const uint32_t tier = tierNamed(&field);
      const uint32_t first = tier < kMaxTileTiers ? tier : 0;
      const uint32_t last = tier < kMaxTileTiers ? tier + 1 : *tierCount;
      if (tier < kMaxTileTiers && tier >= *tierCount) continue;
      // Shape fields: [CLASS]workgroup / keys / rounds, longest prefix first.
      bool shapeField = false;
      for (uint32_t cls = kTileClasses; cls-- > 0 && !shapeField;) {
        const std::string_view prefix = kPrefixes[cls];
        if (field.substr(0, prefix.size()) != prefix) continue;
        const std::string_view what = field.substr(prefix.size());
        if (what != "workgroup" && what != "keys" && what != "rounds") continue;
        shapeField = true;
        if (classKeysAlone(cls) != aloneOwn) break;
        // "workgroup" of tier 0 without a tier: every class; otherwise the class, and a pairs
        // class's keys-alone class.
        const bool everyClass = tier == kMaxTileTiers && field == "workgroup";
        auto geometry = [&](uint32_t c) {
          const TileShape& s = tiers[first].shape[c];
          return std::make_tuple(s.workgroupSize, s.keysPerInvocation, s.reorderRounds);
        };
        const bool siblingAlike = !aloneOwn && geometry(cls) == geometry(cls + 2);
        for (uint32_t c = 0; c < kTileClasses; ++c) {
          if (!everyClass && c != cls && !(siblingAlike && c == cls + 2)) continue;
          TileShape& s = tiers[first].shape[c];
          if (what == "workgroup") s.workgroupSize = value;
          else if (what == "keys") s.keysPerInvocation = value;
          else s.reorderRounds = value;
        }
      }
      if (shapeField || aloneOwn) continue;
      if (field == "prefetch" || field == "wide_prefetch") {
        if (tier < kMaxTileTiers)
          tiers[tier].shape[field == "prefetch" ? kPairs32 : kPairsWide].prefetchPairs = value != 0;
      } else if (field == "fit" && tier < kMaxTileTiers) {
        for (uint32_t c = 0; c < kTileClasses; ++c) tiers[tier].shape[c].fitPercent = value != 0 ? fitPercent[c] : 0;
      } else if (field == "riding_values") {
        for (uint32_t i = 0; i < *tierCount; ++i)
          for (TileShape& s : tiers[i].shape) s.ridingValues = value != 0;
      } else {
        for (const char* stem : kClassStems) {
          const uint32_t classes = classesNamed(field, stem);
          if (!classes) continue;
          for (uint32_t c = 0; c < kTileClasses; ++c) {
            if (!(classes >> c & 1)) continue;
            if (tier == kMaxTileTiers && std::string_view(stem) == "fit_percent") fitPercent[c] = value;
            for (uint32_t i = first; i < last; ++i) {
              TileShape& s = tiers[i].shape[c];
              if (tier == kMaxTileTiers && std::string_view(stem) == "fit_percent" && s.fitPercent == 0) continue;
              setClassField(&s, stem, value);
            }
          }
          break;
        }
      }
    }
}

}  // namespace vksort::detail
