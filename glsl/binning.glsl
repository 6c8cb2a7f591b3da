// The tile machinery every binning kernel shares: Onesweep's pass (onesweep.glsl), the
// reduce-then-scan downsweep (downsweep.glsl) and the one-workgroup small sort (small_sort.glsl).
// A tile is TILE = WG * KPI keys (Onesweep's fitted tiles: WG * tileKpi(), below). For one tile,
// in order:
//   clearTileCounts()   then a barrier;
//   loadTile()          subgroup-striped loads: subgroup s holds keys [s*SG*K, (s+1)*SG*K),
//                       lane l key i at s*SG*K + i*SG + l (K = tileKpi()), so loads coalesce and
//                       rank order is input order (stable);
//   countTile()         (countDigits() and the digit order) each subgroup's digit counts
//                       (shared atomics: CUB's "early counts"), then the tile's: s_digitCount,
//                       s_digitScan (exclusive, in the tile's digit order), each subgroup's first
//                       place in that order for each digit, and whether the tile is
//                       uniform (one digit holds every key: it keeps input order);
//   rankTile()          ranks each key among its subgroup's keys of the same digit (ballot
//                       multisplit, subgroup_rank.glsl) and writes it to its place in s_tile;
//   [the caller sets s_digitDest[d]: global position of the tile's j-th key of digit d is
//    s_digitDest[d] + j]
//   scatterKeys()       key j of the tile's digit order to s_digitDest[digit] + j: consecutive
//                       invocations write consecutive addresses of a bin;
//   scatterValues()     values, loaded only now (riding in registers: RIDING_VALUES; with several
//                       rounds loaded before the key scatter: EARLY_HELD_VALUES), follow their
//                       keys through the same places.
// The including kernel declares `layout(local_size_x_id = VKSORT_SPEC_WORKGROUP_SIZE) in;` first, and may define
// KEYS_IN/KEYS_OUT/VALS_IN... (reference types) before including, to read what it wrote.
// Shared memory: s_tile, a reorder area of PART = TILE / REORDER_ROUNDS elements (keys, then
// values, in digit order; a 64-bit word pair as low words then high words);
// s_subgroupCounts[MAX_SUBGROUPS / 2][kRadix] (16-bit counters); s_digitDest[kRadix],
// s_digitScan/s_digitCount[kRadix] (a word each with DIGITS_IN_REGISTERS) and a few words
// (tuning.cpp's binningSharedBytes() mirrors this).
// REORDER_ROUNDS > 1 makes a tile larger than shared memory holds: the ranking keeps each key's
// place in registers, and the tile goes through the reorder area a part at a time (places
// [r * PART, (r + 1) * PART) in round r). The counters then live in the reorder area's words
// (they are done with before the first round); with one round the ranking stores keys as it goes.

#ifndef KEYS_IN
#define KEYS_IN KeysIn
#define KEYS_OUT KeysOut
#define VALS_IN ValsIn
#define VALS_IN64 ValsIn64
#define VALS_OUT ValsOut
#define VALS_OUT64 ValsOut64
#endif

layout(constant_id = VKSORT_SPEC_KEYS_PER_INVOCATION) const uint KEYS_PER_INVOCATION = 16u;
layout(constant_id = VKSORT_SPEC_MIN_SUBGROUP_SIZE) const uint MIN_SUBGROUP_SIZE = 4u;  // the smallest size the device may run
layout(constant_id = VKSORT_SPEC_VALUE_WORDS) const uint VALUE_WORDS = 0u;        // 0: keys alone; 1, 2: 32/64-bit values
layout(constant_id = VKSORT_SPEC_REORDER_ROUNDS) const uint REORDER_ROUNDS = 1u;    // divides KEYS_PER_INVOCATION
const uint WG = gl_WorkGroupSize.x;
const uint KPI = KEYS_PER_INVOCATION;
const uint TILE = WG * KPI;
const uint ROUND_KPI = KPI / REORDER_ROUNDS;  // an invocation's keys per reorder round
const uint PART = WG * ROUND_KPI;             // elements the reorder area holds
const bool DEFERRED_STORES = REORDER_ROUNDS > 1u;
// Persistent tiles of keys alone in one round (tile_tickets.glsl; SCATTER_THEN_NEXT_TILE): after
// its ranking a subgroup's counter row is its own until the next tile's row sums, so each
// subgroup counts its keys of the next tile as soon as it has scattered this one's, with no
// workgroup barrier between (countOwnRowEarly()).
#ifdef VKSORT_TILE_TICKETS
const bool EARLY_NEXT_COUNT = PERSISTENT_TILES && VALUE_WORDS == 0u && !DEFERRED_STORES;
#else
const bool EARLY_NEXT_COUNT = false;
#endif
const uint MAX_SUBGROUPS = WG / MIN_SUBGROUP_SIZE;
const uint TILE_WORDS = VALUE_WORDS > kKeyWords ? VALUE_WORDS : kKeyWords;
const uint REORDER_WORDS = PART * TILE_WORDS;
const uint COUNTER_PAIRS = (MAX_SUBGROUPS + 1u) / 2u;  // rows of counter words: subgroup pairs
const uint COUNTER_WORDS = COUNTER_PAIRS * kRadix;
const uint SHARED_TILE_WORDS = DEFERRED_STORES && COUNTER_WORDS > REORDER_WORDS ? COUNTER_WORDS : REORDER_WORDS;
// Pairs with 32-bit values in one round (the tuning's TileShape::ridingValues): a tile's values
// load with its keys (Onesweep's binning and reduce-then-scan's downsweep load them, the next
// tile's in SCATTER_THEN_NEXT_TILE) and wait in registers through the count, look-back and
// ranking, so that the value scatter waits on no global load (on an H100 pairs32 2M 3% faster,
// pairs64v32 2M 4%). Pipelines that do not ride measure as before; where its test had gone
// through a function they ran 4-8% slower (pairs32 at 2-6M with the values loaded at the scatter).
// The host sets it only for 32-bit values in one round (src/variant.cpp).
layout(constant_id = VKSORT_SPEC_RIDING_VALUES) const bool RIDING_VALUES = false;
// Onesweep's tiles fitted to whole waves (onesweep_fitted*.comp define RUNTIME_TILE; tuning.hpp,
// TileShape::fitPercent): a tile holds pc.tileKeys = WG * k keys, k <= KPI chosen per sort, and
// each invocation's keys k.. sit out (whole steps skipped: the branch is uniform). Every other
// kernel is compiled without those tests (with them, 64-bit sorts were 1-2% slower on an H100).
#ifdef RUNTIME_TILE
uint tileKpi() { return min(pc.tileKeys / WG, KPI); }
bool stepInTile(uint i) { return i < tileKpi(); }
#else
uint tileKpi() { return KPI; }
bool stepInTile(uint i) { return true; }
#endif
uint tileKeys() { return WG * tileKpi(); }

