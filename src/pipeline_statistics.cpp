#include "pipeline_statistics.hpp"

#include <cinttypes>
#include <cstdio>
#include <vector>

namespace vksort::detail {

void printPipelineStatistics(const VolkDeviceTable& vk, VkDevice device, VkPipeline pipeline, const char* name) {
  if (!vk.vkGetPipelineExecutablePropertiesKHR || !vk.vkGetPipelineExecutableStatisticsKHR) return;
  VkPipelineInfoKHR info = vkStruct<VkPipelineInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR);
  info.pipeline = pipeline;
  uint32_t executables = 0;
  if (vk.vkGetPipelineExecutablePropertiesKHR(device, &info, &executables, nullptr) != VK_SUCCESS) return;
  for (uint32_t e = 0; e < executables; ++e) {
    VkPipelineExecutableInfoKHR exe =
        vkStruct<VkPipelineExecutableInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR);
    exe.pipeline = pipeline;
    exe.executableIndex = e;
    uint32_t n = 0;
    if (vk.vkGetPipelineExecutableStatisticsKHR(device, &exe, &n, nullptr) != VK_SUCCESS) continue;
    std::vector<VkPipelineExecutableStatisticKHR> stats(
        n, vkStruct<VkPipelineExecutableStatisticKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR));
    if (vk.vkGetPipelineExecutableStatisticsKHR(device, &exe, &n, stats.data()) != VK_SUCCESS) continue;
    std::fprintf(stderr, "vksort pipeline %s:", name);
    for (const VkPipelineExecutableStatisticKHR& s : stats) {
      switch (s.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
          std::fprintf(stderr, " %s=%u;", s.name, s.value.b32);
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
          std::fprintf(stderr, " %s=%" PRId64 ";", s.name, s.value.i64);
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
          std::fprintf(stderr, " %s=%" PRIu64 ";", s.name, s.value.u64);
          break;
        default: std::fprintf(stderr, " %s=%g;", s.name, s.value.f64); break;
      }
    }
    std::fprintf(stderr, "\n");
  }
}

}  // namespace vksort::detail
