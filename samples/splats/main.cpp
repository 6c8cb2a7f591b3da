// Headless Gaussian-splatting frames: each frame is one command buffer in which vksort sorts
// indirectly, drawn as quads (cull, sort by depth, draw back to front) or as tiles (project,
// copy per tile, sort by tile and depth, blend front to back in compute); each writes a PNG.
// Usage: vksort_splats --help. Without --ply, a procedural scene of N splats (default 20000, a
// size that suits lavapipe).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "command_line.hpp"
#include "splat_renderer.hpp"
#ifdef VKSORT_SPLATS_WINDOW
#include "splat_window.hpp"
#endif

namespace {

const char kUsage[] =
    "usage: vksort_splats [--ply scene.ply | --splats N] [--renderer quads|tiles|tiles64] [--frames F] [--size WxH]\n"
    "                    [--depth-bits B] [--out DIR] [--warmup-ms MS] [--y-up | --y-down] [--window] [--validate]\n"
    "                    [--tuning FILE]\n"
    "  --ply FILE     a binary .ply scene: 3DGS's layout, or PlayCanvas / SuperSplat's compressed one\n"
    "                 (default: a procedural scene)\n"
    "  --splats N     splats of the procedural scene (default 20000)\n"
    "  --renderer R   quads: sorted by depth, drawn as quads (default); tiles: sorted by depth, copied per\n"
    "                 16x16 tile, sorted by tile, blended per tile in compute; tiles64: the same picture,\n"
    "                 the copies sorted by 64-bit (tile, depth) keys\n"
    "  --depth-bits B quads, tiles: depth keys of B bits (1-24) over the visible depths' range, found on\n"
    "                 the GPU (default 16); 0: f32 depths, sorted over 32 bits\n"
    "  --frames F     frames to render, orbiting the scene (default 8)\n"
    "  --size WxH     image size (default 640x480)\n"
    "  --out DIR      where frame_NNN.png go, created if missing (default .)\n"
    "  --warmup-ms MS frame 0 rendered untimed for MS milliseconds more after its first time (default\n"
    "                 0): a GPU that idled while the scene loaded runs its first frames at low clocks\n"
    "  --y-up         the scene's +y is up (default for the procedural scene)\n"
    "  --y-down       the scene's -y is up: 3DGS captures, COLMAP's convention (default for --ply)\n"
    "  --window       show the frames in a window (drag: orbit, scroll: zoom; timings in the title)\n"
    "                 until it closes, or for --frames F when given; --size is the window's size\n"
    "  --validate     Khronos validation on; any message is an error\n"
    "  --tuning FILE  tuning data from vksort_tune on this device (refused: an error)\n"
    "  --help         this text\n";

// Each part's median over `frames` (all with the same parts), as FrameStats::summary() prints it.
std::string medians(const std::vector<splats::FrameStats>& frames) {
  auto median = [&](auto time) {
    std::vector<double> v;
    for (const splats::FrameStats& f : frames) v.push_back(time(f));
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  };
  splats::FrameStats m = frames.front();
  for (size_t p = 0; p < m.partsMs.size(); ++p)
    m.partsMs[p].second = median([&](const splats::FrameStats& f) { return f.partsMs[p].second; });
  m.sortMs = median([](const splats::FrameStats& f) { return f.sortMs; });
  m.frameMs = median([](const splats::FrameStats& f) { return f.frameMs; });
  return m.summary();
}

}  // namespace

