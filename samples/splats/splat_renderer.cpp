// What both ways of drawing share: the scene's buffers, the frame's data, the image, the
// timestamps and the readback. The ways themselves: splat_quads.cpp, splat_tiles.cpp.
#include "splat_renderer.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "splat_frame.hpp"

namespace splats {
namespace {

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

constexpr uint32_t kMaxTimestamps = 8;

bool isSort(const std::string& part) { return part.size() >= 4 && part.compare(part.size() - 4, 4, "sort") == 0; }

}  // namespace

const char* methodName(Method m) { return m == Method::tiles ? "tiles" : m == Method::tiles64 ? "tiles64" : "quads"; }

std::string FrameStats::summary() const {
  std::string s;
  char part[96];
  for (const auto& [name, ms] : partsMs) {
    std::snprintf(part, sizeof part, "%s %.3f ms, ", name.c_str(), ms);
    s += part;
  }
  std::snprintf(part, sizeof part, "sorts %.3f ms, frame %.3f ms", sortMs, frameMs);
  return s + part;
}

VkShaderModule createShaderModule(VkDevice device, const uint32_t* code, size_t bytes) {
  VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, bytes, code};
  VkShaderModule m;
  vkctx::check(vkCreateShaderModule(device, &mi, nullptr, &m), "vkCreateShaderModule");
  return m;
}

VkPipelineShaderStageCreateInfo shaderStage(VkShaderStageFlagBits stage, VkShaderModule module) {
  auto info = vkctx::vkStruct<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  info.stage = stage;
  info.module = module;
  info.pName = "main";
  return info;
}

VkPipeline createComputePipeline(VkDevice device, VkPipelineLayout layout, const uint32_t* code, size_t bytes) {
  VkShaderModule cs = createShaderModule(device, code, bytes);
  auto ci = vkctx::vkStruct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  ci.stage = shaderStage(VK_SHADER_STAGE_COMPUTE_BIT, cs);
  ci.layout = layout;
  VkPipeline p;
  vkctx::check(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &ci, nullptr, &p), "vkCreateComputePipelines");
  vkDestroyShaderModule(device, cs, nullptr);
  return p;
}

VkPipelineLayout createFrameLayout(VkDevice device, VkShaderStageFlags stages, VkDescriptorSetLayout set) {
  VkPushConstantRange range{stages, 0, sizeof(VkDeviceAddress)};
  auto li = vkctx::vkStruct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  li.pushConstantRangeCount = 1;
  li.pPushConstantRanges = &range;
  li.setLayoutCount = set ? 1 : 0;
  li.pSetLayouts = &set;
  VkPipelineLayout layout;
  vkctx::check(vkCreatePipelineLayout(device, &li, nullptr, &layout), "vkCreatePipelineLayout");
  return layout;
}

void pushFrame(VkCommandBuffer cmd, VkPipelineLayout layout, VkShaderStageFlags stages, VkDeviceAddress frame) {
  vkCmdPushConstants(cmd, layout, stages, 0, sizeof frame, &frame);
}

void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to, VkPipelineStageFlags src,
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

vkctx::Buffer prepareSort(vkctx::Context& ctx, vksort::Sorter sorter, vksort::SortInfo& sort, const vkctx::Buffer& keys,
                          const vkctx::Buffer& values, uint32_t maxCount) {
  sort.maxCount = maxCount;
  vksort::ScratchRequirements req;
  vkctx::check(vksort::getScratchRequirements(sorter, sort.config, maxCount, &req), "getScratchRequirements");
  vkctx::Buffer scratch = ctx.createDeviceBuffer(req.size, req.usage);
  sort.keys = keys.range();
  sort.values = values.range();
  sort.scratch = scratch.range();
  return scratch;
}

Image createImage(const vkctx::Context& ctx, VkFormat format, uint32_t width, uint32_t height,
                  VkImageUsageFlags usage) {
  VkDevice d = ctx.device;
  Image image;
  VkImageCreateInfo ii = vkctx::vkStruct<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
  ii.imageType = VK_IMAGE_TYPE_2D;
  ii.format = format;
  ii.extent = {width, height, 1};
  ii.mipLevels = ii.arrayLayers = 1;
  ii.samples = VK_SAMPLE_COUNT_1_BIT;
  ii.usage = usage;
  vkctx::check(vkCreateImage(d, &ii, nullptr, &image.image), "vkCreateImage");
  VkMemoryRequirements mr;
  vkGetImageMemoryRequirements(d, image.image, &mr);
  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(ctx.physicalDevice, &mp);
  uint32_t type = 0;
  while (type < mp.memoryTypeCount && !(((mr.memoryTypeBits >> type) & 1) &&
                                        (mp.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)))
    ++type;
  if (type == mp.memoryTypeCount) throw std::runtime_error("no device-local memory for an image");
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, mr.size, type};
  vkctx::check(vkAllocateMemory(d, &mai, nullptr, &image.memory), "vkAllocateMemory");
  vkctx::check(vkBindImageMemory(d, image.image, image.memory, 0), "vkBindImageMemory");
  VkImageViewCreateInfo vi = vkctx::vkStruct<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
  vi.image = image.image;
  vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vi.format = format;
  vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkctx::check(vkCreateImageView(d, &vi, nullptr, &image.view), "vkCreateImageView");
  return image;
}

void destroyImage(VkDevice device, Image& image) {
  vkDestroyImageView(device, image.view, nullptr);
  vkDestroyImage(device, image.image, nullptr);
  vkFreeMemory(device, image.memory, nullptr);
  image = Image{};
}

struct Renderer::Impl {
  vkctx::Context& ctx;
  uint32_t count, width, height, shDegree;
  vkctx::Buffer splats, sh, frame, readback;
  Image target;  // the frame, RGBA8
  VkQueryPool queries = VK_NULL_HANDLE;
  std::unique_ptr<FramePath> path;

