// The binning tile's load phase: a tile's keys (and riding values) from memory into registers,
// subgroup-striped (binning_tile.glsl's layout).
#ifndef VKSORT_BINNING_LOAD_GLSL
#define VKSORT_BINNING_LOAD_GLSL
#include "binning_tile.glsl"

// Loads the tile of `count` keys at `keys` (the tile's own base: some drivers compute index *
// element size in 32 bits: addressing.glsl).
void loadTileInto(out KeyT keys[KPI], uvec2 at, uint count) {
  if (WHOLE_LOADS && count == TILE) {
    [[unroll]] for (uint i = 0u; i < KPI; ++i) keys[i] = KEYS_IN(at).v[laneIndex(i)];
    return;
  }
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint idx = laneIndex(i);
    keys[i] = stepInTile(i) && idx < count ? KEYS_IN(at).v[idx] : KeyT(0u);
  }
}
// With MAPS_ONCE, the tile's keys (just loaded into t_keys) as ordered bits where this pass is
// the first that moves (pass_route.glsl): a branch per tile, not a test per key.
void mapTileKeysIn() {
  if (MAPS_ONCE && passMapsIn())
    [[unroll]] for (uint i = 0u; i < KPI; ++i) t_keys[i] = orderedBits(t_keys[i]);
}
void loadTile(uvec2 keys, uint count) {
  t_count = count;
  loadTileInto(t_keys, keys, count);
  mapTileKeysIn();
}
// RIDING_VALUES: the tile's values (at `at`, the tile's own base; the first key's index in the
// input `firstIndex`) into t_values: with index values (passIndexValues()) their indices.
void loadRidingValues(uvec2 at, uint firstIndex, uint count) {
  if (passIndexValues()) {
    [[unroll]] for (uint i = 0u; i < KPI; ++i) t_values[i] = firstIndex + laneIndex(i);
    return;
  }
  if (WHOLE_LOADS && count == TILE) {
    [[unroll]] for (uint i = 0u; i < KPI; ++i) t_values[i] = VALS_IN(at).v[laneIndex(i)];
    return;
  }
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint idx = laneIndex(i);
    t_values[i] = stepInTile(i) && idx < count ? VALS_IN(at).v[idx] : 0u;
  }
}

#endif  // VKSORT_BINNING_LOAD_GLSL
