// Facts the tile renderer's host code (splat_tiles.cpp) and shaders (tiles.glsl) share: both
// languages read this file.
#ifndef SPLATS_TILE_CONSTANTS_H
#define SPLATS_TILE_CONSTANTS_H
#define SPLATS_TILE_SIZE 16u  // pixels per side; the blend's workgroup is one tile
// The counts buffer's words.
#define SPLATS_COUNT_COPIES 0u   // splat copies the project pass asked for (may pass the capacity)
#define SPLATS_COUNT_VISIBLE 1u  // splats that touch a tile
#define SPLATS_COUNT_RANGES_DISPATCH 2u  // [2..4]: the ranges pass's VkDispatchIndirectCommand
#define SPLATS_COUNT_WORDS 5u
// Two-phase: sorted splats per workgroup of the passes that copy them, one a thread
// (sorted_copies.glsl).
#define SPLATS_COPY_BLOCK 256u
#endif
