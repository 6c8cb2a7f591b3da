#include "pipelines.hpp"

#include <cstddef>
#include <cstring>
#include <cstdio>
#include <algorithm>
#include <string>
#include <vector>

#include "pipeline_statistics.hpp"
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
const uint32_t kHistogram64Spirv[] = {
#include "histogram64.comp.spv.inc"
};
const uint32_t kOnesweepSpirv[] = {
#include "onesweep.comp.spv.inc"
};
const uint32_t kOnesweep64Spirv[] = {
#include "onesweep64.comp.spv.inc"
};
const uint32_t kOnesweepPartitionedSpirv[] = {
#include "onesweep_partitioned.comp.spv.inc"
};
const uint32_t kOnesweepPartitioned64Spirv[] = {
#include "onesweep_partitioned64.comp.spv.inc"
};
const uint32_t kOnesweepFittedSpirv[] = {
#include "onesweep_fitted.comp.spv.inc"
};
const uint32_t kOnesweepFitted64Spirv[] = {
#include "onesweep_fitted64.comp.spv.inc"
};
const uint32_t kCopyBackSpirv[] = {
#include "copy_back.comp.spv.inc"
};
const uint32_t kTileScanSpirv[] = {
#include "tile_scan.comp.spv.inc"
};
const uint32_t kUpsweepSpirv[] = {
#include "upsweep.comp.spv.inc"
};
const uint32_t kUpsweep64Spirv[] = {
#include "upsweep64.comp.spv.inc"
};
const uint32_t kDownsweepSpirv[] = {
#include "downsweep.comp.spv.inc"
};
const uint32_t kDownsweep64Spirv[] = {
#include "downsweep64.comp.spv.inc"
};
const uint32_t kSmallSortSpirv[] = {
#include "small_sort.comp.spv.inc"
};
const uint32_t kSmallSort64Spirv[] = {
#include "small_sort64.comp.spv.inc"
};
const uint32_t kSmallBitonicSpirv[] = {
#include "small_bitonic.comp.spv.inc"
};
const uint32_t kSmallBitonic64Spirv[] = {
#include "small_bitonic64.comp.spv.inc"
};
const uint32_t kChainedSpirv[] = {
#include "chained.comp.spv.inc"
};
const uint32_t kChained64Spirv[] = {
#include "chained64.comp.spv.inc"
};

// Specialization constants, by constant_id, as the kernels declare them.
struct SpecData {
  uint32_t workgroupSize;                // 0 (local_size_x_id)
  uint32_t keysPerInvocation;            // 1
  uint32_t minSubgroupSize;              // 2
  uint32_t valueWords;                   // 4
  VkBool32 lookbackPlainLoads;           // 6
  uint32_t ballotWords;                  // 7
  uint32_t histogramCopies;              // 8
  uint32_t keyType;                      // 10
  uint32_t lookbackWindow;               // 13
  VkBool32 persistentTiles;              // 14
  uint32_t reorderRounds;                // 15
  VkBool32 prefetchPairs;                // 16
  VkBool32 ridersAlongside;             // 17
  uint32_t hotDigitFrom;                 // 18
  uint32_t hotDigitTo;                   // 19
  VkBool32 lookbackPlainStores;          // 20
  VkBool32 ridingValues;                 // 22
  VkBool32 patientWaits;                 // 23
  VkBool32 atomicRanking;                // 24
  VkBool32 rankFirst;                    // 25
  uint32_t digitWord;                    // 26
};
const VkSpecializationMapEntry kSpecMap[] = {
    {0, offsetof(SpecData, workgroupSize), 4},
    {1, offsetof(SpecData, keysPerInvocation), 4},
    {2, offsetof(SpecData, minSubgroupSize), 4},
    {4, offsetof(SpecData, valueWords), 4},
    {6, offsetof(SpecData, lookbackPlainLoads), 4},
    {7, offsetof(SpecData, ballotWords), 4},
    {8, offsetof(SpecData, histogramCopies), 4},
    {10, offsetof(SpecData, keyType), 4},
    {13, offsetof(SpecData, lookbackWindow), 4},
    {14, offsetof(SpecData, persistentTiles), 4},
    {15, offsetof(SpecData, reorderRounds), 4},
    {16, offsetof(SpecData, prefetchPairs), 4},
    {17, offsetof(SpecData, ridersAlongside), 4},
    {18, offsetof(SpecData, hotDigitFrom), 4},
    {19, offsetof(SpecData, hotDigitTo), 4},
    {20, offsetof(SpecData, lookbackPlainStores), 4},
    {22, offsetof(SpecData, ridingValues), 4},
    {23, offsetof(SpecData, patientWaits), 4},
    {24, offsetof(SpecData, atomicRanking), 4},
    {25, offsetof(SpecData, rankFirst), 4},
    {26, offsetof(SpecData, digitWord), 4},
};

