// How the tuner's report writes a tile: as text, and as a row of src/tuning_tables.cpp to paste.
#pragma once
#include <string>

#include "tuning_types.hpp"

namespace vksort::detail {

std::string shapeText(const TileShape& s);
// A tuned tile as a row of tuning_tables.cpp, to paste into its class's table.
std::string tableRow(const TunedTile& t, const char* device);

}  // namespace vksort::detail
