// The tuner's search space, as data: the axes along which one step of the hill climb moves a tile
// (a TileShape), each with the values a step may take and where it applies. search_space.cpp
// turns them into a tile's neighbours.
#pragma once
#include <cstdint>
#include <vector>

#include "tuning.hpp"

namespace vksort::detail {

// Where an axis applies.
enum class Where : uint8_t {
  always,
  laterTiers,             // not tier 0, whose pairs32 workgroup sizes the scan and the one-workgroup sort
  onesweep,               // the look-back's fields
  onesweepAtomicRanking,  // ranking first is a form of the atomic ranking
  onesweepWaves,          // tiles fitted to whole waves, where the device's tables fit any
  pairs,                  // the values' fields
};

// keysPerInvocation: the current value plus these steps of the tile's rounds, from 1 to the most.
constexpr int kKeysPerInvocationSteps[] = {-4, -2, -1, 1, 2, 4};
constexpr uint32_t kMaxKeysPerInvocation = 64;
// reorderRounds: 1 and 2, swapped alone and with keys per invocation scaled to keep the tile.
constexpr uint32_t kRoundChoices[] = {1, 2};
// workgroupSize: the sizes either side of the current one, with about as many keys per tile.
constexpr uint32_t kWorkgroupSizes[] = {128, 256, 384, 512, 768, 896, 1024};
// lookbackWindow: one less (1 steps to 2) and one more, up to the most.
constexpr uint32_t kMaxLookbackWindow = 16;

// A field of two values, each step to the other.
struct Choice {
  uint32_t TileShape::*field;
  uint32_t values[2];
  Where where;
};
constexpr Choice kChoices[] = {{&TileShape::fitPercent, {0, 100}, Where::onesweepWaves}};

// A boolean field, each step flipped.
struct Flip {
  bool TileShape::*field;
  Where where;
};
constexpr Flip kFlips[] = {
    {&TileShape::rankFirst, Where::onesweepAtomicRanking},
    {&TileShape::persistentTiles, Where::always},
    {&TileShape::lookbackPlainLoads, Where::onesweep},
    {&TileShape::prefetchPairs, Where::pairs},
    {&TileShape::ridingValues, Where::pairs},
};

// The tiles one step from `s` (tier `tier` of tile class `cls`, with the tuning `t`), along every
// axis that applies, none equal to `s` (the climb skips those it measured).
std::vector<TileShape> neighbours(const TileShape& s, uint32_t tier, uint32_t cls, const Tuning& t);

}  // namespace vksort::detail
