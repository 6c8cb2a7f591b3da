/* vksort C API: the same sorter as vksort.hpp, for C, Rust, Zig and engines that avoid C++ ABIs.
 * Every type and function mirrors its C++ twin (see vksort.hpp for the full contract: memory,
 * barrier contract, errors). Functions returning VksortResult record nothing on failure; the
 * message of the calling thread's last failure is vksortGetLastErrorMessage(). Every struct has
 * its C++ twin's fields in the same order (src/c_api.cpp checks it at compile time). */
#ifndef VKSORT_VKSORT_H
#define VKSORT_VKSORT_H

#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#include "vksort_export.h"
#define VKSORT_C_API VKSORT_EXPORT

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VksortSorter_T* VksortSorter;

typedef enum VksortResult {
  VKSORT_SUCCESS = 0,
  VKSORT_ERROR_INVALID_ARGUMENT = -1,
  VKSORT_ERROR_FEATURE_NOT_PRESENT = -2,
  VKSORT_ERROR_VULKAN = -3,
  VKSORT_ERROR_INCOMPATIBLE_TUNING = -4,
  VKSORT_ERROR_CANCELLED = -5
} VksortResult;

typedef enum VksortKeyType {
  VKSORT_KEY_TYPE_U32 = 0,
  VKSORT_KEY_TYPE_I32 = 1,
  VKSORT_KEY_TYPE_F32 = 2,
  VKSORT_KEY_TYPE_U64 = 3,
  VKSORT_KEY_TYPE_I64 = 4,
  VKSORT_KEY_TYPE_F64 = 5
} VksortKeyType;
typedef enum VksortValueType { VKSORT_VALUE_TYPE_NONE = 0, VKSORT_VALUE_TYPE_U32 = 1, VKSORT_VALUE_TYPE_U64 = 2 } VksortValueType;
typedef enum VksortSortOrder { VKSORT_SORT_ORDER_ASCENDING = 0, VKSORT_SORT_ORDER_DESCENDING = 1 } VksortSortOrder;

typedef enum VksortAlgorithm {
  VKSORT_ALGORITHM_AUTOMATIC = 0,
  VKSORT_ALGORITHM_ONESWEEP = 1,
  VKSORT_ALGORITHM_REDUCE_THEN_SCAN = 2
} VksortAlgorithm;

/* A zero-initialized config is u32 keys, no values, ascending, over the whole key (endBit 0). */
typedef struct VksortSortConfig {
  VksortKeyType keyType;
  VksortValueType valueType;
  VksortSortOrder order;
  uint32_t beginBit; /* beginBit < endBit <= 32 (64 for 64-bit keys) */
  uint32_t endBit;   /* 0: the whole key */
} VksortSortConfig;

#define VKSORT_MAX_REQUIRED_EXTENSIONS 4
typedef struct VksortDeviceRequirements {
  uint32_t extensionCount;
  const char* extensionNames[VKSORT_MAX_REQUIRED_EXTENSIONS];
} VksortDeviceRequirements;

typedef struct VksortPreparedSort {
  VksortSortConfig config;
  uint32_t maxCount;
} VksortPreparedSort;

typedef struct VksortSorterDeveloperOptions {
  const char* tuning;          /* optional: "name=value,..." (docs/TUNING.md) */
  VkBool32 pipelineStatistics; /* print pipelines' compiler statistics */
} VksortSorterDeveloperOptions;

typedef struct VksortSorterCreateInfo {
  VkInstance instance;                          /* must not be null */
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr; /* must not be null */
  VkPhysicalDevice physicalDevice;
  VkDevice device;
  PFN_vkGetDeviceProcAddr vkGetDeviceProcAddr;  /* optional */
  const VkDeviceCreateInfo* pDeviceCreateInfo;  /* what vkCreateDevice took; required */
  VkPipelineCache pipelineCache;                /* optional */
  const VkAllocationCallbacks* pAllocationCallbacks; /* optional */
  VksortAlgorithm algorithm;                    /* optional: 0 chooses per device */
  uint32_t preparedSortCount;                   /* optional: pipelines built at creation */
  const VksortPreparedSort* pPreparedSorts;
  const VksortSorterDeveloperOptions* pDeveloperOptions; /* optional */
  const void* pTuningData;                      /* optional: from vksortTuneSorts on this device */
  size_t tuningDataSize;
  VkBool32 requireTuningData;                   /* unusable tuning data fails creation */
} VksortSorterCreateInfo;

typedef struct VksortSorterProperties {
  uint32_t subgroupSize;
  VkBool32 requiredSubgroupSize;
  uint32_t maxCount;
  VksortAlgorithm algorithm;
  VkBool32 tuned; /* the create info's tuning data is in use */
} VksortSorterProperties;

