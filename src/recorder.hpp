// Records one sort's plan (plan.hpp): its dispatches, their push constants and barriers.
#pragma once
#include "for_tuner.hpp"
#include "plan.hpp"
#include "sorter_state.hpp"

namespace vksort::detail {

struct SortAddresses {
  VkDeviceAddress keys;
  VkDeviceAddress values;   // 0 for keys alone
  VkDeviceAddress scratch;  // start of the scratch range
  VkDeviceAddress count;    // indirect sorts: the caller's u32 count; else 0
};

// The pipelines of one sort, by role (a role the plan does not use: null).
struct SortPipelines {
  VkPipeline byRole[kRoles];
};
// Gets (creating on first use) the pipelines of a plan; fails only if Vulkan does.
VKSORT_FOR_TUNER Status getSortPipelines(const Sorter_T& sorter, const SortPlan& plan, SortPipelines* out);

// Records a sort as planned: a barrier first (sorts sharing a scratch buffer may follow each
// other), then each dispatch with its push constants and barriers. When asked, a timestamp before
// the first dispatch and after init, histogram, scan, each pass and the copy-back; the stamps a
// shorter path does not write follow its last dispatch. info.count is at least 1; arguments are
// checked.
void recordSort(const Sorter_T& sorter, VkCommandBuffer cmd, const SortInfo& info, const SortAddresses& addresses,
                const SortPlan& plan, const SortPipelines& pipelines);

}  // namespace vksort::detail
