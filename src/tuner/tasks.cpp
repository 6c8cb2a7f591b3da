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

uint64_t orderedKeyBits(const SortConfig& c, uint64_t raw) {
  const uint32_t bits = keyBytes(c.keyType) * 8;
  const uint64_t sign = uint64_t(1) << (bits - 1), all = bits == 64 ? ~uint64_t(0) : (sign << 1) - 1;
  uint64_t k = raw & all;
  switch (c.keyType) {
    case KeyType::u32:
    case KeyType::u64:
      break;
    case KeyType::i32:
    case KeyType::i64:
      k ^= sign;
      break;
    case KeyType::f32:
    case KeyType::f64:
      if (k == sign) k = 0;  // -0.0 sorts as +0.0
      k = (k & sign) ? ~k & all : k | sign;
      break;
  }
  const uint32_t width = endBitOf(c) - c.beginBit;
  const uint64_t range = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  k = (k >> c.beginBit) & range;
  return c.order == SortOrder::descending ? ~k & range : k;
}

}  // namespace vksort::detail
