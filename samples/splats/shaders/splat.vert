// One screen-space quad per visible splat, in sorted (back-to-front) instance order: a square
// around the projected Gaussian's center that holds every pixel it weighs (projection.glsl).
#version 450
#include "projection.glsl"

layout(location = 0) out vec3 outColor;
layout(location = 1) out float outOpacity;
layout(location = 2) out vec3 outConic;   // inverse 2D covariance (xx, xy, yy), pixels
layout(location = 3) out vec2 outOffset;  // pixels from the center

void main() {
  const vec2 corners[4] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(-1, 1), vec2(1, 1));
  uint index = frame.indices.v[gl_InstanceIndex];
  Splat s = frame.splats.v[index];
  Projection p = project(s);
  outColor = colorSeen(s, index);
  outOpacity = s.opacity;
  outConic = p.conic;
  outOffset = corners[gl_VertexIndex] * p.radius;
  vec2 pixel = p.center + outOffset;
  gl_Position = vec4(pixel / vec2(frame.width, frame.height) * 2.0 - 1.0, 0.5, 1.0);
  if (!p.valid) gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // off screen
}
