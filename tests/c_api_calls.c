/* The C API used from C (compiled as C11): creation, queries, error reports, recording. The
 * Vulkan objects come from test_c_api.cpp. Each function returns 0, or the failing line. */
#include <string.h>
#include <vksort/vksort.h>

#define EXPECT(x)              \
  do {                         \
    if (!(x)) return __LINE__; \
  } while (0)

int cApiCreate(const VksortSorterCreateInfo* createInfo, uint32_t count, VksortSorter* sorter,
               VksortScratchRequirements* scratch) {
  VksortSorter none = NULL;
  EXPECT(vksortCreateSorter(NULL, &none) == VKSORT_ERROR_INVALID_ARGUMENT);
  EXPECT(strlen(vksortGetLastErrorMessage()) > 0 && none == NULL);
  VksortSorterCreateInfo withoutDevice = *createInfo; /* the device's create info is required */
  withoutDevice.pDeviceCreateInfo = NULL;
  EXPECT(vksortCreateSorter(&withoutDevice, &none) == VKSORT_ERROR_INVALID_ARGUMENT);
  EXPECT(strstr(vksortGetLastErrorMessage(), "pDeviceCreateInfo is null") != NULL && none == NULL);
  EXPECT(vksortCreateSorter(createInfo, sorter) == VKSORT_SUCCESS);

  VksortSorterProperties properties;
  vksortGetSorterProperties(*sorter, &properties);
  EXPECT(properties.subgroupSize >= 4 && properties.maxCount >= count);

  VksortSortConfig config = {VKSORT_KEY_TYPE_F32, VKSORT_VALUE_TYPE_U32, VKSORT_SORT_ORDER_DESCENDING, 0, 32, 0};
  EXPECT(vksortGetScratchRequirements(*sorter, &config, count, scratch) == VKSORT_SUCCESS);
  EXPECT(scratch->size > 0 && (scratch->usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT));
  EXPECT(vksortGetSortTimestampCount(&config) == 8);
  config.endBit = 33;
  EXPECT(vksortGetScratchRequirements(*sorter, &config, count, scratch) == VKSORT_ERROR_INVALID_ARGUMENT);
  EXPECT(strstr(vksortGetLastErrorMessage(), "bit range") != NULL);
  config.endBit = 32;
  EXPECT(vksortGetScratchRequirements(*sorter, &config, count, scratch) == VKSORT_SUCCESS);

  /* The plan as text: its size first, then the text; a short buffer gets a NUL-terminated start. */
  size_t size = 0;
  EXPECT(vksortDescribeSort(*sorter, &config, count, VK_FALSE, NULL, &size) == VKSORT_SUCCESS && size > 1);
  char text[16384];
  size_t room = sizeof text;
  EXPECT(size <= room);
  EXPECT(vksortDescribeSort(*sorter, &config, count, VK_FALSE, text, &room) == VKSORT_SUCCESS);
  EXPECT(room == size && strlen(text) == size - 1 && strstr(text, "f32 keys with u32 values, descending") != NULL);
  char start[8];
  room = sizeof start;
  EXPECT(vksortDescribeSort(*sorter, &config, count, VK_FALSE, start, &room) == VKSORT_SUCCESS);
  EXPECT(room == size && strlen(start) == sizeof start - 1 && strncmp(start, text, sizeof start - 1) == 0);
  EXPECT(vksortDescribeSort(*sorter, &config, count, VK_FALSE, text, NULL) == VKSORT_ERROR_INVALID_ARGUMENT);
  return 0;
}

/* Records a descending sort of `count` f32 keys with u32 values, after one rejected call. */
int cApiRecord(VksortSorter sorter, VkCommandBuffer cmd, VkBuffer keys, VkBuffer values, VkBuffer scratch,
               VkDeviceSize scratchSize, uint32_t count) {
  VksortSortInfo info;
  memset(&info, 0, sizeof info);
  VksortSortConfig config = {VKSORT_KEY_TYPE_F32, VKSORT_VALUE_TYPE_U32, VKSORT_SORT_ORDER_DESCENDING, 0, 32, 0};
  info.config = config;
  info.count = count + 1; /* above maxCount: rejected */
  info.maxCount = count;
  info.keys.buffer = keys;
  info.keys.size = (VkDeviceSize)count * 4;
  info.values.buffer = values;
  info.values.size = (VkDeviceSize)count * 4;
  info.scratch.buffer = scratch;
  info.scratch.size = scratchSize;
  EXPECT(vksortRecordSort(sorter, cmd, &info) == VKSORT_ERROR_INVALID_ARGUMENT);
  EXPECT(strstr(vksortGetLastErrorMessage(), "maxCount") != NULL);
  info.count = count;
  EXPECT(vksortRecordSort(sorter, cmd, &info) == VKSORT_SUCCESS);
  return 0;
}

