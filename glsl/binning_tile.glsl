#ifndef VKSORT_BINNING_TILE_GLSL
#define VKSORT_BINNING_TILE_GLSL
#ifndef VKSORT_COMMON_GLSL
#error "binning_tile.glsl: include common.glsl first"
#endif

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
// ranking, so that the value scatter waits on no global load. A specialization constant tested
// inline: through a function the pipelines that do not ride compiled slower.
// The host sets it only for 32-bit values in one round (src/variant.cpp).
layout(constant_id = VKSORT_SPEC_RIDING_VALUES) const bool RIDING_VALUES = false;
// Onesweep's tiles fitted to whole waves (onesweep_fitted*.comp define RUNTIME_TILE; tuning.hpp,
// TileShape::fitPercent): a tile holds pc.tileKeys = WG * k keys, k <= KPI chosen per sort, and
// each invocation's keys k.. sit out (whole steps skipped: the branch is uniform). Every other
// kernel is compiled without those tests, which cost whole tiles.
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
// tiles gained nothing unrolled or summed in 3 chunks of 256.)
const uint kUnrolledRows = 8u;
// A ranking step's places from one shared atomic per key (the tuning's atomicRanking; NVIDIA):
// each lane adds 1 to its subgroup's counter of its digit and takes the value before as its
// place, with no ballots. Stable only where one instruction's atomics on one word apply in lane
// order and a subgroup's steps in program order, which the Vulkan spec does not promise (it says
// nothing of their order) but NVIDIA's GPUs do (every stability test of the GPU suite passes with
// it) and llvmpipe does (CI runs a variant with it). Other devices match digits with ballots
// (matchDigit()), and so do pairs in tiles of several rounds that count first (src/variant.cpp).
// One atomic replaces eight ballots per key (PERFORMANCE-LOG.md, sessions 28-29).
layout(constant_id = VKSORT_SPEC_ATOMIC_RANKING) const bool ATOMIC_RANKING = false;
// Ranking before the row sums (the tuning's rankFirst, with ATOMIC_RANKING): each key's atomic on
// its subgroup's zeroed row gives its place among its subgroup's keys of its digit, and leaves the
// row holding the subgroup's counts, so the count's own atomic per key goes; after the row sums
// each key adds its row's first place (a shared load) and, in one round, goes to s_tile. Passes with a
// hot digit count and rank as before (t_rankedFirst: per tile, from countIntoRows()'s `hot`).
// Pairs gain (their count's atomics on one word serialize at a crowded digit); keys alone lose
// their early count of the next tile (tuning_tables.cpp).
// The host sets it only with ATOMIC_RANKING (src/variant.cpp).
layout(constant_id = VKSORT_SPEC_RANK_FIRST) const bool RANK_FIRST = false;
bool t_rankedFirst = false;
// With ATOMIC_RANKING, where the kernel names a pass's hot digit (t_hotRankDigit: Onesweep's, up to
// HOT_RANK_TO percent of the keys; the tuning's hotRankTo, 0: never), a ranking step's lanes of
// that digit take their places by one atomic of the lowest of them, the others by their own: one
// word's atomics from many lanes serialize. (32-bit keys alone spilled registers with it in
// NVIDIA's 896 x 20 tiles: their tables say 0.)
#ifdef VKSORT_KERNEL_NAMES_HOT_DIGITS  // onesweep.glsl declares HOT_RANK_TO
const bool HOT_RANKING = ATOMIC_RANKING && HOT_RANK_TO != 0u;
#else
const bool HOT_RANKING = false;
#endif
uint t_hotRankDigit = kRadix;
// Rows left as the ranking leaves them (EARLY_NEXT_COUNT with chunked row sums): after a tile's
// ranking each counter word holds what its row-sum invocation can compute (each half: its
// subgroup's first place of the digit plus the subgroup's count of it), so the next tile's keys
// are counted on top of it, without clearing the row (a shared atomic AND per word, a subgroup
// barrier), and the row sums subtract it (t_rowsAfter, one register per row of the chunk).
const bool KNOWN_ROWS = uint(EARLY_NEXT_COUNT) * CHUNKED * uint(CHUNK_PAIRS <= kUnrolledRows) * uint(!RANK_FIRST) != 0u;
const uint KNOWN_ROW_REGS = CHUNK_PAIRS - 1u < kUnrolledRows ? CHUNK_PAIRS : 1u;  // 1 to 8 (an array's size)
uint t_rowsAfter[KNOWN_ROW_REGS];
// Keys alone with chunked row sums: invocation d (d < kRadix) computes digit d's count and start
// in the tile, and only it reads them (the look-back, the destinations), so they stay in its
// registers (t_digitCount, t_digitStart) and s_digitCount / s_digitScan shrink to a word: 2 KiB
// that go to the tile (tuning.cpp's binningSharedBytes()). Not pairs: their tiles sit at the
// register cap already (riding values).
const uint DIGITS_IN_REGISTERS = CHUNKED * uint(VALUE_WORDS == 0u);
const uint DIGIT_WORDS = kRadix - DIGITS_IN_REGISTERS * (kRadix - 1u);
#define DIGIT_SCAN_WORDS DIGIT_WORDS
#include "workgroup_scan.glsl"
#include "subgroup_rank.glsl"

shared uint s_tile[SHARED_TILE_WORDS];  // the reorder area (and with deferred stores the counters)
// Each subgroup's digit counters, 16 bits each (a subgroup holds fewer than 2^16 keys): half the
// shared memory of 32-bit counters, which lets a larger tile fit (NVIDIA's driver gives compute
// 48 KiB per SM in all). The word of (subgroup pair p, digit d) holds
// subgroup 2p's counter of d in its low half and subgroup 2p + 1's in its high half, so that a
// subgroup's half is the same for all its keys: no shift to compute per key, as there was with
// a word per two digits of one subgroup.
// Their own array where the ranking stores keys as it goes, so that no compiler need order a
// step's key store before the next step's counter atomics.
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
// steps' barrier (subgroupBarrier() would order buffers and images too).
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

#endif  // VKSORT_BINNING_TILE_GLSL