// Each digit's counter rows summed by ROW_CHUNKS invocations, each over a chunk of the subgroup
// pairs, where the workgroup has a whole number (2 or more) of invocations per digit and s_tile
// room for the chunk sums past the counters: the serial walk over every row by the digits' owners
// alone left the rest of the workgroup waiting (16 pair rows in a 1024-invocation tile).
// In products, not &&: glslang made `a && b && c` of specialization constants a run-time value,
// which cannot size an array.
const uint ROW_CHUNKS = WG / kRadix;
const uint CHUNK_SUMS = DEFERRED_STORES ? COUNTER_WORDS : 0u;  // where in s_tile
const uint CHUNKED = uint(WG % kRadix == 0u) * uint(ROW_CHUNKS >= 2u) * uint(CHUNK_SUMS + WG <= SHARED_TILE_WORDS);
const bool CHUNKED_ROWS = CHUNKED != 0u;
// Pair rows per chunk, at most (the divisor kept from 0 where workgroups are smaller than
// kRadix: KNOWN_ROW_REGS sizes arrays by it).
const uint CHUNK_PAIRS = (COUNTER_PAIRS + ROW_CHUNKS - 1u) / (ROW_CHUNKS + uint(ROW_CHUNKS == 0u));
// Loops over at most this many counter rows are unrolled (sumRows(), addToRows(), KNOWN_ROWS):
// 32-lane subgroups; small subgroups make up to 64 rows. (The 14-row walks of 896-invocation
// tiles unrolled too, and summed in 3 chunks of 256: alike / keys32 41% slower on an H100.)
const uint kUnrolledRows = 8u;
// A ranking step's places from one shared atomic per key (the tuning's atomicRanking; NVIDIA):
// each lane adds 1 to its subgroup's counter of its digit and takes the value before as its
// place, with no ballots. Stable only where one instruction's atomics on one word apply in lane
// order and a subgroup's steps in program order, which the Vulkan spec does not promise (it says
// nothing of their order) but NVIDIA's GPUs do (H100, driver 580: every stability test of the GPU
// suite passes with it) and llvmpipe does (CI runs a variant with it). Other devices match digits
// with ballots (matchDigit()), and so do pairs in tiles of several rounds (Tuning::ranksByAtomics).
// On an H100, against 4141c0e's ballots: keys32 4M / 2^26 / 2^28 about 18% / 11% / 12% faster,
// pairs32 at 2^26 / 2^28 10% / 9%, keys64 from 2^23 11-12% (sessions 28-29; the log).
layout(constant_id = VKSORT_SPEC_ATOMIC_RANKING) const bool ATOMIC_RANKING = false;
// Ranking before the row sums (the tuning's rankFirst, with ATOMIC_RANKING): each key's atomic on
// its subgroup's zeroed row gives its place among its subgroup's keys of its digit, and leaves the
// row holding the subgroup's counts, so the count's own atomic per key goes; after the row sums
// each key adds its row's first place (a shared load) and, in one round, goes to s_tile. Passes with a
// hot digit count and rank as before (t_rankedFirst: per tile, from countIntoRows()'s `hot`).
// On an H100 32-bit pairs 1-2% faster, 12% at q16 (their count's atomics on one word had
// serialized); keys alone 2.5-4% slower (tuning.cpp).
// The host sets it only with ATOMIC_RANKING (src/variant.cpp).
layout(constant_id = VKSORT_SPEC_RANK_FIRST) const bool RANK_FIRST = false;
bool t_rankedFirst = false;
// 64-bit keys alone with ATOMIC_RANKING: where the kernel names a pass's hot digit (t_hotRankDigit;
// Onesweep's, up to HOT_RANKING_TO percent of the keys), a ranking step's lanes of that digit take
// their places by one atomic of the lowest of them, the others by their own: one word's atomics
// from many lanes serialize. On an H100, 2^26 keys64 q4 / q8 (60% / 97% of the keys on digit 0)
// 8.8% / 6.2% faster, q1 alike. 32-bit keys alone spilled with it (896 x 20: 80 bytes, q1 43%
// slower), and pairs rank first or by ballots.
const bool HOT_RANKING = kKeyWords == 2u && VALUE_WORDS == 0u && ATOMIC_RANKING;  // (32-bit: folded by glslang)
uint t_hotRankDigit = kRadix;
// Rows left as the ranking leaves them (EARLY_NEXT_COUNT with chunked row sums): after a tile's
// ranking each counter word holds what its row-sum invocation can compute (each half: its
// subgroup's first place of the digit plus the subgroup's count of it), so the next tile's keys
// are counted on top of it, without clearing the row (a shared atomic AND per word, a subgroup
// barrier), and the row sums subtract it (t_rowsAfter, one register per row of the chunk). On an
// H100 keys32 4M / 2^26 / 2^28 0.5% / 0.3% / 0.6% faster, keys64 1M / 4M (512 x 9) 1.3% / 1.8%.
const bool KNOWN_ROWS = uint(EARLY_NEXT_COUNT) * CHUNKED * uint(CHUNK_PAIRS <= kUnrolledRows) * uint(!RANK_FIRST) != 0u;
const uint KNOWN_ROW_REGS = CHUNK_PAIRS - 1u < kUnrolledRows ? CHUNK_PAIRS : 1u;  // 1 to 8 (an array's size)
uint t_rowsAfter[KNOWN_ROW_REGS];
// Keys alone with chunked row sums: invocation d (d < kRadix) computes digit d's count and start
// in the tile, and only it reads them (the look-back, the destinations), so they stay in its
// registers (t_digitCount, t_digitStart) and s_digitCount / s_digitScan shrink to a word: 2 KiB
// that go to the tile (512 x 19 keys on an H100; tuning.cpp's binningSharedBytes()). Not pairs:
// their 512 x 18 tiles (riding values, at the register cap) ran pairs32 4M 2% slower so.
const uint DIGITS_IN_REGISTERS = CHUNKED * uint(VALUE_WORDS == 0u);
const uint DIGIT_WORDS = kRadix - DIGITS_IN_REGISTERS * (kRadix - 1u);
#define DIGIT_SCAN_WORDS DIGIT_WORDS
#include "workgroup_scan.glsl"
#include "subgroup_rank.glsl"

