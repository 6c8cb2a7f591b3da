#ifndef VKSORT_BINNING_TILE_GLSL
#define VKSORT_BINNING_TILE_GLSL
#ifndef VKSORT_BINNING_SWITCHES_GLSL
#error "binning_tile.glsl: include binning_switches.glsl first"
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
// Its switches, and the hooks the including kernel defines: binning_switches.glsl.
// Shared memory: s_tile, a reorder area of PART = TILE / REORDER_ROUNDS elements (keys, then
// values, in digit order; a 64-bit word pair as low words then high words);
// s_subgroupCounts[MAX_SUBGROUPS / 2][kRadix] (16-bit counters); s_digitDest[kRadix],
// s_digitScan/s_digitCount[kRadix] (a word each with DIGITS_IN_REGISTERS) and a few words
// (tuning.cpp's binningSharedBytes() mirrors this).
// REORDER_ROUNDS > 1 makes a tile larger than shared memory holds: the ranking keeps each key's
// place in registers, and the tile goes through the reorder area a part at a time (places
// [r * PART, (r + 1) * PART) in round r). The counters then live in the reorder area's words
// (they are done with before the first round); with one round the ranking stores keys as it goes.

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

// Per tile: whether its keys ranked first (RANK_FIRST, unless its pass has a hot digit:
// countIntoRows()); the pass's hot digit its ranking takes a step at a time (HOT_RANKING; kRadix:
// none); with KNOWN_ROWS what the ranking left in each row of this invocation's chunk.
bool t_rankedFirst = false;
uint t_hotRankDigit = kRadix;
uint t_rowsAfter[KNOWN_ROW_REGS];

#define DIGIT_SCAN_WORDS DIGIT_WORDS
#include "workgroup_scan.glsl"
#include "pass_route.glsl"
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
// With DIGITS_IN_REGISTERS invocation d (d < kRadix) alone reads digit d's count and start in the
// tile (the look-back, the destinations), so they stay in its registers and s_digitCount /
// s_digitScan shrink to a word: 2 KiB more for the tile (binningSharedBytes()). Not pairs: their
// tiles sit at the register cap already (riding values).
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
// The value of the tile's i-th key (at `tile`, the tile's own base): read, or where `generated`
// (passIndexValues(), asked once per phase, not per value) its index in the input, the tile's
// first being g_tileFirstIndex.
uint g_tileFirstIndex = 0u;
uvec2 tileValue(uvec2 tile, uint i, bool generated) {
  if (generated) return uvec2(g_tileFirstIndex + i, 0u);
  return loadValue(tile, i);
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
