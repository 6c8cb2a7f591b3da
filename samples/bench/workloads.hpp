// Renderer workloads for the benchmarks: the keys renderers sort, generated on the CPU from one
// seed so that vksort_bench and the CUB reference (cub/cub_bench.cu, which includes this file)
// sort identical inputs. Plain C++17, no Vulkan or CUDA.
//   room        view-space f32 depths of splats on the walls, floor and ceiling of a room the
//               camera stands in, descending (back to front), with u32 indices
//   object      the same for an object 4 to 6 units in front of the camera: the top byte of every
//               depth is the same (one constant pass of four)
//   depth16     the room's depths quantized to 16 bits in u32 keys, sorted over all 32 bits
//               (two constant passes), ascending, with u32 indices
//   depth16b16  the same over bits [0, 16): the range a careful caller gives
//   top16       the top 16 bits of the room's f32 depths in u32 keys, over all 32 bits
//   tile64      3DGS keys (tile << 32) | depth bits at 1920x1080 in 16x16 tiles (8160 tiles:
//               13 bits), u64 keys with u32 indices over all 64 bits (two constant passes)
//   tile64b45   the same over bits [0, 45): the bits the tile count needs
//   tile64small tile64's keys of a small scene: always 144,076 of them (the counts of
//               --workload-log2 do not apply), where the whole sort runs in one dispatch on
//               NVIDIA with its two constant passes (it once took 2.4x the time of [0, 45))
//   ply         the depths of a user's splats (a .ply file's x, y, z), like room
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench_workloads {

struct Spec {
  const char* name;
  uint32_t keyBits;  // 32 or 64
  bool floatKeys;    // f32 keys (else unsigned)
  bool descending;
  uint32_t beginBit, endBit;
  size_t count = 0;  // its one count; 0: the counts the benchmark is given
};

inline const Spec kSpecs[] = {
    {"room", 32, true, true, 0, 32},
    {"object", 32, true, true, 0, 32},
    {"depth16", 32, false, false, 0, 32},
    {"depth16b16", 32, false, false, 0, 16},
    {"top16", 32, false, false, 0, 32},
    {"tile64", 64, false, false, 0, 64},
    {"tile64b45", 64, false, false, 0, 45},
    {"ply", 32, true, true, 0, 32},
    {"tile64small", 64, false, false, 0, 64, 144076},
};

inline const Spec& specOf(const std::string& name) {
  for (const Spec& s : kSpecs)
    if (name == s.name) return s;
  throw std::invalid_argument("unknown workload " + name);
}

// A small, fast generator (splitmix64): the same sequence on every compiler.
struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t x = (state += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
  }
  float uniform() { return float(next() >> 40) * (1.0f / 16777216.0f); }  // [0, 1)
};

struct Point {
  float x, y, z;  // view space: x right, y up, z forward (depth)
};

// A splat of a procedural scene in view space.
inline Point roomPoint(Random& r) {
  // A room 10 x 4 x 12 around the camera, which stands 1.6 above the floor, 3 from the back
  // wall; walls, floor and ceiling, each splat on a surface, a little noise off it.
  for (;;) {
    const float u = r.uniform(), v = r.uniform(), side = r.uniform() * 6.0f, off = (r.uniform() - 0.5f) * 0.02f;
    Point p;
    if (side < 1) p = {-5 + off, -1.6f + 4 * u, -3 + 12 * v};
    else if (side < 2) p = {5 + off, -1.6f + 4 * u, -3 + 12 * v};
    else if (side < 3) p = {-5 + 10 * u, -1.6f + off, -3 + 12 * v};
    else if (side < 4) p = {-5 + 10 * u, 2.4f + off, -3 + 12 * v};
    else if (side < 5) p = {-5 + 10 * u, -1.6f + 4 * v, 9 + off};
    else p = {-5 + 10 * u, -1.6f + 4 * v, -3 + off};
    if (p.z > 0.1f) return p;  // behind the camera: culled before the sort
  }
}

inline Point objectPoint(Random& r) {
  // A sphere of radius 0.95 around (0, 0, 5), its splats on the surface.
  const float zc = 2 * r.uniform() - 1, a = 6.2831853f * r.uniform(), s = std::sqrt(1 - zc * zc);
  return {0.95f * s * std::cos(a), 0.95f * s * std::sin(a), 5 + 0.95f * zc};
}

inline uint32_t floatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// The counts a workload runs at: its own, else 2^lg for each of `log2s`.
inline std::vector<size_t> countsOf(const Spec& spec, const std::vector<int>& log2s) {
  if (spec.count) return {spec.count};
  std::vector<size_t> counts;
  for (int lg : log2s) counts.push_back(size_t(1) << lg);
  return counts;
}

// n keys of `name` as 32-bit words (a 64-bit key: low word first); `points` gives the ply
// workload's view-space positions (cycled to n).
inline std::vector<uint32_t> generate(const std::string& name, size_t n, const std::vector<Point>* points = nullptr) {
  const Spec& spec = specOf(name);
  Random r{0x5EEDull + n};
  std::vector<uint32_t> out(n * (spec.keyBits / 32));
  const float far = 12.5f;  // the room's farthest depth, for quantizing
  if (name == "ply") {
    if (!points || points->empty()) throw std::runtime_error("the ply workload needs --ply FILE");
    for (size_t i = 0; i < n; ++i) out[i] = floatBits((*points)[i % points->size()].z);
    return out;
  }
  for (size_t i = 0; i < n; ++i) {
    const Point p = name == "object" ? objectPoint(r) : roomPoint(r);
    if (spec.keyBits == 64) {  // the splat's tile on a 1920x1080 screen (90 degrees across)
      const float sx = 960 + 960 * p.x / p.z, sy = 540 - 960 * p.y / p.z;
      const uint32_t tx = uint32_t(std::fmin(std::fmax(sx, 0.0f), 1919.0f)) / 16;
      const uint32_t ty = uint32_t(std::fmin(std::fmax(sy, 0.0f), 1079.0f)) / 16;
      out[2 * i] = floatBits(p.z);
      out[2 * i + 1] = ty * 120 + tx;
    } else if (name == "depth16" || name == "depth16b16") {
      out[i] = uint32_t(std::fmin(p.z / far, 1.0f) * 65535.0f);
    } else if (name == "top16") {
      out[i] = floatBits(p.z) >> 16;
    } else {
      out[i] = floatBits(p.z);
    }
  }
  return out;
}

}  // namespace bench_workloads
