// GPU-assisted validation and a descriptor set the application bound before a compute dispatch
// whose pipeline layout has push constants alone (vksort's). Validation layers 1.3.239 (Debian 12)
// bind their debug descriptor set with the layout of the application's last
// vkCmdBindDescriptorSets, not with the bound pipeline's; the instrumented pipeline then reads a
// set its layout is not compatible with, and its results are undefined (lavapipe: wrong words,
// no message). No vksort code is needed to see it:
//   VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT vksort_gpu_av_repro probe before
// writes wrong words (exit 1); "after" (the set bound after the dispatch) and any run without
// GPU-AV are right. "sort before|after" does the same around a vksort sort, direct and indirect;
// "sort before-empty" binds an empty set of its own layout just before recordSort, and "sort
// before-own" records the sort in a command buffer of its own: the two workarounds DEVICES.md gives
// for a frame that binds its sets first. CTest vksort.gpu_av_* runs all three under GPU-AV.
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "vk_context.hpp"

namespace {

const uint32_t kProbeSpirv[] = {
#include "subgroup_probe.comp.spv.inc"
};

// A set of the application's: one storage buffer (none: an empty set), its own layout.
struct AppSet {
  VkDescriptorSetLayout setLayout;
  VkDescriptorPool pool;
  VkDescriptorSet set;
  VkPipelineLayout layout;
  AppSet(const vkctx::Context& ctx, const vkctx::Buffer* buffer) {
    VkDescriptorSetLayoutBinding b{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    auto dsl = vkctx::vkStruct<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    dsl.bindingCount = buffer ? 1 : 0, dsl.pBindings = buffer ? &b : nullptr;
    vkctx::check(vkCreateDescriptorSetLayout(ctx.device, &dsl, nullptr, &setLayout), "vkCreateDescriptorSetLayout");
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    auto dp = vkctx::vkStruct<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    dp.maxSets = 1, dp.poolSizeCount = 1, dp.pPoolSizes = &size;
    vkctx::check(vkCreateDescriptorPool(ctx.device, &dp, nullptr, &pool), "vkCreateDescriptorPool");
    auto da = vkctx::vkStruct<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    da.descriptorPool = pool, da.descriptorSetCount = 1, da.pSetLayouts = &setLayout;
    vkctx::check(vkAllocateDescriptorSets(ctx.device, &da, &set), "vkAllocateDescriptorSets");
    if (buffer) {
      VkDescriptorBufferInfo info{buffer->buffer, 0, VK_WHOLE_SIZE};
      auto w = vkctx::vkStruct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
      w.dstSet = set, w.descriptorCount = 1, w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
      w.pBufferInfo = &info;
      vkUpdateDescriptorSets(ctx.device, 1, &w, 0, nullptr);
    }
    auto pl = vkctx::vkStruct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    pl.setLayoutCount = 1, pl.pSetLayouts = &setLayout;
    vkctx::check(vkCreatePipelineLayout(ctx.device, &pl, nullptr, &layout), "vkCreatePipelineLayout");
  }
  void bind(VkCommandBuffer cmd) const {
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
  }
  void destroy(const vkctx::Context& ctx) {
    vkDestroyPipelineLayout(ctx.device, layout, nullptr);
    vkDestroyDescriptorPool(ctx.device, pool, nullptr);
    vkDestroyDescriptorSetLayout(ctx.device, setLayout, nullptr);
  }
};

// The subgroup probe (tests/shaders/subgroup_probe.comp): one workgroup of 256 writes five words
// each through a device address; returns how many invocations wrote their size and ballot wrongly.
uint32_t probe(vkctx::Context& ctx, bool setBefore) {
  vkctx::ComputePipeline pipeline(ctx, kProbeSpirv, sizeof kProbeSpirv, 8);
  vkctx::Buffer out = ctx.createDeviceBuffer(5 * 256 * 4);
  AppSet app(ctx, &out);
  const VkDeviceAddress address = ctx.address(out);
  VkCommandBuffer cmd = ctx.beginCommands();
  if (setBefore) app.bind(cmd);
  pipeline.dispatch(cmd, &address, 1);
  if (!setBefore) app.bind(cmd);
  ctx.submitAndWait(cmd);
  std::vector<uint32_t> w(5 * 256);
  ctx.download(out, w.data(), w.size() * 4);
  uint32_t wrong = 0;
  for (uint32_t i = 0; i < 256; ++i) wrong += w[5 * i] == 0 || w[5 * i + 3] != w[5 * i] || w[5 * i + 4] != w[5 * i];
  app.destroy(ctx);
  ctx.destroy(out);
  return wrong;
}

// Where the application's set is bound around a sort (main()'s argument).
enum class When {
  before,       // in the sort's command buffer, before recordSort: the layer's fault
  after,        // after recordSort
  beforeEmpty,  // before, then an empty set of its own layout bound just before recordSort
  beforeOwn,    // before, in a command buffer of its own; the sort in the next one
};

// 100,000 random u32 keys sorted by vksort, direct and indirect; returns the sorts that came out wrong.
uint32_t sorts(vkctx::Context& ctx, When when) {
  vksort::Sorter sorter = nullptr;
  vkctx::check(vksort::createSorter(ctx.sorterCreateInfo(), &sorter), "createSorter");
  const uint32_t n = 100000;
  std::vector<uint32_t> keys(n);
  std::mt19937 rng(7);
  for (uint32_t& k : keys) k = uint32_t(rng());
  std::vector<uint32_t> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  vksort::ScratchRequirements req;
  vkctx::check(vksort::getScratchRequirements(sorter, vksort::SortConfig{}, n, &req), "getScratchRequirements");
  vkctx::Buffer keyBuffer = ctx.createDeviceBuffer(n * 4), scratch = ctx.createDeviceBuffer(req.size, req.usage);
  vkctx::Buffer count = ctx.createDeviceBuffer(4, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  ctx.upload(count, &n, 4);
  AppSet app(ctx, &count), empty(ctx, nullptr);
  uint32_t wrong = 0;
  for (bool indirect : {false, true}) {
    ctx.upload(keyBuffer, keys.data(), n * 4);
    vksort::SortInfo info;
    info.maxCount = n;
    info.keys = keyBuffer.range();
    info.scratch = scratch.range();
    if (indirect) info.countBuffer = count.range();
    else info.count = n;
    VkCommandBuffer cmd = ctx.beginCommands();
    vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, vksort::kSortDstStage,
                         vksort::kSortDstAccess);
    if (when != When::after) app.bind(cmd);
    if (when == When::beforeOwn) {
      ctx.submitAndWait(cmd);
      cmd = ctx.beginCommands();
    }
    if (when == When::beforeEmpty) empty.bind(cmd);
    vkctx::check(vksort::recordSort(sorter, cmd, info), "recordSort");
    if (when == When::after) app.bind(cmd);
    ctx.submitAndWait(cmd);
    std::vector<uint32_t> got(n);
    ctx.download(keyBuffer, got.data(), n * 4);
    wrong += got != sorted;
  }
  app.destroy(ctx);
  empty.destroy(ctx);
  for (vkctx::Buffer* b : {&keyBuffer, &scratch, &count}) ctx.destroy(*b);
  vksort::destroySorter(sorter);
  return wrong;
}

}  // namespace

int main(int argc, char** argv) try {
  const std::string what = argc > 1 ? argv[1] : "", when = argc > 2 ? argv[2] : "";
  const char* const kWhens[] = {"before", "after", "before-empty", "before-own"};
  const auto known = std::find(std::begin(kWhens), std::end(kWhens), when);
  if (argc != 3 || (what != "probe" && what != "sort") || known == std::end(kWhens) ||
      (what == "probe" && when != "before" && when != "after")) {
    std::fprintf(stderr,
                 "usage: vksort_gpu_av_repro probe before|after\n"
                 "       vksort_gpu_av_repro sort before|after|before-empty|before-own\n");
    return 2;
  }
  vkctx::Options options;
  options.validation = true;
  vkctx::Context ctx(options);
  const uint32_t wrong = what == "probe" ? probe(ctx, when == "before") : sorts(ctx, When(known - std::begin(kWhens)));
  const char* gpuAv = std::getenv("VK_LAYER_ENABLES");
  std::printf("%s, the application's set %s, GPU-AV %s: %u wrong\n", what.c_str(), when.c_str(),
              gpuAv && std::strstr(gpuAv, "GPU_ASSISTED") ? "on" : "off", wrong);
  return wrong == 0 && ctx.validationMessages() == 0 ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "vksort_gpu_av_repro: %s\n", e.what());
  return 1;
}
