// Two-phase tile renderer, pass 3c: each depth-sorted splat writes its tile ids as u32 keys, and
// its index, into consecutive slots from where blockSums and the workgroup's prefix sum put it
// (sorted_copies.glsl); slots past the capacity are dropped (the host grows the buffers and draws
// the frame again).
#version 450
#include "sorted_copies.glsl"

void main() {
  uint block = gl_WorkGroupID.x;
  if (block * SPLATS_COPY_BLOCK >= visibleSplats()) return;  // the whole workgroup
  uint copies = threadCopies(block), total;
  uint slot = frame.blockSums.v[block] + workgroupInclusiveSum(copies, total) - copies;
  uint first = block * SPLATS_COPY_BLOCK + gl_LocalInvocationIndex * kPerThread;
  uint end = min(first + kPerThread, visibleSplats());
  for (uint k = first; k < end; ++k) {
    uint i = sortedSplat(k);
    uint lo = frame.screen.v[i].tileMin, hi = frame.screen.v[i].tileMax;
    for (uint y = lo >> 16; y < hi >> 16; ++y)
      for (uint x = lo & 0xFFFFu; x < (hi & 0xFFFFu) && slot < frame.capacity; ++x, ++slot) {
        frame.keys.v[slot] = y * frame.tilesX + x;
        frame.indices.v[slot] = i;
      }
  }
}