struct KernelSource {
  const uint32_t* code;
  size_t bytes;
  bool fixedWorkgroupSize;  // local_size_x given in the shader (no size control applies)
};

KernelSource byWidth(bool wideKeys, const uint32_t* narrow, size_t narrowBytes, const uint32_t* wide,
                     size_t wideBytes) {
  return wideKeys ? KernelSource{wide, wideBytes, false} : KernelSource{narrow, narrowBytes, false};
}

KernelSource sourceOf(Kernel k, bool wideKeys, const Tuning& t, const TileShape& tile, bool fitted) {
  switch (k) {
    case kInit: return {kInitSpirv, sizeof kInitSpirv, true};
    case kScan: return {kScanSpirv, sizeof kScanSpirv, false};
    case kCopyBack: return {kCopyBackSpirv, sizeof kCopyBackSpirv, true};
    case kTileScan: return {kTileScanSpirv, sizeof kTileScanSpirv, false};
    case kHistogram:
      return byWidth(wideKeys, kHistogramSpirv, sizeof kHistogramSpirv, kHistogram64Spirv, sizeof kHistogram64Spirv);
    case kUpsweep: return byWidth(wideKeys, kUpsweepSpirv, sizeof kUpsweepSpirv, kUpsweep64Spirv, sizeof kUpsweep64Spirv);
    case kDownsweep:
      return byWidth(wideKeys, kDownsweepSpirv, sizeof kDownsweepSpirv, kDownsweep64Spirv, sizeof kDownsweep64Spirv);
    case kSmallSort:
      if (tile.bitonic)
        return byWidth(wideKeys, kSmallBitonicSpirv, sizeof kSmallBitonicSpirv, kSmallBitonic64Spirv, sizeof kSmallBitonic64Spirv);
      return byWidth(wideKeys, kSmallSortSpirv, sizeof kSmallSortSpirv, kSmallSort64Spirv, sizeof kSmallSort64Spirv);
    case kChained: return byWidth(wideKeys, kChainedSpirv, sizeof kChainedSpirv, kChained64Spirv, sizeof kChained64Spirv);
    default:
      if (fitted)  // (tuning.cpp fits no tiles with partitioned ranking)
        return byWidth(wideKeys, kOnesweepFittedSpirv, sizeof kOnesweepFittedSpirv, kOnesweepFitted64Spirv,
                       sizeof kOnesweepFitted64Spirv);
      if (t.partitionedRanking && wideKeys)
        return {kOnesweepPartitioned64Spirv, sizeof kOnesweepPartitioned64Spirv, false};
      if (t.partitionedRanking) return {kOnesweepPartitionedSpirv, sizeof kOnesweepPartitionedSpirv, false};
      if (wideKeys) return {kOnesweep64Spirv, sizeof kOnesweep64Spirv, false};
      return {kOnesweepSpirv, sizeof kOnesweepSpirv, false};
  }
}


// The specialization of a pipeline (its key as normalized by normalizeKey()).
SpecData specOf(const Tuning& t, Kernel kernel, uint32_t keyType, uint32_t valueType, uint32_t tier, bool /*fitted*/,
                uint32_t digitWord) {
  const uint32_t valueWords = valueBytes(ValueType(valueType)) / 4;
  SortConfig config;
  config.keyType = KeyType(keyType);
  config.valueType = ValueType(valueType);
  const uint32_t words = elementWords(config);
  const TileShape& tile = kernel == kSmallSort ? t.smallTiles[tier][words - 1] : t.tiers[tier].shape[tileClass(config)];
  const bool tiled = kernel >= kBinning;
  return SpecData{kernel == kHistogram ? t.histogramWorkgroupSize : tiled ? tile.workgroupSize : t.workgroupSize,
                tile.keysPerInvocation,
                t.minSubgroupSize,
                valueWords,
                tile.lookbackPlainLoads,
                t.ballotWords,
                t.histogramCopies,
                keyType,
                tile.lookbackWindow,
                tile.persistentTiles,
                tile.reorderRounds,
                kernel == kBinning && tile.prefetchPairs,
                kernel == kSmallSort && tile.ridersAlongside,
                kernel == kBinning && (valueWords == 0 || t.hotDigitWithValues) ? tile.hotDigitFrom : 0,
                tile.hotDigitTo,
                t.lookbackPlainStores,
                (kernel == kBinning || kernel == kDownsweep || kernel == kChained) && tile.ridingValues,
                t.patientWaits,
                t.ranksByAtomics(tile, valueWords == 0),
                kernel == kBinning && tile.rankFirst,
                digitWord};
}