  Impl(vkctx::Context& c, vksort::Sorter sorter, const Scene& scene, uint32_t w, uint32_t h, Method method,
       uint32_t depthBits)
      : ctx(c), count(uint32_t(scene.splats.size())), width(w), height(h), shDegree(scene.shDegree) {
    if (!ctx.hasGraphics) throw std::runtime_error("the device's queue cannot draw with dynamic rendering");
    if (shDegree > 3 || (shDegree > 0 && scene.sh.size() != size_t(count) * shFloats(shDegree)))
      throw std::invalid_argument("the scene's spherical harmonics do not match its degree and splats");
    VkDevice d = ctx.device;
    splats = ctx.createDeviceBuffer(std::max<VkDeviceSize>(count, 1) * sizeof(Splat));
    ctx.upload(splats, scene.splats.data(), scene.splats.size() * sizeof(Splat));
    sh = ctx.createDeviceBuffer(std::max<VkDeviceSize>(scene.sh.size(), 1) * sizeof(float));
    if (!scene.sh.empty()) ctx.upload(sh, scene.sh.data(), scene.sh.size() * sizeof(float));
    frame = ctx.createDeviceBuffer(sizeof(FrameData));
    readback = ctx.createHostBuffer(VkDeviceSize(w) * h * 4);

    target =
        createImage(ctx, kImageFormat, w, h,
                    VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);

    VkQueryPoolCreateInfo qi = vkctx::vkStruct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qi.queryCount = kMaxTimestamps;
    vkctx::check(vkCreateQueryPool(d, &qi, nullptr, &queries), "vkCreateQueryPool");

    const VkDeviceAddress at = ctx.address(frame);
    path = method == Method::quads ? createQuadPath(ctx, sorter, count, w, h, at, depthBits)
                                   : createTilePath(ctx, sorter, count, w, h, at, method == Method::tiles, depthBits);
  }

  ~Impl() {
    VkDevice d = ctx.device;
    path.reset();
    vkDestroyQueryPool(d, queries, nullptr);
    destroyImage(d, target);
    for (vkctx::Buffer* b : {&splats, &sh, &frame, &readback}) ctx.destroy(*b);
  }

  void record(VkCommandBuffer cmd, const Camera& camera) {
    FrameData data{};
    lookAt(camera, data.view);
    data.splats = ctx.address(splats);
    data.sh = ctx.address(sh);
    data.shDegree = shDegree;
    data.count = count;
    data.focalY = 0.5f * float(height) / std::tan(0.5f * camera.fovY);
    data.focalX = data.focalY;
    data.width = float(width);
    data.height = float(height);
    std::memcpy(data.background, kBackground, sizeof kBackground);
    path->describe(data);
    vkCmdResetQueryPool(cmd, queries, 0, kMaxTimestamps);
    vkCmdUpdateBuffer(cmd, frame.buffer, 0, sizeof data, &data);
    vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT,
                         VK_ACCESS_SHADER_READ_BIT);
    path->record(cmd, target.image, target.view, queries, 0);
  }

  FrameStats finish(bool* whole) {
    const uint32_t stamps = path->timestampCount();
    uint64_t t[kMaxTimestamps];
    vkctx::check(vkGetQueryPoolResults(ctx.device, queries, 0, stamps, sizeof t, t, 8,
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                 "vkGetQueryPoolResults");
    const double period = ctx.properties.limits.timestampPeriod * 1e-6;
    FrameStats stats{};
    const std::vector<std::string> names = path->partNames();
    for (size_t i = 0; i < names.size(); ++i) {
      const double ms = double(t[i + 1] - t[i]) * period;
      stats.partsMs.emplace_back(names[i], ms);
      if (isSort(names[i])) stats.sortMs += ms;
    }
    stats.frameMs = double(t[stamps - 1] - t[0]) * period;
    *whole = path->finished(&stats.visible, &stats.sorted);
    return stats;
  }

  FrameStats render(const Camera& camera, std::vector<uint8_t>* rgba) {
    for (;;) {
      VkCommandBuffer cmd = ctx.beginCommands();
      record(cmd, camera);
      VkBufferImageCopy region{};
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      region.imageExtent = {width, height, 1};
      vkCmdCopyImageToBuffer(cmd, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &region);
      vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
      ctx.submitAndWait(cmd);
      bool whole = false;
      FrameStats stats = finish(&whole);
      if (!whole) continue;  // the buffers grew: the same frame again
      if (rgba) {
        rgba->resize(size_t(width) * height * 4);
        std::memcpy(rgba->data(), readback.mapped, rgba->size());
      }
      return stats;
    }
  }
};

Renderer::Renderer(vkctx::Context& ctx, vksort::Sorter sorter, const Scene& scene, uint32_t width, uint32_t height,
                   Method method, uint32_t depthBits)
    : impl_(std::make_unique<Impl>(ctx, sorter, scene, width, height, method, depthBits)) {}
Renderer::Renderer(vkctx::Context& ctx, vksort::Sorter sorter, const std::vector<Splat>& splats, uint32_t width,
                   uint32_t height, Method method, uint32_t depthBits)
    : Renderer(ctx, sorter, Scene{splats, 0, {}}, width, height, method, depthBits) {}
Renderer::~Renderer() = default;
FrameStats Renderer::render(const Camera& camera, std::vector<uint8_t>* rgba) { return impl_->render(camera, rgba); }
void Renderer::record(VkCommandBuffer cmd, const Camera& camera) { impl_->record(cmd, camera); }
FrameStats Renderer::finish(bool* whole) { return impl_->finish(whole); }
VkImage Renderer::image() const { return impl_->target.image; }

}  // namespace splats
