// Look-back with fallback (glsl/lookback.glsl): a look-back whose predecessor has published
// nothing after the tuning's wait counts that tile's digit from its keys, publishes it and goes
// on, so that no workgroup waits on another being scheduled. The forced fallback
// (lookback_wait=0) counts every tile's nearest predecessor from its keys whatever it published,
// on any device, and falls back at once on any other it would wait for. Sorts with it must be
// byte-identical to the reference, for every key and value type, direct and indirect counts, the
// chained sort, portions and persistent workgroups, and the header must count at least one
// fallback per digit for every tile but each portion's first. A stress case makes real fallbacks
// frequent (tiny tiles, a one-turn wait) and logs how many.
#include <algorithm>

#include "shader_interface.h"
#include "test_support.hpp"

using namespace vksort_test;
using vksort::KeyType;
using vksort::SortOrder;
using vksort::ValueType;
namespace detail = vksort::detail;

namespace {

const vksort::SortConfig kFallbackConfigs[] = {
    configOf(KeyType::u32, ValueType::none, SortOrder::ascending, 0, 0),
    configOf(KeyType::u32, ValueType::u32, SortOrder::ascending, 0, 0),
    configOf(KeyType::i32, ValueType::u64, SortOrder::descending, 0, 0),
    configOf(KeyType::f32, ValueType::u32, SortOrder::ascending, 4, 28),
    configOf(KeyType::u64, ValueType::none, SortOrder::ascending, 0, 0),
    configOf(KeyType::i64, ValueType::u32, SortOrder::ascending, 0, 40),
    configOf(KeyType::f64, ValueType::u64, SortOrder::descending, 0, 0),
};

// Look-backs of a sort: one per digit of every tile but the first of each portion, each pass.
uint64_t lookbacksOf(const detail::SortScratch& s, uint32_t n) {
  const uint32_t tiles = (n + s.tileKeys - 1) / s.tileKeys;
  return uint64_t(s.passes) * detail::kRadix * (tiles - (s.chained ? 1 : s.portions));
}

struct Variant {
  const char* tuning;  // added to the forced fallback's
  bool indirect;
  uint32_t configs;  // the first this many of kFallbackConfigs
};

}  // namespace

