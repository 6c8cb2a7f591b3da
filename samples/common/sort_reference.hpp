// The CPU reference for what vksort promises: the bits of a key that decide its order under a
// SortConfig (type map, order, bit range), as include/vksort/vksort.hpp and keys.glsl describe
// them. Shared by the tests and the benchmark's checks.
#pragma once
#include <cstdint>

#include "vksort/vksort.hpp"

namespace vkctx {

inline uint32_t referenceOrderBits(uint32_t key, const vksort::SortConfig& c) {
  uint32_t bits = key;
  if (c.keyType == vksort::KeyType::i32) bits = key ^ 0x80000000u;
  if (c.keyType == vksort::KeyType::f32) {
    if (key == 0x80000000u) key = 0;  // -0.0 == +0.0
    bits = (key & 0x80000000u) ? ~key : key | 0x80000000u;
  }
  if (c.order == vksort::SortOrder::descending) bits = ~bits;
  uint32_t width = c.endBit - c.beginBit;
  return (bits >> c.beginBit) & (width == 32 ? ~0u : (1u << width) - 1);
}

}  // namespace vkctx