const char* moduleName(const uint32_t* code) {
  struct Named { const uint32_t* code; const char* name; };
  static const Named kNames[] = {
      {kInitSpirv, "init"}, {kHistogramSpirv, "histogram"}, {kScanSpirv, "scan"}, {kHistogram64Spirv, "histogram64"},
      {kOnesweepSpirv, "onesweep"}, {kOnesweep64Spirv, "onesweep64"}, {kOnesweepPartitionedSpirv, "onesweep_partitioned"},
      {kOnesweepPartitioned64Spirv, "onesweep_partitioned64"}, {kOnesweepFittedSpirv, "onesweep_fitted"},
      {kOnesweepFitted64Spirv, "onesweep_fitted64"}, {kCopyBackSpirv, "copy_back"}, {kTileScanSpirv, "tile_scan"},
      {kUpsweepSpirv, "upsweep"}, {kUpsweep64Spirv, "upsweep64"}, {kDownsweepSpirv, "downsweep"},
      {kDownsweep64Spirv, "downsweep64"}, {kSmallSortSpirv, "small_sort"}, {kSmallSort64Spirv, "small_sort64"},
      {kSmallBitonicSpirv, "small_bitonic"}, {kSmallBitonic64Spirv, "small_bitonic64"}, {kChainedSpirv, "chained"},
      {kChained64Spirv, "chained64"}};
  for (const Named& n : kNames)
    if (n.code == code) return n.name;
  return "?";
}

// The SpecId decorations of a module: which constants it declares.
std::vector<uint32_t> specIdsOf(const uint32_t* code, size_t bytes) {
  std::vector<uint32_t> ids;
  for (size_t i = 5; i < bytes / 4;) {
    const uint32_t count = code[i] >> 16, op = code[i] & 0xFFFF;
    if (op == 71 /* OpDecorate */ && count >= 4 && code[i + 2] == 1 /* SpecId */) ids.push_back(code[i + 3]);
    i += count ? count : 1;
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}
}  // namespace

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
  VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.pushConstantRangeCount = 1;
  layoutInfo.pPushConstantRanges = &range;
  if (VkResult r = vk.vkCreatePipelineLayout(device, &layoutInfo, allocator, &layout_); r != VK_SUCCESS)
    return failVulkan(r, "vkCreatePipelineLayout");
  // Up front: the unkeyed kernels and the u32 sorts, so that a device that cannot build them fails here.
  const uint32_t none = uint32_t(ValueType::none), u32 = uint32_t(ValueType::u32);
  const bool onesweep = tuning.algorithm == Algorithm::onesweep;
  VkPipeline p;
  for (Kernel k : {kInit, kScan, kCopyBack, kHistogram})
    if (Status st = get(k, kKeyU32, none, &p); !st) return st;
  if (!onesweep)
    if (Status st = get(kTileScan, 0, 0, &p); !st) return st;
  for (uint32_t values : {none, u32})
    for (Kernel k : {onesweep ? kBinning : kUpsweep, onesweep ? kBinning : kDownsweep, kSmallSort})
      if (Status st = get(k, kKeyU32, values, &p); !st) return st;
  return {};
}

void normalizeKey(const Tuning& tuning, Kernel kernel, uint32_t& keyType, uint32_t& valueType, uint32_t& tier, bool& fitted,
                  uint32_t& digitWord) {
  if (kernel < kHistogram) keyType = 0;
  if (kernel < kBinning) valueType = 0;
  if (kernel < kBinning) tier = 0;
  fitted = fitted && kernel == kBinning;
  const bool passKernel = kernel == kBinning || kernel == kUpsweep || kernel == kDownsweep;
  if (!passKernel || keyType < kKeyU64) digitWord = kDigitAnyWord;
  if (kernel != kSmallSort) {  // a tier whose tile equals the tier's below builds no pipeline of its own
    SortConfig config;
    config.keyType = KeyType(keyType);
    config.valueType = ValueType(valueType);
    const uint32_t cls = tileClass(config);
    while (tier > 0 && tuning.tiers[tier].shape[cls] == tuning.tiers[tier - 1].shape[cls]) --tier;
  }
}