shared uint s_tile[SHARED_TILE_WORDS];  // the reorder area (and with deferred stores the counters)
// Each subgroup's digit counters, 16 bits each (a subgroup holds fewer than 2^16 keys): half the
// shared memory of 32-bit counters, which lets a larger tile fit (on an H100 the driver gives a
// workgroup at most 48 KiB, and an SM 48 KiB in all). The word of (subgroup pair p, digit d) holds
// subgroup 2p's counter of d in its low half and subgroup 2p + 1's in its high half, so that a
// subgroup's half is the same for all its keys: no shift to compute per key, as there was with
// a word per two digits of one subgroup.
// Their own array where the ranking stores keys as it goes, so that no compiler need order a
// step's key store before the next step's counter atomics (on an H100 both forms measured alike).
shared uint s_subgroupCounts[DEFERRED_STORES ? 1u : COUNTER_WORDS];
uint counterWord(uint subgroup, uint digit) { return subgroup / 2u * kRadix + digit; }
uint counterShift(uint subgroup) { return 16u * (subgroup % 2u); }
uint counterAdd(uint word, uint value) {
  if (DEFERRED_STORES) return atomicAdd(s_tile[word], value);
  return atomicAdd(s_subgroupCounts[word], value);
}
uint counterLoad(uint word) { return DEFERRED_STORES ? s_tile[word] : s_subgroupCounts[word]; }
void counterStore(uint word, uint value) {
  if (DEFERRED_STORES) s_tile[word] = value;
  else s_subgroupCounts[word] = value;
}
void counterAnd(uint word, uint mask) {
  if (DEFERRED_STORES) atomicAnd(s_tile[word], mask);
  else atomicAnd(s_subgroupCounts[word], mask);
}
// The subgroup's lanes meet, their shared-memory accesses ordered, and nothing else: the ranking
// steps' barrier (subgroupBarrier() orders buffers and images too; on an H100 both measured
// alike).
void subgroupSharedBarrier() {
  controlBarrier(gl_ScopeSubgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
}
shared uint s_digitCount[DIGIT_WORDS];
uint t_digitCount, t_digitStart;  // DIGITS_IN_REGISTERS: digit gl_LocalInvocationIndex's
// The tile's count of digit d and its start in the tile's digit order, for the invocation that
// owns d (invocation d where the workgroup has kRadix or more, as every kernel's digit loop does).
uint tileDigitCount(uint d) { return DIGITS_IN_REGISTERS != 0u ? t_digitCount : s_digitCount[d]; }
uint tileDigitStart(uint d) { return DIGITS_IN_REGISTERS != 0u ? t_digitStart : s_digitScan[d]; }
shared uint s_digitDest[kRadix];  // global position of the tile's j-th key = s_digitDest[d] + j
shared uint s_uniformDigit;       // the digit every key of the tile has, else kRadix

// This invocation's part of the tile, in registers. What lives from the ranking to the value
// scatter is packed, to spare registers: places are below 2^16 (tuning.cpp bounds the tile),
// digits 8 bits.
KeyT t_keys[KPI];
uint t_places[(KPI + 1u) / 2u];  // each key's position in the tile's digit order, 16 bits each
uint t_digits[(KPI + 3u) / 4u];  // the digit of the key the invocation scattered i-th, 8 bits each
uint t_values[KPI];              // RIDING_VALUES: the keys' values
uint t_count;                    // keys in the tile
bool t_uniform;

uint placeOf(uint i) { return (t_places[i / 2u] >> (16u * (i % 2u))) & 0xFFFFu; }
uint scatteredDigit(uint i) { return (t_digits[i / 4u] >> (8u * (i % 4u))) & 0xFFu; }

uint laneIndex(uint i) { return gl_SubgroupID * gl_SubgroupSize * tileKpi() + i * gl_SubgroupSize + gl_SubgroupInvocationID; }
// Whether this invocation's i-th key slot holds one of the tile's keys.
bool holdsKey(uint i) { return stepInTile(i) && laneIndex(i) < t_count; }

void tileStoreKey(uint at, KeyT key) {
#if KEY_WORDS == 1
  s_tile[at] = key;
#else
  s_tile[at] = key.x;
  s_tile[PART + at] = key.y;
#endif
}
KeyT tileLoadKey(uint at) {
#if KEY_WORDS == 1
  return s_tile[at];
#else
  return uvec2(s_tile[at], s_tile[PART + at]);
#endif
}
// Values travel as uvec2; the high word is dropped for 32-bit ones.
void tileStoreValue(uint at, uvec2 value) {
  s_tile[at] = value.x;
  if (VALUE_WORDS == 2u) s_tile[PART + at] = value.y;
}
uvec2 tileLoadValue(uint at) { return uvec2(s_tile[at], VALUE_WORDS == 2u ? s_tile[PART + at] : 0u); }

bool wideAddresses() { return (pc.flags & kFlagWideAddresses) != 0u; }

// Keys (and values) at addresses `base` + elements: the kernel's own reference types.
void storeKey(uvec2 base, uint dest, KeyT key) {
  if (wideAddresses()) KEYS_OUT(addressAt(base, dest, KEY_LOG2_BYTES)).v[0] = key;
  else KEYS_OUT(base).v[dest] = key;
}
uvec2 loadValue(uvec2 tile, uint i) {
  return VALUE_WORDS == 2u ? VALS_IN64(tile).v[i] : uvec2(VALS_IN(tile).v[i], 0u);
}
void storeValue(uvec2 base, uint dest, uvec2 value) {
  if (VALUE_WORDS == 2u) {
    if (wideAddresses()) VALS_OUT64(addressAt(base, dest, 3u)).v[0] = value;
    else VALS_OUT64(base).v[dest] = value;
  } else {
    if (wideAddresses()) VALS_OUT(addressAt(base, dest, 2u)).v[0] = value.x;
    else VALS_OUT(base).v[dest] = value.x;
  }
}
uint valueLog2Bytes() { return VALUE_WORDS == 2u ? 3u : 2u; }

// A whole tile's loads without the tests of which slots hold keys, where that measured faster on
// an H100: pairs (pairs32 2^26 3% faster with their riding values' loads so too) and 64-bit keys
// alone (keys64 2^26 0.6%), not 32-bit keys alone (keys32 2^26 1% slower).
const bool WHOLE_LOADS = VALUE_WORDS != 0u || kKeyWords == 2u;
// Loads the tile of `count` keys at `keys` (the tile's own base: some drivers compute index *
// element size in 32 bits; on an H100 element 2^30 of u32 data wrapped to element 0).
void loadTileInto(out KeyT keys[KPI], uvec2 at, uint count) {
  if (WHOLE_LOADS && count == TILE) {
    [[unroll]] for (uint i = 0u; i < KPI; ++i) keys[i] = KEYS_IN(at).v[laneIndex(i)];
    return;
  }
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint idx = laneIndex(i);
    keys[i] = stepInTile(i) && idx < count ? KEYS_IN(at).v[idx] : KeyT(0u);
  }
}
void loadTile(uvec2 keys, uint count) {
  t_count = count;
  loadTileInto(t_keys, keys, count);
}
// RIDING_VALUES: the tile's values (at `at`, the tile's own base) into t_values.
void loadRidingValues(uvec2 at, uint count) {
  if (WHOLE_LOADS && count == TILE) {
    [[unroll]] for (uint i = 0u; i < KPI; ++i) t_values[i] = VALS_IN(at).v[laneIndex(i)];
    return;
  }
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint idx = laneIndex(i);
    t_values[i] = stepInTile(i) && idx < count ? VALS_IN(at).v[idx] : 0u;
  }
}

