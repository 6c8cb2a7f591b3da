// Reduce-then-scan, first kernel of a pass: each workgroup counts the digits of its tile into the
// tile table (pc.status): table[digit * tiles + tile]. tile_scan.comp turns the table into global
// positions; downsweep.glsl moves the keys. No workgroup waits on another.
//   reads keysIn [tile range]; writes the tile's column of the table
#include "common.glsl"

layout(local_size_x_id = 0) in;
#include "binning.glsl"

void main() {
  uint tile = flatWorkGroupId();
  uint count = sortCount();
  uint tiles = divideUp(count, TILE);
  if (tile >= tiles) return;  // a spare workgroup of a 2D grid
  clearTileCounts();
  barrier();
  uint tileStart = tile * TILE;
  loadTile(addressAt(uvec2(pc.keysIn), tileStart, KEY_LOG2_BYTES), min(TILE, count - tileStart));
  countTile(pc.shift);
  for (uint d = gl_LocalInvocationIndex; d < kRadix; d += WG) pc.status.v[d * tiles + tile] = s_digitCount[d];
}
