// Ranking by shared atomics (kRankingAtomics; the tuning's atomicRanking): each lane adds 1 to its
// subgroup's counter of its digit and takes the value before as its place, with no ballots: one
// atomic instead of eight ballots per key. Stable only where one instruction's atomics on one
// word apply in lane order and a subgroup's steps in program order: the Vulkan specification does
// not promise it, NVIDIA's GPUs do (every stability test of the GPU suite passes with it) and
// llvmpipe does (CI runs a variant with it). Other devices rank by ballots, and so do pairs in
// tiles of several rounds that count first (src/variant.cpp). Where many lanes share a pass's hot
// digit, one atomic of the lowest of them takes their places (HOT_RANKING: one word's atomics from
// many lanes serialize; 32-bit keys alone spilled registers with it in NVIDIA's 896 x 20 tiles,
// so their rows say 0). Ranking before the count: binning_rank_first.glsl.
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
uint hotAtomicPlace(uint digit, bool valid, uint lane) {
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

#endif  // VKSORT_BINNING_RANK_ATOMICS_GLSL
