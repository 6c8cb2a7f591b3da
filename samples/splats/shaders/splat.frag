// The splat's Gaussian falloff, premultiplied, blended "over" what the farther splats left.
#version 450
#include "gaussian.glsl"
layout(location = 0) in vec3 inColor;
layout(location = 1) in float inOpacity;
layout(location = 2) in vec3 inConic;
layout(location = 3) in vec2 inOffset;
layout(location = 0) out vec4 outColor;

void main() {
  float alpha = gaussianAlpha(inConic, inOpacity, inOffset);
  if (alpha < kMinAlpha) discard;
  outColor = vec4(inColor * alpha, alpha);
}
