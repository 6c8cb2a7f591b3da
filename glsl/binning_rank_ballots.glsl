// Ranking by ballots (any device): a step's lanes of the same digit find each other with eight
// ballots per key (subgroup_rank.glsl's matchDigit(), or subgroupPartitionNV), and their places
// come from the subgroup's counter row of the digit, which the last peer moves past them all.
#ifndef VKSORT_BINNING_RANK_BALLOTS_GLSL
#define VKSORT_BINNING_RANK_BALLOTS_GLSL
#include "binning_count.glsl"

// One ranking step's peers of `digit` in this subgroup (`before` of them below this lane): the
// first of their places in the tile's digit order. Every peer reads the subgroup's
// row, then the last one moves its counter past them all (an atomic: the pair's other subgroup
// may move the word's other half), and nobody waits on that atomic.
uint takeRowPlaces(uint digit, uvec4 peers, uint before, bool valid) {
  uint word = counterWord(gl_SubgroupID, digit), sh = counterShift(gl_SubgroupID);
  uint first = (counterLoad(word) >> sh) & 0xFFFFu;
  subgroupSharedBarrier();  // this step's reads before its writes
  if (valid && isHighestPeer(peers)) counterAdd(word, (before + 1u) << sh);
  return first;
}

// A ranking step's place of this lane's key (`digit`; `valid`: the lane holds a key; `lanes`: the
// whole tile's ballot of every lane, used where `whole`; `lane`: gl_SubgroupInvocationID).
uint ballotPlace(uint digit, bool valid, bool whole, uvec4 lanes, uint lane) {
  uvec4 peers = matchDigit(digit, whole ? lanes : subgroupBallot(valid));
  uint place;
  if (DEFERRED_STORES) {
    // Several rounds (registers scarce): the last peer's atomic, its result shuffled to the
    // others, rather than every peer reading the row first.
    uint leader = highestPeer(peers);
    uint before = peerCount(peers & lanesBelow());
    uint first = 0u;
    if (valid && lane == leader) {
      uint sh = counterShift(gl_SubgroupID);
      first = (counterAdd(counterWord(gl_SubgroupID, digit), (before + 1u) << sh) >> sh) & 0xFFFFu;
    }
    place = subgroupShuffle(first, valid ? leader : lane) + before;
  } else {
    uint before = peerCount(peers & lanesBelow());
    place = takeRowPlaces(digit, peers, before, valid) + before;
  }
  return place;
}

#endif  // VKSORT_BINNING_RANK_BALLOTS_GLSL
