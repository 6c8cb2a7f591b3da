#include "vrdx_sort.hpp"

#include <stdexcept>
#include <string>

#ifdef VKSORT_BENCH_VRDX
#include <vulkan/vulkan.h>
// vrdx 0.4 is written against Vulkan 1.4 headers; Debian 12 has 1.3's, where the same
// functionality has its KHR names.
#ifndef VK_VERSION_1_4
typedef PFN_vkCmdPushDescriptorSetKHR PFN_vkCmdPushDescriptorSet;
#define VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR
#endif
#define VRDX_IMPLEMENTATION
#include <vk_radix_sort.h>
#endif

namespace vrdx_bench {

#ifdef VKSORT_BENCH_VRDX
bool available() { return true; }

Sorter::Sorter(VkPhysicalDevice physicalDevice, VkDevice device) {
  VrdxSorterCreateInfo info{physicalDevice, device, VK_NULL_HANDLE};
  VrdxSorter sorter = VK_NULL_HANDLE;
  if (VkResult r = vrdxCreateSorter(&info, &sorter); r != VK_SUCCESS)
    throw std::runtime_error("vrdxCreateSorter failed: " + std::to_string(r));
  sorter_ = sorter;
}
Sorter::~Sorter() { vrdxDestroySorter(static_cast<VrdxSorter>(sorter_)); }

void Sorter::requirements(uint32_t n, bool pairs, VkDeviceSize* size, VkBufferUsageFlags* usage) const {
  VrdxSorterStorageRequirements r{};
  if (pairs) vrdxGetSorterKeyValueStorageRequirements(static_cast<VrdxSorter>(sorter_), n, &r);
  else vrdxGetSorterStorageRequirements(static_cast<VrdxSorter>(sorter_), n, &r);
  *size = r.size;
  *usage = r.usage;
}

void Sorter::record(VkCommandBuffer cmd, uint32_t n, VkBuffer keys, VkBuffer values, VkBuffer storage) const {
  auto sorter = static_cast<VrdxSorter>(sorter_);
  if (values) vrdxCmdSortKeyValue(cmd, sorter, n, keys, 0, values, 0, storage, 0, VK_NULL_HANDLE, 0);
  else vrdxCmdSort(cmd, sorter, n, keys, 0, storage, 0, VK_NULL_HANDLE, 0);
}
#else
bool available() { return false; }
Sorter::Sorter(VkPhysicalDevice, VkDevice) {
  throw std::runtime_error("this benchmark was built without vrdx (configure with -DVKSORT_VRDX_DIR=...)");
}
Sorter::~Sorter() = default;
void Sorter::requirements(uint32_t, bool, VkDeviceSize*, VkBufferUsageFlags*) const {}
void Sorter::record(VkCommandBuffer, uint32_t, VkBuffer, VkBuffer, VkBuffer) const {}
#endif

}  // namespace vrdx_bench
