#include "scratch_layout.hpp"

#include <algorithm>

#include "shader_interface.h"

namespace vksort::detail {

ScratchLayout scratchLayout(const Tuning& tuning, const SortConfig& config, uint32_t maxCount) {
  auto aligned = [](VkDeviceSize bytes) { return (bytes + kScratchAlignment - 1) / kScratchAlignment * kScratchAlignment; };
  const uint32_t words = elementWords(config);
  // What the tiles of any sort of up to maxCount keys need (the smaller sorts' tiles, and from
  // largeTileFrom the large ones): look-back words for the tiles of one portion (every binning
  // dispatch covers at most that), tickets for the portions of every pass, the tile table.
  VkDeviceSize statusBytes = 0, ticketBytes = 0, tableBytes = 0;
  for (uint32_t tileKeys : {tuning.tile[words - 1].keys(), tuning.tileFor(words, maxCount).keys()}) {
    const uint32_t portion = tuning.portionKeys(tileKeys);
    const uint32_t keys = maxCount < portion ? maxCount : portion;
    statusBytes = std::max(statusBytes, aligned((VkDeviceSize(keys) + tileKeys - 1) / tileKeys * kRadix * 4));
    ticketBytes = std::max(ticketBytes, aligned(VkDeviceSize(kMaxPasses) * ((VkDeviceSize(maxCount) + portion - 1) / portion) * 4));
    tableBytes = std::max(tableBytes, aligned((VkDeviceSize(maxCount) + tileKeys - 1) / tileKeys * kRadix * 4));
  }
  ScratchLayout l{};
  VkDeviceSize at = 0;
  l.header = at;
  at += aligned(kHeaderWords * 4);
  if (tuning.algorithm == Algorithm::onesweep) {
    l.tickets = at;
    at += ticketBytes;
    l.status[0] = at;
    at += statusBytes;
    l.status[1] = at;
    at += statusBytes;
  } else {
    l.table = at;
    at += tableBytes;
  }
  l.keysAlt = at;
  at += aligned(VkDeviceSize(maxCount) * keyBytes(config.keyType));
  l.valuesAlt = at;
  at += aligned(VkDeviceSize(maxCount) * valueBytes(config.valueType));
  l.size = at;
  return l;
}

}  // namespace vksort::detail
