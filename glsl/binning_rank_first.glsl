// Ranking first (kRankingAtomicsRankFirst; the tuning's rankFirst, with atomic ranking): each
// key's atomic on its subgroup's zeroed counter row gives its place among the subgroup's keys of
// its digit and leaves the row holding the subgroup's counts, so the count needs no atomics of
// its own; after the row sums each key adds its row's first place of its digit (a shared load)
// and, in one round, goes to s_tile. Pairs gain (their count's atomics on one word serialize at a
// crowded digit); keys alone lose their early count of the next tile (tuning_tables.cpp). With
// HOT_RANKING a pass's hot digit ranks first too, its lanes by one atomic per step; without, such
// passes count and rank as kRankingAtomics does (t_rankedFirst, per tile).
#ifndef VKSORT_BINNING_RANK_FIRST_GLSL
#define VKSORT_BINNING_RANK_FIRST_GLSL
#include "binning_rank_atomics.glsl"

// RANK_FIRST: each key's place among its subgroup's keys of its digit (t_places), from its
// atomic on the zeroed row, which it leaves holding the subgroup's counts. `whole` as rankSteps()'s.
// (A step whose lanes all hold one digit taking one atomic for them all, subgroupAllEqual(),
// lost: the vote costs every step.)
// `hotRanking`: the pass's hot digit's lanes of a step take their places by one atomic (HOT_RANKING).
void rankFirstSteps(uint shift, bool whole, bool hotRanking) {
  [[unroll]] for (uint i = 0u; i < (KPI + 1u) / 2u; ++i) t_places[i] = 0u;
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    if (!stepInTile(i)) break;
    bool valid = whole || laneIndex(i) < t_count;
    uint digit = tileDigitOf(t_keys[i], shift);
    uint place;
    if (HOT_RANKING && hotRanking) place = hotAtomicPlace(digit, valid, gl_SubgroupInvocationID);
    else place = atomicPlace(digit, valid);
    t_places[i / 2u] |= place << (16u * (i % 2u));
  }
}
// RANK_FIRST, behind the row sums: each key's place moves by its row's first place of its digit,
// and in one round the key goes to it in s_tile.
void placeRankedSteps(uint shift, bool whole) {
  uint sh = counterShift(gl_SubgroupID);
  uint places[(KPI + 1u) / 2u];
  [[unroll]] for (uint i = 0u; i < (KPI + 1u) / 2u; ++i) places[i] = 0u;
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    if (!stepInTile(i)) break;
    uint digit = tileDigitOf(t_keys[i], shift);
    uint place = placeOf(i) + ((counterLoad(counterWord(gl_SubgroupID, digit)) >> sh) & 0xFFFFu);
    if (!DEFERRED_STORES && (whole || laneIndex(i) < t_count)) tileStoreKey(place, t_keys[i]);
    places[i / 2u] |= place << (16u * (i % 2u));
  }
  [[unroll]] for (uint i = 0u; i < (KPI + 1u) / 2u; ++i) t_places[i] = places[i];
}

#endif  // VKSORT_BINNING_RANK_FIRST_GLSL
