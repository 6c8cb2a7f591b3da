// The quad renderer: a compute pass culls the splats and writes a depth and an index per visible
// one (the count into the draw's instanceCount); vksort turns the depths into 16-bit keys over
// the range they span (recordDepthKeys; or, with depthBits 0, the cull writes f32 order keys) and
// sorts them indirectly (count from that instanceCount), keeping only the indices; one draw
// renders the visible splats back to front as alpha-blended screen-space Gaussians, reading them.
#include <algorithm>

#include "splat_frame.hpp"

namespace splats {
namespace {

const uint32_t kCullSpirv[] = {
#include "cull.comp.spv.inc"
};
const uint32_t kVertSpirv[] = {
#include "splat.vert.spv.inc"
};
const uint32_t kFragSpirv[] = {
#include "splat.frag.spv.inc"
};

constexpr VkShaderStageFlags kStages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT;
// The splats blend in half floats: in 8 bits every one of a pixel's many faint layers would round,
// and the picture would come out darker than the tile renderer's (which blends in float).
constexpr VkFormat kBlendFormat = VK_FORMAT_R16G16B16A16_SFLOAT;

class QuadPath final : public FramePath {
 public:
  QuadPath(vkctx::Context& ctx, vksort::Sorter sorter, uint32_t count, uint32_t width, uint32_t height,
           VkDeviceAddress frame, uint32_t depthBits)
      : ctx_(ctx),
        sorter_(sorter),
        count_(count),
        width_(width),
        height_(height),
        frame_(frame),
        depthBits_(depthBits) {
    const VkDeviceSize n = std::max<VkDeviceSize>(count, 1);
    keys_ = ctx.createDeviceBuffer(n * 4);
    indices_ = ctx.createDeviceBuffer(n * 4);
    draw_ = ctx.createDeviceBuffer(16, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    // u32 depth keys (of depthBits bits, or f32 order keys) with u32 splat indices, the count the
    // draw's instanceCount; only the indices are drawn with.
    sort_.config.valueType = vksort::ValueType::u32;
    sort_.config.endBit = depthBits_ != 0 ? depthBits_ : 32;
    sort_.config.discardKeys = true;
    scratch_ = prepareSort(ctx, sorter, sort_, keys_, indices_, count);
    sort_.countBuffer = {draw_.buffer, 4, 4};
    if (depthBits_ != 0) {
      depthScratch_ = ctx.createDeviceBuffer(vksort::kDepthKeysScratchBytes);
      depthKeys_.depths = keys_.range();
      depthKeys_.maxCount = count;
      depthKeys_.countBuffer = sort_.countBuffer;
      depthKeys_.bits = depthBits_;
      depthKeys_.order = vksort::SortOrder::descending;  // farthest first
      depthKeys_.scratch = depthScratch_.range();
    }
    blendTarget_ = createImage(ctx, kBlendFormat, width, height,
                               VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    layout_ = createFrameLayout(ctx.device, kStages);
    cull_ = createComputePipeline(ctx.device, layout_, kCullSpirv, sizeof kCullSpirv);
    createDrawPipeline();
  }

  ~QuadPath() override {
    VkDevice d = ctx_.device;
    vkDestroyPipeline(d, cull_, nullptr);
    vkDestroyPipeline(d, draw_pipeline_, nullptr);
    vkDestroyPipelineLayout(d, layout_, nullptr);
    destroyImage(d, blendTarget_);
    for (vkctx::Buffer* b : {&keys_, &indices_, &draw_, &scratch_, &depthScratch_})
      if (b->buffer) ctx_.destroy(*b);
  }

  void describe(FrameData& frame) const override {
    frame.keys = ctx_.address(keys_);
    frame.indices = ctx_.address(indices_);
    frame.counts = ctx_.address(draw_);
    frame.depthBits = depthBits_;
  }

  std::vector<std::string> partNames() const override {
    if (depthBits_ != 0) return {"cull", "depth keys", "sort", "draw"};
    return {"cull", "sort", "draw"};
  }

  void record(VkCommandBuffer cmd, VkImage image, VkImageView, VkQueryPool queries, uint32_t q) override {
    // The draw: 4 vertices per splat, instanceCount written by the cull.
    const uint32_t drawCommand[4] = {4, 0, 0, 0};
    vkCmdUpdateBuffer(cmd, draw_.buffer, 0, sizeof drawCommand, drawCommand);
    vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries, q++);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, cull_);
    pushFrame(cmd, layout_, kStages, frame_);
    vkCmdDispatch(cmd, (count_ + 255) / 256, 1, 1);
    // vksort's contract: the cull's writes (keys, indices, the count) before the sort.
    vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, vksort::kSortDstStage,
                         vksort::kSortDstAccess);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, q++);
    if (depthBits_ != 0) {
      vkctx::check(vksort::recordDepthKeys(sorter_, cmd, depthKeys_), "recordDepthKeys");
      vkctx::memoryBarrier(cmd, vksort::kSortSrcStage, vksort::kSortSrcAccess, vksort::kSortDstStage,
                           vksort::kSortDstAccess);
      vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, q++);
    }
    vkctx::check(vksort::recordSort(sorter_, cmd, sort_), "recordSort");
    // After: the sorted indices to the vertex shader, the count to the indirect draw.
    vkctx::memoryBarrier(cmd, vksort::kSortSrcStage, vksort::kSortSrcAccess,
                         VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                         VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, q++);

