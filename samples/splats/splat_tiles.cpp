// The tile renderer: project every splat and find the 16x16 tiles its 3-sigma circle touches;
// copy each splat once per tile it touches and sort the copies so that each tile's lie together,
// nearest first; find each tile's range of copies; blend each tile's splats front to back in one
// workgroup per tile, stopping where the pixels are opaque. The copies are sorted one of two ways
// (vksort, indirectly both: how many there are is known on the GPU only):
// - two-phase (the default; Brush and several Metal renderers): a permutation sort of the visible
//   splats by depth (16-bit keys over their range from recordDepthKeys, or f32 order keys),
//   copies made in that order (copy_counts, copy_offsets, duplicate_sorted.comp), then a stable
//   sort of u32 tile ids over the bits the tile count needs (13 at 1920x1080);
// - 64-bit keys (3D Gaussian Splatting's reference rasterizer, gsplat): one (tile << 32 | depth)
//   key per copy (duplicate.comp), sorted over 32 + those bits.
// Shaders: project.comp, then the above, ranges.comp, blend.comp.
#include <algorithm>
#include <cmath>

#include "splat_frame.hpp"
#include "tile_constants.h"

namespace splats {
namespace {

const uint32_t kProjectSpirv[] = {
#include "project.comp.spv.inc"
};
const uint32_t kDuplicateSpirv[] = {
#include "duplicate.comp.spv.inc"
};
const uint32_t kRangesSpirv[] = {
#include "ranges.comp.spv.inc"
};
const uint32_t kBlendSpirv[] = {
#include "blend.comp.spv.inc"
};
const uint32_t kCopyCountsSpirv[] = {
#include "copy_counts.comp.spv.inc"
};
const uint32_t kCopyOffsetsSpirv[] = {
#include "copy_offsets.comp.spv.inc"
};
const uint32_t kDuplicateSortedSpirv[] = {
#include "duplicate_sorted.comp.spv.inc"
};

// std430 of splat_common.glsl's ScreenSplat.
constexpr VkDeviceSize kScreenSplatBytes = 48;

// Bits a tile index needs: the tile sort's range is [0, this), the 64-bit keys' [0, 32 + this).
uint32_t bitsFor(uint32_t tiles) {
  uint32_t bits = 0;
  while (bits < 32 && (uint64_t(1) << bits) < tiles) ++bits;
  return std::max(bits, 1u);
}

class TilePath final : public FramePath {
 public:
  TilePath(vkctx::Context& ctx, vksort::Sorter sorter, uint32_t count, uint32_t width, uint32_t height,
           VkDeviceAddress frame, bool twoPhase, uint32_t depthBits)
      : ctx_(ctx),
        sorter_(sorter),
        count_(count),
        frame_(frame),
        twoPhase_(twoPhase),
        depthBits_(twoPhase ? depthBits : 0),
        tilesX_((width + SPLATS_TILE_SIZE - 1) / SPLATS_TILE_SIZE),
        tilesY_((height + SPLATS_TILE_SIZE - 1) / SPLATS_TILE_SIZE) {
    VkDevice d = ctx.device;
    const VkDeviceSize n = std::max<VkDeviceSize>(count, 1);
    screen_ = ctx.createDeviceBuffer(n * kScreenSplatBytes);
    firsts_ = ctx.createDeviceBuffer(n * 4);
    counts_ = ctx.createDeviceBuffer(SPLATS_COUNT_WORDS * 4, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    ranges_ = ctx.createDeviceBuffer(VkDeviceSize(tilesX_) * tilesY_ * 8);
    if (twoPhase_) {
      // The depth sort: u32 keys of the visible splats; its values are generated (each key's
      // position in the visible list) and the sorted keys are not needed.
      depthKeys_ = ctx.createDeviceBuffer(n * 4);
      visible_ = ctx.createDeviceBuffer(n * 16);
      order_ = ctx.createDeviceBuffer(n * 4);
      blockSums_ = ctx.createDeviceBuffer((n + SPLATS_COPY_BLOCK - 1) / SPLATS_COPY_BLOCK * 4);
      depthSort_.config.valueType = vksort::ValueType::index;
      depthSort_.config.discardKeys = true;
      depthSort_.config.endBit = depthBits_ != 0 ? depthBits_ : 32;
      depthScratch_ = prepareSort(ctx, sorter, depthSort_, depthKeys_, order_, count);
      depthSort_.countBuffer = {counts_.buffer, SPLATS_COUNT_VISIBLE * 4, 4};
      if (depthBits_ != 0) {  // nearest first
        depthKeysScratch_ = ctx.createDeviceBuffer(vksort::kDepthKeysScratchBytes);
        depthKeysInfo_.depths = depthKeys_.range();
        depthKeysInfo_.maxCount = count;
        depthKeysInfo_.countBuffer = depthSort_.countBuffer;
        depthKeysInfo_.bits = depthBits_;
        depthKeysInfo_.scratch = depthKeysScratch_.range();
      }
    }
    // A splat touches a few tiles at most sizes; the first frame that needs more grows these.
    allocateKeys(std::max<uint64_t>(uint64_t(count) * 4, 1u << 16));

    VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    auto sli = vkctx::vkStruct<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    sli.bindingCount = 1;
    sli.pBindings = &binding;
    vkctx::check(vkCreateDescriptorSetLayout(d, &sli, nullptr, &setLayout_), "vkCreateDescriptorSetLayout");
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1};
    auto pi = vkctx::vkStruct<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    pi.maxSets = 1;
    pi.poolSizeCount = 1;
    pi.pPoolSizes = &size;
    vkctx::check(vkCreateDescriptorPool(d, &pi, nullptr, &pool_), "vkCreateDescriptorPool");
    auto ai = vkctx::vkStruct<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    ai.descriptorPool = pool_;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &setLayout_;
    vkctx::check(vkAllocateDescriptorSets(d, &ai, &set_), "vkAllocateDescriptorSets");

    layout_ = createFrameLayout(d, VK_SHADER_STAGE_COMPUTE_BIT, setLayout_);
    project_ = createComputePipeline(d, layout_, kProjectSpirv, sizeof kProjectSpirv);
    duplicate_ = createComputePipeline(d, layout_, kDuplicateSpirv, sizeof kDuplicateSpirv);
    ranges_pipeline_ = createComputePipeline(d, layout_, kRangesSpirv, sizeof kRangesSpirv);
    blend_ = createComputePipeline(d, layout_, kBlendSpirv, sizeof kBlendSpirv);
    if (twoPhase_) {
      copyCounts_ = createComputePipeline(d, layout_, kCopyCountsSpirv, sizeof kCopyCountsSpirv);
      copyOffsets_ = createComputePipeline(d, layout_, kCopyOffsetsSpirv, sizeof kCopyOffsetsSpirv);
      duplicateSorted_ = createComputePipeline(d, layout_, kDuplicateSortedSpirv, sizeof kDuplicateSortedSpirv);
    }
  }

