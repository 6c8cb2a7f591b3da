// Culling: every splat in front of the camera and near the view frustum appends its depth (which
// vksort's recordDepthKeys makes a key of) or, with frame.depthBits 0, its f32 order key (farthest
// first, through the public vksort/keys.glsl), and its index; the count lands in the draw's
// instanceCount, which vksort then reads as its indirect count.
#version 450
layout(local_size_x = 256) in;
#include "projection.glsl"
#include "vksort/keys.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= frame.count) return;
  Splat s = frame.splats.v[i];
  float depth;
  if (!inView(s, depth)) return;
  uint slot = atomicAdd(frame.counts.v[1], 1u);
  frame.keys.v[slot] = frame.depthBits != 0 ? floatBitsToUint(depth) : ~vksortFloatKey(depth);  // ascending: farthest first
  frame.indices.v[slot] = i;
}
