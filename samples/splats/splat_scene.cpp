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
  static const std::map<std::string, uint32_t> sizes = {{"char", 1},  {"uchar", 1},   {"int8", 1},   {"uint8", 1},
                                                        {"short", 2}, {"ushort", 2},  {"int16", 2},  {"uint16", 2},
                                                        {"int", 4},   {"uint", 4},    {"int32", 4},  {"uint32", 4},
                                                        {"float", 4}, {"float32", 4}, {"double", 8}, {"float64", 8}};
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

// An element of the header: its rows' properties by name, and their layout.
struct Element {
  std::string name;
  uint64_t count = 0;
  uint32_t stride = 0;
  std::map<std::string, Property> props;
  std::vector<std::string> order;  // property names as declared
  std::vector<char> data;          // count * stride bytes, once read
  const Property* find(const std::string& property) const {
    auto it = props.find(property);
    return it == props.end() ? nullptr : &it->second;
  }
  float get(uint64_t row, const Property& p) const {
    return float(readScalar(data.data() + row * stride + p.offset, p.type));
  }
  uint32_t word(uint64_t row, const Property& p) const {  // a uint property's bits (a float keeps 24)
    uint32_t w;
    std::memcpy(&w, data.data() + row * stride + p.offset, 4);
    return w;
  }
};

// The header's elements, in order; `in` is left at the first byte of data.
std::vector<Element> readHeader(std::istream& in, const std::string& path) {
  std::string line;
  if (!std::getline(in, line) || line != "ply") malformed(path, "not a PLY file (no 'ply' line)");
  std::vector<Element> elements;
  bool sawFormat = false;
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
      Element e;
      if (!(words >> e.name >> e.count)) malformed(path, "element without a name and a count: '" + line + "'");
      elements.push_back(e);
    } else if (word == "property") {
      std::string type, name;
      words >> type >> name;
      if (elements.empty()) malformed(path, "property before any element");
      Element& e = elements.back();
      if (type == "list") malformed(path, "list property in the " + e.name + " element (unsupported)");
      const uint32_t bytes = scalarBytes(type);
      if (bytes == 0 || name.empty()) malformed(path, "bad property line '" + line + "'");
      e.props[name] = {type, e.stride};
      e.order.push_back(name);
      e.stride += bytes;
    } else {
      malformed(path, "unknown header line '" + line + "'");
    }
  }
  if (!sawFormat) malformed(path, "no format line");
  return elements;
}

void readRows(std::istream& in, const std::string& path, Element* e) {
  e->data.resize(size_t(e->count) * e->stride);
  in.read(e->data.data(), std::streamsize(e->data.size()));
  if (size_t(in.gcount()) != e->data.size())
    malformed(path, "truncated: " + std::to_string(e->count) + " " + e->name + " rows need " +
                        std::to_string(e->data.size()) + " bytes, the file has " + std::to_string(in.gcount()));
}

// One splat from 3DGS's stored values: position, f_dc, opacity (logit), log scales, quaternion
// (w, x, y, z, any length) and, past degree 0, f_rest channel by channel (perChannel each).
struct Stored {
  float position[3], dc[3], opacity, logScale[3], rotation[4];
};
void addSplat(Scene* scene, size_t v, const Stored& in, const float* rest) {
  const float kC0 = 0.28209479177387814f;  // degree-0 spherical harmonic
  const uint32_t degree = scene->shDegree, perChannel = shFloats(degree) / 3 - 1;
  Splat& s = scene->splats[v];
  s = Splat{};
  float* sh = degree ? scene->sh.data() + v * shFloats(degree) : nullptr;
  for (int k = 0; k < 3; ++k) {
    s.position[k] = in.position[k];
    const float dc = 0.5f + kC0 * in.dc[k];  // the degree-0 colour
    s.color[k] = std::clamp(dc, 0.0f, 1.0f);
    s.scale[k] = std::exp(in.logScale[k]);
    if (!sh) continue;
    sh[k] = dc;
    for (uint32_t j = 0; j < perChannel; ++j)  // the file: channel by channel; sh.glsl: RGB by coefficient
      sh[3 * (j + 1) + k] = rest[k * perChannel + j];
  }
  s.opacity = 1.0f / (1.0f + std::exp(-in.opacity));
  const float* q = in.rotation;
  const float norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int k = 0; k < 4; ++k) s.rotation[k] = norm > 0 ? q[k] / norm : (k == 0 ? 1.0f : 0.0f);
}

// The spherical-harmonic degree of `coefficients` f_rest values (9, 24 or 45; 0: degree 0).
uint32_t degreeOf(size_t coefficients, const std::string& path, const char* what) {
  uint32_t degree = 0;
  while (degree < 3 && shFloats(degree) - 3 < coefficients) ++degree;
  if (shFloats(degree) - 3 != coefficients)
    malformed(path, std::to_string(coefficients) + " " + what + " (spherical harmonics want 9, 24 or 45)");
  return degree;
}

