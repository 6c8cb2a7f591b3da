// Small sorts in one dispatch: a single workgroup sorts one tile of up to TILE keys, every pass
// in registers and shared memory, the keys read once and written once, in place in the caller's
// buffers (keysIn/valsIn). Each pass ranks the keys into s_tile (binning.glsl's rankTile) and
// reads them back in their new order; for pairs each key's source index follows it the same
// way, and the values are gathered at the end. No look-back, no other workgroup, no scratch.
// The tuning gives it a few tile sizes (the smallest that holds the count runs), up to a
// per-device count where it beats the multi-dispatch sort. Compiled per key width:
// small_sort.comp, small_sort64.comp.
//   reads/writes keys and values [0, count)
#include "common.glsl"

layout(local_size_x_id = 0) in;
#include "in_place.glsl"
#define KEYS_IN KeysRW
#define KEYS_OUT KeysRW
#define VALS_IN ValsRW
#define VALS_IN64 ValsRW64
#define VALS_OUT ValsRW
#define VALS_OUT64 ValsRW64
#include "binning.glsl"

void sortOneTile(uint count) {
  uvec2 keys = uvec2(pc.keysIn);
  loadTile(keys, count);
  uint sources[KPI];
  [[unroll]] for (uint i = 0u; i < KPI; ++i) sources[i] = laneIndex(i);
  for (uint pass = 0u; pass < pc.passCount; ++pass) {
    clearTileCounts();
    barrier();
    uint shift = pc.shift + pass * kRadixBits;
    countTile(shift);
    if (t_uniform) {  // the pass keeps the order
      barrier();      // everyone has read s_uniformDigit before the next pass clears it
      continue;
    }
    rankTile(shift);  // the keys to their places in s_tile
    barrier();
    [[unroll]] for (uint i = 0u; i < KPI; ++i)
      if (laneIndex(i) < count) t_keys[i] = tileLoadKey(laneIndex(i));
    if (VALUE_WORDS != 0u) {
      barrier();
      [[unroll]] for (uint i = 0u; i < KPI; ++i)
        if (laneIndex(i) < count) s_tile[placeOf(i)] = sources[i];
      barrier();
      [[unroll]] for (uint i = 0u; i < KPI; ++i)
        if (laneIndex(i) < count) sources[i] = s_tile[laneIndex(i)];
    }
    // The next pass writes s_tile only behind countTile's barriers.
  }
  [[unroll]] for (uint i = 0u; i < KPI; ++i)
    if (laneIndex(i) < count) KeysRW(keys).v[laneIndex(i)] = t_keys[i];
  if (VALUE_WORDS == 0u) return;
  uvec2 values = uvec2(pc.valsIn);  // gathered in place: every value read before any is written
  uvec2 gathered[KPI];
  [[unroll]] for (uint i = 0u; i < KPI; ++i)
    gathered[i] = laneIndex(i) < count ? loadValue(values, sources[i]) : uvec2(0u);
  memoryBarrierBuffer();
  barrier();
  [[unroll]] for (uint i = 0u; i < KPI; ++i)
    if (laneIndex(i) < count) storeValue(values, laneIndex(i), gathered[i]);
}

void main() {
  uint count = sortCount();
  if (count != 0u) sortOneTile(count);  // the recorder and init send it at most TILE keys
}