typedef struct VksortScratchRequirements {
  VkDeviceSize size;
  VkDeviceSize alignment;
  VkBufferUsageFlags usage;
} VksortScratchRequirements;

typedef struct VksortBufferRange {
  VkBuffer buffer;
  VkDeviceSize offset;
  VkDeviceSize size;
  VkBufferUsageFlags usage; /* optional (0): the buffer's creation usage, checked when given */
} VksortBufferRange;

typedef struct VksortSortInfo {
  VksortSortConfig config;
  uint32_t count;                 /* ignored when countBuffer.buffer is not null */
  uint32_t maxCount;
  VksortBufferRange countBuffer;  /* optional: indirect sorts (vksort.hpp, SortInfo::countBuffer) */
  VksortBufferRange keys;
  VksortBufferRange values;       /* ignored for keys alone */
  VksortBufferRange scratch;
  VkQueryPool timestampPool;      /* optional profiling */
  uint32_t firstTimestamp;
} VksortSortInfo;

/* Before vkCreateDevice (vksort.hpp: getDeviceRequirements). */
VKSORT_C_API VksortResult vksortGetDeviceRequirements(VkInstance instance, PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr,
                                                      VkPhysicalDevice physicalDevice, VkPhysicalDeviceFeatures2* pFeatures,
                                                      VksortDeviceRequirements* pRequirements);
VKSORT_C_API VksortResult vksortCreateSorter(const VksortSorterCreateInfo* pCreateInfo, VksortSorter* pSorter);
VKSORT_C_API void vksortDestroySorter(VksortSorter sorter);
VKSORT_C_API void vksortGetSorterProperties(VksortSorter sorter, VksortSorterProperties* pProperties);
VKSORT_C_API VksortResult vksortPrepareSorts(VksortSorter sorter, uint32_t sortCount, const VksortPreparedSort* pSorts);
VKSORT_C_API VksortResult vksortGetScratchRequirements(VksortSorter sorter, const VksortSortConfig* pConfig,
                                                       uint32_t maxCount, VksortScratchRequirements* pRequirements);
VKSORT_C_API VksortResult vksortRecordSort(VksortSorter sorter, VkCommandBuffer commandBuffer,
                                           const VksortSortInfo* pInfo);
VKSORT_C_API uint32_t vksortGetSortTimestampCount(const VksortSortConfig* pConfig);
/* What a sort would run, as text (vksort.hpp: describeSort). Writes at most *pSize bytes,
 * NUL-terminated, to pText and sets *pSize to the bytes the whole text needs; pText may be NULL
 * to ask for the size. */
VKSORT_C_API VksortResult vksortDescribeSort(VksortSorter sorter, const VksortSortConfig* pConfig, uint32_t count,
                                             VkBool32 indirect, char* pText, size_t* pSize);
/* The message of the calling thread's last failed call ("" if none). Valid until its next call. */
/* Tuning on the device (vksort.hpp: tuneSorts). The result's data and report are allocated by
 * vksort: free them with vksortFreeTuningResult. */
typedef struct VksortTuningProgress {
  uint32_t step;
  uint32_t steps;
  const char* what;
} VksortTuningProgress;
typedef VkBool32 (*PFN_vksortTuningProgressC)(const VksortTuningProgress* pProgress, void* pUserData); /* VK_FALSE cancels */
typedef struct VksortTuneInfo {
  const VksortSorterCreateInfo* pSorterCreateInfo;
  VkQueue queue;
  uint32_t queueFamilyIndex;
  uint32_t sortCount; /* 0: every tile class up to 2^26 keys */
  const VksortPreparedSort* pSorts;
  float timeBudgetSeconds; /* 0: 60 */
  PFN_vksortTuningProgressC pfnProgress; /* optional */
  void* pUserData;
} VksortTuneInfo;
typedef struct VksortTuningResult {
  void* pData;
  size_t dataSize;
  char* pReport;
  double seconds;
} VksortTuningResult;
VKSORT_C_API VksortResult vksortTuneSorts(const VksortTuneInfo* pInfo, VksortTuningResult* pResult);
VKSORT_C_API void vksortFreeTuningResult(VksortTuningResult* pResult);

VKSORT_C_API const char* vksortGetLastErrorMessage(void);

/* The barrier contract (vksort.hpp): before a sort, make writes to keys/values available to
 * VKSORT_SORT_DST_STAGE / VKSORT_SORT_DST_ACCESS; after it, wait on VKSORT_SORT_SRC_*. */
#define VKSORT_SORT_DST_STAGE VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT
#define VKSORT_SORT_DST_ACCESS (VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT)
#define VKSORT_SORT_SRC_STAGE VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT
#define VKSORT_SORT_SRC_ACCESS VK_ACCESS_SHADER_WRITE_BIT
#define VKSORT_REQUIRED_BUFFER_USAGE (VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT)

#ifdef __cplusplus
}
#endif

#endif
