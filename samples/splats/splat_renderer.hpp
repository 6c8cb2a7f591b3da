// A Gaussian-splatting frame in one command buffer, drawn one of the two ways renderers use a GPU
// sort (docs/SPLATS.md):
// - quads: cull, sort every visible splat by depth (u32 keys, vksort indirect), draw the splats
//   back to front as alpha-blended screen-space quads (splat_quads.cpp);
// - tiles: project, sort the visible splats by depth (a permutation sort), copy each once per
//   16x16 tile it touches in that order, sort the copies' u32 tile ids (stable: each tile's stay
//   nearest first), find each tile's range, blend front to back in compute (splat_tiles.cpp);
// - tiles64: the same picture as 3D Gaussian Splatting's rasterizer sorts it: copies made in any
//   order with (tile << 32 | depth) keys, one u64 sort over the bits the tile count needs.
// Into an RGBA8 image (offscreen, or blitted to a window); timestamps around each part.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "splat_camera.hpp"
#include "splat_scene.hpp"
#include "vk_context.hpp"

namespace splats {

enum class Method { quads, tiles, tiles64 };
constexpr uint32_t kDepthBits = 16;  // the depth keys' bits (Renderer's depthBits)
const char* methodName(Method m);

struct FrameStats {
  // GPU time of each part, in order, from timestamps (quads: cull, sort, draw; tiles: project,
  // depth sort, duplicate, tile sort, ranges, blend; tiles64: project, duplicate, sort, ranges,
  // blend).
  std::vector<std::pair<std::string, double>> partsMs;
  double sortMs, frameMs;       // sortMs: the parts that are sorts ("... sort"), together
  uint32_t visible;             // splats drawn
  uint32_t sorted;              // keys sorted: quads, the visible splats; tiles, their copies (one per tile)
  std::string summary() const;  // "cull 0.010 ms, sort ..., sorts ... ms, frame ... ms"
};

class Renderer {
 public:
  // ctx must have hasGraphics (quads draw; tiles' image is drawn with the same queue). The scene
  // is uploaded once; with spherical harmonics the colours follow the view. depthBits: the depth
  // keys of quads and tiles (not tiles64), quantized over the visible depths' range on the GPU
  // (vksort::recordDepthKeys); 0: f32 depths, sorted over 32 bits.
  Renderer(vkctx::Context& ctx, vksort::Sorter sorter, const Scene& scene, uint32_t width, uint32_t height,
           Method method = Method::quads, uint32_t depthBits = kDepthBits);
  Renderer(vkctx::Context& ctx, vksort::Sorter sorter, const std::vector<Splat>& splats, uint32_t width,
           uint32_t height, Method method = Method::quads, uint32_t depthBits = kDepthBits);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Records and runs one frame; the image's pixels (RGBA8, rows top to bottom) into *rgba when
  // given. A tile frame whose splat copies outgrew the buffers is drawn again with larger ones.
  FrameStats render(const Camera& camera, std::vector<uint8_t>* rgba);

  // For a window: record() the frame into cmd (the image ends in TRANSFER_SRC_OPTIMAL, its writes
  // available to transfers); once that submission has finished, finish() gives its timings
  // (false in `whole` when a tile frame outgrew its buffers: they grew for the next one).
  void record(VkCommandBuffer cmd, const Camera& camera);
  FrameStats finish(bool* whole);
  VkImage image() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace splats
