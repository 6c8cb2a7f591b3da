// The tile renderer's shared facts (tile_constants.h, which the host reads too).
#ifndef SPLATS_TILES_GLSL
#define SPLATS_TILES_GLSL
#include "splat_common.glsl"

#include "tile_constants.h"
const uint kTileSize = SPLATS_TILE_SIZE;
const uint kCountCopies = SPLATS_COUNT_COPIES;
const uint kCountVisible = SPLATS_COUNT_VISIBLE;
const uint kCountRangesDispatch = SPLATS_COUNT_RANGES_DISPATCH;

// Key slots written: the copies, as many as fit.
uint keysWritten() { return min(frame.counts.v[kCountCopies], frame.capacity); }

// The tile of sorted key `i`: two-phase, the u32 key itself; else the high word of the u64 key.
uint tileOfKey(uint i) { return frame.twoPhase != 0u ? frame.keys.v[i] : frame.keys.v[2u * i + 1u]; }

#endif  // SPLATS_TILES_GLSL
