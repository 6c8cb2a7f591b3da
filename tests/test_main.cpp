// Test runner. Exits with 77 (CTest's skip code here) when the machine has no Vulkan device at
// all, unless VKSORT_REQUIRE_DEVICE=1 (CI sets it: lavapipe is always there, nothing may skip).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "test_support.hpp"

static bool anyVulkanDevice() {
  VkInstanceCreateInfo ici = vkctx::vkStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  VkInstance instance;
  if (vkCreateInstance(&ici, nullptr, &instance) != VK_SUCCESS) return false;
  uint32_t n = 0;
  vkEnumeratePhysicalDevices(instance, &n, nullptr);
  vkDestroyInstance(instance, nullptr);
  return n > 0;
}

int main(int argc, char** argv) {
  const char* require = std::getenv("VKSORT_REQUIRE_DEVICE");
  if (!anyVulkanDevice() && !(require && std::string(require) == "1")) {
    std::fprintf(stderr, "no Vulkan device: skipping\n");
    return 77;
  }
  doctest::Context context(argc, argv);
  int result = context.run();
  vksort_test::shutdownGpu();
  return result;
}
