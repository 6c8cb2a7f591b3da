// The C API's create info for the device of a C++ one: no pipeline cache, allocator, prepared
// sorts, developer options or tuning data; `algorithm` as given.
#pragma once
#include <vksort/vksort.h>

#include "vksort/vksort.hpp"

namespace vksort_test {

inline VksortSorterCreateInfo cCreateInfo(const vksort::SorterCreateInfo& cpp,
                                          VksortAlgorithm algorithm = VKSORT_ALGORITHM_AUTOMATIC) {
  return {.instance = cpp.instance,
          .vkGetInstanceProcAddr = cpp.vkGetInstanceProcAddr,
          .physicalDevice = cpp.physicalDevice,
          .device = cpp.device,
          .vkGetDeviceProcAddr = cpp.vkGetDeviceProcAddr,
          .pDeviceCreateInfo = cpp.pDeviceCreateInfo,
          .pipelineCache = VK_NULL_HANDLE,
          .pAllocationCallbacks = nullptr,
          .algorithm = algorithm,
          .preparedSortCount = 0,
          .pPreparedSorts = nullptr,
          .pDeveloperOptions = nullptr,
          .pTuningData = nullptr,
          .tuningDataSize = 0,
          .requireTuningData = VK_FALSE};
}

}  // namespace vksort_test