    imageBarrier(cmd, blendTarget_.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                 VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
    VkRenderingAttachmentInfo attachment =
        vkctx::vkStruct<VkRenderingAttachmentInfo>(VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO);
    attachment.imageView = blendTarget_.view;
    attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachment.clearValue.color = {{kBackground[0], kBackground[1], kBackground[2], kBackground[3]}};
    VkRenderingInfo ri = vkctx::vkStruct<VkRenderingInfo>(VK_STRUCTURE_TYPE_RENDERING_INFO);
    ri.renderArea = {{0, 0}, {width_, height_}};
    ri.layerCount = 1;
    ri.colorAttachmentCount = 1;
    ri.pColorAttachments = &attachment;
    vkCmdBeginRendering(cmd, &ri);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, draw_pipeline_);
    pushFrame(cmd, layout_, kStages, frame_);
    vkCmdDrawIndirect(cmd, draw_.buffer, 0, 1, 0);
    vkCmdEndRendering(cmd);
    // Into the frame's 8-bit image (rounded to nearest), timed with the draw.
    imageBarrier(cmd, blendTarget_.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    imageBarrier(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkImageBlit blit{};
    blit.srcSubresource = blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    blit.srcOffsets[1] = blit.dstOffsets[1] = {int32_t(width_), int32_t(height_), 1};
    vkCmdBlitImage(cmd, blendTarget_.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, q++);
    imageBarrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_TRANSFER_READ_BIT);
  }

  bool finished(uint32_t* visible, uint32_t* sorted) override {
    uint32_t words[4];
    ctx_.download(draw_, words, sizeof words);
    *visible = *sorted = words[1];
    return true;
  }

 private:
  void createDrawPipeline() {
    VkDevice d = ctx_.device;
    VkShaderModule vs = createShaderModule(d, kVertSpirv, sizeof kVertSpirv);
    VkShaderModule fs = createShaderModule(d, kFragSpirv, sizeof kFragSpirv);
    VkPipelineShaderStageCreateInfo stages[2] = {shaderStage(VK_SHADER_STAGE_VERTEX_BIT, vs),
                                                 shaderStage(VK_SHADER_STAGE_FRAGMENT_BIT, fs)};
    VkPipelineVertexInputStateCreateInfo vertexInput = vkctx::vkStruct<VkPipelineVertexInputStateCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
    VkPipelineInputAssemblyStateCreateInfo assembly = vkctx::vkStruct<VkPipelineInputAssemblyStateCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    VkViewport viewport{0, 0, float(width_), float(height_), 0, 1};
    VkRect2D scissor{{0, 0}, {width_, height_}};
    VkPipelineViewportStateCreateInfo viewportState =
        vkctx::vkStruct<VkPipelineViewportStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO);
    viewportState.viewportCount = viewportState.scissorCount = 1;
    viewportState.pViewports = &viewport;
    viewportState.pScissors = &scissor;
    VkPipelineRasterizationStateCreateInfo raster = vkctx::vkStruct<VkPipelineRasterizationStateCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = VK_CULL_MODE_NONE;
    raster.lineWidth = 1;
    VkPipelineMultisampleStateCreateInfo multisample =
        vkctx::vkStruct<VkPipelineMultisampleStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    // Premultiplied "over", back to front: dst = src + (1 - src.a) * dst.
    VkPipelineColorBlendAttachmentState blend{};
    blend.blendEnable = VK_TRUE;
    blend.srcColorBlendFactor = blend.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    blend.dstColorBlendFactor = blend.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    blend.colorBlendOp = blend.alphaBlendOp = VK_BLEND_OP_ADD;
    blend.colorWriteMask = 0xF;
    VkPipelineColorBlendStateCreateInfo blendState =
        vkctx::vkStruct<VkPipelineColorBlendStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
    blendState.attachmentCount = 1;
    blendState.pAttachments = &blend;
    VkPipelineRenderingCreateInfo rendering =
        vkctx::vkStruct<VkPipelineRenderingCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO);
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &kBlendFormat;
    VkGraphicsPipelineCreateInfo gi =
        vkctx::vkStruct<VkGraphicsPipelineCreateInfo>(VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering);
    gi.stageCount = 2;
    gi.pStages = stages;
    gi.pVertexInputState = &vertexInput;
    gi.pInputAssemblyState = &assembly;
    gi.pViewportState = &viewportState;
    gi.pRasterizationState = &raster;
    gi.pMultisampleState = &multisample;
    gi.pColorBlendState = &blendState;
    gi.layout = layout_;
    vkctx::check(vkCreateGraphicsPipelines(d, VK_NULL_HANDLE, 1, &gi, nullptr, &draw_pipeline_),
                 "vkCreateGraphicsPipelines");
    vkDestroyShaderModule(d, vs, nullptr);
    vkDestroyShaderModule(d, fs, nullptr);
  }

  vkctx::Context& ctx_;
  vksort::Sorter sorter_;
  uint32_t count_, width_, height_;
  VkDeviceAddress frame_;
  uint32_t depthBits_;  // 0: the cull writes f32 order keys
  vkctx::Buffer keys_, indices_, draw_, scratch_, depthScratch_;
  vksort::SortInfo sort_;
  vksort::DepthKeysInfo depthKeys_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline cull_ = VK_NULL_HANDLE, draw_pipeline_ = VK_NULL_HANDLE;
  Image blendTarget_;
};

}  // namespace

std::unique_ptr<FramePath> createQuadPath(vkctx::Context& ctx, vksort::Sorter sorter, uint32_t count, uint32_t width,
                                          uint32_t height, VkDeviceAddress frame, uint32_t depthBits) {
  return std::make_unique<QuadPath>(ctx, sorter, count, width, height, frame, depthBits);
}

}  // namespace splats
