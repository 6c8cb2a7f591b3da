#include "pipelines.hpp"

#include <cstddef>
#include <cstring>
#include <cstdio>
#include <algorithm>
#include <string>
#include <vector>

#include "modules.hpp"
#include "pipeline_statistics.hpp"
#include "shader_interface.h"

namespace vksort::detail {

Status Pipelines::create(const VolkDeviceTable& vk, VkDevice device, const Tuning& tuning, VkPipelineCache cache,
                         const VkAllocationCallbacks* allocator, bool captureStatistics) {
  vk_ = &vk;
  captureStatistics_ = captureStatistics;
  device_ = device;
  tuning_ = tuning;
  cache_ = cache;
  allocator_ = allocator;
  static_assert(sizeof(SortPush) <= 128, "maxPushConstantsSize is 128 bytes on many devices");
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(SortPush)};
  VkPipelineLayoutCreateInfo layoutInfo =
      vkStruct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layoutInfo.pushConstantRangeCount = 1;
  layoutInfo.pPushConstantRanges = &range;
  if (VkResult r = vk.vkCreatePipelineLayout(device, &layoutInfo, allocator, &layout_); r != VK_SUCCESS)
    return failVulkan(r, "vkCreatePipelineLayout");
  // Nothing else up front: a sort's pipelines are built by prepareSorts() or its first record, so
  // that a sorter costs nothing for sorts it never runs (the tuner creates one per candidate).
  return {};
}

Status Pipelines::get(const PipelineKey& given, VkPipeline* out) const {
  const PipelineKey key = normalizedKey(tuning_, given);
  // The permutation forms are flag bits (kFlagIndexValues, kFlagDiscardKeys): one slot for each
  // of the four combinations.
  const uint32_t forms =
      ((key.permutation & kFlagIndexValues) != 0 ? 1u : 0u) | ((key.permutation & kFlagDiscardKeys) != 0 ? 2u : 0u);
  VkPipeline& slot =
      pipelines_[key.kernel][key.keyType][key.valueType][key.tier][key.fitted][key.digitWord][key.skewed][forms];
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (slot) {
      *out = slot;
      return {};
    }
  }
  // Built outside the lock, so that threads building different pipelines (the tuner's) compile
  // side by side; where two built the same one, the first to return keeps it.
  VkPipeline built = VK_NULL_HANDLE;
  if (Status st = build(key, &built); !st) return st;
  std::lock_guard<std::mutex> lock(mutex_);
  if (slot) vk_->vkDestroyPipeline(device_, built, allocator_);
  else slot = built;
  *out = slot;
  return {};
}

Status Pipelines::build(const PipelineKey& key, VkPipeline* out) const {
  const KernelVariant variant = decideVariant(tuning_, key);
  const ModuleCode code = moduleCode(variant.module);
  VkShaderModuleCreateInfo moduleInfo = vkStruct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  moduleInfo.codeSize = code.bytes;
  moduleInfo.pCode = code.code;
  VkShaderModule module = VK_NULL_HANDLE;
  if (VkResult r = vk_->vkCreateShaderModule(device_, &moduleInfo, allocator_, &module); r != VK_SUCCESS)
    return failVulkan(r, "vkCreateShaderModule");

  // Every registered constant, by name; a module ignores those it does not declare.
  uint32_t values[std::size(kSpecializationIds)];
  VkSpecializationMapEntry entries[std::size(kSpecializationIds)];
  for (uint32_t i = 0; i < std::size(kSpecializationIds); ++i) {
    values[i] = specializationValue(variant, kSpecializationIds[i]);
    entries[i] = {kSpecializationIds[i], uint32_t(i * sizeof(uint32_t)), sizeof(uint32_t)};
  }
  VkSpecializationInfo specInfo{uint32_t(std::size(entries)), entries, sizeof values, values};

  auto requiredSize = vkStruct<VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO);
  requiredSize.requiredSubgroupSize = variant.subgroupSize;

  VkComputePipelineCreateInfo info =
      vkStruct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  info.stage = vkStruct<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  info.stage.pNext = variant.requireSubgroupSize ? &requiredSize : nullptr;
  info.stage.flags = variant.requireSubgroupSize ? VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT : 0;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = &specInfo;
  info.layout = layout_;
  if (captureStatistics_) info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  VkResult r = vk_->vkCreateComputePipelines(device_, cache_, 1, &info, allocator_, out);
  vk_->vkDestroyShaderModule(device_, module, allocator_);
  if (r != VK_SUCCESS) {
    *out = VK_NULL_HANDLE;
    return failVulkan(r, "vkCreateComputePipelines");
  }
  ++built_;
  if (captureStatistics_) {
    static const char* const kWords[kDigitWords] = {"", " low word", " high word"};
    char name[80];
    std::snprintf(name, sizeof name, "%s key %u value %u tier %u%s%s%s", kernelName(key.kernel), key.keyType,
                  key.valueType, key.tier, key.fitted ? " fitted" : "", kWords[key.digitWord],
                  key.skewed ? " skewed" : "");
    printPipelineStatistics(*vk_, device_, *out, name);
  }
  return {};
}

void Pipelines::destroy() {
  if (!vk_) return;
  // Every slot of the table, as the one array it is in memory.
  VkPipeline* slots = &pipelines_[0][0][0][0][0][0][0][0];
  for (size_t i = 0; i < sizeof pipelines_ / sizeof *slots; ++i) {
    if (slots[i]) vk_->vkDestroyPipeline(device_, slots[i], allocator_);
    slots[i] = VK_NULL_HANDLE;
  }
  if (layout_) vk_->vkDestroyPipelineLayout(device_, layout_, allocator_);
  layout_ = VK_NULL_HANDLE;
}

}  // namespace vksort::detail