// Before countTile/countDigits, behind a barrier (the caller's, to share it).
void clearTileCounts() {
  for (uint i = gl_LocalInvocationIndex; i < COUNTER_WORDS; i += WG) counterStore(i, 0u);
  if (KNOWN_ROWS) {
    [[unroll]] for (uint k = 0u; k < KNOWN_ROW_REGS; ++k) t_rowsAfter[k] = 0u;
  }
  if (gl_LocalInvocationIndex == 0u) s_uniformDigit = kRadix;
}

uint counterPairs() { return divideUp(gl_NumSubgroups, 2u); }

// Digit `digit`'s counters in the pair rows from `begin` to `end` become their exclusive sums;
// returns their sum (below 2^16 before the last row: a subgroup holds fewer keys than that; the
// whole tile up to 2^16).
void sumRow(uint at, inout uint sum) {
  uint w = counterLoad(at), low = w & 0xFFFFu;
  counterStore(at, sum | ((sum + low) << 16u));
  sum += low + (w >> 16u);
}
// Loops over at most MAX_ROWS rows unrolled where that is few (kUnrolledRows), so that their
// loads need not wait on each other (on an H100 keys32 and keys64 0.5% faster than the loops to
// `end`); a plain loop where subgroups are small.
uint sumRows(uint digit, uint begin, uint end, const uint MAX_ROWS) {
  uint sum = 0u;
  if (MAX_ROWS <= kUnrolledRows) {
    [[unroll]] for (uint k = 0u; k < MAX_ROWS; ++k)
      if (begin + k < end) sumRow((begin + k) * kRadix + digit, sum);
  } else {
    for (uint p = begin; p < end; ++p) sumRow(p * kRadix + digit, sum);
  }
  return sum;
}

// Adds `add` to both halves of digit `digit`'s counters in the pair rows from `begin` to `end`.
void addToRows(uint digit, uint begin, uint end, uint add, const uint MAX_ROWS) {
  if (MAX_ROWS <= kUnrolledRows) {
    [[unroll]] for (uint k = 0u; k < MAX_ROWS; ++k) {
      uint at = (begin + k) * kRadix + digit;
      if (begin + k < end) counterStore(at, counterLoad(at) + add * 0x10001u);
    }
  } else {
    for (uint p = begin; p < end; ++p) {
      uint at = p * kRadix + digit;
      counterStore(at, counterLoad(at) + add * 0x10001u);
    }
  }
}

