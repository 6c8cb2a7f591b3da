// Culling: every splat in front of the camera and near the view frustum appends its depth key
// (farthest first, through the public vksort/keys.glsl) and its index; the count lands in the
// draw's instanceCount, which vksort then reads as its indirect count.
#version 450
layout(local_size_x = 256) in;
#include "splat_common.glsl"
#include "vksort/keys.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= frame.count) return;
  Splat s = frame.splats.v[i];
  vec3 p = (frame.view * vec4(s.position, 1.0)).xyz;
  float depth = -p.z;
  if (depth < kNear) return;
  // The frustum, widened by the splat's largest extent (3 sigma) so that edges stay drawn.
  float reach = 3.0 * max(s.scale.x, max(s.scale.y, s.scale.z));
  vec2 limit = 0.5 * vec2(frame.width / frame.focalX, frame.height / frame.focalY) * depth + reach;
  if (any(greaterThan(abs(p.xy), limit))) return;
  uint slot = atomicAdd(frame.draw.v[1], 1u);
  frame.keys.v[slot] = ~vksortFloatKey(depth);  // ascending sort: farthest first
  frame.indices.v[slot] = i;
}