// 3DGS's layout: one vertex element of float (or any scalar) properties.
Scene loadStandard(std::istream& in, const std::string& path, Element& vertex) {
  const char* required[] = {"x",       "y",       "z",       "f_dc_0", "f_dc_1", "f_dc_2", "opacity",
                            "scale_0", "scale_1", "scale_2", "rot_0",  "rot_1",  "rot_2",  "rot_3"};
  std::array<Property, 14> p;
  for (size_t i = 0; i < p.size(); ++i) {
    const Property* found = vertex.find(required[i]);
    if (!found) malformed(path, std::string("missing vertex property '") + required[i] + "'");
    p[i] = *found;
  }
  // Spherical harmonics past degree 0: f_rest_0.. with no gap, (degree + 1)^2 - 1 per channel.
  std::vector<Property> restProps;
  while (const Property* r = vertex.find("f_rest_" + std::to_string(restProps.size()))) restProps.push_back(*r);
  Scene scene;
  scene.shDegree = degreeOf(restProps.size(), path, "f_rest properties");
  readRows(in, path, &vertex);
  scene.splats.resize(vertex.count);
  scene.sh.resize(scene.shDegree ? size_t(vertex.count) * shFloats(scene.shDegree) : 0);
  std::vector<float> rest(restProps.size());
  for (uint64_t v = 0; v < vertex.count; ++v) {
    auto get = [&](size_t i) { return vertex.get(v, p[i]); };
    const Stored s{{get(0), get(1), get(2)},
                   {get(3), get(4), get(5)},
                   get(6),
                   {get(7), get(8), get(9)},
                   {get(10), get(11), get(12), get(13)}};
    for (size_t i = 0; i < rest.size(); ++i) rest[i] = vertex.get(v, restProps[i]);
    addSplat(&scene, size_t(v), s, rest.data());
  }
  return scene;
}

// PlayCanvas / SuperSplat's compressed PLY: an element "chunk" of per-256-splat bounds (floats
// min_x..max_z, min_scale_x..max_scale_z, optionally min_r..max_b), an element "vertex" of four
// uints per splat (packed_position and packed_scale 11-10-11 bits within the chunk's bounds,
// packed_rotation the largest quaternion component's index in 2 bits and the other three in 10
// each, packed_color 8-8-8-8 bits of colour within the chunk's bounds and sigmoid opacity), and
// optionally an element "sh" of uchar f_rest_0..N-1, each (n - 0.5) * 8 for n its byte in [0, 1].
Scene loadCompressed(std::istream& in, const std::string& path, std::vector<Element>& elements) {
  Element& chunk = elements[0];
  Element& vertex = elements[1];
  Element* shElement = elements.size() > 2 ? &elements[2] : nullptr;
  if (elements.size() > 3 || (shElement && shElement->name != "sh"))
    malformed(path, "compressed PLY: elements chunk, vertex and optionally sh, in that order");
  const char* bounds[] = {"min_x",       "min_y",       "min_z",       "max_x",       "max_y",       "max_z",
                          "min_scale_x", "min_scale_y", "min_scale_z", "max_scale_x", "max_scale_y", "max_scale_z",
                          "min_r",       "min_g",       "min_b",       "max_r",       "max_g",       "max_b"};
  std::array<const Property*, 18> b{};
  for (size_t i = 0; i < b.size(); ++i) {
    b[i] = chunk.find(bounds[i]);
    if (!b[i] && i < 12) malformed(path, std::string("compressed PLY: missing chunk property '") + bounds[i] + "'");
    if (b[i] && b[i]->type != "float" && b[i]->type != "float32")
      malformed(path, std::string("compressed PLY: chunk property '") + bounds[i] + "' is not a float");
  }
  const bool chunkColors = b[12] != nullptr;
  for (size_t i = 13; i < 18; ++i)
    if (bool(b[i]) != chunkColors) malformed(path, "compressed PLY: the chunk's colour bounds are incomplete");
  const char* packed[] = {"packed_position", "packed_rotation", "packed_scale", "packed_color"};
  std::array<const Property*, 4> pk{};
  for (size_t i = 0; i < pk.size(); ++i) {
    pk[i] = vertex.find(packed[i]);
    if (!pk[i] || (pk[i]->type != "uint" && pk[i]->type != "uint32"))
      malformed(path, std::string("compressed PLY: vertex property '") + packed[i] + "' missing or not a uint");
  }
  if (chunk.count != (vertex.count + 255) / 256)
    malformed(path, "compressed PLY: " + std::to_string(chunk.count) + " chunks for " + std::to_string(vertex.count) +
                        " splats (256 a chunk)");
  Scene scene;
  std::vector<const Property*> restProps;
  if (shElement) {
    if (shElement->count != vertex.count) malformed(path, "compressed PLY: sh rows differ from the vertex rows");
    for (const std::string& name : shElement->order) {
      const Property* r = shElement->find("f_rest_" + std::to_string(restProps.size()));
      if (!r || name != "f_rest_" + std::to_string(restProps.size()) || (r->type != "uchar" && r->type != "uint8"))
        malformed(path, "compressed PLY: sh properties must be uchar f_rest_0, f_rest_1, ... in order");
      restProps.push_back(r);
    }
    scene.shDegree = degreeOf(restProps.size(), path, "sh properties");
  }
  readRows(in, path, &chunk);
  readRows(in, path, &vertex);
  if (shElement) readRows(in, path, shElement);

  scene.splats.resize(vertex.count);
  scene.sh.resize(scene.shDegree ? size_t(vertex.count) * shFloats(scene.shDegree) : 0);
  auto field = [](uint32_t word, uint32_t shift, uint32_t bits) {
    return float((word >> shift) & ((1u << bits) - 1)) / float((1u << bits) - 1);
  };
  auto lerp = [](float a, float c, float t) { return a * (1 - t) + c * t; };
  const float kC0 = 0.28209479177387814f;
  std::vector<float> rest(restProps.size());
  for (uint64_t v = 0; v < vertex.count; ++v) {
    const uint64_t c = v / 256;
    auto bound = [&](size_t i) { return chunk.get(c, *b[i]); };
    auto word = [&](size_t i) { return vertex.word(v, *pk[i]); };
    const uint32_t position = word(0), rotation = word(1), scale = word(2), color = word(3);
    Stored s{};
    const float unitPosition[3] = {field(position, 21, 11), field(position, 11, 10), field(position, 0, 11)};
    const float unitScale[3] = {field(scale, 21, 11), field(scale, 11, 10), field(scale, 0, 11)};
    for (int k = 0; k < 3; ++k) {
      s.position[k] = lerp(bound(size_t(k)), bound(size_t(3 + k)), unitPosition[k]);
      s.logScale[k] = lerp(bound(size_t(6 + k)), bound(size_t(9 + k)), unitScale[k]);
      const float unit = field(color, uint32_t(24 - 8 * k), 8);
      const float value = chunkColors ? lerp(bound(size_t(12 + k)), bound(size_t(15 + k)), unit) : unit;
      s.dc[k] = (value - 0.5f) / kC0;  // the stored colour is 0.5 + C0 * f_dc
    }
    const float alpha = field(color, 0, 8);
    s.opacity = -std::log(1 / alpha - 1);  // the logit: addSplat() applies the sigmoid
    // The three smaller components in [-1/sqrt 2, 1/sqrt 2], the largest from the unit length.
    const float others[3] = {(field(rotation, 20, 10) - 0.5f) * std::sqrt(2.0f),
                             (field(rotation, 10, 10) - 0.5f) * std::sqrt(2.0f),
                             (field(rotation, 0, 10) - 0.5f) * std::sqrt(2.0f)};
    const uint32_t largest = rotation >> 30;
    const float m =
        std::sqrt(std::max(0.0f, 1 - (others[0] * others[0] + others[1] * others[1] + others[2] * others[2])));
    for (uint32_t k = 0, o = 0; k < 4; ++k) s.rotation[k] = k == largest ? m : others[o++];
    for (size_t i = 0; i < rest.size(); ++i) {
      const float byte = shElement->get(v, *restProps[i]);
      const float n = byte == 0 ? 0.0f : byte == 255 ? 1.0f : (byte + 0.5f) / 256;
      rest[i] = (n - 0.5f) * 8;
    }
    addSplat(&scene, size_t(v), s, rest.data());
  }
  return scene;
}

}  // namespace

