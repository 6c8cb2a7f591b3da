// The read ceiling (what the histogram can reach: it reads the keys and writes almost nothing):
// the copy's shape, reading only. The words are folded and compared with q, a value they do not
// fold to (the sources are zero-filled), so that the loads stay and nothing is written.
#version 450
layout(local_size_x = 256) in;  // before the include: flatId() reads gl_WorkGroupSize
#include "bench_common.glsl"
void main() {
  uint i = flatId();
  if (i >= pc.count) return;
  uvec4 v = Quads(workgroupBase(pc.src, 16u)).v[gl_LocalInvocationID.x];
  if ((v.x ^ v.y ^ v.z ^ v.w) == pc.q) pc.dst.v[0] = i;
}
