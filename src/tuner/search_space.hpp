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
  laterTiers,             // not the first tier, whose pairs32 workgroup sizes the scan and the one-workgroup sort
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

// The tiles one step from `s` (of tile class `cls`, in the first tier or a later one, with the
// tuning `t`), along every axis that applies, none equal to `s` (the climb skips those it measured).
std::vector<TileShape> neighbours(const TileShape& s, bool firstTier, uint32_t cls, const Tuning& t);

// Where the tables never measured the device (Tuning::onesweepMeasured false: AMD, Intel, others),
// a task's climb starts from the fastest of these tiles, the row and the tile the class's tier
// below kept (one wave of builds): the tiles that won on measured devices are many single steps
// from a never-measured row. Keys per invocation are a 32-bit class's (64-bit classes take half:
// the same shared memory); the fitting cuts what the device's shared memory does not hold.
struct StartingTile {
  uint32_t workgroupSize, keysPerInvocation, reorderRounds;
};
constexpr StartingTile kStartingTiles[] = {{256, 4, 1},  {256, 16, 1}, {512, 8, 1},  {512, 18, 1},
                                           {768, 16, 2}, {896, 14, 2}, {1024, 12, 2}};
// kStartingTiles as tiles of `row`'s other fields; in the first tier (whose workgroup sizes the
// scan) with the row's workgroup and about each tile's keys. None equal to `row`.
std::vector<TileShape> startingTiles(const TileShape& row, bool firstTier, uint32_t cls);

// A tier of the tables whose counts span more than kSplitSpan times (a never-measured device's
// single tier) is tuned in parts that start at 2^kSplitFirstLog2 and every kSplitStepLog2 powers
// of two above: one tile cannot be best from a few thousand keys to 2^26. Each part becomes a tier
// of the tuning data (tuning.cpp, splitTiers()).
constexpr uint32_t kSplitSpan = 64;
constexpr uint32_t kSplitFirstLog2 = 16;
constexpr uint32_t kSplitStepLog2 = 4;

}  // namespace vksort::detail
