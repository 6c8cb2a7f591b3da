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

// Reads a .ply as 3DGS writes it: binary_little_endian, an element "vertex" with float (or any
// scalar) properties x, y, z, f_dc_0..2, opacity, scale_0..2, rot_0..3 among others (skipped by
// name). Colors come from the degree-0 spherical harmonics (0.5 + C0 * f_dc), opacity through a
// sigmoid, scales through exp, the quaternion normalized. Throws std::runtime_error saying what is
// wrong with a malformed or truncated file.
std::vector<Splat> loadPly(const std::string& path);

// n splats in a few colored clusters around the origin (radius ~2), from `seed`.
std::vector<Splat> proceduralScene(uint32_t n, uint64_t seed);

// Writes 8-bit RGBA pixels (rows top to bottom) as a PNG (uncompressed deflate blocks).
void writePng(const std::string& path, uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba);

}  // namespace splats
