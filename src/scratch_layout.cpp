#include "scratch_layout.hpp"

#include "shader_interface.h"

namespace vksort::detail {

ScratchLayout scratchLayout(const Tuning& tuning, const SortConfig& config, uint32_t maxCount) {
  auto aligned = [](VkDeviceSize bytes) { return (bytes + kScratchAlignment - 1) / kScratchAlignment * kScratchAlignment; };
  const uint32_t words = elementWords(config);
  // Look-back words for the tiles of one portion: every binning dispatch covers at most that.
  uint32_t portion = tuning.portionKeys(words);
  uint32_t keys = maxCount < portion ? maxCount : portion;
  VkDeviceSize tiles = (VkDeviceSize(keys) + tuning.tileKeys(words) - 1) / tuning.tileKeys(words);
  VkDeviceSize statusBytes = aligned(tiles * kRadix * 4);
  ScratchLayout l{};
  VkDeviceSize at = 0;
  l.header = at;
  at += aligned(kHeaderWords * 4);
  if (tuning.algorithm == Algorithm::onesweep) {
    l.tickets = at;
    at += aligned(VkDeviceSize(kMaxPasses) * ((VkDeviceSize(maxCount) + portion - 1) / portion) * 4);
    l.status[0] = at;
    at += statusBytes;
    l.status[1] = at;
    at += statusBytes;
  } else {
    l.table = at;
    at += aligned((VkDeviceSize(maxCount) + tuning.tileKeys(words) - 1) / tuning.tileKeys(words) * kRadix * 4);
  }
  l.keysAlt = at;
  at += aligned(VkDeviceSize(maxCount) * keyBytes(config.keyType));
  l.valuesAlt = at;
  at += aligned(VkDeviceSize(maxCount) * valueBytes(config.valueType));
  l.size = at;
  return l;
}

}  // namespace vksort::detail