  ~TilePath() override {
    VkDevice d = ctx_.device;
    for (VkPipeline p : {project_, duplicate_, ranges_pipeline_, blend_, copyCounts_, copyOffsets_, duplicateSorted_})
      vkDestroyPipeline(d, p, nullptr);
    vkDestroyPipelineLayout(d, layout_, nullptr);
    vkDestroyDescriptorPool(d, pool_, nullptr);
    vkDestroyDescriptorSetLayout(d, setLayout_, nullptr);
    for (vkctx::Buffer* b : {&screen_, &firsts_, &counts_, &ranges_, &keys_, &indices_, &scratch_, &depthKeys_,
                             &visible_, &order_, &blockSums_, &depthScratch_, &depthKeysScratch_})
      if (b->buffer) ctx_.destroy(*b);
  }

  void describe(FrameData& frame) const override {
    frame.keys = ctx_.address(keys_);
    frame.indices = ctx_.address(indices_);
    frame.counts = ctx_.address(counts_);
    frame.screen = ctx_.address(screen_);
    frame.firsts = ctx_.address(firsts_);
    frame.ranges = ctx_.address(ranges_);
    frame.capacity = capacity_;
    frame.tilesX = tilesX_;
    frame.tilesY = tilesY_;
    if (twoPhase_) {
      frame.twoPhase = 1;
      frame.depthBits = depthBits_;
      frame.depthKeys = ctx_.address(depthKeys_);
      frame.visible = ctx_.address(visible_);
      frame.order = ctx_.address(order_);
      frame.blockSums = ctx_.address(blockSums_);
    }
  }

