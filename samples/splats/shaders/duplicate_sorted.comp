// Two-phase tile renderer, pass 3c: each depth-sorted splat writes its tile ids as u32 keys, and
// its index, into consecutive slots from where blockSums and the workgroup's prefix sum put it
// (sorted_copies.glsl); slots past the capacity are dropped (the host grows the buffers and draws
// the frame again).
#version 450
#include "sorted_copies.glsl"

void main() {
  uint block = gl_WorkGroupID.x;
  if (block * SPLATS_COPY_BLOCK >= visibleSplats()) return;  // the whole workgroup
  uvec4 s = sortedSplat(gl_GlobalInvocationID.x);
  uint total;
  uint slot = frame.blockSums.v[block] + workgroupInclusiveSum(s.w, total) - s.w;
  for (uint y = s.y >> 16; y < s.z >> 16; ++y)
    for (uint x = s.y & 0xFFFFu; x < (s.z & 0xFFFFu) && slot < frame.capacity; ++x, ++slot) {
      frame.keys.v[slot] = y * frame.tilesX + x;
      frame.indices.v[slot] = s.x;
    }
}
