// The splats sample (samples/splats): scenes with a known answer rendered by every renderer
// (quads: cull -> indirect vksort by depth -> back-to-front draw; tiles: project -> permutation
// sort by depth -> copies per tile in that order -> stable sort by tile -> ranges -> front-to-back
// blend; tiles64: the copies sorted by 64-bit (tile, depth) keys instead), their pictures
// compared, and the .ply loader on files written here, malformed ones included.
#include <algorithm>
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

constexpr splats::Method kMethods[] = {splats::Method::quads, splats::Method::tiles, splats::Method::tiles64};

// The center pixel of a 64x64 frame seen from (0, 0, 3) looking at the origin.
std::array<uint8_t, 4> centerPixel(const std::vector<splats::Splat>& scene, splats::Method method, uint32_t* visible) {
  splats::Renderer renderer(gpu().ctx, gpu().sorter, scene, 64, 64, method);
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
  return {{"x", "float", 1.5},     {"y", "float", -2},
          {"z", "double", 0.25},   {"nx", "float", 9},
          {"f_dc_0", "float", 1},  {"f_dc_1", "float", 0},
          {"f_dc_2", "float", -1}, {"ny", "float", 7},
          {"opacity", "float", 0}, {"scale_0", "float", std::log(0.1)},
          {"scale_1", "float", 0}, {"scale_2", "float", std::log(2.0)},
          {"rot_0", "float", 2},   {"rot_1", "float", 0},
          {"rot_2", "float", 0},   {"rot_3", "float", 0},
          {"flags", "uchar", 3}};
}

// standardVertex() with `restCount` spherical-harmonic properties: f_rest_i = 0.01 * (i + 1).
std::vector<PlyProperty> vertexWithHarmonics(uint32_t restCount) {
  std::vector<PlyProperty> props = standardVertex();
  for (uint32_t i = 0; i < restCount; ++i) props.push_back({"f_rest_" + std::to_string(i), "float", 0.01 * (i + 1)});
  return props;
}

