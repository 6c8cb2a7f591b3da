// tuneSorts(): the public entry of the tuner's wing. Its arguments checked, the device checked as
// createSorter checks it, then the search (search.hpp) on the bench (bench.hpp).
#include "search.hpp"

namespace vksort {
using namespace detail;

Status tuneSorts(const TuneInfo& info, TuningResult* pResult) {
  const auto start = std::chrono::steady_clock::now();
  if (!pResult) return fail(Result::errorInvalidArgument, "pResult is null");
  if (!info.pSorterCreateInfo) return fail(Result::errorInvalidArgument, "TuneInfo::pSorterCreateInfo is null");
  if (!info.queue) return fail(Result::errorInvalidArgument, "TuneInfo::queue is VK_NULL_HANDLE");
  if (info.sortCount != 0 && !info.pSorts)
    return fail(Result::errorInvalidArgument, "sortCount is %u but pSorts is null", info.sortCount);
  if (!(info.timeBudgetSeconds >= 0)) return fail(Result::errorInvalidArgument, "timeBudgetSeconds is negative");
  for (uint32_t i = 0; i < info.sortCount; ++i) {
    const SortConfig& c = info.pSorts[i].config;
    if (keyBytes(c.keyType) == 0 || uint32_t(c.valueType) > uint32_t(ValueType::index))
      return fail(Result::errorInvalidArgument, "pSorts[%u] has an unknown key or value type", i);
  }
  // The device and its create info are checked as createSorter checks them.
  {
    Sorter probe = nullptr;
    SorterCreateInfo ci = *info.pSorterCreateInfo;
    ci.preparedSortCount = 0;
    ci.pTuningData = nullptr;
    ci.tuningDataSize = 0;
    ci.requireTuningData = false;
    if (Status st = createSorter(ci, &probe); !st) return st;
    destroySorter(probe);
  }
  const double budget = info.timeBudgetSeconds > 0 ? info.timeBudgetSeconds : 60;
  TuningBench bench(info, budget * 50);  // one heat at most a twentieth of the budget
  if (Status st = bench.init(); !st) return st;
  TuningResult result;
  if (Status st = Search(info, bench, budget, start).run(&result); !st) return st;
  *pResult = std::move(result);
  return {};
}

}  // namespace vksort
