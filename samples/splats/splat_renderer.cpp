#include "splat_renderer.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>

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

// shaders/splat_common.glsl's push constants.
struct FramePush {
  float view[16];  // column-major
  VkDeviceAddress splats, keys, indices, draw, sh;
  uint32_t count;
  float focalX, focalY, width, height;
  uint32_t shDegree;
};
static_assert(sizeof(FramePush) <= 128, "push constants");

constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;

// A right-handed look-at view matrix (camera looks down -z, c.up up), column-major.
void lookAt(const Camera& c, float* m) {
  float f[3] = {c.target[0] - c.eye[0], c.target[1] - c.eye[1], c.target[2] - c.eye[2]};
  auto normalize = [](float* v) {
    float n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int i = 0; i < 3; ++i) v[i] /= n;
  };
  normalize(f);
  const float* up = c.up;
  float s[3] = {f[1] * up[2] - f[2] * up[1], f[2] * up[0] - f[0] * up[2], f[0] * up[1] - f[1] * up[0]};
  normalize(s);
  float u[3] = {s[1] * f[2] - s[2] * f[1], s[2] * f[0] - s[0] * f[2], s[0] * f[1] - s[1] * f[0]};
  float rows[3][3] = {{s[0], s[1], s[2]}, {u[0], u[1], u[2]}, {-f[0], -f[1], -f[2]}};
  std::memset(m, 0, 16 * sizeof(float));
  for (int r = 0; r < 3; ++r) {
    for (int col = 0; col < 3; ++col) m[col * 4 + r] = rows[r][col];
    m[12 + r] = -(rows[r][0] * c.eye[0] + rows[r][1] * c.eye[1] + rows[r][2] * c.eye[2]);
  }
  m[15] = 1;
}

VkShaderModule shaderModule(VkDevice device, const uint32_t* code, size_t bytes) {
  VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, bytes, code};
  VkShaderModule m;
  vkctx::check(vkCreateShaderModule(device, &mi, nullptr, &m), "vkCreateShaderModule");
  return m;
}

}  // namespace

struct Renderer::Impl {
  vkctx::Context& ctx;
  vksort::Sorter sorter;
  uint32_t count, width, height;
  vkctx::Buffer splats, sh, keys, indices, draw, scratch, readback;
  uint32_t shDegree;
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory imageMemory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline cull = VK_NULL_HANDLE, drawPipeline = VK_NULL_HANDLE;
  VkQueryPool queries = VK_NULL_HANDLE;
  vksort::SortInfo sort;

  Impl(vkctx::Context& c, vksort::Sorter s, const Scene& scene, uint32_t w, uint32_t h)
      : ctx(c), sorter(s), count(uint32_t(scene.splats.size())), width(w), height(h), shDegree(scene.shDegree) {
    if (!ctx.hasGraphics) throw std::runtime_error("the device's queue cannot draw with dynamic rendering");
    if (shDegree > 3 || (shDegree > 0 && scene.sh.size() != size_t(count) * shFloats(shDegree)))
      throw std::invalid_argument("the scene's spherical harmonics do not match its degree and splats");
    VkDevice d = ctx.device;
    const VkDeviceSize n = std::max<VkDeviceSize>(count, 1);
    splats = ctx.createDeviceBuffer(n * sizeof(Splat));
    ctx.upload(splats, scene.splats.data(), scene.splats.size() * sizeof(Splat));
    sh = ctx.createDeviceBuffer(std::max<VkDeviceSize>(scene.sh.size(), 1) * sizeof(float));
    if (!scene.sh.empty()) ctx.upload(sh, scene.sh.data(), scene.sh.size() * sizeof(float));
    keys = ctx.createDeviceBuffer(n * 4);
    indices = ctx.createDeviceBuffer(n * 4);
    draw = ctx.createDeviceBuffer(16, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    readback = ctx.createHostBuffer(VkDeviceSize(w) * h * 4);

    // The sort: u32 depth keys with u32 splat indices, its count the draw's instanceCount.
    sort.config.valueType = vksort::ValueType::u32;
    sort.maxCount = count;
    vksort::ScratchRequirements req;
    vkctx::check(vksort::getScratchRequirements(sorter, sort.config, count, &req), "getScratchRequirements");
    scratch = ctx.createDeviceBuffer(req.size, req.usage);
    sort.keys = keys.range();
    sort.values = indices.range();
    sort.scratch = scratch.range();
    sort.countBuffer = {draw.buffer, 4, 4};

    VkImageCreateInfo ii = vkctx::vkStruct<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
    ii.imageType = VK_IMAGE_TYPE_2D;
    ii.format = kFormat;
    ii.extent = {w, h, 1};
    ii.mipLevels = ii.arrayLayers = 1;
    ii.samples = VK_SAMPLE_COUNT_1_BIT;
    ii.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    vkctx::check(vkCreateImage(d, &ii, nullptr, &image), "vkCreateImage");
    VkMemoryRequirements mr;
    vkGetImageMemoryRequirements(d, image, &mr);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(ctx.physicalDevice, &mp);
    uint32_t type = 0;
    while (type < mp.memoryTypeCount && !((mr.memoryTypeBits >> type) & 1)) ++type;
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, mr.size, type};
    vkctx::check(vkAllocateMemory(d, &mai, nullptr, &imageMemory), "vkAllocateMemory");
    vkctx::check(vkBindImageMemory(d, image, imageMemory, 0), "vkBindImageMemory");
    VkImageViewCreateInfo vi = vkctx::vkStruct<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
    vi.image = image;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vi.format = kFormat;
    vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkctx::check(vkCreateImageView(d, &vi, nullptr, &view), "vkCreateImageView");

    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(FramePush)};
    VkPipelineLayoutCreateInfo li = vkctx::vkStruct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    li.pushConstantRangeCount = 1;
    li.pPushConstantRanges = &range;
    vkctx::check(vkCreatePipelineLayout(d, &li, nullptr, &layout), "vkCreatePipelineLayout");
    createPipelines();

