#include "splat_camera.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace splats {

Framing frameScene(const std::vector<Splat>& scene) {
  Framing f{{0, 0, 0}, 1.0f};
  if (scene.empty()) return f;
  float extent2 = 0;
  std::vector<float> axis(scene.size());
  for (int k = 0; k < 3; ++k) {
    for (size_t i = 0; i < scene.size(); ++i) axis[i] = scene[i].position[k];
    const size_t lo = scene.size() / 100, hi = scene.size() - 1 - scene.size() / 100;
    std::nth_element(axis.begin(), axis.begin() + std::ptrdiff_t(lo), axis.end());
    const float low = axis[lo];
    std::nth_element(axis.begin(), axis.begin() + std::ptrdiff_t(hi), axis.end());
    const float high = axis[hi];
    f.center[k] = 0.5f * (low + high);
    extent2 += (high - low) * (high - low);
  }
  f.radius = std::max(0.5f * std::sqrt(extent2), 1e-3f);
  return f;
}

Camera orbitCamera(const Framing& framing, float angle, bool yDown, float fovY, float elevation, float zoom) {
  // The bounds rarely fill their sphere: 0.9 of the distance that fits it.
  const float distance = framing.radius / std::tan(0.5f * fovY) * 0.9f * zoom;
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
