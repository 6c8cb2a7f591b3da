#include "scratch_layout.hpp"

#include <algorithm>

#include "shader_interface.h"

namespace vksort::detail {

ScratchLayout scratchLayout(const Tuning& tuning, const SortConfig& config, uint32_t maxCount) {
  auto aligned = [](VkDeviceSize bytes) {
    return (bytes + kScratchAlignment - 1) / kScratchAlignment * kScratchAlignment;
  };
  // What the tiles of any sort of up to maxCount keys need, in whichever tier its count puts it:
  // look-back words for the tiles of one portion (every binning dispatch covers at most that),
  // tickets for the portions of every pass, the tile table.
  VkDeviceSize statusBytes = 0, ticketBytes = 0, tableBytes = 0;
  for (uint32_t i = 0; i < tuning.tierCount && tuning.tiers[i].from <= maxCount; ++i) {
    const TileShape& shape = tuning.tiers[i].shape[tileClass(config)];
    const uint32_t tileKeys = shape.keys();
    const uint32_t portion = tuning.portionKeys(tileKeys);
    // Counts of this tier: below the next tier's.
    const uint32_t count = i + 1 < tuning.tierCount ? std::min(maxCount, tuning.tiers[i + 1].from - 1) : maxCount;
    const uint32_t keys = std::min(count, portion);
    VkDeviceSize rows = (VkDeviceSize(keys) + tileKeys - 1) / tileKeys;
    // Tiles fitted to whole waves (Tuning::fittedTileKeys): up to the shape's tiles rounded up to
    // whole waves, in portions of as many tiles as the shortest tile's; the fewest keys a portion
    // of any fitted tile holds sizes the tickets.
    const bool fitted = tuning.fitsWaves(shape);
    uint32_t shortestPortion = portion;
    for (uint32_t kpi = 1; fitted && kpi < shape.keysPerInvocation; ++kpi)
      shortestPortion = std::min(shortestPortion, tuning.portionKeys(shape.workgroupSize * kpi));
    if (fitted) {
      const VkDeviceSize waves =
          ((VkDeviceSize(count) + tileKeys - 1) / tileKeys + tuning.waveWorkgroups - 1) / tuning.waveWorkgroups;
      const uint32_t portionTiles =
          tuning.portionKeys(shape.workgroupSize) / shape.workgroupSize;  // the most of any tile
      rows = std::max(rows, std::min(waves * tuning.waveWorkgroups, VkDeviceSize(portionTiles)));
    }
    statusBytes = std::max(statusBytes, aligned(rows * kRadix * 4));
    // (init clears the tickets of maxCount keys whatever the count)
    ticketBytes = std::max(
        ticketBytes,
        aligned(VkDeviceSize(kMaxPasses) * ((VkDeviceSize(maxCount) + shortestPortion - 1) / shortestPortion) * 4));
    tableBytes = std::max(tableBytes, aligned((VkDeviceSize(count) + tileKeys - 1) / tileKeys * kRadix * 4));
  }
  ticketBytes = std::max(ticketBytes, aligned(kChainCounters * 4));  // a chained sort's counters
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
  } else {  // a ticket counter per downsweep (one per pass), the tile table
    l.tickets = at;
    at += aligned(VkDeviceSize(kMaxPasses) * 4);
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
