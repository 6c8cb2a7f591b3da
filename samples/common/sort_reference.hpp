// The CPU reference for what vksort promises: the bits of a key that decide its order under a
// SortConfig (type map, order, bit range), as include/vksort/vksort.hpp and keys.glsl describe
// them. Shared by the tests and the benchmark's checks.
#pragma once
#include <cstdint>

#include "vksort/vksort.hpp"

namespace vkctx {

// `key` holds a 32-bit key in its low half, or a 64-bit key.
inline uint64_t referenceOrderBits(uint64_t key, const vksort::SortConfig& c) {
  const bool wide = vksort::keyBytes(c.keyType) == 8;
  const uint64_t all = wide ? ~0ull : 0xFFFFFFFFull;
  const uint64_t sign = wide ? 1ull << 63 : 1ull << 31;
  key &= all;
  uint64_t bits = key;
  switch (c.keyType) {
    case vksort::KeyType::i32:
    case vksort::KeyType::i64: bits = key ^ sign; break;
    case vksort::KeyType::f32:
    case vksort::KeyType::f64:
      if (key == sign) key = 0;  // -0.0 == +0.0
      bits = (key & sign) ? ~key & all : key | sign;
      break;
    default: break;
  }
  if (c.order == vksort::SortOrder::descending) bits = ~bits & all;
  uint32_t width = vksort::endBitOf(c) - c.beginBit;
  return (bits >> c.beginBit) & (width == 64 ? ~0ull : (1ull << width) - 1);
}

}  // namespace vkctx
