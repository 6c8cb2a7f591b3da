// The bandwidth ceiling: one uvec4 per invocation, no loop (the fastest copy shape measured on
// the H200).
#version 450
layout(local_size_x = 256) in;  // before the include: flatId() reads gl_WorkGroupSize
#include "bench_common.glsl"
void main() {
  uint i = flatId();
  if (i >= pc.count) return;
  uint l = gl_LocalInvocationID.x;
  Quads(workgroupBase(pc.dst, 16u)).v[l] = Quads(workgroupBase(pc.src, 16u)).v[l];
}