// Behind a barrier after the subgroup rows were counted: the rows become each subgroup's first
// place in the tile's digit order among the keys of the digit (the digit's start in the tile plus
// the keys of that digit in earlier subgroups: the ranking then adds only its peers; every place
// is below the tile's 2^16 keys, so the 16-bit halves do not spill); tileDigitCount() gives the
// tile's counts, tileDigitStart() their exclusive sum over digits, s_uniformDigit the digit of a uniform
// tile. ON_TILE_COUNT(digit, count), if the kernel defines it, sees each digit's count as soon as
// it is known. Each invocation owns DIGITS_PER_INVOCATION digits for the digit scan. Every
// invocation must call it; ends behind a barrier.
void sumSubgroupRows() {
  uint tid = gl_LocalInvocationIndex;
  if (CHUNKED_ROWS) {
    // Invocation (chunk c, digit d): the rows of chunk c, then every chunk's sums (chunk 0,
    // invocations 0-255, owns the digits). Each chunk scans the digit totals itself (its
    // subgroups hold consecutive digits: every subgroup size divides kRadix) and chunk 0's
    // subgroups share their sums, so every invocation knows its digit's start behind one barrier.
    uint d = tid % kRadix, c = tid / kRadix;
    uint pairs = divideUp(counterPairs(), ROW_CHUNKS);
    uint begin = min(c * pairs, counterPairs()), end = min(begin + pairs, counterPairs());
    // KNOWN_ROWS: the rows hold this tile's counts on top of what the last tile's ranking left
    // (t_rowsAfter): the counts stay in registers until the starts go in.
    uint counts[KNOWN_ROW_REGS];
    if (KNOWN_ROWS) {
      uint sum = 0u;
      [[unroll]] for (uint k = 0u; k < KNOWN_ROW_REGS; ++k) {
        counts[k] = begin + k < end ? counterLoad((begin + k) * kRadix + d) - t_rowsAfter[k] : 0u;
        sum += (counts[k] & 0xFFFFu) + (counts[k] >> 16u);
      }
      s_tile[CHUNK_SUMS + tid] = sum;
    } else {
      s_tile[CHUNK_SUMS + tid] = sumRows(d, begin, end, CHUNK_PAIRS);
    }
    barrier();
    uint before = 0u;  // the digit's keys in earlier chunks
    uint total = 0u;
    [[unroll]] for (uint k = 0u; k < ROW_CHUNKS; ++k) {
      uint chunk = s_tile[CHUNK_SUMS + k * kRadix + d];
      if (k < c) before += chunk;
      total += chunk;
    }
    uint inclusive = subgroupInclusiveAdd(total);
    uint group = d / gl_SubgroupSize;
    if (c == 0u) {
      if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) s_subgroupTotals[group] = inclusive;
      if (total == t_count) s_uniformDigit = d;
      if (DIGITS_IN_REGISTERS == 0u) s_digitCount[d] = total;
#ifdef ON_TILE_COUNT
      ON_TILE_COUNT(d, total);
#endif
    }
    barrier();
    uint start = inclusive - total;
    for (uint g = 0u; g < group; ++g) start += s_subgroupTotals[g];
    if (DIGITS_IN_REGISTERS != 0u) {
      t_digitCount = total;
      t_digitStart = start;
    } else if (c == 0u) {
      s_digitScan[d] = start;
    }
    if (KNOWN_ROWS) {
      // Each row's first places (a uniform tile, not ranked: what its ranking would leave), and
      // in t_rowsAfter what the ranking leaves.
      bool uniformTile = s_uniformDigit != kRadix;
      uint at = before + start;
      [[unroll]] for (uint k = 0u; k < KNOWN_ROW_REGS; ++k) {
        uint high = at + (counts[k] & 0xFFFFu);
        uint after = high | ((high + (counts[k] >> 16u)) << 16u);
        if (begin + k < end) counterStore((begin + k) * kRadix + d, uniformTile ? after : at | (high << 16u));
        t_rowsAfter[k] = after;
        at = high + (counts[k] >> 16u);
      }
    } else {
      addToRows(d, begin, end, before + start, CHUNK_PAIRS);
    }
    barrier();
    return;
  }
  // Otherwise the owners of the digits walk every row of their digits.
  uint first = tid * DIGITS_PER_INVOCATION;
  uint own[DIGITS_PER_INVOCATION];
  [[unroll]] for (uint i = 0u; i < DIGITS_PER_INVOCATION; ++i) own[i] = 0u;
  if (first < kRadix) {
    [[unroll]] for (uint i = 0u; i < DIGITS_PER_INVOCATION; ++i) {
      uint d = first + i;
      if (d >= kRadix) continue;
      own[i] = sumRows(d, 0u, counterPairs(), COUNTER_PAIRS);
      if (own[i] == t_count) s_uniformDigit = d;
      s_digitCount[d] = own[i];
#ifdef ON_TILE_COUNT
      ON_TILE_COUNT(d, own[i]);
#endif
    }
  }
  scanOwnDigits(own);
  barrier();
  if (first < kRadix) {  // the digits' starts in the tile into their rows
    [[unroll]] for (uint i = 0u; i < DIGITS_PER_INVOCATION; ++i)
      if (first + i < kRadix) addToRows(first + i, 0u, counterPairs(), s_digitScan[first + i], COUNTER_PAIRS);
  }
  barrier();
}

// The tile's keys counted into their subgroups' rows (per-key shared atomics); countDigits() then
// sums the rows (sumSubgroupRows()) and ends behind a barrier. `hot`: a digit known to hold many
// of the keys (Onesweep's HOT_DIGIT_FROM), kCrowdedPass where one holds nearly all of them but
// is not counted as hot, else kRadix. A subgroup's keys of that digit are
// counted by one atomic per step: atomics of many lanes on one word serialize (on an H100 a
// tile's count took 1.8x as long with 60% of the keys on one digit, q4, though as long as with
// uniform keys where all of them were). Two loops: one loop with both forms was slower on an H100
// (keys32 q1 2^26 2.35 ms, keys64 7.13: samples/bench/PERFORMANCE-LOG.md).
const uint kCrowdedPass = kRadix + 1u;
void rankFirstSteps(uint shift, bool whole);
void countIntoRows(uint shift, uint hot) {
  t_rankedFirst = RANK_FIRST && hot == kRadix;
  if (t_rankedFirst) {
    if (t_count == tileKeys()) rankFirstSteps(shift, true);
    else rankFirstSteps(shift, false);
  } else if (hot < kRadix) {
    [[unroll]] for (uint i = 0u; i < KPI; ++i) {
      uint digit = digitOf(t_keys[i], shift);
      bool held = holdsKey(i), isHot = held && digit == hot;
      uvec4 hotLanes = subgroupBallot(isHot);
      uint add = isHot ? subgroupBallotBitCount(hotLanes) : 1u;
      if (isHot ? gl_SubgroupInvocationID == subgroupBallotFindLSB(hotLanes) : held)
        counterAdd(counterWord(gl_SubgroupID, digit), add << counterShift(gl_SubgroupID));
    }
  } else if (VALUE_WORDS == 0u && hot == kRadix && t_count == tileKeys()) {
    // Keys alone in a whole tile: every slot holds a key, so no test of which ones do (on an
    // H100 keys32 2^26 4% faster, keys64 1.5%; pairs64v32 1% slower, so pairs keep the tests;
    // and keys32 with nearly all of them on one digit, q16, 22% slower: kCrowdedPass keeps them).
    [[unroll]] for (uint i = 0u; i < KPI; ++i) {
      if (!stepInTile(i)) break;
      counterAdd(counterWord(gl_SubgroupID, digitOf(t_keys[i], shift)), 1u << counterShift(gl_SubgroupID));
    }
  } else {
    [[unroll]] for (uint i = 0u; i < KPI; ++i) {
      uint digit = digitOf(t_keys[i], shift);
      if (holdsKey(i)) counterAdd(counterWord(gl_SubgroupID, digit), 1u << counterShift(gl_SubgroupID));
    }
  }
}

