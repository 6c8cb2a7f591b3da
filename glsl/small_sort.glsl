// Small sorts in one dispatch: a single workgroup runs every pass over the whole input, tile after
// tile, keeping each digit's next position in shared memory (no look-back, no other workgroup).
// Passes ping-pong between the caller's buffers (keysIn/valsIn) and the scratch copies
// (keysOut/valsOut), made visible to the workgroup between passes; an odd pass count ends with a
// copy back. Used up to a per-device count (tuning.cpp), where it beats the multi-dispatch sort.
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

void main() {
  uint tid = gl_LocalInvocationIndex;
  uint count = sortCount();
  if (count == 0u) return;
  uint tiles = divideUp(count, TILE);
  uvec2 keys[2] = uvec2[](uvec2(pc.keysIn), uvec2(pc.keysOut));
  uvec2 values[2] = uvec2[](uvec2(pc.valsIn), uvec2(pc.valsOut));
  for (uint pass = 0u; pass < pc.passCount; ++pass) {
    uint shift = pc.shift + pass * kRadixBits;
    uvec2 from = keys[pass & 1u];
    // This pass's digit histogram, scanned into bin starts; between tiles s_digitDest holds each
    // digit's next global position (no shared memory of its own: the binning tuning fills the
    // device's limit). A single tile needs neither: its digit order is the pass's order.
    if (tiles > 1u) {
      for (uint d = tid; d < kRadix; d += WG) s_digitScan[d] = 0u;
      barrier();
      for (uint i = tid; i < count; i += WG) atomicAdd(s_digitScan[digitOf(KeysRW(from).v[i], shift)], 1u);
      barrier();
      exclusiveScanDigits();
      for (uint d = tid; d < kRadix; d += WG) s_digitDest[d] = s_digitScan[d];
    }
    // Tiles in input order: each digit's keys land after the previous tiles' (stable).
    for (uint tile = 0u; tile < tiles; ++tile) {
      clearTileCounts();
      barrier();
      uint tileStart = tile * TILE;
      loadTile(addressAt(from, tileStart, KEY_LOG2_BYTES), min(TILE, count - tileStart));
      countTile(shift);
      rankTile(shift);
      for (uint d = tid; d < kRadix; d += WG) s_digitDest[d] = tiles == 1u ? 0u : s_digitDest[d] - s_digitScan[d];
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