    VkQueryPoolCreateInfo qi = vkctx::vkStruct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qi.queryCount = 4;
    vkctx::check(vkCreateQueryPool(d, &qi, nullptr, &queries), "vkCreateQueryPool");
  }

  // A shader stage of `module`'s "main".
  static VkPipelineShaderStageCreateInfo stageOf(VkShaderStageFlagBits stage, VkShaderModule module) {
    auto info = vkctx::vkStruct<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
    info.stage = stage;
    info.module = module;
    info.pName = "main";
    return info;
  }

  void createPipelines() {
    VkDevice d = ctx.device;
    VkShaderModule cs = shaderModule(d, kCullSpirv, sizeof kCullSpirv);
    VkComputePipelineCreateInfo ci = vkctx::vkStruct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    ci.stage = stageOf(VK_SHADER_STAGE_COMPUTE_BIT, cs);
    ci.layout = layout;
    vkctx::check(vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &ci, nullptr, &cull), "vkCreateComputePipelines");
    vkDestroyShaderModule(d, cs, nullptr);

    VkShaderModule vs = shaderModule(d, kVertSpirv, sizeof kVertSpirv);
    VkShaderModule fs = shaderModule(d, kFragSpirv, sizeof kFragSpirv);
    VkPipelineShaderStageCreateInfo stages[2] = {stageOf(VK_SHADER_STAGE_VERTEX_BIT, vs),
                                                 stageOf(VK_SHADER_STAGE_FRAGMENT_BIT, fs)};
    VkPipelineVertexInputStateCreateInfo vertexInput = vkctx::vkStruct<VkPipelineVertexInputStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
    VkPipelineInputAssemblyStateCreateInfo assembly = vkctx::vkStruct<VkPipelineInputAssemblyStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    VkViewport viewport{0, 0, float(width), float(height), 0, 1};
    VkRect2D scissor{{0, 0}, {width, height}};
    VkPipelineViewportStateCreateInfo viewportState = vkctx::vkStruct<VkPipelineViewportStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO);
    viewportState.viewportCount = viewportState.scissorCount = 1;
    viewportState.pViewports = &viewport;
    viewportState.pScissors = &scissor;
    VkPipelineRasterizationStateCreateInfo raster = vkctx::vkStruct<VkPipelineRasterizationStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = VK_CULL_MODE_NONE;
    raster.lineWidth = 1;
    VkPipelineMultisampleStateCreateInfo multisample = vkctx::vkStruct<VkPipelineMultisampleStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    // Premultiplied "over", back to front: dst = src + (1 - src.a) * dst.
    VkPipelineColorBlendAttachmentState blend{};
    blend.blendEnable = VK_TRUE;
    blend.srcColorBlendFactor = blend.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    blend.dstColorBlendFactor = blend.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    blend.colorBlendOp = blend.alphaBlendOp = VK_BLEND_OP_ADD;
    blend.colorWriteMask = 0xF;
    VkPipelineColorBlendStateCreateInfo blendState = vkctx::vkStruct<VkPipelineColorBlendStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
    blendState.attachmentCount = 1;
    blendState.pAttachments = &blend;
    VkPipelineRenderingCreateInfo rendering = vkctx::vkStruct<VkPipelineRenderingCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO);
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &kFormat;
    VkGraphicsPipelineCreateInfo gi = vkctx::vkStruct<VkGraphicsPipelineCreateInfo>(VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering);
    gi.stageCount = 2;
    gi.pStages = stages;
    gi.pVertexInputState = &vertexInput;
    gi.pInputAssemblyState = &assembly;
    gi.pViewportState = &viewportState;
    gi.pRasterizationState = &raster;
    gi.pMultisampleState = &multisample;
    gi.pColorBlendState = &blendState;
    gi.layout = layout;
    vkctx::check(vkCreateGraphicsPipelines(d, VK_NULL_HANDLE, 1, &gi, nullptr, &drawPipeline), "vkCreateGraphicsPipelines");
    vkDestroyShaderModule(d, vs, nullptr);
    vkDestroyShaderModule(d, fs, nullptr);
  }

  ~Impl() {
    VkDevice d = ctx.device;
    vkDestroyQueryPool(d, queries, nullptr);
    vkDestroyPipeline(d, cull, nullptr);
    vkDestroyPipeline(d, drawPipeline, nullptr);
    vkDestroyPipelineLayout(d, layout, nullptr);
    vkDestroyImageView(d, view, nullptr);
    vkDestroyImage(d, image, nullptr);
    vkFreeMemory(d, imageMemory, nullptr);
    for (vkctx::Buffer* b : {&splats, &sh, &keys, &indices, &draw, &scratch, &readback}) ctx.destroy(*b);
  }

  void imageBarrier(VkCommandBuffer cmd, VkImageLayout from, VkImageLayout to, VkPipelineStageFlags src,
                    VkAccessFlags srcAccess, VkPipelineStageFlags dst, VkAccessFlags dstAccess) {
    VkImageMemoryBarrier b = vkctx::vkStruct<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
    b.srcAccessMask = srcAccess;
    b.dstAccessMask = dstAccess;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cmd, src, dst, 0, 0, nullptr, 0, nullptr, 1, &b);
  }

  FrameStats render(const Camera& camera, std::vector<uint8_t>* rgba) {
    FramePush push{};
    lookAt(camera, push.view);
    push.splats = ctx.address(splats);
    push.keys = ctx.address(keys);
    push.indices = ctx.address(indices);
    push.draw = ctx.address(draw);
    push.sh = ctx.address(sh);
    push.shDegree = shDegree;
    push.count = count;
    push.focalY = 0.5f * float(height) / std::tan(0.5f * camera.fovY);
    push.focalX = push.focalY;
    push.width = float(width);
    push.height = float(height);

    VkCommandBuffer cmd = ctx.beginCommands();
    vkCmdResetQueryPool(cmd, queries, 0, 4);
    // The draw: 4 vertices per splat, instanceCount written by the cull.
    const uint32_t drawCommand[4] = {4, 0, 0, 0};
    vkCmdUpdateBuffer(cmd, draw.buffer, 0, sizeof drawCommand, drawCommand);
    vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries, 0);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, cull);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof push, &push);
    vkCmdDispatch(cmd, (count + 255) / 256, 1, 1);
    // vksort's contract: the cull's writes (keys, indices, the count) before the sort.
    vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, vksort::kSortDstStage,
                         vksort::kSortDstAccess);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 1);
    vkctx::check(vksort::recordSort(sorter, cmd, sort), "recordSort");
    // After: the sorted indices to the vertex shader, the count to the indirect draw.
    vkctx::memoryBarrier(cmd, vksort::kSortSrcStage, vksort::kSortSrcAccess,
                         VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                         VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 2);

    imageBarrier(cmd, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                 VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
    VkRenderingAttachmentInfo attachment = vkctx::vkStruct<VkRenderingAttachmentInfo>(VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO);
    attachment.imageView = view;
    attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachment.clearValue.color = {{0.02f, 0.02f, 0.03f, 1.0f}};
    VkRenderingInfo ri = vkctx::vkStruct<VkRenderingInfo>(VK_STRUCTURE_TYPE_RENDERING_INFO);
    ri.renderArea = {{0, 0}, {width, height}};
    ri.layerCount = 1;
    ri.colorAttachmentCount = 1;
    ri.pColorAttachments = &attachment;
    vkCmdBeginRendering(cmd, &ri);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, drawPipeline);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof push, &push);
    vkCmdDrawIndirect(cmd, draw.buffer, 0, 1, 0);
    vkCmdEndRendering(cmd);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 3);

    imageBarrier(cmd, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                 VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {width, height, 1};
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &region);
    vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                         VK_ACCESS_HOST_READ_BIT);
    ctx.submitAndWait(cmd);

    uint64_t t[4];
    vkctx::check(vkGetQueryPoolResults(ctx.device, queries, 0, 4, sizeof t, t, 8,
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                 "vkGetQueryPoolResults");
    const double period = ctx.properties.limits.timestampPeriod * 1e-6;
    FrameStats stats{double(t[1] - t[0]) * period, double(t[2] - t[1]) * period, double(t[3] - t[2]) * period,
                     double(t[3] - t[0]) * period, 0};
    uint32_t drawWords[4];
    ctx.download(draw, drawWords, sizeof drawWords);
    stats.visible = drawWords[1];
    if (rgba) {
      rgba->resize(size_t(width) * height * 4);
      std::memcpy(rgba->data(), readback.mapped, rgba->size());
    }
    return stats;
  }
};

Renderer::Renderer(vkctx::Context& ctx, vksort::Sorter sorter, const Scene& scene, uint32_t width, uint32_t height)
    : impl_(std::make_unique<Impl>(ctx, sorter, scene, width, height)) {}
Renderer::Renderer(vkctx::Context& ctx, vksort::Sorter sorter, const std::vector<Splat>& splats, uint32_t width,
                   uint32_t height)
    : Renderer(ctx, sorter, Scene{splats, 0, {}}, width, height) {}
Renderer::~Renderer() = default;
FrameStats Renderer::render(const Camera& camera, std::vector<uint8_t>* rgba) { return impl_->render(camera, rgba); }

}  // namespace splats
