// Inside the splats renderer: what its two ways of drawing a frame (splat_quads.cpp,
// splat_tiles.cpp) share with the part that owns the scene and the image (splat_renderer.cpp).
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "vk_context.hpp"

namespace splats {

// std430 of shaders/splat_common.glsl's FrameData: written at the start of every frame, read by
// every shader through the one address in the push constants.
struct FrameData {
  float view[16];  // column-major
  VkDeviceAddress splats, sh, keys, indices, counts, screen, firsts, ranges;
  VkDeviceAddress depthKeys, visible, order, blockSums;
  uint32_t count;
  float focalX, focalY, width, height;
  uint32_t shDegree, capacity, tilesX, tilesY, twoPhase, depthBits;
  uint32_t pad;
  float background[4];
};
static_assert(offsetof(FrameData, count) == 160 && offsetof(FrameData, background) == 208 && sizeof(FrameData) == 224,
              "splat_common.glsl's std430 layout");

// Where nothing is drawn (both renderers).
constexpr float kBackground[4] = {0.02f, 0.02f, 0.03f, 1.0f};
constexpr VkFormat kImageFormat = VK_FORMAT_R8G8B8A8_UNORM;

// One way of drawing a frame into the renderer's image. Its shaders find everything through the
// frame's data (at a fixed address, given to its constructor).
class FramePath {
 public:
  virtual ~FramePath() = default;
  // Its buffers' addresses and sizes into the frame's data.
  virtual void describe(FrameData& frame) const = 0;
  // Records the frame after FrameData is written and visible to shaders and indirect reads: the
  // image from UNDEFINED to TRANSFER_SRC_OPTIMAL, its writes available to transfers, and
  // timestamps from `firstQuery` on (timestampCount()).
  virtual void record(VkCommandBuffer cmd, VkImage image, VkImageView view, VkQueryPool queries,
                      uint32_t firstQuery) = 0;
  // The parts timed, in order: each lies between two consecutive timestamps.
  virtual std::vector<std::string> partNames() const = 0;
  uint32_t timestampCount() const { return uint32_t(partNames().size()) + 1; }
  // After the frame's submission finished: splats drawn and keys sorted. False when the frame
  // could not be drawn whole (the buffers grew for the next one).
  virtual bool finished(uint32_t* visible, uint32_t* sorted) = 0;
};

// The two paths (splat_quads.cpp, splat_tiles.cpp), for `count` splats in a width x height image.
// depthBits: the quads' depth keys from recordDepthKeys (0: f32 order keys written by the cull).
std::unique_ptr<FramePath> createQuadPath(vkctx::Context& ctx, vksort::Sorter sorter, uint32_t count, uint32_t width,
                                          uint32_t height, VkDeviceAddress frame, uint32_t depthBits);
// twoPhase: the tiles' copies sorted by depth then tile (else by 64-bit keys, splat_tiles.cpp);
// depthBits: its depth keys' (recordDepthKeys; 0: f32 order keys).
std::unique_ptr<FramePath> createTilePath(vkctx::Context& ctx, vksort::Sorter sorter, uint32_t count, uint32_t width,
                                          uint32_t height, VkDeviceAddress frame, bool twoPhase, uint32_t depthBits);

// Points `sort` (its config set) at `keys` and `values` for up to `maxCount` keys and returns the
// scratch buffer sized for them.
vkctx::Buffer prepareSort(vkctx::Context& ctx, vksort::Sorter sorter, vksort::SortInfo& sort, const vkctx::Buffer& keys,
                          const vkctx::Buffer& values, uint32_t maxCount);

// A 2D colour image with its memory and view.
struct Image {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
};
Image createImage(const vkctx::Context& ctx, VkFormat format, uint32_t width, uint32_t height, VkImageUsageFlags usage);
void destroyImage(VkDevice device, Image& image);

// A pipeline of one compute shader's "main".
VkPipeline createComputePipeline(VkDevice device, VkPipelineLayout layout, const uint32_t* code, size_t bytes);
VkShaderModule createShaderModule(VkDevice device, const uint32_t* code, size_t bytes);
VkPipelineShaderStageCreateInfo shaderStage(VkShaderStageFlagBits stage, VkShaderModule module);
// A pipeline layout whose push constants are the FrameData address, for `stages`, with an
// optional descriptor set layout.
VkPipelineLayout createFrameLayout(VkDevice device, VkShaderStageFlags stages,
                                   VkDescriptorSetLayout set = VK_NULL_HANDLE);
void pushFrame(VkCommandBuffer cmd, VkPipelineLayout layout, VkShaderStageFlags stages, VkDeviceAddress frame);
void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to, VkPipelineStageFlags src,
                  VkAccessFlags srcAccess, VkPipelineStageFlags dst, VkAccessFlags dstAccess);

}  // namespace splats
