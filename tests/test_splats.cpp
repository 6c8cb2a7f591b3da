// The splats sample (samples/splats): a scene with a known answer rendered through cull ->
// indirect vksort -> back-to-front draw, and the .ply loader on files written here, malformed
// ones included.
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "splat_renderer.hpp"
#include "test_support.hpp"

using namespace vksort_test;

namespace {

splats::Splat disk(float z, float r, float g, float b) {
  splats::Splat s{};
  s.position[2] = z;
  s.opacity = 0.95f;
  for (float& v : s.scale) v = 0.3f;
  s.rotation[0] = 1;
  s.color[0] = r, s.color[1] = g, s.color[2] = b;
  return s;
}

// The center pixel of a 64x64 frame seen from (0, 0, 3) looking at the origin.
std::array<uint8_t, 4> centerPixel(const std::vector<splats::Splat>& scene, uint32_t* visible) {
  splats::Renderer renderer(gpu().ctx, gpu().sorter, scene, 64, 64);
  std::vector<uint8_t> rgba;
  splats::FrameStats st = renderer.render({{0, 0, 3}, {0, 0, 0}, 0.8f}, &rgba);
  requireNoValidationMessages();
  *visible = st.visible;
  const uint8_t* p = &rgba[(32 * 64 + 32) * 4];
  return {p[0], p[1], p[2], p[3]};
}

struct PlyProperty {
  std::string name, type;
  double value;
};

// A binary little-endian .ply with `vertices` copies of one vertex.
void writePly(const std::string& path, const std::vector<PlyProperty>& props, uint32_t vertices,
              const char* format = "binary_little_endian", size_t dropBytes = 0) {
  std::string header = std::string("ply\nformat ") + format + " 1.0\ncomment written by test_splats\nelement vertex " +
                       std::to_string(vertices) + "\n";
  for (const PlyProperty& p : props) header += "property " + p.type + " " + p.name + "\n";
  header += "end_header\n";
  std::string body;
  for (uint32_t v = 0; v < vertices; ++v)
    for (const PlyProperty& p : props) {
      if (p.type == "double") {
        double d = p.value;
        body.append(reinterpret_cast<const char*>(&d), 8);
      } else if (p.type == "uchar") {
        body.push_back(char(uint8_t(p.value)));
      } else {
        float f = float(p.value);
        body.append(reinterpret_cast<const char*>(&f), 4);
      }
    }
  body.resize(body.size() - dropBytes);
  std::ofstream(path, std::ios::binary) << header << body;
}

std::vector<PlyProperty> standardVertex() {
  return {{"x", "float", 1.5},       {"y", "float", -2},        {"z", "double", 0.25},   {"nx", "float", 9},
          {"f_dc_0", "float", 1},    {"f_dc_1", "float", 0},    {"f_dc_2", "float", -1}, {"f_rest_0", "float", 7},
          {"opacity", "float", 0},   {"scale_0", "float", std::log(0.1)}, {"scale_1", "float", 0},
          {"scale_2", "float", std::log(2.0)}, {"rot_0", "float", 2}, {"rot_1", "float", 0}, {"rot_2", "float", 0},
          {"rot_3", "float", 0},     {"flags", "uchar", 3}};
}

std::string errorOf(const std::string& path) {
  try {
    splats::loadPly(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_SUITE("splats") {
  TEST_CASE("the nearer of two overlapping splats dominates the pixel, whichever it is") {
    if (!gpu().ctx.hasGraphics) FAIL("the test device cannot draw (no graphics queue or dynamicRendering)");
    uint32_t visible = 0;
    // Red in front (z = 0.5, 2.5 from the camera), blue behind (z = -0.5).
    auto redFront = centerPixel({disk(-0.5f, 0, 0, 1), disk(0.5f, 1, 0, 0)}, &visible);
    CHECK(visible == 2);
    CHECK(int(redFront[0]) > 3 * int(redFront[2]));
    // The same splats, depths swapped: blue in front.
    auto blueFront = centerPixel({disk(0.5f, 0, 0, 1), disk(-0.5f, 1, 0, 0)}, &visible);
    CHECK(int(blueFront[2]) > 3 * int(blueFront[0]));
    // Both are there: the farther one shows through the nearer one's 5%.
    CHECK(redFront[2] > 0);
    CHECK(blueFront[0] > 0);
    // Behind the camera: culled.
    centerPixel({disk(5.0f, 1, 1, 1)}, &visible);
    CHECK(visible == 0);
  }

  TEST_CASE("a procedural frame: every splat in view is drawn") {
    if (!gpu().ctx.hasGraphics) FAIL("the test device cannot draw");
    std::vector<splats::Splat> scene = splats::proceduralScene(3000, 5);
    splats::Renderer renderer(gpu().ctx, gpu().sorter, scene, 96, 72);
    std::vector<uint8_t> rgba;
    splats::FrameStats st = renderer.render({{0, 2, 6}, {0, 0, 0}, 0.9f}, &rgba);
    requireNoValidationMessages();
    CHECK(st.visible > 2900);
    size_t lit = 0;
    for (size_t i = 0; i < rgba.size(); i += 4) lit += rgba[i] + rgba[i + 1] + rgba[i + 2] > 60;
    CHECK(lit > rgba.size() / 4 / 5);  // the scene covers a good part of the frame
  }

  TEST_CASE("framing: an off-centre scene fills the middle of the frame, and y-down captures stand upright") {
    if (!gpu().ctx.hasGraphics) FAIL("the test device cannot draw");
    // A white column along y far from the origin, red at its -y end, and one far stray splat. In
    // a capture's convention (y down) the red end is the top; with y up it is the bottom.
    const float center[3] = {10, -5, 20};
    std::vector<splats::Splat> scene;
    for (int i = 0; i < 200; ++i) {
      const float y = -1.0f + 2.0f * float(i) / 199.0f;
      splats::Splat s = y < -0.6f ? disk(0, 1, 0, 0) : disk(0, 1, 1, 1);
      s.position[0] = center[0], s.position[1] = center[1] + y, s.position[2] = center[2];
      for (float& v : s.scale) v = 0.08f;
      scene.push_back(s);
    }
    splats::Splat stray = disk(0, 0, 1, 0);
    stray.position[0] = stray.position[1] = stray.position[2] = 1000;
    scene.push_back(stray);
    const splats::Framing framing = splats::frameScene(scene);
    for (int k = 0; k < 3; ++k) CHECK(std::abs(framing.center[k] - center[k]) < 0.05f);
    CHECK(framing.radius < 2.0f);  // the stray splat does not set the frame

    splats::Renderer renderer(gpu().ctx, gpu().sorter, scene, 64, 64);
    for (bool yDown : {true, false}) {
      CAPTURE(yDown);
      std::vector<uint8_t> rgba;
      renderer.render(splats::orbitCamera(framing, 0.4f, yDown, 0.9f), &rgba);
      requireNoValidationMessages();
      double litX = 0, litY = 0, redY = 0, lit = 0, red = 0;
      for (uint32_t y = 0; y < 64; ++y)
        for (uint32_t x = 0; x < 64; ++x) {
          const uint8_t* p = &rgba[(y * 64 + x) * 4];
          if (p[0] + p[1] + p[2] > 120) lit += 1, litX += x, litY += y;
          if (p[0] > 120 && p[1] < 60) red += 1, redY += y;
        }
      REQUIRE(lit > 20);
      REQUIRE(red > 5);
      CHECK(std::abs(litX / lit - 31.5) < 6);  // the column in the middle
      CHECK(std::abs(litY / lit - 31.5) < 10);
      if (yDown) CHECK(redY / red < 24);  // rows run top to bottom
      else CHECK(redY / red > 40);
    }
  }

  TEST_CASE(".ply: the 3DGS layout, other properties skipped by name") {
    const std::string path = "test_splats_ok.ply";
    writePly(path, standardVertex(), 3);
    std::vector<splats::Splat> s = splats::loadPly(path);
    REQUIRE(s.size() == 3);
    CHECK(s[2].position[0] == doctest::Approx(1.5));
    CHECK(s[2].position[1] == doctest::Approx(-2));
    CHECK(s[2].position[2] == doctest::Approx(0.25));
    CHECK(s[2].color[0] == doctest::Approx(0.5 + 0.28209479));
    CHECK(s[2].color[1] == doctest::Approx(0.5));
    CHECK(s[2].color[2] == doctest::Approx(0.5 - 0.28209479));
    CHECK(s[2].opacity == doctest::Approx(0.5));   // sigmoid(0)
    CHECK(s[2].scale[0] == doctest::Approx(0.1));  // exp(log 0.1)
    CHECK(s[2].scale[2] == doctest::Approx(2.0));
    CHECK(s[2].rotation[0] == doctest::Approx(1.0));  // normalized
    std::remove(path.c_str());
  }

  TEST_CASE(".ply: malformed and truncated files say what is wrong") {
    const std::string path = "test_splats_bad.ply";
    writePly(path, standardVertex(), 4, "binary_little_endian", 5);
    CHECK(errorOf(path).find("truncated") != std::string::npos);
    std::vector<PlyProperty> noOpacity = standardVertex();
    noOpacity.erase(noOpacity.begin() + 8);
    writePly(path, noOpacity, 2);
    CHECK(errorOf(path).find("missing vertex property 'opacity'") != std::string::npos);
    writePly(path, standardVertex(), 2, "ascii");
    CHECK(errorOf(path).find("only binary_little_endian") != std::string::npos);
    std::ofstream(path) << "solid cube\n";
    CHECK(errorOf(path).find("not a PLY") != std::string::npos);
    std::ofstream(path) << "ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\n";
    CHECK(errorOf(path).find("end_header") != std::string::npos);
    std::ofstream(path) << "ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty list uchar int idx\nend_header\n";
    CHECK(errorOf(path).find("list property") != std::string::npos);
    CHECK(errorOf("no_such_file.ply").find("cannot open") != std::string::npos);
    std::remove(path.c_str());
  }

  TEST_CASE("PNG output: signature, size and a stored-deflate body that holds every pixel") {
    const std::string path = "test_splats.png";
    std::vector<uint8_t> rgba(300 * 200 * 4, 7);  // more than one 64 KiB deflate block
    splats::writePng(path, 300, 200, rgba);
    std::ifstream in(path, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(bytes.size() > 200 * (300 * 4 + 1));
    CHECK(std::memcmp(bytes.data(), "\x89PNG\r\n\x1a\n", 8) == 0);
    CHECK(bytes[16] == 0);
    CHECK((bytes[18] << 8 | bytes[19]) == 300);
    CHECK((bytes[22] << 8 | bytes[23]) == 200);
    std::remove(path.c_str());
  }
}
