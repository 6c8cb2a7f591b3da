// Headless Gaussian-splatting frames: each frame culls, sorts (vksort, indirect) and draws the
// splats back to front in one command buffer, and writes a PNG.
//   usage: vksort_splats [--ply scene.ply | --splats N] [--frames 8] [--size 640x480] [--out dir]
// Without --ply, a procedural scene of N splats (default 20000, a size that suits lavapipe).
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "splat_renderer.hpp"

int main(int argc, char** argv) try {
  std::string ply, out = ".";
  uint32_t n = 20000, frames = 8, width = 640, height = 480;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--ply") ply = v;
    else if (k == "--splats") n = uint32_t(std::stoul(v));
    else if (k == "--frames") frames = uint32_t(std::stoul(v));
    else if (k == "--out") out = v;
    else if (k == "--size" && std::sscanf(v.c_str(), "%ux%u", &width, &height) == 2) {}
    else throw std::runtime_error("unknown option " + k);
  }
  std::vector<splats::Splat> scene = ply.empty() ? splats::proceduralScene(n, 1) : splats::loadPly(ply);

  vkctx::Context ctx(vkctx::Options{});
  vksort::Sorter sorter = nullptr;
  vkctx::check(vksort::createSorter(ctx.sorterCreateInfo(), &sorter), "createSorter");
  std::printf("%s: %zu splats (%s), %ux%u, sort: %s\n", ctx.properties.deviceName, scene.size(),
              ply.empty() ? "procedural" : ply.c_str(), width, height,
              vksort::getSorterProperties(sorter).algorithm == vksort::Algorithm::onesweep ? "Onesweep"
                                                                                              : "reduce-then-scan");
  {
    splats::Renderer renderer(ctx, sorter, scene, width, height);
    // The scene's extent sets the orbit's radius.
    float radius = 0;
    for (const splats::Splat& s : scene)
      radius = std::max(radius, std::sqrt(s.position[0] * s.position[0] + s.position[2] * s.position[2]));
    radius = std::max(radius, 1.0f) * 1.6f;
    std::vector<uint8_t> rgba;
    for (uint32_t f = 0; f < frames; ++f) {
      float angle = 6.2831853f * float(f) / float(std::max(frames, 1u));
      splats::Camera cam{{radius * std::sin(angle), 0.35f * radius, radius * std::cos(angle)}, {0, 0, 0}, 0.9f};
      splats::FrameStats st = renderer.render(cam, &rgba);
      char name[64];
      std::snprintf(name, sizeof name, "/frame_%03u.png", f);
      splats::writePng(out + name, width, height, rgba);
      std::printf("frame %u: %u visible, cull %.3f ms, sort %.3f ms, draw %.3f ms, frame %.3f ms -> %s\n", f,
                  st.visible, st.cullMs, st.sortMs, st.drawMs, st.frameMs, (out + name).c_str());
    }
  }
  vksort::destroySorter(sorter);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "vksort_splats: %s\n", e.what());
  return 1;
}