// countIntoRows() unless the keys were counted already (`counted`: EARLY_NEXT_COUNT), then the
// row sums.
void countDigits(uint shift, uint hot, bool counted) {
  if (!counted) countIntoRows(shift, hot);
#ifdef BEFORE_COUNT_BARRIER  // the kernel's hook: what the count's barrier should publish
  BEFORE_COUNT_BARRIER();
#endif
  barrier();
  sumSubgroupRows();
}

// countDigits() with the tile's digit order for rankTile(): s_digitScan, t_uniform. Ends behind a
// barrier. `counted`: the keys are in the rows already (EARLY_NEXT_COUNT).
void countTile(uint shift, uint hot, bool counted) {
  countDigits(shift, hot, counted);
  t_uniform = s_uniformDigit != kRadix;
}

// One ranking step's peers of `digit` in this subgroup (`before` of them below this lane): the
// first of their places in the tile's digit order. Every peer reads the subgroup's
// row, then the last one moves its counter past them all (an atomic: the pair's other subgroup
// may move the word's other half), and nobody waits on that atomic.
uint takeRowPlaces(uint digit, uvec4 peers, uint before, bool valid) {
  uint word = counterWord(gl_SubgroupID, digit), sh = counterShift(gl_SubgroupID);
  uint first = (counterLoad(word) >> sh) & 0xFFFFu;
  subgroupSharedBarrier();  // this step's reads before its writes
  if (valid && isHighestPeer(peers)) counterAdd(word, (before + 1u) << sh);
  return first;
}

// rankTile()'s steps. `whole`: every slot holds a key (a tile of tileKeys() keys), so no step
// tests which lanes do (`valid` is constant; a literal at each call).
void rankSteps(uint shift, bool whole, bool hotRanking) {
  uint lane = gl_SubgroupInvocationID;
  uvec4 lanes = subgroupBallot(true);  // a whole tile's lanes all hold keys: one ballot for every step
  [[unroll]] for (uint i = 0u; i < (KPI + 1u) / 2u; ++i) t_places[i] = 0u;
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    if (!stepInTile(i)) break;  // a fitted tile's last steps
    // holdsKey(i), the step being in the tile (its test made the fitted pipeline larger)
    bool valid = whole || laneIndex(i) < t_count;
    uint digit = digitOf(t_keys[i], shift);
    uint place;
    if (HOT_RANKING && hotRanking) {
      uint sh = counterShift(gl_SubgroupID);
      bool isHot = valid && digit == t_hotRankDigit;
      uvec4 hotLanes = subgroupBallot(isHot);
      uint leader = subgroupBallotFindLSB(hotLanes);
      uint first = 0u;
      if (isHot ? lane == leader : valid)
        first = (counterAdd(counterWord(gl_SubgroupID, digit), (isHot ? subgroupBallotBitCount(hotLanes) : 1u) << sh) >> sh) & 0xFFFFu;
      uint hotFirst = subgroupShuffle(first, leader);
      place = isHot ? hotFirst + subgroupBallotExclusiveBitCount(hotLanes) : first;
    } else if (ATOMIC_RANKING) {
      uint sh = counterShift(gl_SubgroupID);
      place = valid ? (counterAdd(counterWord(gl_SubgroupID, digit), 1u << sh) >> sh) & 0xFFFFu : 0u;
    } else {
      uvec4 peers = matchDigit(digit, whole ? lanes : subgroupBallot(valid));
      if (DEFERRED_STORES) {
        // The last peer's atomic, its result shuffled to the others: at the register cap of the
        // 2-round tiles 1.5-2% faster on an H100 than takeRowPlaces(), which is 2-6% faster in
        // the one-round tiles and the one-workgroup sort.
        uint leader = highestPeer(peers);
        uint before = peerCount(peers & lanesBelow());
        uint first = 0u;
        if (valid && lane == leader) {
          uint sh = counterShift(gl_SubgroupID);
          first = (counterAdd(counterWord(gl_SubgroupID, digit), (before + 1u) << sh) >> sh) & 0xFFFFu;
        }
        place = subgroupShuffle(first, valid ? leader : lane) + before;
      } else {
        uint before = peerCount(peers & lanesBelow());
        place = takeRowPlaces(digit, peers, before, valid) + before;
      }
    }
    if (valid && !DEFERRED_STORES) tileStoreKey(place, t_keys[i]);
    t_places[i / 2u] |= place << (16u * (i % 2u));
    // Ballots: this step's counter writes before the next step's reads. Atomic ranking touches the
    // counters through its atomics alone, which apply in the subgroup's program order as their
    // lanes' do (ATOMIC_RANKING's premise): no barrier (on an H100 it cost keys32 3%, and 4-9%
    // more where only a tile's last steps took it).
    if (!ATOMIC_RANKING) subgroupSharedBarrier();
  }
}

// RANK_FIRST: each key's place among its subgroup's keys of its digit (t_places), from its
// atomic on the zeroed row, which it leaves holding the subgroup's counts. `whole` as rankSteps()'s.
// (A step whose lanes all held one digit taking one atomic for them all, subgroupAllEqual():
// pairs32 9-19% slower on an H100, even at q16.)
void rankFirstSteps(uint shift, bool whole) {
  uint sh = counterShift(gl_SubgroupID);
  [[unroll]] for (uint i = 0u; i < (KPI + 1u) / 2u; ++i) t_places[i] = 0u;
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    if (!stepInTile(i)) break;
    bool valid = whole || laneIndex(i) < t_count;
    uint digit = digitOf(t_keys[i], shift);
    uint place = valid ? (counterAdd(counterWord(gl_SubgroupID, digit), 1u << sh) >> sh) & 0xFFFFu : 0u;
    t_places[i / 2u] |= place << (16u * (i % 2u));
  }
}
// RANK_FIRST, behind the row sums: each key's place moves by its row's first place of its digit,
// and in one round the key goes to it in s_tile.
void placeRankedSteps(uint shift, bool whole) {
  uint sh = counterShift(gl_SubgroupID);
  uint places[(KPI + 1u) / 2u];
  [[unroll]] for (uint i = 0u; i < (KPI + 1u) / 2u; ++i) places[i] = 0u;
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    if (!stepInTile(i)) break;
    uint digit = digitOf(t_keys[i], shift);
    uint place = placeOf(i) + ((counterLoad(counterWord(gl_SubgroupID, digit)) >> sh) & 0xFFFFu);
    if (!DEFERRED_STORES && (whole || laneIndex(i) < t_count)) tileStoreKey(place, t_keys[i]);
    places[i / 2u] |= place << (16u * (i % 2u));
  }
  [[unroll]] for (uint i = 0u; i < (KPI + 1u) / 2u; ++i) t_places[i] = places[i];
}

