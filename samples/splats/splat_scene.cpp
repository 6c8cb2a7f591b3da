#include "splat_scene.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace splats {
namespace {

[[noreturn]] void malformed(const std::string& path, const std::string& what) {
  throw std::runtime_error(path + ": " + what);
}

// Bytes of a PLY scalar type, 0 if unknown.
uint32_t scalarBytes(const std::string& t) {
  static const std::map<std::string, uint32_t> sizes = {
      {"char", 1}, {"uchar", 1}, {"int8", 1}, {"uint8", 1}, {"short", 2}, {"ushort", 2}, {"int16", 2},
      {"uint16", 2}, {"int", 4}, {"uint", 4}, {"int32", 4}, {"uint32", 4}, {"float", 4}, {"float32", 4},
      {"double", 8}, {"float64", 8}};
  auto it = sizes.find(t);
  return it == sizes.end() ? 0 : it->second;
}

double readScalar(const char* p, const std::string& t) {
  auto get = [&](auto v) {
    std::memcpy(&v, p, sizeof v);
    return double(v);
  };
  if (t == "float" || t == "float32") return get(float());
  if (t == "double" || t == "float64") return get(double());
  if (t == "char" || t == "int8") return get(int8_t());
  if (t == "uchar" || t == "uint8") return get(uint8_t());
  if (t == "short" || t == "int16") return get(int16_t());
  if (t == "ushort" || t == "uint16") return get(uint16_t());
  if (t == "int" || t == "int32") return get(int32_t());
  return get(uint32_t());
}

struct Property {
  std::string type;
  uint32_t offset;
};

}  // namespace

std::vector<Splat> loadPly(const std::string& path) { return loadPlyScene(path).splats; }

Scene loadPlyScene(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) malformed(path, "is a directory: give a .ply file in it");
  std::ifstream in(path, std::ios::binary);
  if (!in) malformed(path, std::string("cannot open: ") + std::strerror(errno));
  std::string line;
  if (!std::getline(in, line) || line != "ply") malformed(path, "not a PLY file (no 'ply' line)");
  uint64_t count = 0;
  bool inVertex = false, sawVertex = false, sawFormat = false;
  uint32_t stride = 0;
  std::map<std::string, Property> props;
  while (true) {
    if (!std::getline(in, line)) malformed(path, "header ends before end_header");
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::istringstream words(line);
    std::string word;
    words >> word;
    if (word == "end_header") break;
    if (word == "comment" || word == "obj_info" || word.empty()) continue;
    if (word == "format") {
      std::string format;
      words >> format;
      if (format != "binary_little_endian") malformed(path, "format '" + format + "' (only binary_little_endian)");
      sawFormat = true;
    } else if (word == "element") {
      std::string name;
      words >> name;
      if (sawVertex && inVertex) inVertex = false;  // elements after the vertices are ignored
      if (name == "vertex") {
        if (sawVertex) malformed(path, "two vertex elements");
        if (!(words >> count)) malformed(path, "vertex element without a count");
        inVertex = sawVertex = true;
      } else if (!sawVertex) {
        malformed(path, "element '" + name + "' before the vertices (unsupported)");
      }
    } else if (word == "property") {
      std::string type, name;
      words >> type >> name;
      if (!inVertex) continue;
      if (type == "list") malformed(path, "list property in the vertex element (unsupported)");
      uint32_t bytes = scalarBytes(type);
      if (bytes == 0 || name.empty()) malformed(path, "bad property line '" + line + "'");
      props[name] = {type, stride};
      stride += bytes;
    } else {
      malformed(path, "unknown header line '" + line + "'");
    }
  }
  if (!sawFormat) malformed(path, "no format line");
  if (!sawVertex) malformed(path, "no vertex element");
  const char* required[] = {"x", "y", "z", "f_dc_0", "f_dc_1", "f_dc_2", "opacity", "scale_0", "scale_1",
                            "scale_2", "rot_0", "rot_1", "rot_2", "rot_3"};
  std::array<Property, 14> p;
  for (size_t i = 0; i < p.size(); ++i) {
    auto it = props.find(required[i]);
    if (it == props.end()) malformed(path, std::string("missing vertex property '") + required[i] + "'");
    p[i] = it->second;
  }

  // Spherical harmonics past degree 0: f_rest_0.. with no gap, (degree + 1)^2 - 1 per channel.
  std::vector<Property> rest;
  for (auto it = props.find("f_rest_0"); it != props.end(); it = props.find("f_rest_" + std::to_string(rest.size())))
    rest.push_back(it->second);
  uint32_t degree = 0;
  while (degree < 3 && shFloats(degree) - 3 < rest.size()) ++degree;
  if (shFloats(degree) - 3 != rest.size())
    malformed(path, std::to_string(rest.size()) + " f_rest properties (spherical harmonics want 9, 24 or 45)");

  std::vector<char> data(size_t(count) * stride);
  in.read(data.data(), std::streamsize(data.size()));
  if (size_t(in.gcount()) != data.size())
    malformed(path, "truncated: " + std::to_string(count) + " vertices need " + std::to_string(data.size()) +
                        " bytes, the file has " + std::to_string(in.gcount()));
  const float kC0 = 0.28209479177387814f;  // degree-0 spherical harmonic
  Scene scene;
  scene.shDegree = degree;
  const uint32_t perChannel = shFloats(degree) / 3 - 1, floats = degree ? shFloats(degree) : 0;
  scene.sh.resize(size_t(count) * floats);
  std::vector<Splat>& out = scene.splats;
  out.resize(count);
  for (size_t v = 0; v < count; ++v) {
    const char* row = data.data() + v * stride;
    auto get = [&](size_t i) { return float(readScalar(row + p[i].offset, p[i].type)); };
    Splat& s = out[v];
    s = Splat{};
    float* sh = scene.sh.data() + v * floats;
    for (int k = 0; k < 3; ++k) {
      s.position[k] = get(size_t(k));
      const float dc = 0.5f + kC0 * get(size_t(3 + k));  // the degree-0 colour
      s.color[k] = std::clamp(dc, 0.0f, 1.0f);
      s.scale[k] = std::exp(get(size_t(7 + k)));
      if (degree == 0) continue;
      sh[k] = dc;
      for (uint32_t j = 0; j < perChannel; ++j)  // the file: channel by channel; sh.glsl: RGB by coefficient
        sh[3 * (j + 1) + k] = float(readScalar(row + rest[k * perChannel + j].offset, rest[k * perChannel + j].type));
    }
    s.opacity = 1.0f / (1.0f + std::exp(-get(6)));
    float q[4] = {get(10), get(11), get(12), get(13)};
    float norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; ++k) s.rotation[k] = norm > 0 ? q[k] / norm : (k == 0 ? 1.0f : 0.0f);
  }
  return scene;
}

