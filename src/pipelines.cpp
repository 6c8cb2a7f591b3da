#include "pipelines.hpp"

#include <cstddef>

#include "shader_interface.h"

namespace vksort::detail {
namespace {

// SPIR-V compiled by glslc at build time (cmake/VksortShaders.cmake).
const uint32_t kInitSpirv[] = {
#include "init.comp.spv.inc"
};
const uint32_t kHistogramSpirv[] = {
#include "histogram.comp.spv.inc"
};
const uint32_t kScanSpirv[] = {
#include "scan.comp.spv.inc"
};
const uint32_t kOnesweepSpirv[] = {
#include "onesweep.comp.spv.inc"
};
const uint32_t kOnesweepPartitionedSpirv[] = {
#include "onesweep_partitioned.comp.spv.inc"
};
const uint32_t kCopyBackSpirv[] = {
#include "copy_back.comp.spv.inc"
};

// Specialization constants, by constant_id, as the kernels declare them.
struct SpecData {
  uint32_t workgroupSize;                // 0 (local_size_x_id)
  uint32_t keysPerInvocation;            // 1
  uint32_t minSubgroupSize;              // 2
  uint32_t histogramTilesPerWorkgroup;   // 3
  VkBool32 hasValues;                    // 4
  uint32_t tileKeys;                     // 5
  VkBool32 lookbackPlainLoads;           // 6
  uint32_t ballotWords;                  // 7
  uint32_t histogramCopies;              // 8
  uint32_t keyType;                      // 10
  VkBool32 descending;                   // 11
};
const VkSpecializationMapEntry kSpecMap[] = {
    {0, offsetof(SpecData, workgroupSize), 4},
    {1, offsetof(SpecData, keysPerInvocation), 4},
    {2, offsetof(SpecData, minSubgroupSize), 4},
    {3, offsetof(SpecData, histogramTilesPerWorkgroup), 4},
    {4, offsetof(SpecData, hasValues), 4},
    {5, offsetof(SpecData, tileKeys), 4},
    {6, offsetof(SpecData, lookbackPlainLoads), 4},
    {7, offsetof(SpecData, ballotWords), 4},
    {8, offsetof(SpecData, histogramCopies), 4},
    {10, offsetof(SpecData, keyType), 4},
    {11, offsetof(SpecData, descending), 4},
};

struct KernelSource {
  const uint32_t* code;
  size_t bytes;
  bool fixedWorkgroupSize;  // local_size_x given in the shader (no size control applies)
};

KernelSource sourceOf(Kernel k, const Tuning& t) {
  switch (k) {
    case kInit: return {kInitSpirv, sizeof kInitSpirv, true};
    case kHistogram: return {kHistogramSpirv, sizeof kHistogramSpirv, false};
    case kScan: return {kScanSpirv, sizeof kScanSpirv, false};
    case kCopyBack: return {kCopyBackSpirv, sizeof kCopyBackSpirv, true};
    default:
      if (t.partitionedRanking) return {kOnesweepPartitionedSpirv, sizeof kOnesweepPartitionedSpirv, false};
      return {kOnesweepSpirv, sizeof kOnesweepSpirv, false};
  }
}

}  // namespace

Status createPipelines(const VolkDeviceTable& vk, VkDevice device, const Tuning& tuning, VkPipelineCache cache,
                       const VkAllocationCallbacks* allocator, Pipelines* out) {
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(SortPush)};
  VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.pushConstantRangeCount = 1;
  layoutInfo.pPushConstantRanges = &range;
  if (VkResult r = vk.vkCreatePipelineLayout(device, &layoutInfo, allocator, &out->layout); r != VK_SUCCESS)
    return failVulkan(r, "vkCreatePipelineLayout");

  for (uint32_t k = 0; k < kKernelCount; ++k) {
    KernelSource src = sourceOf(Kernel(k), tuning);
    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    moduleInfo.codeSize = src.bytes;
    moduleInfo.pCode = src.code;
    VkShaderModule module = VK_NULL_HANDLE;
    if (VkResult r = vk.vkCreateShaderModule(device, &moduleInfo, allocator, &module); r != VK_SUCCESS)
      return failVulkan(r, "vkCreateShaderModule");

    uint32_t variants = k >= kFirstKeyedKernel ? kKeyVariants : 1;
    VkResult r = VK_SUCCESS;
    for (uint32_t v = 0; v < variants && r == VK_SUCCESS; ++v) {
      SpecData spec{k == kHistogram ? tuning.histogramWorkgroupSize : tuning.workgroupSize,
                    tuning.keysPerInvocation,
                    tuning.minSubgroupSize,
                    tuning.histogramTilesPerWorkgroup,
                    k == kOnesweepPairs,
                    tuning.tileKeys(),
                    tuning.lookbackPlainLoads,
                    tuning.ballotWords,
                    tuning.histogramCopies,
                    v / 2,
                    v % 2 == 1};
      VkSpecializationInfo specInfo{uint32_t(std::size(kSpecMap)), kSpecMap, sizeof spec, &spec};

      VkPipelineShaderStageRequiredSubgroupSizeCreateInfo requiredSize{
          VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
      requiredSize.requiredSubgroupSize = tuning.subgroupSize;
      bool requireSize = tuning.requireSubgroupSize && !src.fixedWorkgroupSize;

      VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
      info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
      info.stage.pNext = requireSize ? &requiredSize : nullptr;
      info.stage.flags = requireSize ? VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT : 0;
      info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
      info.stage.module = module;
      info.stage.pName = "main";
      info.stage.pSpecializationInfo = &specInfo;
      info.layout = out->layout;
      r = vk.vkCreateComputePipelines(device, cache, 1, &info, allocator, &out->pipeline[k][v]);
    }
    vk.vkDestroyShaderModule(device, module, allocator);
    if (r != VK_SUCCESS) return failVulkan(r, "vkCreateComputePipelines");
  }
  return {};
}

void destroyPipelines(const VolkDeviceTable& vk, VkDevice device, const VkAllocationCallbacks* allocator,
                      Pipelines* pipelines) {
  for (auto& variants : pipelines->pipeline)
    for (VkPipeline& p : variants) {
      if (p) vk.vkDestroyPipeline(device, p, allocator);
      p = VK_NULL_HANDLE;
    }
  if (pipelines->layout) vk.vkDestroyPipelineLayout(device, pipelines->layout, allocator);
  pipelines->layout = VK_NULL_HANDLE;
}

}  // namespace vksort::detail