std::vector<Splat> loadPly(const std::string& path) { return loadPlyScene(path).splats; }

Scene loadPlyScene(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) malformed(path, "is a directory: give a .ply file in it");
  std::ifstream in(path, std::ios::binary);
  if (!in) malformed(path, std::string("cannot open: ") + std::strerror(errno));
  std::vector<Element> elements = readHeader(in, path);
  if (elements.size() >= 2 && elements[0].name == "chunk" && elements[1].name == "vertex")
    return loadCompressed(in, path, elements);
  if (elements.empty() || elements[0].name != "vertex") {
    for (const Element& e : elements)
      if (e.name == "vertex") malformed(path, "element '" + elements[0].name + "' before the vertices (unsupported)");
    malformed(path, "no vertex element");
  }
  return loadStandard(in, path, elements[0]);  // elements after the vertices are ignored
}

void writePng(const std::string& path, uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba) {
  // Raw scanlines (filter byte 0), wrapped in stored deflate blocks.
  std::vector<uint8_t> raw;
  raw.reserve(size_t(height) * (width * 4 + 1));
  for (uint32_t y = 0; y < height; ++y) {
    raw.push_back(0);
    raw.insert(raw.end(), rgba.begin() + ptrdiff_t(size_t(y) * width * 4),
               rgba.begin() + ptrdiff_t(size_t(y + 1) * width * 4));
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
  std::vector<uint8_t> ihdr = {uint8_t(width >> 24),
                               uint8_t(width >> 16),
                               uint8_t(width >> 8),
                               uint8_t(width),
                               uint8_t(height >> 24),
                               uint8_t(height >> 16),
                               uint8_t(height >> 8),
                               uint8_t(height),
                               8,
                               6,
                               0,
                               0,
                               0};  // 8-bit RGBA
  chunk("IHDR", ihdr);
  chunk("IDAT", z);
  chunk("IEND", {});
}

}  // namespace splats
