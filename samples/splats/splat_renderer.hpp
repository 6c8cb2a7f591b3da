// The frame a Gaussian-splatting renderer records, in one command buffer: a compute pass culls
// the splats and writes a depth key and an index per visible one (the count into the draw's
// instanceCount); vksort sorts them indirectly (count from that instanceCount); a draw renders
// the visible splats back to front as alpha-blended screen-space Gaussians, reading the sorted
// indices. Offscreen (dynamic rendering into an RGBA8 image); timestamps around each part.
#pragma once
#include <memory>
#include <vector>

#include "splat_camera.hpp"
#include "splat_scene.hpp"
#include "vk_context.hpp"

namespace splats {

struct FrameStats {
  double cullMs, sortMs, drawMs, frameMs;  // GPU time from timestamps
  uint32_t visible;
};

class Renderer {
 public:
  // ctx must have hasGraphics. The scene is uploaded once; with spherical harmonics the colours
  // follow the view.
  Renderer(vkctx::Context& ctx, vksort::Sorter sorter, const Scene& scene, uint32_t width, uint32_t height);
  Renderer(vkctx::Context& ctx, vksort::Sorter sorter, const std::vector<Splat>& splats, uint32_t width,
           uint32_t height);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Records and runs one frame; the image's pixels (RGBA8, rows top to bottom) into *rgba.
  FrameStats render(const Camera& camera, std::vector<uint8_t>* rgba);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace splats
