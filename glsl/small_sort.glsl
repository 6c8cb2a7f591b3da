// Small sorts in one dispatch: a single workgroup sorts one tile of up to TILE keys, every pass
// in registers and shared memory, the keys read once and written once, in place in the caller's
// buffers (keysIn/valsIn). Each pass ranks the keys into s_tile (binning_rank.glsl's rankTile) and
// reads them back in their new order. For pairs a rider follows each key the same way: its
// 32-bit value (loaded with the keys, stored with them), or the source index of a 64-bit value,
// gathered at the end. No look-back, no other workgroup, no scratch.
// The tuning gives it a few tile sizes (the smallest that holds the count runs), up to a
// per-device count where it beats the multi-dispatch sort. Compiled per key width:
// small_sort.comp, small_sort64.comp.
//   reads/writes keys and values [0, count)
#include "common.glsl"

// The kernel's hooks (binning_switches.glsl): keys and values read and written in place.
#include "in_place.glsl"
#define BINNING_KERNEL VKSORT_SMALL_SORT
#define KEYS_IN KeysRW
#define KEYS_OUT KeysRW
#define VALS_IN ValsRW
#define VALS_IN64 ValsRW64
#define VALS_OUT ValsRW
#define VALS_OUT64 ValsRW64
#define ON_TILE_COUNT(digit, count)
#define BEFORE_COUNT_BARRIER()
#define PASS_INDEX 0u  // the pass forms (pass_route.glsl): one pass, which moves the keys
#define PASS_MOVING 1u
#include "binning_switches.glsl"
#include "binning_next_tile.glsl"

// Each key's rider (RIDE_VALUES: its 32-bit value, else its source index), with RIDERS_ALONGSIDE
// in an area of its own (binning_switches.glsl).
shared uint s_riders[RIDERS_ALONGSIDE && VALUE_WORDS != 0u ? TILE : 1u];

void sortOneTile(uint count) {
  uvec2 keys = uvec2(pc.keysIn);
  uvec2 values = uvec2(pc.valsIn);
  loadTile(keys, count);
  uint riders[KPI];
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint idx = laneIndex(i);
    riders[i] = !RIDE_VALUES || passIndexValues() ? idx : idx < count ? loadValue(values, idx).x : 0u;
  }
  for (uint pass = 0u; pass < pc.passCount; ++pass) {
    clearTileCounts();
    barrier();
    uint shift = pc.shift + pass * kRadixBits;
    countTile(shift, kRadix, false);
    if (t_uniform) {  // the pass keeps the order
      barrier();      // everyone has read s_uniformDigit before the next pass clears it
      continue;
    }
    rankTile(shift);  // the keys to their places in s_tile
    if (VALUE_WORDS != 0u && RIDERS_ALONGSIDE) {
      [[unroll]] for (uint i = 0u; i < KPI; ++i)
        if (holdsKey(i)) s_riders[placeOf(i)] = riders[i];
    }
    barrier();
    [[unroll]] for (uint i = 0u; i < KPI; ++i)
      if (holdsKey(i)) t_keys[i] = tileLoadKey(laneIndex(i));
    if (VALUE_WORDS != 0u && RIDERS_ALONGSIDE) {
      [[unroll]] for (uint i = 0u; i < KPI; ++i)
        if (holdsKey(i)) riders[i] = s_riders[laneIndex(i)];
    } else if (VALUE_WORDS != 0u) {
      barrier();
      [[unroll]] for (uint i = 0u; i < KPI; ++i)
        if (holdsKey(i)) s_tile[placeOf(i)] = riders[i];
      barrier();
      [[unroll]] for (uint i = 0u; i < KPI; ++i)
        if (holdsKey(i)) riders[i] = s_tile[laneIndex(i)];
    }
    // The next pass writes s_tile only behind countTile's barriers.
  }
  if (passWritesKeys()) {
    [[unroll]] for (uint i = 0u; i < KPI; ++i)
      if (holdsKey(i)) KeysRW(keys).v[laneIndex(i)] = t_keys[i];
  }
  if (VALUE_WORDS == 0u) return;
  if (RIDE_VALUES) {  // read before the first pass's barriers
    [[unroll]] for (uint i = 0u; i < KPI; ++i)
      if (holdsKey(i)) storeValue(values, laneIndex(i), uvec2(riders[i], 0u));
    return;
  }
  // Gathered in place: every value read before any is written.
  uvec2 gathered[KPI];
  [[unroll]] for (uint i = 0u; i < KPI; ++i)
    gathered[i] = holdsKey(i) ? loadValue(values, riders[i]) : uvec2(0u);
  memoryBarrierBuffer();
  barrier();
  [[unroll]] for (uint i = 0u; i < KPI; ++i)
    if (holdsKey(i)) storeValue(values, laneIndex(i), gathered[i]);
}

void main() {
  uint count = sortCount();
  if (count != 0u) sortOneTile(count);  // the recorder and init send it at most TILE keys
}
