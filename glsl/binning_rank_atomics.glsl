// Ranking by shared atomics (ATOMIC_RANKING: devices whose atomics of one instruction on one word
// apply in lane order, and a subgroup's steps in program order; the Vulkan specification does
// not promise it, NVIDIA's GPUs and llvmpipe do): each lane adds 1 to its subgroup's counter of
// its digit and takes the value before as its place, with no ballots. Where many lanes share a
// hot digit, one atomic of the lowest of them takes their places (HOT_RANKING). With RANK_FIRST
// the atomics run on the zeroed rows before the row sums and count the tile too.
#ifndef VKSORT_BINNING_RANK_ATOMICS_GLSL
#define VKSORT_BINNING_RANK_ATOMICS_GLSL
#include "binning_count.glsl"

// A ranking step's place of this lane's key by its own atomic.
uint atomicPlace(uint digit, bool valid) {
  uint sh = counterShift(gl_SubgroupID);
  return valid ? (counterAdd(counterWord(gl_SubgroupID, digit), 1u << sh) >> sh) & 0xFFFFu : 0u;
}

// HOT_RANKING: the step's lanes of the hot digit (t_hotRankDigit) take their places by one atomic
// of the lowest of them (atomics of many lanes on one word serialize); the others by their own.
uint hotAtomicPlace(uint digit, bool valid) {
  uint lane = gl_SubgroupInvocationID;
  uint sh = counterShift(gl_SubgroupID);
  bool isHot = valid && digit == t_hotRankDigit;
  uvec4 hotLanes = subgroupBallot(isHot);
  uint leader = subgroupBallotFindLSB(hotLanes);
  uint first = 0u;
  if (isHot ? lane == leader : valid)
    first = (counterAdd(counterWord(gl_SubgroupID, digit), (isHot ? subgroupBallotBitCount(hotLanes) : 1u) << sh) >> sh) & 0xFFFFu;
  uint hotFirst = subgroupShuffle(first, leader);
  return isHot ? hotFirst + subgroupBallotExclusiveBitCount(hotLanes) : first;
}

// RANK_FIRST: each key's place among its subgroup's keys of its digit (t_places), from its
// atomic on the zeroed row, which it leaves holding the subgroup's counts. `whole` as rankSteps()'s.
// (A step whose lanes all held one digit taking one atomic for them all, subgroupAllEqual():
// pairs32 9-19% slower on an H100, even at q16.)
void rankFirstSteps(uint shift, bool whole) {
  uint sh = counterShift(gl_SubgroupID);
  [[unroll]] for (uint i = 0u; i < (KPI + 1u) / 2u; ++i) t_places[i] = 0u;
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    if (!stepInTile(i)) break;
    bool valid = whole || laneIndex(i) < t_count;
    uint digit = digitOf(t_keys[i], shift);
    uint place = valid ? (counterAdd(counterWord(gl_SubgroupID, digit), 1u << sh) >> sh) & 0xFFFFu : 0u;
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
    uint digit = digitOf(t_keys[i], shift);
    uint place = placeOf(i) + ((counterLoad(counterWord(gl_SubgroupID, digit)) >> sh) & 0xFFFFu);
    if (!DEFERRED_STORES && (whole || laneIndex(i) < t_count)) tileStoreKey(place, t_keys[i]);
    places[i / 2u] |= place << (16u * (i % 2u));
  }
  [[unroll]] for (uint i = 0u; i < (KPI + 1u) / 2u; ++i) t_places[i] = places[i];
}

#endif  // VKSORT_BINNING_RANK_ATOMICS_GLSL
