// Tile renderer, pass 2: each splat writes a key (tile << 32 | depth) and its index into the
// slots it reserved, one per tile it touches; slots past the capacity are dropped (the host sees
// the count, grows the buffers and draws the frame again). Sorted by the 64-bit key, each tile's
// splats then lie together, nearest first.
#version 450
layout(local_size_x = 256) in;
#include "tiles.glsl"
#include "vksort/keys.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i == 0u) {  // the ranges pass's workgroups, one thread per key
    frame.counts.v[kCountRangesDispatch] = (keysWritten() + 255u) / 256u;
    frame.counts.v[kCountRangesDispatch + 1u] = 1u;
    frame.counts.v[kCountRangesDispatch + 2u] = 1u;
  }
  if (i >= frame.count) return;
  uint lo = frame.screen.v[i].tileMin, hi = frame.screen.v[i].tileMax;
  uint depthKey = vksortFloatKey(frame.screen.v[i].colorDepth.w);
  uint slot = frame.firsts.v[i];
  for (uint y = lo >> 16; y < hi >> 16; ++y)
    for (uint x = lo & 0xFFFFu; x < (hi & 0xFFFFu) && slot < frame.capacity; ++x, ++slot) {
      frame.keys.v[2u * slot] = depthKey;
      frame.keys.v[2u * slot + 1u] = y * frame.tilesX + x;
      frame.indices.v[slot] = i;
    }
}
