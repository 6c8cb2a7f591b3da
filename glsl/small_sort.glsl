// Small sorts in one dispatch: a single workgroup runs every pass over the whole input. Up to one
// tile, every pass stays in registers and shared memory (sortOneTile). More keys go tile after
// tile, keeping each digit's next position in shared memory (no look-back, no other workgroup);
// their passes ping-pong between the caller's buffers (keysIn/valsIn) and the scratch copies
// (keysOut/valsOut), made visible to the workgroup between passes, and an odd pass count ends
// with a copy back. Used up to a per-device count (tuning.cpp), where it beats the multi-dispatch
// sort.
// Compiled per key width: small_sort.comp, small_sort64.comp.
//   reads/writes keys and values [0, count) and their scratch copies
#include "common.glsl"

layout(local_size_x_id = 0) in;
// Read back by other invocations of the workgroup within the dispatch: coherent, not restrict.
#if KEY_WORDS == 1
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer KeysRW { uint v[]; };
#else
layout(buffer_reference, std430, buffer_reference_align = 8) coherent buffer KeysRW { uvec2 v[]; };
#endif
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer ValsRW { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) coherent buffer ValsRW64 { uvec2 v[]; };
#define KEYS_IN KeysRW
#define KEYS_OUT KeysRW
#define VALS_IN ValsRW
#define VALS_IN64 ValsRW64
#define VALS_OUT ValsRW
#define VALS_OUT64 ValsRW64
#include "binning.glsl"

// A sort of one tile: every pass in registers and shared memory, the keys read once and written
// once. Each pass ranks the keys into s_tile (rankTile) and reads them back in their new order;
// for pairs each key's source index follows it the same way, and the values are gathered at the
// end. (Through global memory, as below, a pass cost ~3.7 us on an H100.)
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
  uint tid = gl_LocalInvocationIndex;
  uint count = sortCount();
  if (count == 0u) return;
  if (count <= TILE) {
    sortOneTile(count);
    return;
  }
  // Several tiles: each pass through the scratch copies in global memory.
  uint tiles = divideUp(count, TILE);
  uvec2 keys[2] = uvec2[](uvec2(pc.keysIn), uvec2(pc.keysOut));
  uvec2 values[2] = uvec2[](uvec2(pc.valsIn), uvec2(pc.valsOut));
  for (uint pass = 0u; pass < pc.passCount; ++pass) {
    uint shift = pc.shift + pass * kRadixBits;
    uvec2 from = keys[pass & 1u];
    // This pass's digit histogram, scanned into bin starts; between tiles s_digitDest holds each
    // digit's next global position (no shared memory of its own: the binning tuning fills the
    // device's limit).
    for (uint d = tid; d < kRadix; d += WG) s_digitScan[d] = 0u;
    barrier();
    for (uint i = tid; i < count; i += WG) atomicAdd(s_digitScan[digitOf(KeysRW(from).v[i], shift)], 1u);
    barrier();
    exclusiveScanDigits();
    for (uint d = tid; d < kRadix; d += WG) s_digitDest[d] = s_digitScan[d];
    // Tiles in input order: each digit's keys land after the previous tiles' (stable).
    for (uint tile = 0u; tile < tiles; ++tile) {
      clearTileCounts();
      barrier();
      uint tileStart = tile * TILE;
      loadTile(addressAt(from, tileStart, KEY_LOG2_BYTES), min(TILE, count - tileStart));
      countTile(shift);
      rankTile(shift);
      for (uint d = tid; d < kRadix; d += WG) s_digitDest[d] -= s_digitScan[d];
      barrier();
      scatterKeys(keys[(pass + 1u) & 1u], shift);
      if (VALUE_WORDS != 0u)
        scatterValues(addressAt(values[pass & 1u], tileStart, valueLog2Bytes()), values[(pass + 1u) & 1u]);
      barrier();  // every scatter has read s_digitDest, s_tile is free
      for (uint d = tid; d < kRadix; d += WG) s_digitDest[d] += s_digitScan[d] + s_digitCount[d];
    }
    memoryBarrierBuffer();  // this pass's writes, for the next pass's reads by any invocation
    barrier();
  }
  if ((pc.passCount & 1u) == 0u) return;
  for (uint i = tid; i < count; i += WG) {
    KeysRW(keys[0]).v[i] = KeysRW(keys[1]).v[i];
    if (VALUE_WORDS == 1u) ValsRW(values[0]).v[i] = ValsRW(values[1]).v[i];
    if (VALUE_WORDS == 2u) ValsRW64(values[0]).v[i] = ValsRW64(values[1]).v[i];
  }
}
