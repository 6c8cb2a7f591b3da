#include "report.hpp"

#include <algorithm>
#include <cstdio>
#include <type_traits>
#include <vector>

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
  // Every field as its designated initializer (VKSORT_TILE_SHAPE_FIELDS), lines wrapped at 100.
  auto value = [](auto v) {
    return std::is_same_v<decltype(v), bool> ? std::string(v ? "true" : "false") : std::to_string(v);
  };
  std::vector<std::string> fields;
#define VKSORT_ROW_FIELD(type, name, stem) fields.push_back("." #name " = " + value(t.shape.name));
  VKSORT_TILE_SHAPE_FIELDS(VKSORT_ROW_FIELD)
#undef VKSORT_ROW_FIELD
  std::string row = "    {" + std::to_string(t.from) + ", {";
  size_t column = row.size();
  for (size_t i = 0; i < fields.size(); ++i) {
    const std::string field = fields[i] + (i + 1 < fields.size() ? "," : "}");
    if (column + 1 + field.size() > 100) row += "\n        ", column = 8;
    else if (row.back() != '{') row += ' ', ++column;
    row += field;
    column += field.size();
  }
  char why[200];
  std::snprintf(why, sizeof why, ",\n     \"Measured by vksort_tune on %s: %.2fx the row at %u keys.\"},\n", device,
                double(t.builtInNanos) / std::max(t.tunedNanos, 1u), t.count);
  return row + why;
}

}  // namespace vksort::detail
