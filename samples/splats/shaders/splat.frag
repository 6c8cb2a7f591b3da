// The splat's Gaussian falloff, premultiplied, blended "over" what the farther splats left.
#version 450
layout(location = 0) in vec3 inColor;
layout(location = 1) in float inOpacity;
layout(location = 2) in vec3 inConic;
layout(location = 3) in vec2 inOffset;
layout(location = 0) out vec4 outColor;

void main() {
  vec2 d = inOffset;
  float power = -0.5 * (inConic.x * d.x * d.x + inConic.z * d.y * d.y) - inConic.y * d.x * d.y;
  float alpha = min(0.99, inOpacity * exp(power));
  if (power > 0.0 || alpha < 1.0 / 255.0) discard;
  outColor = vec4(inColor * alpha, alpha);
}