// 3DGS's view-dependent colour, written out here as the reference: the real spherical harmonics
// of degree 1-3 at unit direction d (camera to splat), weighted by coefficients 1.. of `sh`
// (splat_scene.hpp's layout), plus the degree-0 colour, clamped to [0, 1].
std::array<float, 3> referenceShColor(const float* sh, uint32_t degree, const float d[3]) {
  const double x = d[0], y = d[1], z = d[2], xx = x * x, yy = y * y, zz = z * z;
  const double basis[16] = {1,
                            -0.4886025119029199 * y,
                            0.4886025119029199 * z,
                            -0.4886025119029199 * x,
                            1.0925484305920792 * x * y,
                            -1.0925484305920792 * y * z,
                            0.31539156525252005 * (2 * zz - xx - yy),
                            -1.0925484305920792 * x * z,
                            0.5462742152960396 * (xx - yy),
                            -0.5900435899266435 * y * (3 * xx - yy),
                            2.890611442640554 * x * y * z,
                            -0.4570457994644658 * y * (4 * zz - xx - yy),
                            0.3731763325901154 * z * (2 * zz - 3 * xx - 3 * yy),
                            -0.4570457994644658 * x * (4 * zz - xx - yy),
                            1.445305721320277 * z * (xx - yy),
                            -0.5900435899266435 * x * (xx - 3 * yy)};
  std::array<float, 3> c{};
  for (int k = 0; k < 3; ++k) {
    double v = 0;
    for (uint32_t j = 0; j < (degree + 1) * (degree + 1); ++j) v += basis[j] * sh[3 * j + k];
    c[k] = float(std::clamp(v, 0.0, 1.0));
  }
  return c;
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
  TEST_CASE("the nearer of two overlapping splats dominates the pixel, whichever it is, in both renderers") {
    if (!gpu().ctx.hasGraphics) FAIL("the test device cannot draw (no graphics queue or dynamicRendering)");
    for (splats::Method method : kMethods) {
      CAPTURE(splats::methodName(method));
      uint32_t visible = 0;
      // Red in front (z = 0.5, 2.5 from the camera), blue behind (z = -0.5).
      auto redFront = centerPixel({disk(-0.5f, 0, 0, 1), disk(0.5f, 1, 0, 0)}, method, &visible);
      CHECK(visible == 2);
      CHECK(int(redFront[0]) > 3 * int(redFront[2]));
      // The same splats, depths swapped: blue in front.
      auto blueFront = centerPixel({disk(0.5f, 0, 0, 1), disk(-0.5f, 1, 0, 0)}, method, &visible);
      CHECK(int(blueFront[2]) > 3 * int(blueFront[0]));
      // Both are there: the farther one shows through the nearer one's 5%.
      CHECK(redFront[2] > 0);
      CHECK(blueFront[0] > 0);
      // Behind the camera: culled.
      centerPixel({disk(5.0f, 1, 1, 1)}, method, &visible);
      CHECK(visible == 0);
    }
  }

  TEST_CASE("every renderer draws the same pictures") {
    if (!gpu().ctx.hasGraphics) FAIL("the test device cannot draw");
    // The procedural scene from two sides and close up (splats over many tiles, some beside the
    // camera), with its own colours and with view-dependent ones. The quads blend in half floats,
    // the tiles in float: they differ by rounding only, well inside the bounds below (f32 depths
    // both). The two tile sorts put each tile's splats in the same order (but where depths tie):
    // the same pixels. 16-bit depth keys (the default) swap only splats within a step.
    const splats::Camera views[] = {
        {{0, 2, 6}, {0, 0, 0}, 0.9f}, {{-5, 1.5f, -3}, {0, 0.5f, 0}, 0.9f}, {{0.5f, 0.8f, 2.2f}, {0, 0.5f, 0}, 0.9f}};
    const uint32_t width = 96, height = 72;
    splats::Scene scene{splats::proceduralScene(4000, 11), 0, {}};
    splats::Scene shScene = scene;
    shScene.shDegree = 2;
    uint32_t hash = 7;
    for (uint32_t i = 0; i < shScene.splats.size(); ++i)
      for (uint32_t j = 0; j < splats::shFloats(2); ++j) {
        hash = hash * 1664525u + 1013904223u;
        shScene.sh.push_back(j < 3 ? shScene.splats[i].color[j] : (float(hash >> 8) / float(1u << 24) - 0.5f) * 0.4f);
      }
    int compared = 0;
    for (const splats::Scene* sc : {&scene, &shScene}) {
      splats::Renderer quads(gpu().ctx, gpu().sorter, *sc, width, height, splats::Method::quads);
      splats::Renderer tiles(gpu().ctx, gpu().sorter, *sc, width, height, splats::Method::tiles);
      splats::Renderer tiles64(gpu().ctx, gpu().sorter, *sc, width, height, splats::Method::tiles64);
      splats::Renderer quadsF32(gpu().ctx, gpu().sorter, *sc, width, height, splats::Method::quads, 0);
      splats::Renderer tilesF32(gpu().ctx, gpu().sorter, *sc, width, height, splats::Method::tiles, 0);
      for (const splats::Camera& camera : views) {
        CAPTURE(sc->shDegree);
        CAPTURE(camera.eye[0]);
        std::vector<uint8_t> a, b, c, q, t;
        const splats::FrameStats quads32 = quadsF32.render(camera, &a);
        const uint32_t visibleQuads = quads32.visible;
        // 16-bit depth keys over the visible range (the default) against f32 depths: splats closer
        // in depth than a step (surface splats, nearly coplanar) may swap, which shows in a few
        // pixels where they overlap, and only there.
        const splats::FrameStats quads16 = quads.render(camera, &q);
        CHECK(quads16.visible == visibleQuads);
        CHECK(quads16.partsMs.size() == 4);
        CHECK(quads32.partsMs.size() == 3);
        auto quantizationOnly = [](const std::vector<uint8_t>& keys16, const std::vector<uint8_t>& f32,
                                   const char* what) {
          size_t far = 0;
          double sum = 0;
          for (size_t i = 0; i < f32.size(); ++i) {
            const int d = std::abs(int(keys16[i]) - int(f32[i]));
            sum += d, far += d > 4;
          }
          MESSAGE(std::string(what), ", 16-bit depth keys against f32: mean ", sum / double(f32.size()), ", ", far,
                  " bytes off by more than 4");
          CHECK(sum / double(f32.size()) < 0.02);
          CHECK(far <= f32.size() / 500);
        };
        quantizationOnly(q, a, "quads");
        const splats::FrameStats twoPhase = tilesF32.render(camera, &b);
        const splats::FrameStats keys64 = tiles64.render(camera, &c);
        const splats::FrameStats twoPhase16 = tiles.render(camera, &t);
        CHECK(twoPhase16.visible == twoPhase.visible);
        CHECK(twoPhase16.sorted == twoPhase.sorted);
        quantizationOnly(t, b, "tiles");
        requireNoValidationMessages();
        CHECK(visibleQuads > 500);
        CHECK(twoPhase.visible > 500);
        CHECK(keys64.visible == twoPhase.visible);
        CHECK(keys64.sorted == twoPhase.sorted);
        size_t differ = 0;
        for (size_t i = 0; i < b.size(); ++i) differ += b[i] != c[i];
        MESSAGE("two tile sorts (f32 depths): ", differ, " bytes differ");
        CHECK(differ <= b.size() / 1000);
        double sum = 0;
        int worst = 0, lit = 0;
        for (size_t i = 0; i < a.size(); ++i) {
          const int d = std::abs(int(a[i]) - int(b[i]));
          sum += d, worst = std::max(worst, d);
          lit += i % 4 == 0 && b[i] > 40;
        }
        const double mean = sum / double(a.size());
        MESSAGE("mean ", mean, ", max ", worst);
        CHECK(lit > int(width * height / 10));  // a picture, not the background
        CHECK(mean < 0.5);
        CHECK(worst <= 4);
        ++compared;
      }
    }
    CHECK(compared == 6);
  }

  TEST_CASE("tiles: a frame with more splat copies than key slots grows the buffers and is drawn whole") {
    if (!gpu().ctx.hasGraphics) FAIL("the test device cannot draw");
    // 40 wide splats over a 1024x512 image (64 x 32 tiles): 81,920 copies, past the 65,536 slots a
    // renderer of few splats starts with.
    std::vector<splats::Splat> scene;
    for (int i = 0; i < 40; ++i) {
      splats::Splat s = disk(-0.1f * float(i), float(i % 3 == 0), float(i % 3 == 1), float(i % 3 == 2));
      s.opacity = 0.08f;
      for (float& v : s.scale) v = 20.0f;
      scene.push_back(s);
    }
    const splats::Camera camera{{0, 0, 3}, {0, 0, 0}, 0.8f};
    std::vector<uint8_t> quads;
    splats::Renderer(gpu().ctx, gpu().sorter, scene, 1024, 512, splats::Method::quads).render(camera, &quads);
    for (splats::Method method : {splats::Method::tiles, splats::Method::tiles64}) {
      CAPTURE(splats::methodName(method));
      std::vector<uint8_t> tiles;
      splats::Renderer renderer(gpu().ctx, gpu().sorter, scene, 1024, 512, method);
      splats::FrameStats st = renderer.render(camera, &tiles);
      requireNoValidationMessages();
      CHECK(st.visible == 40);
      CHECK(st.sorted == 40u * 64 * 32);
      int worst = 0;
      for (size_t i = 0; i < quads.size(); ++i) worst = std::max(worst, std::abs(int(quads[i]) - int(tiles[i])));
      CHECK(worst <= 4);
      // The next frame fits at once.
      bool whole = false;
      VkCommandBuffer cmd = gpu().ctx.beginCommands();
      renderer.record(cmd, camera);
      gpu().ctx.submitAndWait(cmd);
      st = renderer.finish(&whole);
      CHECK(whole);
      CHECK(st.sorted == 40u * 64 * 32);
      // The sorts' parts, and their time together.
      std::vector<std::string> names, sorts = method == splats::Method::tiles
                                                  ? std::vector<std::string>{"depth sort", "tile sort"}
                                                  : std::vector<std::string>{"sort"};
      // (tiles: 16-bit depth keys, a part of their own, then the depth sort)
      double sortMs = 0;
      for (const auto& [name, ms] : st.partsMs) {
        names.push_back(name);
        if (std::find(sorts.begin(), sorts.end(), name) != sorts.end()) sortMs += ms;
      }
      CHECK(names == (method == splats::Method::tiles
                          ? std::vector<std::string>{"project", "depth keys", "depth sort", "duplicate", "tile sort",
                                                     "ranges", "blend"}
                          : std::vector<std::string>{"project", "duplicate", "sort", "ranges", "blend"}));
      CHECK(st.sortMs == doctest::Approx(sortMs));
      CHECK(st.sortMs > 0);
    }
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
      uint32_t top = 64, bottom = 0;  // the rows the column reaches
      for (uint32_t y = 0; y < 64; ++y)
        for (uint32_t x = 0; x < 64; ++x) {
          const uint8_t* p = &rgba[(y * 64 + x) * 4];
          if (p[0] + p[1] + p[2] > 120)
            lit += 1, litX += x, litY += y, top = std::min(top, y), bottom = std::max(bottom, y);
          if (p[0] > 120 && p[1] < 60) red += 1, redY += y;
        }
      REQUIRE(lit > 20);
      REQUIRE(red > 5);
      // The whole subject in the frame, with a margin (a tall capture's head once left it).
      CHECK(top >= 2);
      CHECK(bottom <= 61);
      CHECK(std::abs(litX / lit - 31.5) < 6);  // the column in the middle
      CHECK(std::abs(litY / lit - 31.5) < 10);
      if (yDown) CHECK(redY / red < 24);  // rows run top to bottom
      else CHECK(redY / red > 40);
    }
  }

  TEST_CASE("the procedural scene is a capture's: small, flat, mostly opaque splats lying on surfaces") {
    const std::vector<splats::Splat> scene = splats::proceduralScene(20000, 9);
    size_t opaque = 0, flat = 0, onFloor = 0, facingUp = 0;
    float widest = 0;
    for (const splats::Splat& s : scene) {
      opaque += s.opacity >= 0.8f;
      widest = std::max({widest, s.scale[0], s.scale[1]});
      flat += s.scale[2] < 0.2f * std::min(s.scale[0], s.scale[1]);
      // The floor (y = -1): the splat's flat axis, its rotation's third column, is the floor's normal.
      if (s.position[1] != -1.0f) continue;
      ++onFloor;
      const float w = s.rotation[0], x = s.rotation[1], y = s.rotation[2], z = s.rotation[3];
      const float axisY = 2 * (y * z - w * x);  // R * (0, 0, 1), its y (splat.vert: rotationOf)
      facingUp += std::abs(axisY) > 0.999f;
    }
    CHECK(opaque > scene.size() * 85 / 100);
    CHECK(flat == scene.size());
    CHECK(widest < 0.1f);  // within a scene about 6 units across
    CHECK(onFloor > scene.size() / 5);
    CHECK(facingUp == onFloor);
    // Four times the splats, half the size: the surfaces stay covered, not overfilled.
    const std::vector<splats::Splat> denser = splats::proceduralScene(80000, 9);
    float denserWidest = 0;
    for (const splats::Splat& s : denser) denserWidest = std::max({denserWidest, s.scale[0], s.scale[1]});
    CHECK(denserWidest == doctest::Approx(widest / 2).epsilon(0.05));
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

  TEST_CASE(".ply: spherical harmonics of degree 1-3, read channel by channel") {
    const std::string path = "test_splats_sh.ply";
    for (uint32_t degree : {1u, 2u, 3u}) {
      CAPTURE(degree);
      const uint32_t perChannel = (degree + 1) * (degree + 1) - 1;
      writePly(path, vertexWithHarmonics(3 * perChannel), 2);
      const splats::Scene scene = splats::loadPlyScene(path);
      REQUIRE(scene.shDegree == degree);
      REQUIRE(scene.sh.size() == 2 * splats::shFloats(degree));
      const float* sh = scene.sh.data() + splats::shFloats(degree);  // the second splat's
      CHECK(sh[0] == doctest::Approx(0.5 + 0.28209479));             // the degree-0 colour, unclamped
      CHECK(sh[2] == doctest::Approx(0.5 - 0.28209479));
      for (uint32_t j = 0; j < perChannel; ++j)
        for (uint32_t k = 0; k < 3; ++k) CHECK(sh[3 * (j + 1) + k] == doctest::Approx(0.01 * (k * perChannel + j + 1)));
    }
    writePly(path, vertexWithHarmonics(10), 1);
    CHECK(errorOf(path).find("10 f_rest properties") != std::string::npos);
    writePly(path, standardVertex(), 1);
    CHECK(splats::loadPlyScene(path).shDegree == 0);
    std::remove(path.c_str());
  }

  TEST_CASE("spherical harmonics: the colour each view sees, as 3DGS evaluates it") {
    if (!gpu().ctx.hasGraphics) FAIL("the test device cannot draw");
    splats::Scene scene{{disk(0, 0, 0, 0)}, 3, std::vector<float>(splats::shFloats(3))};
    scene.splats[0].opacity = 0.9f;
    uint32_t hash = 12345;
    for (size_t i = 0; i < scene.sh.size(); ++i) {
      hash = hash * 1664525u + 1013904223u;
      scene.sh[i] = i < 3 ? 0.5f : (float(hash >> 8) / float(1u << 24) - 0.5f) * 0.3f;
    }
    const float eyes[][3] = {{3, 0, 0}, {-3, 0, 0}, {0, 0, 3}, {1.5f, 2, -2}, {-2, -1.5f, 1.5f}};
    std::array<float, 3> first{};
    float spread = 0;
    for (splats::Method method : kMethods) {
      splats::Renderer renderer(gpu().ctx, gpu().sorter, scene, 64, 64, method);
      for (const auto& eye : eyes) {
        CAPTURE(splats::methodName(method));
        CAPTURE(eye[0]);
        CAPTURE(eye[1]);
        CAPTURE(eye[2]);
        std::vector<uint8_t> rgba;
        splats::Camera cam{{eye[0], eye[1], eye[2]}, {0, 0, 0}, 0.8f};
        renderer.render(cam, &rgba);
        requireNoValidationMessages();
        const float n = std::sqrt(eye[0] * eye[0] + eye[1] * eye[1] + eye[2] * eye[2]);
        const float dir[3] = {-eye[0] / n, -eye[1] / n, -eye[2] / n};
        const std::array<float, 3> c = referenceShColor(scene.sh.data(), 3, dir);
        const float alpha = 0.9f, background[3] = {0.02f, 0.02f, 0.03f};
        const uint8_t* p = &rgba[(32 * 64 + 32) * 4];
        for (int k = 0; k < 3; ++k) {
          CAPTURE(k);
          CHECK(std::abs(float(p[k]) - 255.0f * (c[k] * alpha + background[k] * (1 - alpha))) < 4.0f);
        }
        if (&eye == &eyes[0]) first = c;
        for (int k = 0; k < 3; ++k) spread = std::max(spread, std::abs(c[k] - first[k]));
      }
    }
    CHECK(spread > 0.1f);  // the views see different colours
  }

  TEST_CASE(".ply: SuperSplat's compressed layout, decoded within its quantization") {
    // Splats as 3DGS stores them (positions, f_dc, logit opacity, log scales, quaternions, degree-1
    // f_rest), encoded here as PlayCanvas's compressed PLY: 256 a chunk with their bounds, 11-10-11
    // bit positions and scales, the quaternion's largest component's index and the other three,
    // 8-bit colours and opacity, 8-bit harmonics.
    const std::string path = "test_splats_compressed.ply";
    const uint32_t n = 300;  // two chunks, the second partial
    const float kC0 = 0.28209479f;
    struct Stored {
      float pos[3], dc[3], logit, logScale[3], q[4], rest[9];
    };
    std::vector<Stored> in(n);
    uint32_t hash = 99;
    auto next = [&] {
      hash = hash * 1664525u + 1013904223u;
      return float(hash >> 8) / float(1u << 24);
    };
    for (Stored& t : in) {
      for (int k = 0; k < 3; ++k) t.pos[k] = 10 * next() - 5, t.dc[k] = 2 * next() - 1, t.logScale[k] = -6 + 4 * next();
      t.logit = 6 * next() - 3;
      float norm = 0;
      for (float& c : t.q) c = 2 * next() - 1, norm += c * c;
      for (float& c : t.q) c /= std::sqrt(norm);
      for (float& r : t.rest) r = next() - 0.5f;
    }
    for (bool chunkColors : {true, false}) {
      CAPTURE(chunkColors);
      auto unit = [](float v, float lo, float hi, uint32_t bits) {
        const float t = hi > lo ? (v - lo) / (hi - lo) : 0;
        return uint32_t(std::clamp(t, 0.0f, 1.0f) * float((1u << bits) - 1) + 0.5f);
      };
      std::string header = "ply\nformat binary_little_endian 1.0\nelement chunk 2\n";
      const char* bounds[] = {"min_x",       "min_y",       "min_z",       "max_x",       "max_y",       "max_z",
                              "min_scale_x", "min_scale_y", "min_scale_z", "max_scale_x", "max_scale_y", "max_scale_z",
                              "min_r",       "min_g",       "min_b",       "max_r",       "max_g",       "max_b"};
      for (int i = 0; i < (chunkColors ? 18 : 12); ++i) header += std::string("property float ") + bounds[i] + "\n";
      header += "element vertex " + std::to_string(n) +
                "\nproperty uint packed_position\nproperty uint packed_rotation\n"
                "property uint packed_scale\nproperty uint packed_color\nelement sh " +
                std::to_string(n) + "\n";
      for (int i = 0; i < 9; ++i) header += "property uchar f_rest_" + std::to_string(i) + "\n";
      header += "end_header\n";
      std::string chunks, vertices, sh;
      auto put = [](std::string& out, auto v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); };
      std::vector<std::array<float, 18>> box(2);
      for (uint32_t c = 0; c < 2; ++c) {
        std::array<float, 18>& b = box[c];
        for (int k = 0; k < 3; ++k) b[k] = b[6 + k] = b[12 + k] = 1e9f, b[3 + k] = b[9 + k] = b[15 + k] = -1e9f;
        for (uint32_t v = 256 * c; v < std::min(n, 256 * c + 256); ++v)
          for (int k = 0; k < 3; ++k) {
            const float colour = 0.5f + kC0 * in[v].dc[k];
            b[k] = std::min(b[k], in[v].pos[k]), b[3 + k] = std::max(b[3 + k], in[v].pos[k]);
            b[6 + k] = std::min(b[6 + k], in[v].logScale[k]), b[9 + k] = std::max(b[9 + k], in[v].logScale[k]);
            b[12 + k] = std::min(b[12 + k], colour), b[15 + k] = std::max(b[15 + k], colour);
          }
        if (!chunkColors)
          for (int k = 0; k < 3; ++k) b[12 + k] = 0, b[15 + k] = 1;
        for (int i = 0; i < (chunkColors ? 18 : 12); ++i) put(chunks, b[i]);
      }
      for (uint32_t v = 0; v < n; ++v) {
        const Stored& t = in[v];
        const std::array<float, 18>& b = box[v / 256];
        const uint32_t position = unit(t.pos[0], b[0], b[3], 11) << 21 | unit(t.pos[1], b[1], b[4], 10) << 11 |
                                  unit(t.pos[2], b[2], b[5], 11);
        const uint32_t scale = unit(t.logScale[0], b[6], b[9], 11) << 21 | unit(t.logScale[1], b[7], b[10], 10) << 11 |
                               unit(t.logScale[2], b[8], b[11], 11);
        uint32_t largest = 0;
        for (uint32_t k = 1; k < 4; ++k)
          if (std::abs(t.q[k]) > std::abs(t.q[largest])) largest = k;
        const float sign = t.q[largest] < 0 ? -1.0f : 1.0f;
        uint32_t rotation = largest << 30;
        for (uint32_t k = 0, shift = 20; k < 4; ++k)
          if (k != largest) rotation |= unit(sign * t.q[k] / std::sqrt(2.0f) + 0.5f, 0, 1, 10) << shift, shift -= 10;
        uint32_t color = unit(1 / (1 + std::exp(-t.logit)), 0, 1, 8);
        for (int k = 0; k < 3; ++k) color |= unit(0.5f + kC0 * t.dc[k], b[12 + k], b[15 + k], 8) << (24 - 8 * k);
        for (uint32_t word : {position, rotation, scale, color}) put(vertices, word);
        for (float r : t.rest) sh.push_back(char(uint8_t(std::clamp(std::floor((r / 8 + 0.5f) * 256), 0.0f, 255.0f))));
      }
      std::ofstream(path, std::ios::binary) << header << chunks << vertices << sh;

      const splats::Scene scene = splats::loadPlyScene(path);
      REQUIRE(scene.splats.size() == n);
      REQUIRE(scene.shDegree == 1);
      size_t wrong = 0;
      for (uint32_t v = 0; v < n; ++v) {
        const Stored& t = in[v];
        const splats::Splat& got = scene.splats[v];
        const std::array<float, 18>& b = box[v / 256];
        for (int k = 0; k < 3; ++k) {
          const float step = (b[3 + k] - b[k]) / (k == 1 ? 1023 : 2047),
                      scaleStep = (b[9 + k] - b[6 + k]) / (k == 1 ? 1023 : 2047);
          wrong += std::abs(got.position[k] - t.pos[k]) > step;
          wrong += std::abs(std::log(got.scale[k]) - t.logScale[k]) > scaleStep;
          wrong += std::abs(got.color[k] - std::clamp(0.5f + kC0 * t.dc[k], 0.0f, 1.0f)) >
                   (b[15 + k] - b[12 + k]) / 255 + 1e-5f;
        }
        wrong += std::abs(got.opacity - 1 / (1 + std::exp(-t.logit))) > 1.0f / 255;
        const float dot =
            got.rotation[0] * t.q[0] + got.rotation[1] * t.q[1] + got.rotation[2] * t.q[2] + got.rotation[3] * t.q[3];
        wrong += std::abs(std::abs(dot) - 1) > 0.005f;  // q and -q are one rotation
        const float* harmonics = scene.sh.data() + size_t(v) * splats::shFloats(1);
        for (uint32_t j = 0; j < 3; ++j)
          for (uint32_t k = 0; k < 3; ++k)
            wrong += std::abs(harmonics[3 * (j + 1) + k] - t.rest[k * 3 + j]) > 8.0f / 256;
      }
      CHECK(wrong == 0);
    }
    // A chunk count that does not cover the splats, and harmonics out of order: clear errors.
    std::ofstream(path, std::ios::binary)
        << "ply\nformat binary_little_endian 1.0\nelement chunk 1\nproperty float min_x\nproperty float min_y\n"
           "property float min_z\nproperty float max_x\nproperty float max_y\nproperty float max_z\n"
           "property float min_scale_x\nproperty float min_scale_y\nproperty float min_scale_z\n"
           "property float max_scale_x\nproperty float max_scale_y\nproperty float max_scale_z\nelement vertex 257\n"
           "property uint packed_position\nproperty uint packed_rotation\nproperty uint packed_scale\n"
           "property uint packed_color\nend_header\n";
    CHECK(errorOf(path).find("1 chunks for 257 splats") != std::string::npos);
    std::ofstream(path, std::ios::binary)
        << "ply\nformat binary_little_endian 1.0\nelement chunk 1\nproperty float min_x\nelement vertex 1\n"
           "property uint packed_position\nend_header\n";
    CHECK(errorOf(path).find("missing chunk property 'min_y'") != std::string::npos);
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
    std::ofstream(path)
        << "ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty list uchar int idx\nend_header\n";
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
