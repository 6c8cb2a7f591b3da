// Passes whose digit is the same for every key move nothing (glsl/pass_route.glsl): the scan marks
// the passes that move keys; of each run of constant passes all are skipped where the run is
// even, all but its first (which copies) where odd, and with every pass constant nothing runs.
// Keys here have constant digits at every position (first, middle, last, several, all), for
// both pass parities, every key and value type, direct and indirect, both algorithms, the
// chained sort and portions. Each result must be the reference's, the header must name the
// passes that move, and the scratch copies must hold what the last pass that ran into them
// wrote: a constant pass that ran (binned or copied) where it should have been skipped leaves
// other keys there.
#include <algorithm>
#include <bit>
#include <numeric>
#include <random>

#include "shader_interface.h"
#include "test_support.hpp"

using namespace vksort_test;
using vksort::KeyType;
using vksort::SortOrder;
using vksort::ValueType;
namespace detail = vksort::detail;

namespace {

uint32_t passesOf(const vksort::SortConfig& c) { return (vksort::endBitOf(c) - c.beginBit + 7) / 8; }

uint64_t keyAt(const std::vector<uint32_t>& keys, const vksort::SortConfig& c, size_t i) {
  return keyWords(c) == 1 ? keys[i] : uint64_t(keys[2 * i]) | uint64_t(keys[2 * i + 1]) << 32;
}

// The stored key whose ordered bits under `c` (its type's map, its order; the key's whole width)
// are `bits`.
uint64_t keyOfOrderedBits(uint64_t bits, const vksort::SortConfig& c) {
  const bool wide = keyWords(c) == 2;
  const uint64_t all = wide ? ~0ull : 0xFFFFFFFFull, sign = wide ? 1ull << 63 : 1ull << 31;
  bits &= all;
  if (c.order == SortOrder::descending) bits = ~bits & all;
  switch (c.keyType) {
    case KeyType::i32:
    case KeyType::i64: return bits ^ sign;
    case KeyType::f32:
    case KeyType::f64: return (bits & sign) ? bits & ~sign : ~bits & all;
    default: return bits;
  }
}

// The digit of pass `pass` of a key's order bits (vksort::keyOrderBits: within the range).
uint32_t digitOf(uint64_t key, const vksort::SortConfig& c, uint32_t pass) {
  return uint32_t(vksort::keyOrderBits(c, key) >> (8 * pass)) & 0xFFu;
}

// n keys of `c` whose digits of the passes in `constant` (a bit per pass) are one value each and
// whose other bits are uniform.
std::vector<uint32_t> keysWithConstantPasses(const vksort::SortConfig& c, uint32_t constant, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t end = vksort::endBitOf(c);
  uint64_t fixedMask = 0, fixedBits = 0;
  for (uint32_t p = 0; p < passesOf(c); ++p) {
    if ((constant >> p & 1) == 0) continue;
    const uint32_t lo = c.beginBit + 8 * p, width = std::min(lo + 8, end) - lo;
    const uint64_t m = ((1ull << width) - 1) << lo;
    fixedMask |= m;
    fixedBits |= rng() & m;
  }
  std::vector<uint32_t> keys(n * keyWords(c));
  for (size_t i = 0; i < n; ++i) {
    uint64_t key;
    do {  // (a float's -0 orders as +0: drawn again)
      key = keyOfOrderedBits((rng() & ~fixedMask) | fixedBits, c);
    } while (keyWords(c) == 1 && c.keyType == KeyType::f32 && key == 0x80000000u);
    if (keyWords(c) == 2 && c.keyType == KeyType::f64 && key == 1ull << 63) key = 0;
    keys[i * keyWords(c)] = uint32_t(key);
    if (keyWords(c) == 2) keys[2 * i + 1] = uint32_t(key >> 32);
  }
  return keys;
}

// The passes whose digit differs between the first n keys, a bit each.
uint32_t movingPasses(const std::vector<uint32_t>& keys, const vksort::SortConfig& c, size_t n) {
  uint32_t moving = 0;
  for (uint32_t p = 0; p < passesOf(c); ++p)
    for (size_t i = 1; i < n && (moving >> p & 1) == 0; ++i)
      if (digitOf(keyAt(keys, c, i), c, p) != digitOf(keyAt(keys, c, 0), c, p)) moving |= 1u << p;
  return moving;
}

// The passes that run of `passes` where `moving` move (pass_route.glsl's rule).
uint32_t runningPasses(uint32_t moving, uint32_t passes) {
  if (moving == 0) return 0;
  uint32_t running = moving, run = 0;
  for (uint32_t p = 0; p <= passes; ++p) {
    if (p < passes && (moving >> p & 1) == 0) {
      run |= 1u << p;
      continue;
    }
    if (std::popcount(run) % 2 == 1) running |= run & -run;
    run = 0;
  }
  return running;
}

// Constant passes at every place a sort of `passes` passes has: none, first, middle, last, first
// and last, the last two, all but one, all.
std::vector<uint32_t> constantPatterns(uint32_t passes) {
  const uint32_t all = (1u << passes) - 1, middle = 1u << (passes / 2), last = 1u << (passes - 1);
  std::vector<uint32_t> out;
  for (uint32_t m : {0u, 1u, middle, last, 1u | last, last | last >> 1, all & ~middle, all})
    if (std::find(out.begin(), out.end(), m & all) == out.end()) out.push_back(m & all);
  return out;
}

const vksort::SortConfig kConstantConfigs[] = {
    configOf(KeyType::u32, ValueType::none, SortOrder::ascending, 0, 32),   // 4 passes
    configOf(KeyType::f32, ValueType::u32, SortOrder::descending, 0, 32),   // a renderer's depths
    configOf(KeyType::i32, ValueType::u64, SortOrder::ascending, 4, 28),    // 3: the copy-back
    configOf(KeyType::u64, ValueType::u32, SortOrder::ascending, 0, 64),    // 8: tile keys
    configOf(KeyType::f64, ValueType::none, SortOrder::descending, 8, 48),  // 5
    configOf(KeyType::i64, ValueType::u64, SortOrder::ascending, 16, 64),   // 6
};

struct Variant {
  const char* tuning;
  bool indirect;
  bool everyPattern;  // else the first, the last two and all (the paths each shares with another)
};

// Whether every word of rows [0, rows) of the look-back region at byte `offset` is `zero` or not.
bool statusRowsAre(const std::vector<uint32_t>& scratch, uint64_t offset, uint32_t rows, bool zero) {
  for (uint32_t i = 0; i < rows * detail::kRadix; ++i)
    if ((scratch[offset / 4 + i] == 0) != zero) return false;
  return true;
}

// Sorts n keys with `constant` passes (indirectly: n of n + 5, the 5 past the count with digits
// that would make every pass move), and checks the result, the moving passes the scan marked, and
// what the skipped passes left in the scratch.
void sortWithConstantPasses(const vksort::SortConfig& c, uint32_t constant, uint32_t n, bool indirect, uint64_t seed) {
  const uint32_t passes = passesOf(c), maxCount = indirect ? n + 5 : n;
  std::vector<uint32_t> keys = keysWithConstantPasses(c, constant, n, seed);
  const std::vector<uint32_t> tail = keysWithConstantPasses(c, 0, 5, seed + 1);
  if (indirect) keys.insert(keys.end(), tail.begin(), tail.end());
  const uint32_t moving = movingPasses(keys, c, n);
  REQUIRE(moving == (~constant & ((1u << passes) - 1)));  // the keys are what the case says
  if (indirect) REQUIRE(movingPasses(keys, c, maxCount) == (1u << passes) - 1);
  const std::vector<uint32_t> values = makeValues(maxCount, c.valueType);
  const bool pairs = c.valueType != ValueType::none;
  const IndirectCount count{n, CountSource::shader};
  const Sorted out = gpuSort(keys, pairs ? &values : nullptr, c, indirect ? &count : nullptr, 0, true);

  // The first n are the reference's sort of the first n; the rest stayed.
  const size_t kw = keyWords(c), vw = values.size() / std::max(maxCount, 1u);
  const std::vector<uint32_t> head(keys.begin(), keys.begin() + n * kw);
  const Sorted outHead{.keys = std::vector<uint32_t>(out.keys.begin(), out.keys.begin() + n * kw),
                       .values = pairs ? std::vector<uint32_t>(out.values.begin(), out.values.begin() + n * vw)
                                       : std::vector<uint32_t>(),
                       .header = {},
                       .scratch = {}};
  checkAgainstReference(head, outHead, pairs, c);
  CHECK(std::equal(keys.begin() + n * kw, keys.end(), out.keys.begin() + n * kw));

  CHECK(out.header[detail::kHeaderMovingPasses] == moving);
  const detail::SortScratch s = detail::sortScratch(gpu().sorter, c, n, maxCount, indirect);
  const TestProperties p = testProperties(gpu().sorter);
  const bool lastBins = (moving >> (passes - 1) & 1) != 0;
  if (p.algorithm == vksort::Algorithm::onesweep) {
    // The last binning dispatch's look-back words: every word of its tiles published where it
    // binned; all still cleared where it did not (its predecessor clears them).
    const uint32_t dispatches = s.chained ? passes : passes * s.portions;
    const uint32_t lastPortionKeys = s.chained ? n : n - (s.portions - 1) * s.portionKeys;
    const uint32_t rows = (lastPortionKeys + s.tileKeys - 1) / s.tileKeys;
    CHECK_MESSAGE(statusRowsAre(out.scratch, s.status[(dispatches - 1) & 1], rows, !lastBins),
                  std::string(lastBins ? "the last pass binned but left look-back words empty"
                                       : "a skipped last pass wrote look-back words"));
  } else if (!lastBins) {
    // Had the constant last pass run, its tile table would hold each tile's first key at t * tile
    // in the row of its one digit; it holds an earlier pass's positions (or the scratch's garbage).
    const uint32_t digit = digitOf(keyAt(keys, c, 0), c, passes - 1);
    const uint32_t tiles = (n + s.tileKeys - 1) / s.tileKeys;
    bool asIfRun = true;
    for (uint32_t t = 0; t < tiles; ++t) asIfRun &= out.scratch[s.table / 4 + digit * tiles + t] == t * s.tileKeys;
    CHECK_MESSAGE(!asIfRun, "the constant last pass ran its upsweep and tile scan");
  }
  // Pass p writes the scratch copies where p is even: they hold the output of the last even pass
  // that ran, the keys stably sorted by its digit and those below; the scratch's garbage where
  // none ran.
  const uint32_t running = runningPasses(moving, passes);
  int lastEven = -1;
  for (uint32_t e = 0; e < passes; e += 2)
    if (running >> e & 1) lastEven = int(e);
  const auto scratchHolds = [&](uint64_t offset, const std::vector<uint32_t>& words) {
    return std::equal(words.begin(), words.end(), out.scratch.begin() + offset / 4);
  };
  std::vector<uint32_t> scratchKeys(size_t(n) * kw, kScratchGarbage), scratchValues(size_t(n) * vw, kScratchGarbage);
  if (lastEven >= 0) {
    const uint32_t bits = 8 * (uint32_t(lastEven) + 1);
    const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return (vksort::keyOrderBits(c, keyAt(keys, c, a)) & mask) < (vksort::keyOrderBits(c, keyAt(keys, c, b)) & mask);
    });
    for (size_t i = 0; i < n; ++i) {
      std::copy_n(keys.begin() + order[i] * kw, kw, scratchKeys.begin() + i * kw);
      if (pairs) std::copy_n(values.begin() + order[i] * vw, vw, scratchValues.begin() + i * vw);
    }
  }
  CAPTURE(running);
  CHECK_MESSAGE(scratchHolds(s.keysAlt, scratchKeys), "the scratch keys are not what the passes that should run leave");
  if (pairs)
    CHECK_MESSAGE(scratchHolds(s.valuesAlt, scratchValues),
                  "the scratch values are not what the passes that should run leave");
}

}  // namespace

