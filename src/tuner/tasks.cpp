#include "tasks.hpp"

namespace vksort::detail {

SortConfig taskConfig(uint32_t cls, const TuneInfo& info) {
  SortConfig chosen = configOfClass(cls);
  uint32_t most = 0;
  for (uint32_t i = 0; i < info.sortCount; ++i) {
    const PreparedSort& p = info.pSorts[i];
    if (tileClass(p.config) != cls || p.config.valueType == ValueType::u64 || p.maxCount <= most) continue;
    most = p.maxCount;
    chosen = p.config;
    chosen.endBit = endBitOf(chosen);
    // Index values run u32 values' pipelines; the tuner reads back keys and values to check them.
    if (chosen.valueType == ValueType::index) chosen.valueType = ValueType::u32;
    chosen.discardKeys = false;
  }
  return chosen;
}

}  // namespace vksort::detail
