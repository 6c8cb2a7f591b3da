// The procedural scene: splats on surfaces, the way a 3DGS capture has them (many small, flat,
// mostly opaque splats hugging the geometry, not big translucent blobs), so that its frames cost
// and look like a real scene's.
#include <algorithm>
#include <cmath>
#include <random>

#include "splat_scene.hpp"

namespace splats {
namespace {

struct Vec3 {
  float x, y, z;
};
Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3 operator*(float k, Vec3 a) { return {k * a.x, k * a.y, k * a.z}; }
float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// A point of a surface: where, which way it faces, its colour before shading.
struct SurfacePoint {
  Vec3 position, normal, color;
};

using Rng = std::mt19937_64;
float uniform(Rng& rng, float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }

constexpr float kPi = 3.14159265f;

struct Sphere {
  Vec3 center;
  float radius;
  Vec3 color;
};
const Sphere kSpheres[] = {{{-1.3f, -0.35f, 0.0f}, 0.65f, {0.80f, 0.22f, 0.18f}},
                           {{1.2f, -0.5f, 0.6f}, 0.5f, {0.20f, 0.35f, 0.85f}},
                           {{0.2f, -0.6f, -1.2f}, 0.4f, {0.25f, 0.70f, 0.30f}},
                           {{1.5f, -0.2f, -1.6f}, 0.8f, {0.90f, 0.72f, 0.25f}}};
const Vec3 kBoxCenter = {-0.2f, -0.7f, 1.3f};
const float kBoxHalf = 0.3f;
const float kFloorRadius = 3.2f, kFloorY = -1.0f, kWallZ = -2.6f, kWallTop = 1.6f;

// The surfaces, each with its area (for splats in proportion) and a sampler.
struct Surface {
  float area;
  SurfacePoint (*sample)(Rng&, uint32_t which);
  uint32_t which;
};

SurfacePoint floorPoint(Rng& rng, uint32_t) {
  float r = kFloorRadius * std::sqrt(uniform(rng, 0, 1)), a = uniform(rng, 0, 2 * kPi);
  Vec3 p = {r * std::cos(a), kFloorY, r * std::sin(a)};
  bool dark = (int(std::floor(p.x * 2.0f)) + int(std::floor(p.z * 2.0f))) & 1;  // 0.5-unit checks
  Vec3 c = dark ? Vec3{0.30f, 0.28f, 0.26f} : Vec3{0.78f, 0.76f, 0.70f};
  return {p, {0, 1, 0}, c};
}

SurfacePoint wallPoint(Rng& rng, uint32_t) {
  Vec3 p = {uniform(rng, -kFloorRadius, kFloorRadius), uniform(rng, kFloorY, kWallTop), kWallZ};
  // Courses of bricks: rows 0.2 high, joints darker, every other row shifted by half a brick.
  float row = (p.y - kFloorY) / 0.2f, shift = (int(row) & 1) ? 0.2f : 0.0f;
  bool joint = row - std::floor(row) < 0.12f || std::fmod(p.x + 4.0f + shift, 0.4f) < 0.04f;
  Vec3 c = joint ? Vec3{0.55f, 0.52f, 0.48f} : Vec3{0.62f, 0.30f, 0.22f};
  return {p, {0, 0, 1}, c};
}

SurfacePoint spherePoint(Rng& rng, uint32_t which) {
  const Sphere& s = kSpheres[which];
  float z = uniform(rng, -1, 1), a = uniform(rng, 0, 2 * kPi), ring = std::sqrt(1 - z * z);
  Vec3 n = {ring * std::cos(a), z, ring * std::sin(a)};
  float band = 0.85f + 0.15f * std::cos(12.0f * std::asin(z));  // a little relief in latitude bands
  return {s.center + s.radius * n, n, band * s.color};
}

SurfacePoint boxPoint(Rng& rng, uint32_t) {
  int face = int(uniform(rng, 0, 6)) % 6, axis = face / 2;
  float side = (face & 1) ? 1.0f : -1.0f, u = uniform(rng, -1, 1), v = uniform(rng, -1, 1);
  float q[3];
  q[axis] = side;
  q[axis == 0 ? 1 : 0] = u;  // the other two axes, in order
  q[axis == 2 ? 1 : 2] = v;
  Vec3 n = {axis == 0 ? side : 0, axis == 1 ? side : 0, axis == 2 ? side : 0};
  bool stripe = std::fmod(u + v + 4.0f, 0.5f) < 0.25f;
  Vec3 c = stripe ? Vec3{0.35f, 0.20f, 0.55f} : Vec3{0.85f, 0.85f, 0.90f};
  return {kBoxCenter + kBoxHalf * Vec3{q[0], q[1], q[2]}, n, c};
}

// The unit quaternion (w, x, y, z) that turns +z onto `n`, then spins `spin` about it.
void facing(Vec3 n, float spin, float* q) {
  float a[4];
  if (n.z < -0.9999f) {
    a[0] = 0, a[1] = 1, a[2] = 0, a[3] = 0;  // half a turn about x
  } else {
    a[0] = 1 + n.z, a[1] = -n.y, a[2] = n.x, a[3] = 0;  // (1 + z.n, z x n)
    float len = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    for (float& v : a) v /= len;
  }
  float b[4] = {std::cos(0.5f * spin), 0, 0, std::sin(0.5f * spin)};  // about +z, applied first
  q[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  q[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  q[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  q[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

}  // namespace

std::vector<Splat> proceduralScene(uint32_t n, uint64_t seed) {
  std::vector<Surface> surfaces = {{kPi * kFloorRadius * kFloorRadius, floorPoint, 0},
                                   {2 * kFloorRadius * (kWallTop - kFloorY), wallPoint, 0},
                                   {24 * kBoxHalf * kBoxHalf, boxPoint, 0}};
  for (uint32_t i = 0; i < std::size(kSpheres); ++i)
    surfaces.push_back({4 * kPi * kSpheres[i].radius * kSpheres[i].radius, spherePoint, i});
  float total = 0;
  for (const Surface& s : surfaces) total += s.area;
  // Each splat about twice as wide as the spacing of n points over the surfaces: covered, with
  // a few layers, as a capture is.
  const float size = 0.6f * std::sqrt(total / float(std::max(n, 1u)));
  const Vec3 light = {0.37f, 0.80f, 0.47f};
  Rng rng(seed);
  std::vector<Splat> out(n);
  for (Splat& s : out) {
    float pick = uniform(rng, 0, total);
    size_t k = 0;
    while (k + 1 < surfaces.size() && pick > surfaces[k].area) pick -= surfaces[k++].area;
    const SurfacePoint p = surfaces[k].sample(rng, surfaces[k].which);
    s = Splat{};
    const float lit = 0.35f + 0.65f * std::max(0.0f, dot(p.normal, light));
    const float noise = uniform(rng, 0.9f, 1.1f);
    s.position[0] = p.position.x, s.position[1] = p.position.y, s.position[2] = p.position.z;
    s.color[0] = std::clamp(p.color.x * lit * noise, 0.0f, 1.0f);
    s.color[1] = std::clamp(p.color.y * lit * noise, 0.0f, 1.0f);
    s.color[2] = std::clamp(p.color.z * lit * noise, 0.0f, 1.0f);
    s.scale[0] = size * uniform(rng, 0.7f, 1.3f);
    s.scale[1] = size * uniform(rng, 0.4f, 1.0f);
    s.scale[2] = 0.08f * size;  // flat against the surface
    s.opacity = uniform(rng, 0, 1) < 0.9f ? uniform(rng, 0.8f, 1.0f) : uniform(rng, 0.3f, 0.8f);
    facing(p.normal, uniform(rng, 0, 2 * kPi), s.rotation);
  }
  return out;
}

}  // namespace splats