TEST_SUITE("fallback") {
  TEST_CASE("forced fallback sorts right: every type, direct, indirect, chained, portions, persistent") {
    const Variant variants[] = {
        {"chained_up_to=0", false, 7},
        {"chained_up_to=0", true, 3},
        {"chained_up_to=4294967295", false, 3},
        {"chained_up_to=0,portion_tiles=2", false, 3},
        {"chained_up_to=0,portion_tiles=2", true, 3},
        {"chained_up_to=0,persistent=1", false, 3},
    };
    uint32_t seed = 1;
    for (const Variant& v : variants) {
      // One sorter per variant: its pipelines are built once for all the configs.
      TunedSorter sorter((std::string("algorithm=1,small_keys=0,lookback_wait=0,") + v.tuning).c_str());
      const TestProperties p = testProperties(gpu().sorter);
      for (uint32_t i = 0; i < v.configs; ++i) {
        const vksort::SortConfig& c = kFallbackConfigs[i];
        CAPTURE(std::string(v.tuning));
        CAPTURE(v.indirect);
        CAPTURE(int(c.keyType));
        CAPTURE(int(c.valueType));
        const uint32_t n = 3 * (wideElements(c) ? p.wideTileKeys : p.tileKeys) + 5;
        const uint32_t sorted = v.indirect ? n - 2 : n;  // indirect: the last 2 stay where they are
        const std::vector<uint32_t> keys = makeKeysFor(c, Dist::uniform, n, ++seed);
        const std::vector<uint32_t> values = makeValues(n, c.valueType);
        const std::vector<uint32_t>* vals = c.valueType == ValueType::none ? nullptr : &values;
        const IndirectCount count{sorted};
        const detail::SortScratch s = detail::sortScratch(gpu().sorter, c, sorted, n, v.indirect);
        Sorted out = gpuSort(keys, vals, c, v.indirect ? &count : nullptr);
        requireNoValidationMessages();
        // The sorted part against the reference, the rest untouched.
        const size_t kw = keyWords(c), vw = vals ? values.size() / n : 0;
        CHECK(std::equal(keys.begin() + sorted * kw, keys.end(), out.keys.begin() + sorted * kw));
        CHECK(std::equal(values.begin() + sorted * vw, values.begin() + n * vw, out.values.begin() + sorted * vw));
        Sorted head = out;
        head.keys.resize(sorted * kw);
        head.values.resize(sorted * vw);
        checkAgainstReference(std::vector<uint32_t>(keys.begin(), keys.begin() + sorted * kw), head, vals != nullptr,
                              c);
        // Every tile but each portion's first fell back on each digit in each pass, at least.
        const uint64_t lookbacks = lookbacksOf(s, sorted);
        CAPTURE(s.passes);
        CAPTURE(s.portions);
        CAPTURE(lookbacks);
        REQUIRE(lookbacks > 0);
        CHECK(out.header[detail::kHeaderFallbacks] >= lookbacks);
      }
    }
  }

  TEST_CASE("stress: many small tiles and a one-turn wait make fallbacks frequent; sorts stay right") {
    // Tiles of a subgroup's width x 2 keys, every workgroup looping over tiles, and a look-back
    // that waits one turn before it falls back: every predecessor still counting or ranking is
    // counted again from its keys. On a device that runs few workgroups at once (lavapipe with
    // LP_NUM_THREADS=1 or 2, which CI runs) that is most of them. The count goes to the log.
    TunedSorter sorter(
        "algorithm=1,small_keys=0,chained_up_to=0,tiers=1,workgroup=64,keys=2,persistent=1,lookback_wait=1");
    const vksort::SortConfig configs[] = {kFallbackConfigs[1], kFallbackConfigs[4]};
    uint32_t seed = 100;
    for (const vksort::SortConfig& c : configs) {
      CAPTURE(int(c.keyType));
      const uint32_t n = 40000;
      const std::vector<uint32_t> keys = makeKeysFor(c, Dist::uniform, n, ++seed);
      const std::vector<uint32_t> values = makeValues(n, c.valueType);
      Sorted out = gpuSort(keys, c.valueType == ValueType::none ? nullptr : &values, c);
      requireNoValidationMessages();
      checkAgainstReference(keys, out, c.valueType != ValueType::none, c);
      const detail::SortScratch s = detail::sortScratch(gpu().sorter, c, n, n, false);
      MESSAGE("stress, ", keyWords(c) * 32, "-bit keys: ", (n + s.tileKeys - 1) / s.tileKeys, " tiles x ", s.passes,
              " passes, ", out.header[detail::kHeaderFallbacks], " fallbacks (of ", lookbacksOf(s, n),
              " tile-digit look-backs)");
    }
  }

  TEST_CASE("forward progress tortured: one tile in N publishes nothing, sorts stay right") {
    // withhold_posts=N (glsl/lookback.glsl's withholdsPosts()): the tiles whose hash picks them
    // publish neither count nor prefix, as workgroups a device parked for good would not; their
    // successors must count them from their keys. Rates 1 in 512, 1 in 16 and all of them, tiles
    // small enough that the rarest rate picks some, direct and indirect, a chained sort and
    // persistent workgroups; the header's fallback count must cover every picked tile that has a
    // successor (one fallback per digit, each pass), and, with every tile silent, every look-back.
    auto withheld = [](uint32_t tile, uint32_t rate) {  // withholdsPosts(), on the CPU
      uint32_t h = tile * 0x9E3779B9u;
      h ^= h >> 15;
      return h % rate == 0;
    };
    uint32_t seed = 200;
    const char* const shapes[] = {"chained_up_to=0", "chained_up_to=0,persistent=1", "chained_up_to=4294967295"};
    for (uint32_t rate : {512u, 16u, 1u})
      for (uint32_t shape = 0; shape < 3; ++shape) {
        const std::string tuning =
            std::string("algorithm=1,small_keys=0,tiers=1,workgroup=64,keys=2,lookback_wait=4,") + shapes[shape] +
            ",withhold_posts=" + std::to_string(rate);
        TunedSorter sorter(tuning.c_str());
        for (uint32_t i : {1u, 4u}) {  // u32 pairs; u64 keys once, at 1 in 16 with the first shape
          if (i == 4 && (shape != 0 || rate != 16)) continue;
          const vksort::SortConfig& c = kFallbackConfigs[i];
          CAPTURE(tuning);
          CAPTURE(int(c.keyType));
          const bool indirect = rate % 2 == 0 && i == 1;
          const uint32_t n =
              200 * detail::sortScratch(gpu().sorter, c, 1u << 16, 1u << 16, false).tileKeys + 7;  // 201 tiles
          const std::vector<uint32_t> keys = makeKeysFor(c, Dist::uniform, n, ++seed);
          const std::vector<uint32_t> values = makeValues(n, c.valueType);
          const std::vector<uint32_t>* vals = c.valueType == ValueType::none ? nullptr : &values;
          const IndirectCount count{n};
          Sorted out = gpuSort(keys, vals, c, indirect ? &count : nullptr);
          requireNoValidationMessages();
          checkAgainstReference(keys, out, vals != nullptr, c);
          const detail::SortScratch s = detail::sortScratch(gpu().sorter, c, n, n, indirect);
          const uint32_t tiles = (n + s.tileKeys - 1) / s.tileKeys;
          uint64_t silent = 0;  // picked tiles with a successor in the pass
          for (uint32_t t = 0; t + 1 < tiles; ++t) silent += withheld(t, rate) ? 1 : 0;
          CAPTURE(tiles);
          CAPTURE(silent);
          CHECK(out.header[detail::kHeaderFallbacks] >= silent * detail::kRadix * s.passes);
          if (rate == 1) CHECK(out.header[detail::kHeaderFallbacks] >= lookbacksOf(s, n));
          if (rate == 512) MESSAGE(tuning, ", ", tiles, " tiles: ", silent, " silent");
        }
      }
  }

  TEST_CASE("the device's own wait: a million pairs sort right; the fallbacks go to the log") {
    // How often the tuning's wait runs out on this device (NVIDIA: no fallback compiled; lavapipe:
    // where workgroups wait on ones its threads have not run).
    const vksort::SortConfig c = kFallbackConfigs[1];
    const uint32_t n = 1u << 20;
    const std::vector<uint32_t> keys = makeKeysFor(c, Dist::uniform, n, 7);
    const std::vector<uint32_t> values = makeValues(n, c.valueType);
    Sorted out = gpuSort(keys, &values, c);
    requireNoValidationMessages();
    checkAgainstReference(keys, out, true, c);
    const detail::SortScratch s = detail::sortScratch(gpu().sorter, c, n, n, false);
    MESSAGE("own wait, 2^20 pairs: ", out.header[detail::kHeaderFallbacks], " fallbacks of ", lookbacksOf(s, n),
            " tile-digit look-backs");
  }
}
