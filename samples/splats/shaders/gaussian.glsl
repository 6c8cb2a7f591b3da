// A projected Gaussian's weight at a pixel, the same in both renderers (the quads' fragment
// shader, the tiles' blend).
#ifndef SPLATS_GAUSSIAN_GLSL
#define SPLATS_GAUSSIAN_GLSL

// The weight of the splat at `offset` pixels from its center (power > 0 only from rounding).
float gaussianAlpha(vec3 conic, float opacity, vec2 offset) {
  float power = -0.5 * (conic.x * offset.x * offset.x + conic.z * offset.y * offset.y) - conic.y * offset.x * offset.y;
  return power > 0.0 ? 0.0 : min(0.99, opacity * exp(power));
}
const float kMinAlpha = 1.0 / 255.0;  // weaker contributions are skipped, in both renderers


#endif  // SPLATS_GAUSSIAN_GLSL