Status Pipelines::get(Kernel kernel, uint32_t keyType, uint32_t valueType, VkPipeline* out, uint32_t tier,
                      bool fitted, uint32_t digitWord) const {
  normalizeKey(tuning_, kernel, keyType, valueType, tier, fitted, digitWord);
  std::lock_guard<std::mutex> lock(mutex_);
  VkPipeline& slot = pipelines_[kernel][keyType][valueType][tier][fitted][digitWord];
  if (!slot)
    if (Status st = build(kernel, keyType, valueType, tier, fitted, digitWord, &slot); !st) return st;
  *out = slot;
  return {};
}

Status Pipelines::build(Kernel kernel, uint32_t keyType, uint32_t valueType, uint32_t tier, bool fitted,
                        uint32_t digitWord, VkPipeline* out) const {
  const Tuning& t = tuning_;
  const bool wideKeys = keyType >= kKeyU64;
  SortConfig config;
  config.keyType = KeyType(keyType);
  config.valueType = ValueType(valueType);
  const uint32_t words = elementWords(config);
  // The tile kernels' shape; the others use the workgroup size alone.
  const TileShape& tile = kernel == kSmallSort ? t.smallTiles[tier][words - 1] : t.tiers[tier].shape[tileClass(config)];
  KernelSource src = sourceOf(kernel, wideKeys, t, tile, fitted);
  VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  moduleInfo.codeSize = src.bytes;
  moduleInfo.pCode = src.code;
  VkShaderModule module = VK_NULL_HANDLE;
  if (VkResult r = vk_->vkCreateShaderModule(device_, &moduleInfo, allocator_, &module); r != VK_SUCCESS)
    return failVulkan(r, "vkCreateShaderModule");

  const SpecData spec = specOf(t, kernel, keyType, valueType, tier, fitted, digitWord);
  VkSpecializationInfo specInfo{uint32_t(std::size(kSpecMap)), kSpecMap, sizeof spec, &spec};

  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo requiredSize{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
  requiredSize.requiredSubgroupSize = t.subgroupSize;
  bool requireSize = t.requireSubgroupSize && !src.fixedWorkgroupSize;

  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  info.stage.pNext = requireSize ? &requiredSize : nullptr;
  info.stage.flags = requireSize ? VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT : 0;
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
  if (captureStatistics_) {
    static const char* const kNames[kKernelCount] = {"init", "scan", "copy_back", "tile_scan", "histogram",
                                                     "binning", "upsweep", "downsweep", "small_sort",
                                                     "chained"};
    static const char* const kWords[kDigitWords] = {"", " low word", " high word"};
    char name[80];
    std::snprintf(name, sizeof name, "%s key %u value %u tier %u%s%s", kNames[kernel], keyType, valueType, tier,
                  fitted ? " fitted" : "", kWords[digitWord]);
    printPipelineStatistics(*vk_, device_, *out, name);
  }
  return {};
}

void Pipelines::destroy() {
  if (!vk_) return;
  for (auto& byKey : pipelines_)
    for (auto& byValue : byKey)
      for (auto& byTier : byValue)
        for (auto& byFit : byTier)
          for (auto& byWord : byFit)
            for (VkPipeline& p : byWord) {
              if (p) vk_->vkDestroyPipeline(device_, p, allocator_);
              p = VK_NULL_HANDLE;
            }
  if (layout_) vk_->vkDestroyPipelineLayout(device_, layout_, allocator_);
  layout_ = VK_NULL_HANDLE;
}

}  // namespace vksort::detail

namespace vksort::detail {
std::string pipelineSignature(const Tuning& t, Kernel kernel, uint32_t keyType, uint32_t valueType, uint32_t tier,
                              bool fitted, uint32_t digitWord) {
  normalizeKey(t, kernel, keyType, valueType, tier, fitted, digitWord);
  SortConfig config;
  config.keyType = KeyType(keyType);
  config.valueType = ValueType(valueType);
  const TileShape& tile = kernel == kSmallSort ? t.smallTiles[tier][elementWords(config) - 1] : t.tiers[tier].shape[tileClass(config)];
  const KernelSource src = sourceOf(kernel, keyType >= kKeyU64, t, tile, fitted);
  const SpecData spec = specOf(t, kernel, keyType, valueType, tier, fitted, digitWord);
  std::string out = moduleName(src.code);
  if (t.requireSubgroupSize && !src.fixedWorkgroupSize) out += " subgroup=" + std::to_string(t.subgroupSize);
  for (uint32_t id : specIdsOf(src.code, src.bytes))
    for (const VkSpecializationMapEntry& e : kSpecMap)
      if (e.constantID == id) {
        uint32_t v;
        std::memcpy(&v, reinterpret_cast<const char*>(&spec) + e.offset, 4);
        out += " " + std::to_string(id) + "=" + std::to_string(v);
      }
  return out;
}
}  // namespace vksort::detail
