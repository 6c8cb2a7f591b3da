// A developer's aid for tuning: with VKSORT_PIPELINE_STATS set and
// VK_KHR_pipeline_executable_properties enabled by the caller, every pipeline vksort builds is
// created with its statistics captured, and they are printed to stderr (registers, shared and
// local memory, as the driver reports them: what bounds a kernel's occupancy).
#pragma once
#include "device_table.hpp"

namespace vksort::detail {

void printPipelineStatistics(const VolkDeviceTable& vk, VkDevice device, VkPipeline pipeline, const char* name);

}  // namespace vksort::detail