TEST_SUITE("constant_passes") {
  TEST_CASE("passes whose digit is the same for every key are skipped, wherever they are") {
    for (const Variant v :
         {Variant{"algorithm=1,small_keys=0,chained_up_to=0", false, true},
          Variant{"algorithm=1,small_keys=0,chained_up_to=0", true, false},
          Variant{"algorithm=1,small_keys=0,chained_up_to=4294967295", false, true},
          Variant{"algorithm=1,small_keys=0,chained_up_to=0,portion_tiles=2,wide_from=0", false, false},
          Variant{"algorithm=1,small_keys=0,chained_up_to=0,portion_tiles=2,wide_from=0", true, false},
          Variant{"algorithm=2,small_keys=0", false, true}, Variant{"algorithm=2,small_keys=0", true, false}}) {
      TunedSorter tuned(v.tuning);
      const TestProperties p = testProperties(gpu().sorter);
      for (const vksort::SortConfig& c : kConstantConfigs)
        for (uint32_t constant : constantPatterns(passesOf(c))) {
          const uint32_t passes = passesOf(c), last = 1u << (passes - 1);
          if (!v.everyPattern && constant != 1u && constant != (last | last >> 1) && constant != (1u << passes) - 1)
            continue;
          CAPTURE(std::string(v.tuning));
          CAPTURE(v.indirect);
          CAPTURE(int(c.keyType));
          CAPTURE(int(c.valueType));
          CAPTURE(constant);
          const uint32_t n = 3 * (wideElements(c) ? p.wideTileKeys : p.tileKeys) + 17;  // 2 portions of 2 tiles
          sortWithConstantPasses(c, constant, n, v.indirect, n + constant);
        }
    }
  }

  TEST_CASE("the same bytes as a sort in which every pass moves the keys") {
    // Every case sorted by one sorter that skips and then by one that moves every pass: a
    // sorter's pipelines are most of a case's time on lavapipe.
    struct Case {
      vksort::SortConfig config;
      uint32_t constant;
      std::vector<uint32_t> keys, values;
      Sorted skipped;
    };
    std::vector<Case> cases;
    {
      TunedSorter skipping("small_keys=0");  // the header: not the one-workgroup sort
      const TestProperties p = testProperties(gpu().sorter);
      for (const vksort::SortConfig& c : {kConstantConfigs[1], kConstantConfigs[2], kConstantConfigs[3]})
        for (uint32_t constant : constantPatterns(passesOf(c))) {
          CAPTURE(int(c.keyType));
          CAPTURE(constant);
          const uint32_t n = 3 * (wideElements(c) ? p.wideTileKeys : p.tileKeys) + 5;
          Case k{c, constant, keysWithConstantPasses(c, constant, n, constant), makeValues(n, c.valueType), {}};
          k.skipped = gpuSort(k.keys, c.valueType == ValueType::none ? nullptr : &k.values, c);
          cases.push_back(std::move(k));
        }
    }
    TunedSorter everyPass("small_keys=0,skip_constant_passes=0");
    for (const Case& k : cases) {
      CAPTURE(int(k.config.keyType));
      CAPTURE(k.constant);
      const Sorted moved = gpuSort(k.keys, k.config.valueType == ValueType::none ? nullptr : &k.values, k.config);
      CHECK(k.skipped.keys == moved.keys);
      CHECK(k.skipped.values == moved.values);
      CHECK(moved.header[detail::kHeaderMovingPasses] == (1u << passesOf(k.config)) - 1);
      CHECK(k.skipped.header[detail::kHeaderMovingPasses] == (~k.constant & ((1u << passesOf(k.config)) - 1)));
    }
  }
}
