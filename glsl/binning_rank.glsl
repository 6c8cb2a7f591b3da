// The binning tile's rank phase: each key's place in the tile's digit order, from its subgroup's
// row and its peers of the same digit.
#ifndef VKSORT_BINNING_RANK_GLSL
#define VKSORT_BINNING_RANK_GLSL
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

// rankTile()'s steps. `whole`: every slot holds a key (a tile of tileKeys() keys), so no step
// tests which lanes do (`valid` is constant; a literal at each call).
void rankSteps(uint shift, bool whole, bool hotRanking) {
  uint lane = gl_SubgroupInvocationID;
  uvec4 lanes = subgroupBallot(true);  // a whole tile's lanes all hold keys: one ballot for every step
  [[unroll]] for (uint i = 0u; i < (KPI + 1u) / 2u; ++i) t_places[i] = 0u;
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    if (!stepInTile(i)) break;  // a fitted tile's last steps
    // holdsKey(i), the step being in the tile (its test made the fitted pipeline larger)
    bool valid = whole || laneIndex(i) < t_count;
    uint digit = digitOf(t_keys[i], shift);
    uint place;
    if (HOT_RANKING && hotRanking) {
      uint sh = counterShift(gl_SubgroupID);
      bool isHot = valid && digit == t_hotRankDigit;
      uvec4 hotLanes = subgroupBallot(isHot);
      uint leader = subgroupBallotFindLSB(hotLanes);
      uint first = 0u;
      if (isHot ? lane == leader : valid)
        first = (counterAdd(counterWord(gl_SubgroupID, digit), (isHot ? subgroupBallotBitCount(hotLanes) : 1u) << sh) >> sh) & 0xFFFFu;
      uint hotFirst = subgroupShuffle(first, leader);
      place = isHot ? hotFirst + subgroupBallotExclusiveBitCount(hotLanes) : first;
    } else if (ATOMIC_RANKING) {
      uint sh = counterShift(gl_SubgroupID);
      place = valid ? (counterAdd(counterWord(gl_SubgroupID, digit), 1u << sh) >> sh) & 0xFFFFu : 0u;
    } else {
      uvec4 peers = matchDigit(digit, whole ? lanes : subgroupBallot(valid));
      if (DEFERRED_STORES) {
        // The last peer's atomic, its result shuffled to the others: at the register cap of the
        // 2-round tiles 1.5-2% faster on an H100 than takeRowPlaces(), which is 2-6% faster in
        // the one-round tiles and the one-workgroup sort.
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
    }
    if (valid && !DEFERRED_STORES) tileStoreKey(place, t_keys[i]);
    t_places[i / 2u] |= place << (16u * (i % 2u));
    // Ballots: this step's counter writes before the next step's reads. Atomic ranking touches the
    // counters through its atomics alone, which apply in the subgroup's program order as their
    // lanes' do (ATOMIC_RANKING's premise): no barrier (on an H100 it cost keys32 3%, and 4-9%
    // more where only a tile's last steps took it).
    if (!ATOMIC_RANKING) subgroupSharedBarrier();
  }
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

// Each key's place in the tile's digit order (t_places), and with one reorder round the key to it
// in s_tile. The row counter of a digit advances by its peers at each step; the last peer moves
// it. A uniform tile skips this: its digit order is its input order, and its keys stay in
// registers. No workgroup barrier inside: a kernel may let some subgroups do other work first
// (Onesweep's look-back).
// Whole tiles rank without the tests of which lanes hold keys: on an H100 keys32 2^26 1-2% faster
// (with the rows holding the digits' starts, sumSubgroupRows()).
void rankTile(uint shift) {
  if (t_uniform) return;
  if (t_rankedFirst) {
    if (t_count == tileKeys()) placeRankedSteps(shift, true);
    else placeRankedSteps(shift, false);
  } else if (HOT_RANKING && t_hotRankDigit < kRadix) {
    if (t_count == tileKeys()) rankSteps(shift, true, true);
    else rankSteps(shift, false, true);
  } else if (t_count == tileKeys()) rankSteps(shift, true, false);
  else rankSteps(shift, false, false);
}

#endif  // VKSORT_BINNING_RANK_GLSL
