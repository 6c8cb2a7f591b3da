// The two-phase tile renderer's copies (Brush and several Metal renderers draw this way): the
// visible splats are sorted by depth first (a permutation sort of u32 keys), then each is copied
// once per tile it touches, in that order, so that a stable sort by tile id alone (over the bits
// the tile count needs) leaves each tile's splats nearest first. A splat's copies must follow
// those of every nearer splat: their slots come from a prefix sum of the copy counts in depth
// order, in three passes over blocks of SPLATS_COPY_BLOCK sorted splats, one a thread
// (copy_counts.comp, copy_offsets.comp, duplicate_sorted.comp): each thread's splat is one
// dependent load away (its visible record, through the sort's permutation).
#ifndef SPLATS_SORTED_COPIES_GLSL
#define SPLATS_SORTED_COPIES_GLSL
#include "tiles.glsl"

const uint kScanThreads = SPLATS_COPY_BLOCK;
layout(local_size_x = kScanThreads) in;

uint visibleSplats() { return frame.counts.v[kCountVisible]; }
// The visible record (splat_common.glsl) at sorted position k, or none (no tiles) past the end.
uvec4 sortedSplat(uint k) { return k < visibleSplats() ? frame.visible.v[frame.order.v[k]] : uvec4(0u); }

// Inclusive prefix sum over the workgroup's threads, in thread order, and the workgroup's total
// (every thread calls it).
shared uint s_partial[kScanThreads];
uint workgroupInclusiveSum(uint value, out uint total) {
  uint t = gl_LocalInvocationIndex;
  s_partial[t] = value;
  barrier();
  for (uint d = 1u; d < kScanThreads; d <<= 1) {
    uint add = t >= d ? s_partial[t - d] : 0u;
    barrier();
    s_partial[t] += add;
    barrier();
  }
  uint sum = s_partial[t];
  total = s_partial[kScanThreads - 1u];
  barrier();  // every thread has read before the next call writes
  return sum;
}
#endif  // SPLATS_SORTED_COPIES_GLSL
