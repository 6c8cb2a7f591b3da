#include "splat_camera.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace splats {

Framing frameScene(const std::vector<Splat>& scene) {
  Framing f{{0, 0, 0}, {1, 1, 1}, std::sqrt(3.0f)};
  if (scene.empty()) return f;
  // The core: per axis, the 1st to the 99th percentile of the positions.
  float low[3], high[3];
  std::vector<float> axis(scene.size());
  for (int k = 0; k < 3; ++k) {
    for (size_t i = 0; i < scene.size(); ++i) axis[i] = scene[i].position[k];
    const size_t lo = scene.size() / 100, hi = scene.size() - 1 - scene.size() / 100;
    std::nth_element(axis.begin(), axis.begin() + std::ptrdiff_t(lo), axis.end());
    low[k] = axis[lo];
    std::nth_element(axis.begin(), axis.begin() + std::ptrdiff_t(hi), axis.end());
    high[k] = axis[hi];
  }
  // The subject: every splat within the core grown by its own size on each side (a tall
  // subject's head is its top percent; floaters lie far beyond), each with its 3-sigma extent
  // (capped at a tenth of the core, so a huge background splat inside does not set the frame).
  float coreDiagonal2 = 0, reach[3];
  for (int k = 0; k < 3; ++k) {
    reach[k] = std::max(high[k] - low[k], 1e-3f);
    coreDiagonal2 += reach[k] * reach[k];
  }
  const float maxExtent = 0.1f * std::sqrt(coreDiagonal2);
  float lower[3] = {low[0], low[1], low[2]}, upper[3] = {high[0], high[1], high[2]};
  for (const Splat& s : scene) {
    bool inside = true;
    for (int k = 0; k < 3; ++k)
      inside = inside && s.position[k] >= low[k] - reach[k] && s.position[k] <= high[k] + reach[k];
    if (!inside) continue;
    const float extent = std::min(3 * std::max({s.scale[0], s.scale[1], s.scale[2]}), maxExtent);
    for (int k = 0; k < 3; ++k) {
      lower[k] = std::min(lower[k], s.position[k] - extent);
      upper[k] = std::max(upper[k], s.position[k] + extent);
    }
  }
  float half2 = 0;
  for (int k = 0; k < 3; ++k) {
    f.center[k] = 0.5f * (lower[k] + upper[k]);
    f.half[k] = std::max(0.5f * (upper[k] - lower[k]), 1e-3f);
    half2 += f.half[k] * f.half[k];
  }
  f.radius = std::sqrt(half2);
  return f;
}

Camera orbitCamera(const Framing& framing, float angle, bool yDown, float fovY, float elevation, float zoom,
                   float aspect) {
  const float up = yDown ? -1.0f : 1.0f;
  // The view's axes: toward the eye from the center, forward (its opposite), right and up.
  const float toEye[3] = {std::cos(elevation) * std::sin(angle), up * std::sin(elevation),
                          std::cos(elevation) * std::cos(angle)};
  const float forward[3] = {-toEye[0], -toEye[1], -toEye[2]};
  float right[3] = {-forward[2] * up, 0, forward[0] * up};  // forward x (0, up, 0)
  const float length = std::max(std::sqrt(right[0] * right[0] + right[2] * right[2]), 1e-6f);
  right[0] /= length, right[2] /= length;
  const float viewUp[3] = {right[1] * forward[2] - right[2] * forward[1], right[2] * forward[0] - right[0] * forward[2],
                           right[0] * forward[1] - right[1] * forward[0]};
  // The nearest distance at which each corner lies inside the frame: |y| <= t (d + z) across the
  // height, |x| <= t aspect (d + z) across the width, for the corner's offsets x, y along right
  // and up and z along forward; t the half-height's tangent, a tenth inside the edge.
  const float t = std::tan(0.5f * fovY) / 1.1f;
  float distance = 0.1f * framing.radius;
  for (int corner = 0; corner < 8; ++corner) {
    float o[3];
    for (int k = 0; k < 3; ++k) o[k] = (corner >> k & 1 ? 1.0f : -1.0f) * framing.half[k];
    auto along = [&](const float* axis) { return o[0] * axis[0] + o[1] * axis[1] + o[2] * axis[2]; };
    const float z = along(forward);
    distance = std::max({distance, std::abs(along(viewUp)) / t - z, std::abs(along(right)) / (t * aspect) - z});
  }
  distance *= zoom;
  Camera c{};
  for (int k = 0; k < 3; ++k) {
    c.target[k] = framing.center[k];
    c.eye[k] = framing.center[k] + distance * toEye[k];
  }
  c.fovY = fovY;
  c.up[0] = 0, c.up[1] = up, c.up[2] = 0;
  return c;
}

}  // namespace splats