// Each key's place in the tile's digit order (t_places), and with one reorder round the key to it
// in s_tile. The row counter of a digit advances by its peers at each step; the last peer moves
// it. A uniform tile skips this: its digit order is its input order, and its keys stay in
// registers. No workgroup barrier inside: a kernel may let some subgroups do other work first
// (Onesweep's look-back).
// Whole tiles rank without the tests of which lanes hold keys: on an H100 keys32 2^26 1-2% faster
// (with the rows holding the digits' starts, sumSubgroupRows()).
void rankTile(uint shift) {
  if (t_uniform) return;
  if (t_rankedFirst) {
    if (t_count == tileKeys()) placeRankedSteps(shift, true);
    else placeRankedSteps(shift, false);
  } else if (HOT_RANKING && t_hotRankDigit < kRadix) {
    if (t_count == tileKeys()) rankSteps(shift, true, true);
    else rankSteps(shift, false, true);
  } else if (t_count == tileKeys()) rankSteps(shift, true, false);
  else rankSteps(shift, false, false);
}

// With deferred stores: this invocation's keys (values) whose places fall in round r's part, to
// the reorder area. Behind a barrier that freed the area.
void storeKeysOfRound(uint r) {
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint at = placeOf(i) - r * PART;
    if (holdsKey(i) && at < PART) tileStoreKey(at, t_keys[i]);
  }
}
void storeValuesOfRound(uint r, uvec2 values[KPI]) {
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint at = placeOf(i) - r * PART;
    if (holdsKey(i) && at < PART) tileStoreValue(at, values[i]);
  }
}

// Round r's keys from s_tile to s_digitDest[digit] + j, j their place. `whole`: a tile of TILE
// keys, every place taken (a literal at each call: no test per key).
void scatterKeysOfRound(uvec2 keysOut, uint shift, uint r, bool whole) {
  [[unroll]] for (uint i = 0u; i < ROUND_KPI; ++i) {
    uint at = i * WG + gl_LocalInvocationIndex;
    uint j = r * PART + at;
    if (whole || j < t_count) {
      KeyT key = tileLoadKey(at);
      uint digit = digitOf(key, shift);
      uint k = r * ROUND_KPI + i;
      t_digits[k / 4u] |= digit << (8u * (k % 4u));
      storeKey(keysOut, s_digitDest[digit] + j, key);
    }
  }
}
// 64-bit keys alone scatter whole tiles without the tests (on an H100 keys64 2^26 5% faster;
// keys32 1% and pairs64v32 7% slower with them).
const bool WHOLE_SCATTER = kKeyWords == 2u && VALUE_WORDS == 0u;

// Keys to s_digitDest[digit] + j, j their place (s_digitDest set behind a barrier): consecutive
// invocations write consecutive addresses of a bin. A uniform tile's keys go from registers.
void scatterKeys(uvec2 keysOut, uint shift) {
  if (t_uniform) {
    // (with EARLY_NEXT_COUNT s_uniformDigit is reset meanwhile: an invocation holding keys holds
    // key 0, and all have the tile's digit)
    uint dest = s_digitDest[EARLY_NEXT_COUNT ? digitOf(t_keys[0], shift) : s_uniformDigit];
    [[unroll]] for (uint i = 0u; i < KPI; ++i)
      if (holdsKey(i)) storeKey(keysOut, dest + laneIndex(i), t_keys[i]);
    return;
  }
  [[unroll]] for (uint i = 0u; i < (KPI + 3u) / 4u; ++i) t_digits[i] = 0u;
  [[unroll]] for (uint r = 0u; r < REORDER_ROUNDS; ++r) {
    if (DEFERRED_STORES) {
      if (r > 0u) barrier();  // the previous round has left the area
      storeKeysOfRound(r);
      barrier();
    }
    if (WHOLE_SCATTER && t_count == TILE) scatterKeysOfRound(keysOut, shift, r, true);
    else scatterKeysOfRound(keysOut, shift, r, false);
  }
}

// Several rounds: the tile's values (at `valuesIn`, the tile's own base), each loaded once.
void loadHeldValues(out uvec2 values[KPI], uvec2 valuesIn) {
  [[unroll]] for (uint i = 0u; i < KPI; ++i) values[i] = holdsKey(i) ? loadValue(valuesIn, laneIndex(i)) : uvec2(0u);
}
// Several rounds: the values load before the key scatter (SCATTER_THEN_NEXT_TILE), so that their
// latency hides behind it (H100, pairs64v32 2^26 8.44 -> 8.04 ms, 8M 12% faster; pairs64v64 3-5%).
// In one round it changed nothing (pairs64v32 / v64 from 256k to 6M within 0.1% / 0.7%).
const bool EARLY_HELD_VALUES = DEFERRED_STORES && VALUE_WORDS != 0u;

// A uniform tile's values straight to their places (its digit order is its input order).
// `held`: the caller loaded them into `values` (loadHeldValues(), several rounds).
void scatterUniformValues(uvec2 valuesIn, uvec2 valuesOut, bool held, uvec2 values[KPI]) {
  uint dest = s_digitDest[s_uniformDigit];
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint idx = laneIndex(i);
    if (holdsKey(i))
      storeValue(valuesOut, dest + idx, RIDING_VALUES ? uvec2(t_values[i], 0u) : held ? values[i] : loadValue(valuesIn, idx));
  }
}
// Round r's values into the reorder area, behind a barrier that freed it: with several rounds
// those of `values` whose places fall in its part; with one, each straight to its place (loading
// them all first made pairs32 5% slower on an H100).
void placeValuesOfRound(uint r, uvec2 valuesIn, uvec2 values[KPI]) {
  if (DEFERRED_STORES) {
    storeValuesOfRound(r, values);
    return;
  }
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint idx = laneIndex(i);
    if (holdsKey(i)) tileStoreValue(placeOf(i), RIDING_VALUES ? uvec2(t_values[i], 0u) : loadValue(valuesIn, idx));
  }
}
// Round r's values from the reorder area to their destinations, behind a barrier.
void scatterValuesOfRound(uint r, uvec2 valuesOut) {
  [[unroll]] for (uint i = 0u; i < ROUND_KPI; ++i) {
    uint at = i * WG + gl_LocalInvocationIndex;
    uint j = r * PART + at;
    if (j < t_count) storeValue(valuesOut, s_digitDest[scatteredDigit(r * ROUND_KPI + i)] + j, tileLoadValue(at));
  }
}

