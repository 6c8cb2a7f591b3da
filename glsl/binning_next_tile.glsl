// The end of a binning tile's turn: scatter, then the next tile of a persistent workgroup loaded
// and, for keys alone, counted early.
#ifndef VKSORT_BINNING_NEXT_TILE_GLSL
#define VKSORT_BINNING_NEXT_TILE_GLSL
#include "binning_scatter.glsl"
#include "pass_route.glsl"

// EARLY_NEXT_COUNT: the next tile's keys, in t_keys / t_count, into this subgroup's own counters
// (cleared first, unless KNOWN_ROWS; and s_uniformDigit reset for the row sums). No workgroup
// barrier: the other subgroup of the pair may be counting into the words' other halves meanwhile.
void countOwnRowEarly(uint shift, uint hot) {
  if (!KNOWN_ROWS) {
    uint row = counterWord(gl_SubgroupID, 0u), keep = 0xFFFF0000u >> counterShift(gl_SubgroupID);
    for (uint d = gl_SubgroupInvocationID; d < kRadix; d += gl_SubgroupSize) counterAnd(row + d, keep);
  }
  if (gl_LocalInvocationIndex == 0u) s_uniformDigit = kRadix;
  if (!KNOWN_ROWS) subgroupSharedBarrier();
  countIntoRows(shift, hot);
}

// A pass that copies (pass_route.glsl): `n` (at most TILE) keys and their values from the
// input bases to the output bases, every load of an invocation in flight before its stores, as
// a tile loads. Keys unless none are wanted, values once there are some (pass_route.glsl).
void copyTile(uvec2 keysIn, uvec2 keysOut, uvec2 valsIn, uvec2 valsOut, uint n) {
  uint tid = gl_LocalInvocationIndex;
  if (passWritesKeys()) {
    KeyT k[KPI];
    [[unroll]] for (uint u = 0u; u < KPI; ++u) k[u] = u * WG + tid < n ? KEYS_IN(keysIn).v[u * WG + tid] : KeyT(0u);
    [[unroll]] for (uint u = 0u; u < KPI; ++u)
      if (u * WG + tid < n) KEYS_OUT(keysOut).v[u * WG + tid] = k[u];
  }
  if (VALUE_WORDS == 0u || passIndexValues()) return;
  uvec2 v[KPI];
  [[unroll]] for (uint u = 0u; u < KPI; ++u) {
    uint i = u * WG + tid;
    if (i < n) v[u] = VALUE_WORDS == 2u ? VALS_IN64(valsIn).v[i] : uvec2(VALS_IN(valsIn).v[i], 0u);
  }
  [[unroll]] for (uint u = 0u; u < KPI; ++u) {
    uint i = u * WG + tid;
    if (i >= n) continue;
    if (VALUE_WORDS == 2u) VALS_OUT64(valsOut).v[i] = v[u];
    else VALS_OUT(valsOut).v[i] = v[u].x;
  }
}

// Persistent tiles (tile_tickets.glsl), the end of a turn of a kernel's tile loop: the tile (its
// first key at tileStart) scatters, keys then values (with EARLY_HELD_VALUES the values load
// first); where a next tile came (`more`: nextCount keys from key nextStart, at nextAt; with
// RIDING_VALUES their values too) the workgroup loads it and gets ready for it, else the loop
// ends (`break`). When the next tile loads is what hides its latency: keys alone during the
// scatter; pairs in one round once their values are in the reorder area, their keys and values
// in registers spent, so that the loads fly while the values scatter; in several rounds, and a
// uniform tile's, after their values (written out per round it spilled). With EARLY_NEXT_COUNT
// each subgroup then counts its keys of it (hot: the pass's hot digit, as countTile() takes) and
// `counted` says so.
// A macro, not a function returning whether a next tile came: NVIDIA's compiler makes the
// function form of the persistent keys-alone loop much slower (PERFORMANCE-LOG.md, session 39).
#define SCATTER_THEN_NEXT_TILE(tileStart, more, nextStart, nextAt, nextCount, hot, counted)          \
  {                                                                                                 \
    KeyT nextKeys[KPI];                                                                             \
    uvec2 heldValues[KPI];                                                                          \
    uvec2 valuesIn = addressAt(uvec2(pc.valsIn), tileStart, valueLog2Bytes());                      \
    if ((more) && VALUE_WORDS == 0u) loadTileInto(nextKeys, nextAt, nextCount);                     \
    if (EARLY_HELD_VALUES) loadHeldValues(heldValues, valuesIn);                                    \
    scatterKeys(uvec2(pc.keysOut), pc.shift);                                                       \
    bool nextLoaded = VALUE_WORDS == 0u;                                                            \
    if (VALUE_WORDS != 0u && (DEFERRED_STORES || t_uniform)) {                                      \
      scatterValues(valuesIn, uvec2(pc.valsOut), EARLY_HELD_VALUES, heldValues);                    \
    } else if (VALUE_WORDS != 0u) {                                                                 \
      barrier(); /* the keys have left the area */                                                  \
      placeValuesOfRound(0u, valuesIn, heldValues);                                                 \
      if (more) {                                                                                   \
        loadTileInto(nextKeys, nextAt, nextCount);                                                  \
        if (RIDING_VALUES) loadRidingValues(addressAt(uvec2(pc.valsIn), nextStart, 2u), pc.portionStart + nextStart, nextCount); \
        nextLoaded = true;                                                                          \
      }                                                                                             \
      barrier();                                                                                    \
      scatterValuesOfRound(0u, uvec2(pc.valsOut));                                                  \
    }                                                                                               \
    if (!(more)) break;                                                                             \
    if (!nextLoaded) {                                                                              \
      loadTileInto(nextKeys, nextAt, nextCount);                                                    \
      if (RIDING_VALUES) loadRidingValues(addressAt(uvec2(pc.valsIn), nextStart, 2u), pc.portionStart + nextStart, nextCount);   \
    }                                                                                               \
    if (!EARLY_NEXT_COUNT) {                                                                        \
      barrier(); /* the scatter is done with s_tile, s_digitDest and s_uniformDigit */              \
      clearTileCounts();                                                                            \
      barrier();                                                                                    \
    }                                                                                               \
    t_count = nextCount;                                                                            \
    [[unroll]] for (uint i = 0u; i < KPI; ++i) t_keys[i] = nextKeys[i];                             \
    mapTileKeysIn();                                                                                \
    if (EARLY_NEXT_COUNT) {                                                                         \
      countOwnRowEarly(pc.shift, hot);                                                              \
      counted = true;                                                                               \
    }                                                                                               \
  }

#endif  // VKSORT_BINNING_NEXT_TILE_GLSL