void writePng(const std::string& path, uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba) {
  // Raw scanlines (filter byte 0), wrapped in stored deflate blocks.
  std::vector<uint8_t> raw;
  raw.reserve(size_t(height) * (width * 4 + 1));
  for (uint32_t y = 0; y < height; ++y) {
    raw.push_back(0);
    raw.insert(raw.end(), rgba.begin() + ptrdiff_t(size_t(y) * width * 4), rgba.begin() + ptrdiff_t(size_t(y + 1) * width * 4));
  }
  std::vector<uint8_t> z = {0x78, 0x01};
  for (size_t at = 0; at < raw.size() || at == 0; at += 65535) {
    size_t len = std::min<size_t>(65535, raw.size() - at);
    z.push_back(at + len >= raw.size() ? 1 : 0);
    z.push_back(uint8_t(len)), z.push_back(uint8_t(len >> 8));
    z.push_back(uint8_t(~len)), z.push_back(uint8_t(~len >> 8));
    z.insert(z.end(), raw.begin() + ptrdiff_t(at), raw.begin() + ptrdiff_t(at + len));
    if (len == 0) break;
  }
  uint32_t a = 1, b = 0;
  for (uint8_t v : raw) a = (a + v) % 65521, b = (b + a) % 65521;
  uint32_t adler = (b << 16) | a;
  for (int s = 24; s >= 0; s -= 8) z.push_back(uint8_t(adler >> s));

  uint32_t table[256];
  for (uint32_t n = 0; n < 256; ++n) {
    uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[n] = c;
  }
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + path);
  auto u32 = [&](uint32_t v) {
    uint8_t be[4] = {uint8_t(v >> 24), uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v)};
    out.write(reinterpret_cast<char*>(be), 4);
  };
  auto chunk = [&](const char* type, const std::vector<uint8_t>& body) {
    u32(uint32_t(body.size()));
    uint32_t crc = ~0u;
    auto feed = [&](const uint8_t* p, size_t n) {
      for (size_t i = 0; i < n; ++i) crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
    };
    out.write(type, 4);
    feed(reinterpret_cast<const uint8_t*>(type), 4);
    out.write(reinterpret_cast<const char*>(body.data()), std::streamsize(body.size()));
    feed(body.data(), body.size());
    u32(~crc);
  };
  const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  out.write(reinterpret_cast<const char*>(signature), 8);
  std::vector<uint8_t> ihdr = {uint8_t(width >> 24), uint8_t(width >> 16), uint8_t(width >> 8), uint8_t(width),
                               uint8_t(height >> 24), uint8_t(height >> 16), uint8_t(height >> 8), uint8_t(height),
                               8, 6, 0, 0, 0};  // 8-bit RGBA
  chunk("IHDR", ihdr);
  chunk("IDAT", z);
  chunk("IEND", {});
}

}  // namespace splats
