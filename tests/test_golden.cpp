// What ships, as text compared with tests/golden/: for each vendor table (fake devices, no GPU),
// the tuning chooseTuning() resolves, field by field, and the plan of a grid of sorts with each
// pipeline's variant. A change to a table, the fitting, the variant decision or the plan shows
// here as the lines that changed; a failure names the device, algorithm, tier, tile class and
// field (or the sort and dispatch). After an intended change, regenerate the files with
//   VKSORT_UPDATE_GOLDEN=1 build/tests/vksort_tuning_tests -ts=golden
// and review their diff like code.
#include <doctest/doctest.h>

#include <type_traits>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fake_devices.hpp"
#include "plan.hpp"
#include "tuning.hpp"
#include "tuning_override.hpp"

using namespace vksort;
using namespace vksort::detail;

namespace {

// Every field of the tuning, one per line, each line naming where it is.
std::string tuningText(const Tuning& t) {
  std::ostringstream o;
  // Device-wide fields (VKSORT_TUNING_FIELDS), an enum as its number.
  auto shown = [](auto v) {
    if constexpr (std::is_enum_v<decltype(v)>) return uint32_t(v);
    else return v;
  };
#define VKSORT_GOLDEN_TUNING(type, name) o << #name " " << shown(t.name) << "\n";
  VKSORT_TUNING_FIELDS(VKSORT_GOLDEN_TUNING)
#undef VKSORT_GOLDEN_TUNING
  for (uint32_t i = 0; i < t.tierCount; ++i)
    for (uint32_t cls = 0; cls < kTileClasses; ++cls) {
      const TileShape& s = t.tiers[i].shape[cls];
      std::ostringstream at;
      at << "tier " << i << " (from " << t.tiers[i].from << ") " << className(cls) << " ";
      const std::string p = at.str();
#define VKSORT_GOLDEN_FIELD(type, name, stem) o << p << #name " " << s.name << "\n";
      VKSORT_TILE_SHAPE_FIELDS(VKSORT_GOLDEN_FIELD)
#undef VKSORT_GOLDEN_FIELD
    }
  for (uint32_t words : {1u, 2u}) {
    for (uint32_t i = 0; i < t.smallTileCount[words - 1]; ++i) {
      const SmallTile& s = t.smallTiles[i][words - 1];
      o << "small tile " << i << " (" << 32 * words << "-bit) " << s.workgroupSize << " x " << s.keysPerInvocation
        << (s.bitonic ? " bitonic" : " radix") << (s.ridersAlongside ? ", riders alongside" : "") << "\n";
    }
    o << "smallSortKeys (" << 32 * words << "-bit) " << t.smallSortKeys[words - 1] << "\n";
  }
  return o.str();
}

struct GoldenSort {
  const char* name;
  KeyType key;
  ValueType value;
  uint32_t beginBit, endBit;
};

// The plans of a grid of sorts, each line prefixed by the sort it belongs to.
std::string plansText(const Tuning& t) {
  const GoldenSort sorts[] = {{"u32", KeyType::u32, ValueType::none, 0, 32},
                              {"f32/u32", KeyType::f32, ValueType::u32, 0, 32},
                              {"u64", KeyType::u64, ValueType::none, 0, 64},
                              {"u64[0,40)/u32", KeyType::u64, ValueType::u32, 0, 40}};
  const uint32_t counts[] = {1000, 100000, 1u << 20, 3000000, 1u << 24, 1u << 28};
  std::string out;
  for (const GoldenSort& s : sorts)
    for (uint32_t count : counts)
      for (bool indirect : {false, true}) {
        if (indirect && count != 1u << 24) continue;
        SortConfig config;
        config.keyType = s.key;
        config.valueType = s.value;
        config.beginBit = s.beginBit;
        config.endBit = s.endBit;
        const std::string prefix =
            std::string(s.name) + " " + std::to_string(count) + (indirect ? " indirect" : "") + " | ";
        std::istringstream plan(describePlan(t, planSort(t, config, count, count, indirect)));
        for (std::string line; std::getline(plan, line);) out += prefix + line + "\n";
      }
  return out;
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_SUITE("golden") {
  TEST_CASE("every vendor table's tuning and plans match tests/golden") {
    // The tables as shipped, without any override.
    const bool update = std::getenv("VKSORT_UPDATE_GOLDEN") != nullptr;
    for (const vksort_test::FakeDevice& d : vksort_test::fakeDevices())
      for (Algorithm a : {Algorithm::onesweep, Algorithm::reduceThenScan}) {
        const Tuning t = chooseTuning(d.caps, a, {});
        const std::string name = std::string(d.name) + (a == Algorithm::onesweep ? "-onesweep" : "-reduce-then-scan");
        const std::string path = std::string(VKSORT_GOLDEN_DIR) + "/" + name + ".txt";
        const std::string actual = tuningText(t) + plansText(t);
        if (update) {
          std::ofstream(path) << actual;
          continue;
        }
        std::ifstream file(path);
        REQUIRE_MESSAGE(file.good(), "no golden file " << path << " (VKSORT_UPDATE_GOLDEN=1 writes it)");
        std::stringstream expected;
        expected << file.rdbuf();
        const std::vector<std::string> want = linesOf(expected.str()), got = linesOf(actual);
        size_t differ = 0;
        for (size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
          const std::string w = i < want.size() ? want[i] : "(no line)", g = i < got.size() ? got[i] : "(no line)";
          if (w == g) continue;
          if (++differ <= 10) FAIL_CHECK(name << " line " << i + 1 << ":\n  golden: " << w << "\n  now:    " << g);
        }
        CHECK_MESSAGE(differ == 0, name << ": " << differ << " lines differ from " << path);
      }
  }
}
