#include "search_space.hpp"

#include <algorithm>
#include <iterator>

namespace vksort::detail {

std::vector<TileShape> neighbours(const TileShape& s, bool firstTier, uint32_t cls, const Tuning& t) {
  auto applies = [&](Where where) {
    const bool onesweep = t.algorithm == Algorithm::onesweep;
    switch (where) {
      case Where::always: return true;
      case Where::laterTiers: return !firstTier;
      case Where::onesweep: return onesweep;
      case Where::onesweepAtomicRanking: return onesweep && t.ranking == Ranking::atomics;
      case Where::onesweepWaves: return onesweep && t.waveWorkgroups != 0;
      case Where::pairs: return !classKeysAlone(cls);
    }
    return false;
  };
  std::vector<TileShape> out;
  auto with = [&](auto change) {
    TileShape c = s;
    change(c);
    if (c.keysPerInvocation >= 1 && c.keysPerInvocation <= kMaxKeysPerInvocation && !(c == s)) out.push_back(c);
  };
  for (int d : kKeysPerInvocationSteps)
    with([&](TileShape& c) {
      c.keysPerInvocation = uint32_t(std::max(1, int(s.keysPerInvocation) + d * int(s.reorderRounds)));
    });
  const uint32_t rounds = s.reorderRounds == kRoundChoices[0] ? kRoundChoices[1] : kRoundChoices[0];
  with([&](TileShape& c) { c.reorderRounds = rounds; });
  with([&](TileShape& c) {  // the same keys a tile
    c.reorderRounds = rounds;
    c.keysPerInvocation = s.reorderRounds == 1 ? 2 * s.keysPerInvocation : std::max(1u, s.keysPerInvocation / 2);
  });
  if (applies(Where::laterTiers)) {
    const auto at = std::find(std::begin(kWorkgroupSizes), std::end(kWorkgroupSizes), s.workgroupSize);
    for (const uint32_t* w : {at - 1, at + 1})
      if (at != std::end(kWorkgroupSizes) && w >= std::begin(kWorkgroupSizes) && w < std::end(kWorkgroupSizes))
        with([&](TileShape& c) {
          c.workgroupSize = *w;
          c.keysPerInvocation = std::max(1u, (s.keys() + *w / 2) / *w / s.reorderRounds * s.reorderRounds);
        });
  }
  if (applies(Where::onesweep)) {
    with([](TileShape& c) { c.lookbackWindow = c.lookbackWindow > 1 ? c.lookbackWindow - 1 : 2; });
    with([](TileShape& c) { c.lookbackWindow = std::min(c.lookbackWindow + 1, kMaxLookbackWindow); });
  }
  for (const Choice& a : kChoices)
    if (applies(a.where))
      with([&](TileShape& c) { c.*a.field = c.*a.field == a.values[0] ? a.values[1] : a.values[0]; });
  for (const Flip& f : kFlips)
    if (applies(f.where)) with([&](TileShape& c) { c.*f.field = !(c.*f.field); });
  return out;
}

std::vector<TileShape> startingTiles(const TileShape& row, bool firstTier, uint32_t cls) {
  std::vector<TileShape> out;
  for (const StartingTile& start : kStartingTiles) {
    TileShape c = row;
    const uint32_t keys = start.workgroupSize * start.keysPerInvocation / classWords(cls);
    c.workgroupSize = firstTier ? row.workgroupSize : start.workgroupSize;
    c.reorderRounds = start.reorderRounds;
    c.keysPerInvocation =
        std::max(1u, (keys + c.workgroupSize / 2) / c.workgroupSize / c.reorderRounds) * c.reorderRounds;
    if (!(c == row) && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

}  // namespace vksort::detail
