// Reduce-then-scan, first kernel of a pass: each workgroup counts the digits of its tile into the
// tile table (pc.status): table[digit * tiles + tile]. tile_scan.comp turns the table into global
// positions; downsweep.glsl moves the keys. No workgroup waits on another.
//   reads keysIn [tile range]; writes the tile's column of the table
#include "common.glsl"

layout(local_size_x_id = 0) in;
#include "binning.glsl"

void main() {
  uint tile, tiles, tileStart;
  if (!loadWorkgroupTile(tile, tiles, tileStart)) return;
  countDigits(pc.shift, false, kRadix);  // the counts alone: no ranking follows; no hot digit known
  for (uint d = gl_LocalInvocationIndex; d < kRadix; d += WG) pc.status.v[d * tiles + tile] = s_digitCount[d];
}
