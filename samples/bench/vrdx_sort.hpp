// vrdx (github.com/jaesung-cs/vulkan_radix_sort), the Vulkan sort that splat renderers such as
// vkgs use, behind the benchmark's --impl vrdx: built only where CMake is given its header
// (-DVKSORT_VRDX_DIR=folder with vk_radix_sort.h), so that both sorts run on identical inputs.
// It sorts u32 keys, alone or with u32 values, ascending, through push descriptors
// (VK_KHR_push_descriptor) and synchronization2.
#pragma once
#include <vulkan/vulkan_core.h>

#include <cstdint>

namespace vrdx_bench {

// Whether this build has vrdx.
bool available();

class Sorter {
 public:
  Sorter(VkPhysicalDevice physicalDevice, VkDevice device);
  ~Sorter();
  Sorter(const Sorter&) = delete;
  Sorter& operator=(const Sorter&) = delete;
  // Storage bytes and usage for up to n keys (with values: pairs).
  void requirements(uint32_t n, bool pairs, VkDeviceSize* size, VkBufferUsageFlags* usage) const;
  // Records a sort of n keys (and values) at offset 0 of their buffers; values null: keys alone.
  void record(VkCommandBuffer cmd, uint32_t n, VkBuffer keys, VkBuffer values, VkBuffer storage) const;

 private:
  void* sorter_ = nullptr;
};

}  // namespace vrdx_bench