int main(int argc, char** argv) try {
  std::string ply, out = ".", tuning;
  uint32_t n = 20000, frames = 8, width = 640, height = 480, depthBits = splats::kDepthBits, warmupMs = 0;
  int yDown = -1;  // -1: the input's convention
  bool window = false, validate = false, framesGiven = false;
  splats::Method method = splats::Method::quads;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    cli::helpIfAsked(k, kUsage);
    if (k == "--y-up" || k == "--y-down") {
      if (yDown == int(k == "--y-up"))
        throw std::invalid_argument("--y-up and --y-down contradict each other: give one");
      yDown = k == "--y-down";
      continue;
    }
    if (k == "--window" || k == "--validate") {
      (k == "--window" ? window : validate) = true;
      continue;
    }
    if (k != "--ply" && k != "--splats" && k != "--frames" && k != "--out" && k != "--size" && k != "--renderer" &&
        k != "--tuning" && k != "--depth-bits" && k != "--warmup-ms")
      throw std::invalid_argument("unknown option \"" + k + "\"");
    const std::string v = cli::valueOf(argc, argv, &i);
    if (k == "--ply") ply = v;
    else if (k == "--splats") n = uint32_t(cli::number(k, v, 1, 0xFFFFFFFFu));
    else if (k == "--frames") frames = uint32_t(cli::number(k, v, 1, 0xFFFFFFFFu)), framesGiven = true;
    else if (k == "--out") out = v;
    else if (k == "--tuning") tuning = v;
    else if (k == "--depth-bits") depthBits = uint32_t(cli::number(k, v, 0, 24));
    else if (k == "--warmup-ms") warmupMs = uint32_t(cli::number(k, v, 0, 600000));
    else if (k == "--renderer") {
      if (v != "quads" && v != "tiles" && v != "tiles64")
        throw std::invalid_argument("--renderer wants quads, tiles or tiles64, not \"" + v + "\"");
      method = v == "tiles" ? splats::Method::tiles : v == "tiles64" ? splats::Method::tiles64 : splats::Method::quads;
    } else if (char rest = 0; std::sscanf(v.c_str(), "%ux%u%c", &width, &height, &rest) != 2 || !width || !height)
      throw std::invalid_argument("--size wants WxH, not \"" + v + "\"");
  }
  const bool down = yDown < 0 ? !ply.empty() : yDown == 1;
  const splats::Scene scene =
      ply.empty() ? splats::Scene{splats::proceduralScene(n, 1), 0, {}} : splats::loadPlyScene(ply);
  if (window) {
#ifdef VKSORT_SPLATS_WINDOW
    splats::WindowOptions wo;
    wo.width = width, wo.height = height, wo.yDown = down, wo.validation = validate, wo.method = method;
    wo.depthBits = depthBits;
    wo.frames = framesGiven ? frames : 0;
    wo.tuningData = tuning;
    splats::runWindow(scene, wo);
    return 0;
#else
    throw std::invalid_argument("--window: this vksort_splats was built without GLFW (Debian: libglfw3-dev)");
#endif
  }
  std::error_code made;
  std::filesystem::create_directories(out, made);
  if (made) throw std::runtime_error("cannot create --out " + out + ": " + made.message());

  vkctx::Options options;
  options.validation = validate;
  options.tuningData = tuning;
  vkctx::Context ctx(options);
  vksort::Sorter sorter = nullptr;
  vkctx::check(vksort::createSorter(ctx.sorterCreateInfo(), &sorter), "createSorter");
  std::printf(
      "%s: %zu splats (%s, colour of SH degree %u), %ux%u, %s, sort: %s\n", ctx.properties.deviceName,
      scene.splats.size(), ply.empty() ? "procedural" : ply.c_str(), scene.shDegree, width, height,
      splats::methodName(method),
      vksort::getSorterProperties(sorter).algorithm == vksort::Algorithm::onesweep ? "Onesweep" : "reduce-then-scan");
  if (const uint32_t largest = ctx.properties.limits.maxImageDimension2D; width > largest || height > largest)
    throw std::invalid_argument("--size " + std::to_string(width) + "x" + std::to_string(height) + " exceeds " +
                                ctx.properties.deviceName + "'s largest image, " + std::to_string(largest) + " a side");
  {
    splats::Renderer renderer(ctx, sorter, scene, width, height, method, depthBits);
    // The orbit goes round the scene's bounds (without stray splats), the right way up.
    const splats::Framing framing = splats::frameScene(scene.splats);
    std::vector<uint8_t> rgba;
    std::vector<splats::FrameStats> timed;  // every frame but the first (pipelines' first use)
    // The clock starts after a first frame: that one builds the pipelines and sizes the buffers,
    // which can take longer than the whole warm-up.
    const splats::Camera first =
        splats::orbitCamera(framing, 0.0f, down, 0.9f, 0.35f, 1.0f, float(width) / float(height));
    uint32_t warmupFrames = 0;
    if (warmupMs > 0) renderer.render(first, nullptr), ++warmupFrames;
    const auto warmupEnd = std::chrono::steady_clock::now() + std::chrono::milliseconds(warmupMs);
    for (; std::chrono::steady_clock::now() < warmupEnd; ++warmupFrames) renderer.render(first, nullptr);
    if (warmupMs > 0) std::printf("warm-up: frame 0 rendered %u times in %u ms\n", warmupFrames, warmupMs);
    for (uint32_t f = 0; f < frames; ++f) {
      float angle = 6.2831853f * float(f) / float(std::max(frames, 1u));
      splats::Camera cam = splats::orbitCamera(framing, angle, down, 0.9f, 0.35f, 1.0f, float(width) / float(height));
      splats::FrameStats st = renderer.render(cam, &rgba);
      char name[64];
      std::snprintf(name, sizeof name, "/frame_%03u.png", f);
      splats::writePng(out + name, width, height, rgba);
      std::printf("frame %u: %u visible, %u keys sorted, %s -> %s\n", f, st.visible, st.sorted, st.summary().c_str(),
                  (out + name).c_str());
      if (ctx.validationMessages()) throw std::runtime_error("validation: " + ctx.lastValidationMessage());
      if (f > 0) timed.push_back(st);
    }
    if (!timed.empty()) std::printf("median of frames 1-%u: %s\n", frames - 1, medians(timed).c_str());
  }
  vksort::destroySorter(sorter);
  return 0;
} catch (const std::exception& e) {
  return cli::report("vksort_splats", e, kUsage);
}