// The tile's values (at `valuesIn`, the tile's own base) after their keys, through s_tile to the
// same places (a uniform tile's straight). Every invocation must call it. `held`: the caller
// loaded them into `values` (loadHeldValues(), several rounds). SCATTER_THEN_NEXT_TILE writes a
// round out itself where there is one, to load the next tile in it.
void scatterValues(uvec2 valuesIn, uvec2 valuesOut, bool held, inout uvec2 values[KPI]) {
  if (t_uniform) {
    scatterUniformValues(valuesIn, valuesOut, held, values);
    return;
  }
  // Several rounds: every value loaded once, into registers.
  if (DEFERRED_STORES && !held) loadHeldValues(values, valuesIn);
  [[unroll]] for (uint r = 0u; r < REORDER_ROUNDS; ++r) {
    barrier();  // the keys (or the previous round's values) have left the area
    placeValuesOfRound(r, valuesIn, values);
    barrier();
    scatterValuesOfRound(r, valuesOut);
  }
}

// EARLY_NEXT_COUNT: the next tile's keys, in t_keys / t_count, into this subgroup's own counters
// (cleared first, unless KNOWN_ROWS; and s_uniformDigit reset for the row sums). No workgroup
// barrier: the other subgroup of the pair may be counting into the words' other halves meanwhile.
void countOwnRowEarly(uint shift, uint hot) {
  if (!KNOWN_ROWS) {
    uint row = counterWord(gl_SubgroupID, 0u), keep = 0xFFFF0000u >> counterShift(gl_SubgroupID);
    for (uint d = gl_SubgroupInvocationID; d < kRadix; d += gl_SubgroupSize) counterAnd(row + d, keep);
  }
  if (gl_LocalInvocationIndex == 0u) s_uniformDigit = kRadix;
  if (!KNOWN_ROWS) subgroupSharedBarrier();
  countIntoRows(shift, hot);
}

// Persistent tiles (tile_tickets.glsl), the end of a turn of a kernel's tile loop: the tile (its
// first key at tileStart) scatters, keys then values (with EARLY_HELD_VALUES the values load
// first); where a next tile came (`more`: nextCount
// keys from key nextStart, at nextAt; with RIDING_VALUES their values too) the workgroup loads it
// and gets ready for it, else the loop ends. Keys alone load it during the scatter (on an H100
// that made keys32 5% faster, pairs32 10% slower). Pairs in one round load it once their values
// are in the reorder area, their keys and values in registers spent, so that the loads are in
// flight while the values scatter (H100, pairs32 3M / 4M / 6M 2% / 3% / 3% faster); in several
// rounds, and a uniform tile's, after their values (896 x 14 pairs32, with the rounds written out
// here to load it in the last, spilled 64 bytes rather than 16 and ran 12-25% slower). With
// EARLY_NEXT_COUNT each subgroup then counts its keys of it (hot: the pass's hot digit, as
// countTile() takes) and `counted` says so. A macro, so that each kernel compiles as if it were
// written out there: as functions the SPIR-V changed, and pairs32's 1024 x 16 tiles, at the
// register cap, ran 25% slower on an H100.
#define SCATTER_THEN_NEXT_TILE(tileStart, more, nextStart, nextAt, nextCount, hot, counted)          \
  {                                                                                                 \
    KeyT nextKeys[KPI];                                                                             \
    uvec2 heldValues[KPI];                                                                          \
    uvec2 valuesIn = addressAt(uvec2(pc.valsIn), tileStart, valueLog2Bytes());                      \
    if ((more) && VALUE_WORDS == 0u) loadTileInto(nextKeys, nextAt, nextCount);                     \
    if (EARLY_HELD_VALUES) loadHeldValues(heldValues, valuesIn);                                    \
    scatterKeys(uvec2(pc.keysOut), pc.shift);                                                       \
    bool nextLoaded = VALUE_WORDS == 0u;                                                            \
    if (VALUE_WORDS != 0u && (DEFERRED_STORES || t_uniform)) {                                      \
      scatterValues(valuesIn, uvec2(pc.valsOut), EARLY_HELD_VALUES, heldValues);                    \
    } else if (VALUE_WORDS != 0u) {                                                                 \
      barrier(); /* the keys have left the area */                                                  \
      placeValuesOfRound(0u, valuesIn, heldValues);                                                 \
      if (more) {                                                                                   \
        loadTileInto(nextKeys, nextAt, nextCount);                                                  \
        if (RIDING_VALUES) loadRidingValues(addressAt(uvec2(pc.valsIn), nextStart, 2u), nextCount); \
        nextLoaded = true;                                                                          \
      }                                                                                             \
      barrier();                                                                                    \
      scatterValuesOfRound(0u, uvec2(pc.valsOut));                                                  \
    }                                                                                               \
    if (!(more)) break;                                                                             \
    if (!nextLoaded) {                                                                              \
      loadTileInto(nextKeys, nextAt, nextCount);                                                    \
      if (RIDING_VALUES) loadRidingValues(addressAt(uvec2(pc.valsIn), nextStart, 2u), nextCount);   \
    }                                                                                               \
    if (!EARLY_NEXT_COUNT) {                                                                        \
      barrier(); /* the scatter is done with s_tile, s_digitDest and s_uniformDigit */              \
      clearTileCounts();                                                                            \
      barrier();                                                                                    \
    }                                                                                               \
    t_count = nextCount;                                                                            \
    [[unroll]] for (uint i = 0u; i < KPI; ++i) t_keys[i] = nextKeys[i];                             \
    if (EARLY_NEXT_COUNT) {                                                                         \
      countOwnRowEarly(pc.shift, hot);                                                              \
      counted = true;                                                                               \
    }                                                                                               \
  }
