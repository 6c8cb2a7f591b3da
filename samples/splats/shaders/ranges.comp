// Tile renderer, pass 4: after the sort, where each tile's keys begin and end (the ranges were
// cleared to empty): a key whose tile differs from its neighbour's marks a boundary.
#version 450
layout(local_size_x = 256) in;
#include "tiles.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint n = keysWritten();
  if (i >= n) return;
  uint tile = tileOfKey(i);
  if (i == 0u || tileOfKey(i - 1u) != tile) frame.ranges.v[2u * tile] = i;
  if (i + 1u == n || tileOfKey(i + 1u) != tile) frame.ranges.v[2u * tile + 1u] = i + 1u;
}