  std::vector<std::string> partNames() const override {
    if (twoPhase_ && depthBits_ != 0)
      return {"project", "depth keys", "depth sort", "duplicate", "tile sort", "ranges", "blend"};
    if (twoPhase_) return {"project", "depth sort", "duplicate", "tile sort", "ranges", "blend"};
    return {"project", "duplicate", "sort", "ranges", "blend"};
  }

  void record(VkCommandBuffer cmd, VkImage image, VkImageView view, VkQueryPool queries, uint32_t q) override {
    if (view != boundView_) bindImage(view);
    vkCmdFillBuffer(cmd, counts_.buffer, 0, VK_WHOLE_SIZE, 0);
    vkCmdFillBuffer(cmd, ranges_.buffer, 0, VK_WHOLE_SIZE, 0);  // every tile empty
    vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    imageBarrier(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, project_);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
    pushFrame(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, frame_);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries, q++);
    const uint32_t splatGroups = std::max((count_ + 255) / 256, 1u);
    vkCmdDispatch(cmd, splatGroups, 1, 1);
    computeBarrier(cmd);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, q++);
    if (twoPhase_) {
      q = recordSortedCopies(cmd, queries, q);
    } else {
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, duplicate_);
      vkCmdDispatch(cmd, splatGroups, 1, 1);
      // vksort's contract: the keys, indices and count before the sort.
      vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, vksort::kSortDstStage,
                           vksort::kSortDstAccess);
      vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, q++);
    }
    vkctx::check(vksort::recordSort(sorter_, cmd, sort_), "recordSort");
    // The sorted keys and indices to the ranges and blend passes, the ranges' dispatch to its
    // indirect read.
    vkctx::memoryBarrier(cmd, vksort::kSortSrcStage | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         vksort::kSortSrcAccess | VK_ACCESS_SHADER_WRITE_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                         VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, q++);
    // vksort binds pipelines and layouts of its own: bind and push again.
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, ranges_pipeline_);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
    pushFrame(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, frame_);
    vkCmdDispatchIndirect(cmd, counts_.buffer, SPLATS_COUNT_RANGES_DISPATCH * 4);
    computeBarrier(cmd);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, q++);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, blend_);
    vkCmdDispatch(cmd, tilesX_, tilesY_, 1);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, q++);
    imageBarrier(cmd, image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_TRANSFER_READ_BIT);
  }

  bool finished(uint32_t* visible, uint32_t* sorted) override {
    uint32_t words[SPLATS_COUNT_WORDS];
    ctx_.download(counts_, words, sizeof words);
    const uint32_t copies = words[SPLATS_COUNT_COPIES];
    *visible = words[SPLATS_COUNT_VISIBLE];
    *sorted = std::min(copies, capacity_);
    if (copies <= capacity_) return true;
    // Some copies found no slot: room for these and a quarter more, from the next frame on.
    allocateKeys(uint64_t(copies) + copies / 4);
    return false;
  }

 private:
  // Two-phase, from after the project pass to before the tile sort: the depth sort, then the
  // copies in its order (sorted_copies.glsl), each ending in timestamp `q` on. Returns the next.
  uint32_t recordSortedCopies(VkCommandBuffer cmd, VkQueryPool queries, uint32_t q) {
    vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, vksort::kSortDstStage,
                         vksort::kSortDstAccess);
    if (depthBits_ != 0) {
      vkctx::check(vksort::recordDepthKeys(sorter_, cmd, depthKeysInfo_), "recordDepthKeys");
      vkctx::memoryBarrier(cmd, vksort::kSortSrcStage, vksort::kSortSrcAccess, vksort::kSortDstStage,
                           vksort::kSortDstAccess);
      vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, q++);
    }
    vkctx::check(vksort::recordSort(sorter_, cmd, depthSort_), "recordSort (depth)");
    vkctx::memoryBarrier(cmd, vksort::kSortSrcStage, vksort::kSortSrcAccess, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_ACCESS_SHADER_READ_BIT);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, q++);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, copyCounts_);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
    pushFrame(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, frame_);
    const uint32_t blocks = std::max((count_ + SPLATS_COPY_BLOCK - 1) / SPLATS_COPY_BLOCK, 1u);
    vkCmdDispatch(cmd, blocks, 1, 1);
    computeBarrier(cmd);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, copyOffsets_);
    vkCmdDispatch(cmd, 1, 1, 1);
    computeBarrier(cmd);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, duplicateSorted_);
    vkCmdDispatch(cmd, blocks, 1, 1);
    // vksort's contract: the tile keys, indices and copies count before the sort.
    vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, vksort::kSortDstStage,
                         vksort::kSortDstAccess);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, q++);
    return q;
  }

  static void computeBarrier(VkCommandBuffer cmd) {
    vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  }

  // Key and index slots for `slots` splat copies (at most what a u32 count and vksort take).
  void allocateKeys(uint64_t slots) {
    capacity_ = uint32_t(std::min<uint64_t>(slots, 0xFFFFFFFFu));
    for (vkctx::Buffer* b : {&keys_, &indices_, &scratch_})
      if (b->buffer) ctx_.destroy(*b);
    keys_ = ctx_.createDeviceBuffer(VkDeviceSize(capacity_) * (twoPhase_ ? 4 : 8));
    indices_ = ctx_.createDeviceBuffer(VkDeviceSize(capacity_) * 4);
    sort_.config.keyType = twoPhase_ ? vksort::KeyType::u32 : vksort::KeyType::u64;
    sort_.config.valueType = vksort::ValueType::u32;
    sort_.config.endBit = (twoPhase_ ? 0 : 32) + bitsFor(tilesX_ * tilesY_);
    scratch_ = prepareSort(ctx_, sorter_, sort_, keys_, indices_, capacity_);
    // The copies asked for; the sort takes at most maxCount of them, as the duplicate pass wrote.
    sort_.countBuffer = {counts_.buffer, SPLATS_COUNT_COPIES * 4, 4};
  }

  void bindImage(VkImageView view) {
    VkDescriptorImageInfo info{VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL};
    auto w = vkctx::vkStruct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    w.dstSet = set_;
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    w.pImageInfo = &info;
    vkUpdateDescriptorSets(ctx_.device, 1, &w, 0, nullptr);
    boundView_ = view;
  }

  vkctx::Context& ctx_;
  vksort::Sorter sorter_;
  uint32_t count_;
  VkDeviceAddress frame_;
  bool twoPhase_;
  uint32_t depthBits_;  // two-phase: the depth keys' bits (recordDepthKeys); 0: f32 order keys
  uint32_t tilesX_, tilesY_, capacity_ = 0;
  vkctx::Buffer screen_, firsts_, counts_, ranges_, keys_, indices_, scratch_;
  vkctx::Buffer depthKeys_, visible_, order_, blockSums_, depthScratch_, depthKeysScratch_;  // two-phase
  vksort::SortInfo sort_, depthSort_;
  vksort::DepthKeysInfo depthKeysInfo_;
  VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  VkImageView boundView_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline project_ = VK_NULL_HANDLE, duplicate_ = VK_NULL_HANDLE, ranges_pipeline_ = VK_NULL_HANDLE,
             blend_ = VK_NULL_HANDLE, copyCounts_ = VK_NULL_HANDLE, copyOffsets_ = VK_NULL_HANDLE,
             duplicateSorted_ = VK_NULL_HANDLE;
};

}  // namespace

std::unique_ptr<FramePath> createTilePath(vkctx::Context& ctx, vksort::Sorter sorter, uint32_t count, uint32_t width,
                                          uint32_t height, VkDeviceAddress frame, bool twoPhase, uint32_t depthBits) {
  return std::make_unique<TilePath>(ctx, sorter, count, width, height, frame, twoPhase, depthBits);
}

}  // namespace splats
