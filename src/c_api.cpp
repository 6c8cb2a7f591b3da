// The C API (include/vksort/vksort.h): conversions to and from the C++ API, nothing else.
#include "vksort/vksort.h"

#include <string>

#include "vksort/vksort.hpp"

namespace {

thread_local std::string lastError;

VksortResult toC(const vksort::Status& s) {
  lastError = s.message;
  return VksortResult(int32_t(s.result));
}

vksort::SortConfig toCpp(const VksortSortConfig& c) {
  vksort::SortConfig config;
  config.keyType = vksort::KeyType(c.keyType);
  config.valueType = vksort::ValueType(c.valueType);
  config.order = vksort::SortOrder(c.order);
  config.beginBit = c.beginBit;
  config.endBit = c.endBit;
  return config;
}

vksort::BufferRange toCpp(const VksortBufferRange& r) { return {r.buffer, r.offset, r.size, r.usage}; }

VksortResult nullArgument(const char* name) {
  lastError = std::string(name) + " is null";
  return VKSORT_ERROR_INVALID_ARGUMENT;
}

vksort::Sorter toCpp(VksortSorter s) { return reinterpret_cast<vksort::Sorter>(s); }

}  // namespace

extern "C" {

VksortResult vksortCreateSorter(const VksortSorterCreateInfo* ci, VksortSorter* pSorter) {
  if (!ci) return nullArgument("pCreateInfo");
  vksort::SorterCreateInfo info;
  info.instance = ci->instance;
  info.vkGetInstanceProcAddr = ci->vkGetInstanceProcAddr;
  info.physicalDevice = ci->physicalDevice;
  info.device = ci->device;
  info.vkGetDeviceProcAddr = ci->vkGetDeviceProcAddr;
  info.pEnabledFeatures = ci->pEnabledFeatures;
  info.enabledExtensionCount = ci->enabledExtensionCount;
  info.ppEnabledExtensionNames = ci->ppEnabledExtensionNames;
  info.pipelineCache = ci->pipelineCache;
  info.pAllocationCallbacks = ci->pAllocationCallbacks;
  info.algorithm = vksort::Algorithm(ci->algorithm);
  vksort::Sorter sorter = nullptr;
  vksort::Status s = vksort::createSorter(info, pSorter ? &sorter : nullptr);
  if (s && pSorter) *pSorter = reinterpret_cast<VksortSorter>(sorter);
  return toC(s);
}

void vksortDestroySorter(VksortSorter sorter) { vksort::destroySorter(toCpp(sorter)); }

void vksortGetSorterProperties(VksortSorter sorter, VksortSorterProperties* out) {
  if (!out) return;
  vksort::SorterProperties p = vksort::getSorterProperties(toCpp(sorter));
  *out = {p.subgroupSize,      p.requiredSubgroupSize,      p.workgroupSize,        p.tileKeys,
          p.wideTileKeys,      p.maxCount,                  p.partitionedRanking,   VksortAlgorithm(p.algorithm),
          p.smallSortMaxKeys,  p.smallSortWideMaxKeys,      p.tileTierCount,        {},
          p.waveWorkgroups,    p.chainedMaxKeys,            p.atomicRanking};
  static_assert(VKSORT_MAX_TILE_TIERS == vksort::kMaxTileTiers, "the C and C++ tier arrays differ");
  for (uint32_t i = 0; i < p.tileTierCount; ++i)
    out->tileTiers[i] = {p.tileTiers[i].fromCount, p.tileTiers[i].tileKeys, p.tileTiers[i].wideTileKeys,
                         p.tileTiers[i].keysAloneTileKeys, p.tileTiers[i].wideKeysAloneTileKeys,
                         p.tileTiers[i].fittedToWaves};
}

VksortResult vksortGetScratchRequirements(VksortSorter sorter, const VksortSortConfig* config, uint32_t maxCount,
                                          VksortScratchRequirements* out) {
  if (!config) return nullArgument("pConfig");
  vksort::ScratchRequirements r{};
  vksort::Status s = vksort::getScratchRequirements(toCpp(sorter), toCpp(*config), maxCount, out ? &r : nullptr);
  if (s) *out = {r.size, r.alignment, r.usage};
  return toC(s);
}

VksortResult vksortRecordSort(VksortSorter sorter, VkCommandBuffer commandBuffer, const VksortSortInfo* in) {
  if (!in) return nullArgument("pInfo");
  vksort::SortInfo info;
  info.config = toCpp(in->config);
  info.count = in->count;
  info.maxCount = in->maxCount;
  info.keys = toCpp(in->keys);
  info.values = toCpp(in->values);
  info.scratch = toCpp(in->scratch);
  info.timestampPool = in->timestampPool;
  info.firstTimestamp = in->firstTimestamp;
  info.countBuffer = toCpp(in->countBuffer);
  return toC(vksort::recordSort(toCpp(sorter), commandBuffer, info));
}

uint32_t vksortGetSortTimestampCount(const VksortSortConfig* config) {
  return config ? vksort::getSortTimestampCount(toCpp(*config)) : 0;
}

const char* vksortGetLastErrorMessage(void) { return lastError.c_str(); }

}  // extern "C"
