// The C API's conversions (c_api.cpp), shared with the tuner wing's C entry points
// (tuner/c_api_tuning.cpp).
#pragma once
#include <string>
#include <vector>

#include "for_tuner.hpp"
#include "vksort/vksort.h"
#include "vksort/vksort.hpp"

namespace vksort::capi {

// The calling thread's last error message (vksortGetLastErrorMessage()).
VKSORT_FOR_TUNER std::string& lastError();
// A status as the C result, its message kept as the last error.
VKSORT_FOR_TUNER VksortResult toC(const Status& s);
VKSORT_FOR_TUNER VksortResult nullArgument(const char* name);

inline vksort::SortConfig toCpp(const VksortSortConfig& c) {
  vksort::SortConfig config;
  config.keyType = vksort::KeyType(c.keyType);
  config.valueType = vksort::ValueType(c.valueType);
  config.order = vksort::SortOrder(c.order);
  config.beginBit = c.beginBit;
  config.endBit = c.endBit;
  config.discardKeys = c.discardKeys != 0;
  return config;
}

// A C array of prepared sorts as C++ ones (empty for null).
inline std::vector<vksort::PreparedSort> toCpp(const VksortPreparedSort* sorts, uint32_t count) {
  std::vector<vksort::PreparedSort> out;
  for (uint32_t i = 0; sorts && i < count; ++i)
    out.push_back({.config = toCpp(sorts[i].config), .maxCount = sorts[i].maxCount});
  return out;
}

// A C create info as the C++ one, with the arrays and options it points to.
struct CreateInfo {
  vksort::SorterCreateInfo info;
  std::vector<vksort::PreparedSort> prepared;
  vksort::SorterDeveloperOptions developer;
  explicit CreateInfo(const VksortSorterCreateInfo& ci) : prepared(toCpp(ci.pPreparedSorts, ci.preparedSortCount)) {
    info.instance = ci.instance;
    info.vkGetInstanceProcAddr = ci.vkGetInstanceProcAddr;
    info.physicalDevice = ci.physicalDevice;
    info.device = ci.device;
    info.vkGetDeviceProcAddr = ci.vkGetDeviceProcAddr;
    info.pDeviceCreateInfo = ci.pDeviceCreateInfo;
    info.pipelineCache = ci.pipelineCache;
    info.pAllocationCallbacks = ci.pAllocationCallbacks;
    info.algorithm = vksort::Algorithm(ci.algorithm);
    info.preparedSortCount = ci.preparedSortCount;
    info.pPreparedSorts = ci.pPreparedSorts ? prepared.data() : nullptr;
    if (ci.pDeveloperOptions) {
      developer.tuning = ci.pDeveloperOptions->tuning;
      developer.pipelineStatistics = ci.pDeveloperOptions->pipelineStatistics != VK_FALSE;
      info.pDeveloperOptions = &developer;
    }
    info.pTuningData = ci.pTuningData;
    info.tuningDataSize = ci.tuningDataSize;
    info.requireTuningData = ci.requireTuningData != VK_FALSE;
  }
  CreateInfo(const CreateInfo&) = delete;
};

}  // namespace vksort::capi