/* Setting up from C: device requirements into a feature chain, a sorter with a prepared sort and
 * developer options (a bad override rejected), prepareSorts, and the zeroed config's whole key. */
int cApiSetup(const VksortSorterCreateInfo* createInfo, PFN_vkGetInstanceProcAddr getInstanceProcAddr) {
  VkPhysicalDeviceVulkan12Features features12;
  memset(&features12, 0, sizeof features12);
  features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  VkPhysicalDeviceFeatures2 features2;
  memset(&features2, 0, sizeof features2);
  features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features2.pNext = &features12;
  VksortDeviceRequirements requirements;
  EXPECT(vksortGetDeviceRequirements(createInfo->instance, getInstanceProcAddr, createInfo->physicalDevice, &features2,
                                     &requirements) == VKSORT_SUCCESS);
  EXPECT(features12.bufferDeviceAddress == VK_TRUE && requirements.extensionCount <= VKSORT_MAX_REQUIRED_EXTENSIONS);
  EXPECT(vksortGetDeviceRequirements(createInfo->instance, getInstanceProcAddr, createInfo->physicalDevice, NULL,
                                     &requirements) == VKSORT_ERROR_INVALID_ARGUMENT);
  /* The easy mistake: the VkPhysicalDeviceFeatures that pEnabledFeatures takes, cast. Its first
   * VkBool32s stand where sType and pNext belong: refused before any pNext is followed. */
  VkPhysicalDeviceFeatures features10;
  memset(&features10, 0xFF, sizeof features10); /* every byte set: pNext would point nowhere */
  features10.robustBufferAccess = VK_TRUE;
  EXPECT(vksortGetDeviceRequirements(createInfo->instance, getInstanceProcAddr, createInfo->physicalDevice,
                                     (VkPhysicalDeviceFeatures2*)&features10,
                                     &requirements) == VKSORT_ERROR_INVALID_ARGUMENT);
  EXPECT(strstr(vksortGetLastErrorMessage(), "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2") != NULL);

  VksortSortConfig whole; /* zeroed: u32 keys alone, ascending, every bit */
  memset(&whole, 0, sizeof whole);
  EXPECT(vksortGetSortTimestampCount(&whole) == 8);
  whole.keyType = VKSORT_KEY_TYPE_U64;
  EXPECT(vksortGetSortTimestampCount(&whole) == 12);

  VksortPreparedSort prepared = {whole, 5000};
  VksortSorterDeveloperOptions developer = {"no_such_knob=1", VK_FALSE};
  VksortSorterCreateInfo info = *createInfo;
  info.preparedSortCount = 1;
  info.pPreparedSorts = &prepared;
  info.pDeveloperOptions = &developer;
  VksortSorter sorter = NULL;
  EXPECT(vksortCreateSorter(&info, &sorter) == VKSORT_ERROR_INVALID_ARGUMENT && sorter == NULL);
  EXPECT(strstr(vksortGetLastErrorMessage(), "no_such_knob") != NULL);
  developer.tuning = "algorithm=2";
  EXPECT(vksortCreateSorter(&info, &sorter) == VKSORT_SUCCESS);
  VksortSorterProperties properties;
  vksortGetSorterProperties(sorter, &properties);
  EXPECT(properties.algorithm == VKSORT_ALGORITHM_REDUCE_THEN_SCAN);
  EXPECT(vksortPrepareSorts(sorter, 1, &prepared) == VKSORT_SUCCESS);
  prepared.config.endBit = 65;
  EXPECT(vksortPrepareSorts(sorter, 1, &prepared) == VKSORT_ERROR_INVALID_ARGUMENT);
  EXPECT(strstr(vksortGetLastErrorMessage(), "bit range") != NULL);
  vksortDestroySorter(sorter);
  return 0;
}
