// Reduce-then-scan, last kernel of a pass: each workgroup ranks its tile again and scatters it to
// the positions tile_scan.comp left in the tile table (pc.status): the first key of digit d of
// tile t goes to table[d * tiles + t]. The same tile work as Onesweep's, with a table lookup in
// place of the look-back.
//   reads keysIn/valsIn [tile range], the table; writes keysOut/valsOut
#include "common.glsl"

layout(local_size_x_id = 0) in;
#include "binning.glsl"

void main() {
  uint tile, tiles, tileStart;
  if (!loadWorkgroupTile(tile, tiles, tileStart)) return;
  countTile(pc.shift, kRadix);  // no histogram before: no hot digit known
  rankTile(pc.shift);
  for (uint d = gl_LocalInvocationIndex; d < kRadix; d += WG)
    s_digitDest[d] = pc.status.v[d * tiles + tile] - s_digitScan[d];
  barrier();
  scatterKeys(uvec2(pc.keysOut), pc.shift);
  if (VALUE_WORDS != 0u)
    scatterValues(addressAt(uvec2(pc.valsIn), tileStart, valueLog2Bytes()), uvec2(pc.valsOut));
}
