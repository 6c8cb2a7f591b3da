// Scenes for the splats sample: the Splat layout the shaders read, a loader for 3D Gaussian
// Splatting .ply files (the reference implementation's binary little-endian layout), and a
// procedural scene.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace splats {

// std430 layout of shaders/splat_common.glsl's Splat (64 bytes).
struct Splat {
  float position[3];
  float opacity;   // 0..1
  float scale[3];  // standard deviations along the Gaussian's axes
  float pad0;
  float rotation[4];  // unit quaternion (w, x, y, z)
  float color[3];     // linear RGB 0..1
  float pad1;
};
static_assert(sizeof(Splat) == 64, "the shaders' std430 layout");

// A scene with view-dependent colour: per splat, shaders/sh.glsl's coefficients (shFloats()
// floats each: the degree-0 colour 0.5 + C0 * f_dc unclamped, then each higher coefficient's
// RGB). shDegree 0: none, the splats' own colours.
struct Scene {
  std::vector<Splat> splats;
  uint32_t shDegree = 0;
  std::vector<float> sh;
};
inline uint32_t shFloats(uint32_t degree) { return 3 * (degree + 1) * (degree + 1); }

// Reads a .ply as 3DGS writes it: binary_little_endian, an element "vertex" with float (or any
// scalar) properties x, y, z, f_dc_0..2, opacity, scale_0..2, rot_0..3, and f_rest_0..N-1 for
// spherical harmonics of degree 1-3 (N 9, 24 or 45, channel by channel), among others (skipped by
// name). Colors come from the degree-0 harmonic (0.5 + C0 * f_dc, clamped), opacity through a
// sigmoid, scales through exp, the quaternion normalized. Also reads SuperSplat / PlayCanvas's
// compressed PLY (elements chunk, vertex of packed_* uints, optional sh: splat_scene.cpp). Throws
// std::runtime_error saying what is wrong with a malformed or truncated file.
Scene loadPlyScene(const std::string& path);
// The splats alone.
std::vector<Splat> loadPly(const std::string& path);

// n splats on the surfaces of a small scene, as a capture has them: flat, small, mostly opaque,
// shaded; a checkered floor, a wall, spheres and a box within about 3 units of the origin, y up
// (splat_procedural.cpp). From `seed`.
std::vector<Splat> proceduralScene(uint32_t n, uint64_t seed);

// Writes 8-bit RGBA pixels (rows top to bottom) as a PNG (uncompressed deflate blocks).
void writePng(const std::string& path, uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba);

}  // namespace splats
