// The binning tile's scatter phase: keys, then values, from the reorder area (in rounds where the
// tile is larger than it) to their bins, consecutive invocations to consecutive addresses.
#ifndef VKSORT_BINNING_SCATTER_GLSL
#define VKSORT_BINNING_SCATTER_GLSL
#include "binning_rank.glsl"

// With deferred stores: this invocation's keys (values) whose places fall in round r's part, to
// the reorder area. Behind a barrier that freed the area.
void storeKeysOfRound(uint r) {
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint at = placeOf(i) - r * PART;
    if (holdsKey(i) && at < PART) tileStoreKey(at, t_keys[i]);
  }
}
void storeValuesOfRound(uint r, uvec2 values[KPI]) {
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint at = placeOf(i) - r * PART;
    if (holdsKey(i) && at < PART) tileStoreValue(at, values[i]);
  }
}

// A key to its destination, unless the pass writes none (`keysOut` false: the last pass that moves
// keys with kFlagDiscardKeys; keys alone always write theirs, and compile without the test).
void storeKeyIf(uvec2 base, uint dest, KeyT key, bool keysOut) {
  if (VALUE_WORDS == 0u || keysOut) storeKey(base, dest, key);
}

// Round r's keys from s_tile to s_digitDest[digit] + j, j their place. `whole`: a tile of TILE
// keys, every place taken (a literal at each call: no test per key).
void scatterKeysOfRound(uvec2 keysOut, uint shift, uint r, bool whole, bool writeKeys) {
  [[unroll]] for (uint i = 0u; i < ROUND_KPI; ++i) {
    uint at = i * WG + gl_LocalInvocationIndex;
    uint j = r * PART + at;
    if (whole || j < t_count) {
      KeyT key = tileLoadKey(at);
      uint digit = tileDigitOf(key, shift);
      uint k = r * ROUND_KPI + i;
      t_digits[k / 4u] |= digit << (8u * (k % 4u));
      storeKeyIf(keysOut, s_digitDest[digit] + j, key, writeKeys);
    }
  }
}

// Keys to s_digitDest[digit] + j, j their place (s_digitDest set behind a barrier): consecutive
// invocations write consecutive addresses of a bin. A uniform tile's keys go from registers.
// Only values go out where the pass writes no keys (pass_route.glsl's passWritesKeys()).
void scatterKeys(uvec2 keysOut, uint shift) {
  bool writeKeys = VALUE_WORDS == 0u || passWritesKeys();
  if (t_uniform) {
    // (with EARLY_NEXT_COUNT s_uniformDigit is reset meanwhile: an invocation holding keys holds
    // key 0, and all have the tile's digit)
    uint dest = s_digitDest[EARLY_NEXT_COUNT ? tileDigitOf(t_keys[0], shift) : s_uniformDigit];
    [[unroll]] for (uint i = 0u; i < KPI; ++i)
      if (holdsKey(i)) storeKeyIf(keysOut, dest + laneIndex(i), t_keys[i], writeKeys);
    return;
  }
  [[unroll]] for (uint i = 0u; i < (KPI + 3u) / 4u; ++i) t_digits[i] = 0u;
  [[unroll]] for (uint r = 0u; r < REORDER_ROUNDS; ++r) {
    if (DEFERRED_STORES) {
      if (r > 0u) barrier();  // the previous round has left the area
      storeKeysOfRound(r);
      barrier();
    }
    if (WHOLE_SCATTER && t_count == TILE) scatterKeysOfRound(keysOut, shift, r, true, writeKeys);
    else scatterKeysOfRound(keysOut, shift, r, false, writeKeys);
  }
}

// Several rounds: the tile's values (at `valuesIn`, the tile's own base), each loaded once.
void loadHeldValues(out uvec2 values[KPI], uvec2 valuesIn) {
  bool generated = passIndexValues();
  [[unroll]] for (uint i = 0u; i < KPI; ++i) values[i] = holdsKey(i) ? tileValue(valuesIn, laneIndex(i), generated) : uvec2(0u);
}
// EARLY_HELD_VALUES (several rounds): the values load before the key scatter
// (SCATTER_THEN_NEXT_TILE), so that their latency hides behind it; in one round the scatter is
// short and nothing is gained.

// A uniform tile's values straight to their places (its digit order is its input order).
// `held`: the caller loaded them into `values` (loadHeldValues(), several rounds).
void scatterUniformValues(uvec2 valuesIn, uvec2 valuesOut, bool held, uvec2 values[KPI]) {
  uint dest = s_digitDest[s_uniformDigit];
  bool generated = !RIDING_VALUES && !held && passIndexValues();
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint idx = laneIndex(i);
    if (holdsKey(i))
      storeValue(valuesOut, dest + idx, RIDING_VALUES ? uvec2(t_values[i], 0u) : held ? values[i] : tileValue(valuesIn, idx, generated));
  }
}
// Round r's values into the reorder area, behind a barrier that freed it: with several rounds
// those of `values` whose places fall in its part; with one, each straight to its place (loading
// them all first holds registers through the loads).
void placeValuesOfRound(uint r, uvec2 valuesIn, uvec2 values[KPI]) {
  if (DEFERRED_STORES) {
    storeValuesOfRound(r, values);
    return;
  }
  bool generated = !RIDING_VALUES && passIndexValues();
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint idx = laneIndex(i);
    if (holdsKey(i)) tileStoreValue(placeOf(i), RIDING_VALUES ? uvec2(t_values[i], 0u) : tileValue(valuesIn, idx, generated));
  }
}
// Round r's values from the reorder area to their destinations, behind a barrier.
void scatterValuesOfRound(uint r, uvec2 valuesOut) {
  [[unroll]] for (uint i = 0u; i < ROUND_KPI; ++i) {
    uint at = i * WG + gl_LocalInvocationIndex;
    uint j = r * PART + at;
    if (j < t_count) storeValue(valuesOut, s_digitDest[scatteredDigit(r * ROUND_KPI + i)] + j, tileLoadValue(at));
  }
}

// The tile's values (at `valuesIn`, the tile's own base) after their keys, through s_tile to the
// same places (a uniform tile's straight). Every invocation must call it. `held`: the caller
// loaded them into `values` (loadHeldValues(), several rounds). SCATTER_THEN_NEXT_TILE writes a
// round out itself where there is one, to load the next tile in it.
void scatterValues(uvec2 valuesIn, uvec2 valuesOut, bool held, inout uvec2 values[KPI]) {
  if (t_uniform) {
    scatterUniformValues(valuesIn, valuesOut, held, values);
    return;
  }
  // Several rounds: every value loaded once, into registers.
  if (DEFERRED_STORES && !held) loadHeldValues(values, valuesIn);
  [[unroll]] for (uint r = 0u; r < REORDER_ROUNDS; ++r) {
    barrier();  // the keys (or the previous round's values) have left the area
    placeValuesOfRound(r, valuesIn, values);
    barrier();
    scatterValuesOfRound(r, valuesOut);
  }
}

#endif  // VKSORT_BINNING_SCATTER_GLSL
