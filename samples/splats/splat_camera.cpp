#include "splat_camera.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace splats {

Framing frameScene(const std::vector<Splat>& scene) {
  Framing f{{0, 0, 0}, 1.0f};
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
    for (int k = 0; k < 3; ++k) inside = inside && s.position[k] >= low[k] - reach[k] && s.position[k] <= high[k] + reach[k];
    if (!inside) continue;
    const float extent = std::min(3 * std::max({s.scale[0], s.scale[1], s.scale[2]}), maxExtent);
    for (int k = 0; k < 3; ++k) {
      lower[k] = std::min(lower[k], s.position[k] - extent);
      upper[k] = std::max(upper[k], s.position[k] + extent);
    }
  }
  float extent2 = 0;
  for (int k = 0; k < 3; ++k) {
    f.center[k] = 0.5f * (lower[k] + upper[k]);
    extent2 += (upper[k] - lower[k]) * (upper[k] - lower[k]);
  }
  f.radius = std::max(0.5f * std::sqrt(extent2), 1e-3f);
  return f;
}

Camera orbitCamera(const Framing& framing, float angle, bool yDown, float fovY, float elevation, float zoom) {
  // The distance at which the bounds' sphere fits the frame's height exactly (its tangents, not
  // its silhouette's centre, meet the view's edges: sin, not tan), and a tenth more for a margin.
  const float distance = framing.radius / std::sin(0.5f * fovY) * 1.1f * zoom;
  const float up = yDown ? -1.0f : 1.0f;
  const float flat = distance * std::cos(elevation), rise = distance * std::sin(elevation);
  Camera c{};
  for (int k = 0; k < 3; ++k) c.target[k] = framing.center[k];
  c.eye[0] = framing.center[0] + flat * std::sin(angle);
  c.eye[1] = framing.center[1] + up * rise;
  c.eye[2] = framing.center[2] + flat * std::cos(angle);
  c.fovY = fovY;
  c.up[0] = 0, c.up[1] = up, c.up[2] = 0;
  return c;
}

}  // namespace splats
