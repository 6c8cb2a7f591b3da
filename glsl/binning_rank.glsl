// The binning tile's rank phase: each key's place in the tile's digit order, from its subgroup's
// counter row of its digit, by the strategy the host chose (RANKING, binning_switches.glsl):
//   kRankingBallots, kRankingPartitioned  binning_rank_ballots.glsl
//   kRankingAtomics                       binning_rank_atomics.glsl
//   kRankingAtomicsRankFirst              binning_rank_first.glsl (ranks in the count phase;
//                                         rankTile() then adds each row's first place)
// stepPlace() is the one call into a strategy per ranking step.
#ifndef VKSORT_BINNING_RANK_GLSL
#define VKSORT_BINNING_RANK_GLSL
#include "binning_rank_ballots.glsl"
#include "binning_rank_atomics.glsl"

// A ranking step's place of this lane's key (`digit`; `valid`: the lane holds a key; `lanes`: the
// whole tile's ballot, used where `whole`; `hotRanking`: the pass's hot digit takes its lanes'
// places by one atomic, HOT_RANKING).
uint stepPlace(uint digit, bool valid, bool whole, uvec4 lanes, uint lane, bool hotRanking) {
  uint place;
  if (HOT_RANKING && hotRanking) place = hotAtomicPlace(digit, valid, lane);
  else if (ATOMIC_RANKING) place = atomicPlace(digit, valid);
  else place = ballotPlace(digit, valid, whole, lanes, lane);  // kRankingBallots, kRankingPartitioned
  return place;
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
    uint digit = tileDigitOf(t_keys[i], shift);
    uint place = stepPlace(digit, valid, whole, lanes, lane, hotRanking);
    if (valid && !DEFERRED_STORES) tileStoreKey(place, t_keys[i]);
    t_places[i / 2u] |= place << (16u * (i % 2u));
    // Ballots: this step's counter writes before the next step's reads. Atomic ranking touches the
    // counters through its atomics alone, which apply in the subgroup's program order as their
    // lanes' do (ATOMIC_RANKING's premise): no barrier.
    if (!ATOMIC_RANKING) subgroupSharedBarrier();
  }
}

#include "binning_rank_first.glsl"

// Each key's place in the tile's digit order (t_places), and with one reorder round the key to it
// in s_tile. The row counter of a digit advances by its peers at each step; the last peer moves
// it. A uniform tile skips this: its digit order is its input order, and its keys stay in
// registers. No workgroup barrier inside: a kernel may let some subgroups do other work first
// (Onesweep's look-back).
// Whole tiles rank without the tests of which lanes hold keys (the rows hold the digits' starts:
// sumSubgroupRows()).
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
