// Two-phase tile renderer, pass 3a: the copies each block of depth-sorted splats makes
// (sorted_copies.glsl), into blockSums.
#version 450
#include "sorted_copies.glsl"

void main() {
  uint block = gl_WorkGroupID.x;
  if (block * SPLATS_COPY_BLOCK >= visibleSplats()) return;  // the whole workgroup
  uint total;
  workgroupInclusiveSum(sortedSplat(gl_GlobalInvocationID.x).w, total);
  if (gl_LocalInvocationIndex == 0u) frame.blockSums.v[block] = total;
}
