#include "scratch_layout.hpp"

#include "shader_interface.h"

namespace vksort::detail {

ScratchLayout scratchLayout(const Tuning& tuning, bool hasValues, uint32_t maxCount) {
  auto aligned = [](VkDeviceSize bytes) { return (bytes + kScratchAlignment - 1) / kScratchAlignment * kScratchAlignment; };
  VkDeviceSize tiles = (VkDeviceSize(maxCount) + tuning.tileKeys() - 1) / tuning.tileKeys();
  VkDeviceSize statusBytes = aligned(tiles * kRadix * 4);
  ScratchLayout l{};
  VkDeviceSize at = 0;
  l.header = at;
  at += aligned(kHeaderWords * 4);
  l.status[0] = at;
  at += statusBytes;
  l.status[1] = at;
  at += statusBytes;
  l.keysAlt = at;
  at += aligned(VkDeviceSize(maxCount) * 4);
  l.valuesAlt = at;
  if (hasValues) at += aligned(VkDeviceSize(maxCount) * 4);
  l.size = at;
  return l;
}

}  // namespace vksort::detail
