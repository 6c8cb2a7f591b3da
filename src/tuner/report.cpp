#include "report.hpp"

#include <algorithm>
#include <cstdio>

namespace vksort::detail {

std::string shapeText(const TileShape& s) {
  char text[160];
  std::snprintf(text, sizeof text, "%u x %u, %u round%s%s%s%s, window %u%s%s%s", s.workgroupSize, s.keysPerInvocation,
                s.reorderRounds, s.reorderRounds == 1 ? "" : "s", s.rankFirst ? ", rank first" : "",
                s.persistentTiles ? ", persistent" : "", s.fitPercent ? ", fitted" : "", s.lookbackWindow,
                s.lookbackPlainLoads ? " plain" : "", s.ridingValues ? ", riding values" : "",
                s.skewedFrom ? ", skewed passes ranked first" : "");
  return text;
}

std::string tableRow(const TunedTile& t, const char* device) {
  const TileShape& s = t.shape;
  auto flag = [](bool b) { return b ? "true" : "false"; };
  char text[900];
  std::snprintf(text, sizeof text,
                "    {%u, {.workgroupSize = %u, .keysPerInvocation = %u, .reorderRounds = %u, .fitPercent = %u,\n"
                "         .hotDigitFrom = %u, .hotDigitTo = %u, .hotRankTo = %u, .lookbackWindow = %u,\n"
                "         .lookbackPlainLoads = %s, .rankFirst = %s, .persistentTiles = %s, .prefetchPairs = %s,\n"
                "         .ridingValues = %s, .skewedFrom = %u},\n"
                "     \"Measured by vksort_tune on %s: %.2fx the row at %u keys.\"},\n",
                t.from, s.workgroupSize, s.keysPerInvocation, s.reorderRounds, s.fitPercent, s.hotDigitFrom, s.hotDigitTo,
                s.hotRankTo, s.lookbackWindow, flag(s.lookbackPlainLoads), flag(s.rankFirst), flag(s.persistentTiles),
                flag(s.prefetchPairs), flag(s.ridingValues), s.skewedFrom, device, double(t.builtInNanos) / std::max(t.tunedNanos, 1u),
                t.count);
  return text;
}

}  // namespace vksort::detail
