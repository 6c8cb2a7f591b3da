// The C API (include/vksort/vksort.h): conversions to and from the C++ API, nothing else.
#include "vksort/vksort.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "vksort/vksort.hpp"

namespace {

// The C structs have their C++ twins' fields, in the same order: a structured binding of the
// wrong number of names does not compile, and the conversions below name every field.
template <typename C, typename Cpp>
constexpr bool sameLayout() {
  return sizeof(C) == sizeof(Cpp) && alignof(C) == alignof(Cpp);
}
[[maybe_unused]] void fieldsAgree(const VksortSorterCreateInfo& c, const vksort::SorterCreateInfo& cpp,
                                  const VksortSortInfo& ci, const vksort::SortInfo& cppi, const VksortSorterProperties& cp,
                                  const vksort::SorterProperties& cppp) {
  [[maybe_unused]] auto& [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11] = c;
  [[maybe_unused]] auto& [b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11] = cpp;
  [[maybe_unused]] auto& [c0, c1, c2, c3, c4, c5, c6, c7, c8] = ci;
  [[maybe_unused]] auto& [d0, d1, d2, d3, d4, d5, d6, d7, d8] = cppi;
  [[maybe_unused]] auto& [e0, e1, e2, e3] = cp;
  [[maybe_unused]] auto& [f0, f1, f2, f3] = cppp;
}
// Structs of the same layout in both: every field at the same offset.
static_assert(sameLayout<VksortSortConfig, vksort::SortConfig>() &&
              offsetof(VksortSortConfig, endBit) == offsetof(vksort::SortConfig, endBit));
static_assert(sameLayout<VksortBufferRange, vksort::BufferRange>() &&
              offsetof(VksortBufferRange, usage) == offsetof(vksort::BufferRange, usage));
static_assert(sameLayout<VksortScratchRequirements, vksort::ScratchRequirements>() &&
              offsetof(VksortScratchRequirements, usage) == offsetof(vksort::ScratchRequirements, usage));
static_assert(sameLayout<VksortDeviceRequirements, vksort::DeviceRequirements>() &&
              offsetof(VksortDeviceRequirements, extensionNames) == offsetof(vksort::DeviceRequirements, extensionNames) &&
              VKSORT_MAX_REQUIRED_EXTENSIONS == vksort::kMaxRequiredExtensions);
static_assert(sameLayout<VksortPreparedSort, vksort::PreparedSort>() &&
              offsetof(VksortPreparedSort, maxCount) == offsetof(vksort::PreparedSort, maxCount));
static_assert(offsetof(VksortSortInfo, countBuffer) < offsetof(VksortSortInfo, keys) &&
              offsetof(vksort::SortInfo, countBuffer) < offsetof(vksort::SortInfo, keys));

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

// A C array of prepared sorts as C++ ones (empty for null).
std::vector<vksort::PreparedSort> toCpp(const VksortPreparedSort* sorts, uint32_t count) {
  std::vector<vksort::PreparedSort> out;
  for (uint32_t i = 0; sorts && i < count; ++i) out.push_back({.config = toCpp(sorts[i].config), .maxCount = sorts[i].maxCount});
  return out;
}

vksort::BufferRange toCpp(const VksortBufferRange& r) {
  return {.buffer = r.buffer, .offset = r.offset, .size = r.size, .usage = r.usage};
}

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
  info.pDeviceCreateInfo = ci->pDeviceCreateInfo;
  info.pipelineCache = ci->pipelineCache;
  info.pAllocationCallbacks = ci->pAllocationCallbacks;
  info.algorithm = vksort::Algorithm(ci->algorithm);
  const std::vector<vksort::PreparedSort> prepared = toCpp(ci->pPreparedSorts, ci->preparedSortCount);
  info.preparedSortCount = ci->preparedSortCount;
  info.pPreparedSorts = ci->pPreparedSorts ? prepared.data() : nullptr;
  vksort::SorterDeveloperOptions developer;
  if (ci->pDeveloperOptions) {
    developer.tuning = ci->pDeveloperOptions->tuning;
    developer.pipelineStatistics = ci->pDeveloperOptions->pipelineStatistics != VK_FALSE;
    info.pDeveloperOptions = &developer;
  }
  vksort::Sorter sorter = nullptr;
  vksort::Status s = vksort::createSorter(info, pSorter ? &sorter : nullptr);
  if (s && pSorter) *pSorter = reinterpret_cast<VksortSorter>(sorter);
  return toC(s);
}

VksortResult vksortGetDeviceRequirements(VkInstance instance, PFN_vkGetInstanceProcAddr getInstanceProcAddr,
                                         VkPhysicalDevice physicalDevice, void* chain, VksortDeviceRequirements* out) {
  vksort::DeviceRequirements r;
  vksort::Status s = vksort::getDeviceRequirements(instance, getInstanceProcAddr, physicalDevice, chain, out ? &r : nullptr);
  if (s) {
    out->extensionCount = r.extensionCount;
    std::copy(std::begin(r.extensionNames), std::end(r.extensionNames), out->extensionNames);
  }
  return toC(s);
}

VksortResult vksortPrepareSorts(VksortSorter sorter, uint32_t count, const VksortPreparedSort* sorts) {
  const std::vector<vksort::PreparedSort> prepared = toCpp(sorts, count);
  return toC(vksort::prepareSorts(toCpp(sorter), count, sorts ? prepared.data() : nullptr));
}

void vksortDestroySorter(VksortSorter sorter) { vksort::destroySorter(toCpp(sorter)); }

void vksortGetSorterProperties(VksortSorter sorter, VksortSorterProperties* out) {
  if (!out) return;
  const vksort::SorterProperties p = vksort::getSorterProperties(toCpp(sorter));
  *out = {.subgroupSize = p.subgroupSize,
          .requiredSubgroupSize = p.requiredSubgroupSize,
          .maxCount = p.maxCount,
          .algorithm = VksortAlgorithm(p.algorithm)};
}

VksortResult vksortGetScratchRequirements(VksortSorter sorter, const VksortSortConfig* config, uint32_t maxCount,
                                          VksortScratchRequirements* out) {
  if (!config) return nullArgument("pConfig");
  vksort::ScratchRequirements r{};
  vksort::Status s = vksort::getScratchRequirements(toCpp(sorter), toCpp(*config), maxCount, out ? &r : nullptr);
  if (s) *out = {.size = r.size, .alignment = r.alignment, .usage = r.usage};
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

VksortResult vksortDescribeSort(VksortSorter sorter, const VksortSortConfig* config, uint32_t count, VkBool32 indirect,
                                char* text, size_t* size) {
  if (!config) return nullArgument("pConfig");
  if (!size) return nullArgument("pSize");
  std::string description;
  vksort::Status s = vksort::describeSort(toCpp(sorter), toCpp(*config), count, indirect != VK_FALSE, &description);
  if (!s) return toC(s);
  if (text && *size > 0) {
    const size_t n = std::min(*size - 1, description.size());
    std::memcpy(text, description.data(), n);
    text[n] = '\0';
  }
  *size = description.size() + 1;
  return toC(s);
}

const char* vksortGetLastErrorMessage(void) { return lastError.c_str(); }

}  // extern "C"
