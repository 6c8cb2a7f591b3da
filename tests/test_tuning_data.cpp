// Tuning data without a device: what chooseTuning() makes of tuned tiles, and the bytes that
// carry them (tuning_data.cpp): read back as written, refused whole when damaged or foreign.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "fake_devices.hpp"
#include "tuning.hpp"
#include "tuning_data.hpp"
#include "tuning_override.hpp"

using vksort::Algorithm;
using vksort::Result;
using namespace vksort::detail;

namespace {

// An H100 whose driver and pipeline cache are known.
DeviceCaps device() {
  DeviceCaps caps = vksort_test::h100();
  caps.deviceId = 0x2330;
  caps.driverVersion = 0x91078000;
  for (uint8_t i = 0; i < VK_UUID_SIZE; ++i) caps.pipelineCacheUuid[i] = uint8_t(i * 7 + 1);
  return caps;
}

// Two tiles of the H100's Onesweep tiers, unlike their rows.
TunedTiles twoTiles(const DeviceCaps& caps) {
  const Tuning table = chooseTuning(caps, Algorithm::onesweep, {});
  TunedTiles t;
  t.algorithm = Algorithm::onesweep;
  t.algorithmClasses = 1u << kPairs32 | 1u << kAloneWide;
  t.tileCount = 2;
  TileShape a = table.tiers[3].shape[kPairs32];
  a.keysPerInvocation -= 2;
  a.lookbackWindow = 1;
  TileShape b = table.tiers[2].shape[kAloneWide];
  b.persistentTiles = !b.persistentTiles;
  t.tiles[0] = {3, kPairs32, table.tiers[3].from, 1u << 22, 1000, 900, a};
  t.tiles[1] = {2, kAloneWide, table.tiers[2].from, 1u << 19, 500, 400, b};
  return t;
}

void requireRefused(const DeviceCaps& caps, const std::vector<uint8_t>& bytes, const char* why) {
  TunedTiles out;
  out.tileCount = 77;
  const vksort::Status st = decodeTuningData(caps, bytes.data(), bytes.size(), &out);
  CHECK(st.result == Result::errorIncompatibleTuning);
  CHECK_MESSAGE(st.message.find(why) != std::string::npos, st.message);
  CHECK(out.tileCount == 77);  // untouched
}

}  // namespace

TEST_CASE("tuned tiles replace their rows' shapes, and describe their gain") {
  const DeviceCaps caps = device();
  const TunedTiles t = twoTiles(caps);
  const Tuning table = chooseTuning(caps, Algorithm::automatic, {});
  const Tuning tuned = chooseTuning(caps, Algorithm::automatic, {}, &t);
  REQUIRE(tuned.tierCount == table.tierCount);
  for (uint32_t tier = 0; tier < table.tierCount; ++tier)
    for (uint32_t cls = 0; cls < kTileClasses; ++cls) {
      CAPTURE(tier);
      CAPTURE(cls);
      const bool replaced = (tier == 3 && cls == kPairs32) || (tier == 2 && cls == kAloneWide);
      CHECK((tuned.tiers[tier].shape[cls] == table.tiers[tier].shape[cls]) == !replaced);
      CHECK((tuned.tiers[tier].tunedSpeedup[cls] != 0) == replaced);
    }
  CHECK(tuned.tiers[3].shape[kPairs32] == t.tiles[0].shape);
  CHECK(tuned.tiers[3].tunedSpeedup[kPairs32] == doctest::Approx(1000.0 / 900));
  CHECK(std::string(tuned.tiers[3].why[kPairs32]).find("tuning data") != std::string::npos);
  // The developer's override still wins over them.
  TuningOverride o;
  REQUIRE(parseTuningOverride("tier3_lookback_window_pairs=5", &o));
  CHECK(chooseTuning(caps, Algorithm::automatic, o, &t).tiers[3].shape[kPairs32].lookbackWindow == 5);
}

TEST_CASE("tuned tiles apply to the algorithm they were measured with, and where their tier still starts") {
  const DeviceCaps caps = device();
  TunedTiles t = twoTiles(caps);
  const Tuning scan = chooseTuning(caps, Algorithm::reduceThenScan, {}, &t);
  CHECK(scan.algorithm == Algorithm::reduceThenScan);
  for (uint32_t tier = 0; tier < scan.tierCount; ++tier)
    for (float gain : scan.tiers[tier].tunedSpeedup) CHECK(gain == 0);
  // Data that measured reduce-then-scan the faster makes it the automatic choice.
  t.algorithm = Algorithm::reduceThenScan;
  t.tileCount = 0;
  CHECK(chooseTuning(caps, Algorithm::automatic, {}, &t).algorithm == Algorithm::reduceThenScan);
  CHECK(chooseTuning(caps, Algorithm::onesweep, {}, &t).algorithm == Algorithm::onesweep);
}

TEST_CASE("a tuned tile that starts where no tier does splits the tier that holds its start") {
  // The tuner tunes a long tier in parts (tuner/search_space.hpp, kSplitSpan): each part's tile,
  // the row's where it stayed, starts a tier of its own. A never-measured device's single tier:
  const DeviceCaps caps = vksort_test::rdna();
  const Tuning table = chooseTuning(caps, Algorithm::automatic, {});
  REQUIRE(table.tierCount == 1);
  const TileShape row = table.tiers[0].shape[kPairs32];
  TileShape wider = row;
  wider.keysPerInvocation *= 2;
  TunedTiles t;
  t.tileCount = 4;
  t.tiles[0] = {0, kPairs32, 1u << 20, 1u << 22, 1000, 1000, row};   // the part above: the row stayed
  t.tiles[1] = {0, kPairs32, 1u << 16, 1u << 18, 1000, 800, wider};  // (in any order)
  t.tiles[2] = {0, kAlone32, 0, 1u << 12, 1000, 900, wider};         // the table's own tier
  // A row that stayed, recorded as the tuner saw it: fitted to a device of small subgroups (lavapipe
  // at 4 halves the workgroup), unlike the table's row before fitting. It changes nothing.
  TileShape fittedRow = table.tiers[0].shape[kPairsWide];
  fittedRow.workgroupSize /= 2;
  t.tiles[3] = {0, kPairsWide, 0, 1u << 12, 700, 700, fittedRow};
  const Tuning tuned = chooseTuning(caps, Algorithm::automatic, {}, &t);
  REQUIRE(tuned.tierCount == 3);
  CHECK(tuned.tiers[0].from == 0);
  CHECK(tuned.tiers[1].from == 1u << 16);
  CHECK(tuned.tiers[2].from == 1u << 20);
  CHECK(tuned.tiers[0].shape[kPairs32] == row);
  CHECK(tuned.tiers[1].shape[kPairs32] == wider);
  CHECK(tuned.tiers[1].tunedSpeedup[kPairs32] == doctest::Approx(1.25));
  CHECK(tuned.tiers[2].shape[kPairs32] == row);
  CHECK(tuned.tiers[2].tunedSpeedup[kPairs32] == 0);  // the row, not a tuned tile
  CHECK(tuned.tiers[0].shape[kAlone32] == wider);     // the tiers split after it keep it
  for (uint32_t i : {1u, 2u}) CHECK(tuned.tiers[i].shape[kAlone32] == row);
  for (uint32_t i : {0u, 1u, 2u}) CHECK(tuned.tiers[i].shape[kPairsWide] == table.tiers[0].shape[kPairsWide]);
  CHECK(tuned.tiers[0].tunedSpeedup[kPairsWide] == 0);
  CHECK(std::string(tuned.tiers[0].why[kPairsWide]).find("The row, measured") != std::string::npos);
  CHECK(tuned.tunedTiles == 2);  // wider twice
  // A sort's tier follows: a count in a part takes its tile.
  CHECK(tuned.tileFor(kPairs32, (1u << 16) + 1) == wider);
  CHECK(tuned.tileFor(kPairs32, (1u << 16) - 1) == row);
  CHECK(tuned.tileFor(kPairs32, 1u << 24) == row);
  // Where the tiers are all taken, a tile that would split one is not applied.
  const DeviceCaps nvidia = device();
  const Tuning full = chooseTuning(nvidia, Algorithm::automatic, {});
  REQUIRE(full.tierCount == kMaxTileTiers);
  TunedTiles one = twoTiles(nvidia);
  one.tiles[0].from += 1;
  const Tuning same = chooseTuning(nvidia, Algorithm::automatic, {}, &one);
  CHECK(same.tierCount == kMaxTileTiers);
  CHECK(same.tiers[3].tunedSpeedup[kPairs32] == 0);
  CHECK(same.tiers[2].tunedSpeedup[kAloneWide] != 0);
}

TEST_CASE("tuning data reads back as written") {
  const DeviceCaps caps = device();
  const TunedTiles t = twoTiles(caps);
  const std::vector<uint8_t> bytes = encodeTuningData(caps, t);
  TunedTiles out;
  const vksort::Status st = decodeTuningData(caps, bytes.data(), bytes.size(), &out);
  REQUIRE_MESSAGE(st, st.message);
  CHECK(out.algorithm == t.algorithm);
  CHECK(out.algorithmClasses == t.algorithmClasses);
  REQUIRE(out.tileCount == t.tileCount);
  for (uint32_t i = 0; i < t.tileCount; ++i) {
    CHECK(out.tiles[i].tier == t.tiles[i].tier);
    CHECK(out.tiles[i].tileClass == t.tiles[i].tileClass);
    CHECK(out.tiles[i].from == t.tiles[i].from);
    CHECK(out.tiles[i].count == t.tiles[i].count);
    CHECK(out.tiles[i].builtInNanos == t.tiles[i].builtInNanos);
    CHECK(out.tiles[i].tunedNanos == t.tiles[i].tunedNanos);
    CHECK(out.tiles[i].shape == t.tiles[i].shape);
  }
  // No tiles at all (nothing beat the tables) is data too.
  const std::vector<uint8_t> empty = encodeTuningData(caps, TunedTiles{});
  REQUIRE(decodeTuningData(caps, empty.data(), empty.size(), &out));
  CHECK(out.tileCount == 0);
}

TEST_CASE("damaged tuning data is refused whole") {
  const DeviceCaps caps = device();
  const std::vector<uint8_t> bytes = encodeTuningData(caps, twoTiles(caps));
  requireRefused(caps, {}, "not vksort's");
  requireRefused(caps, std::vector<uint8_t>(bytes.begin(), bytes.begin() + 20), "not vksort's");
  for (size_t cut : {bytes.size() - 1, bytes.size() - 4, size_t(48)}) {
    CAPTURE(cut);
    requireRefused(caps, std::vector<uint8_t>(bytes.begin(), bytes.begin() + cut), "damaged");
  }
  std::vector<uint8_t> longer = bytes;
  longer.insert(longer.end(), 4, 0);
  requireRefused(caps, longer, "damaged");
  // Any one bit flipped anywhere: a different magic or format says so; everything else is damage.
  for (size_t i = 0; i < bytes.size(); ++i)
    for (uint8_t bit : {uint8_t(1), uint8_t(0x80)}) {
      std::vector<uint8_t> flipped = bytes;
      flipped[i] ^= bit;
      CAPTURE(i);
      TunedTiles out;
      CHECK(decodeTuningData(caps, flipped.data(), flipped.size(), &out).result == Result::errorIncompatibleTuning);
    }
}

TEST_CASE("tuning data of another device, driver or version is refused") {
  const DeviceCaps caps = device();
  const std::vector<uint8_t> bytes = encodeTuningData(caps, twoTiles(caps));
  DeviceCaps other = caps;
  other.deviceId = 0x2335;  // an H200
  requireRefused(other, bytes, "made on device");
  other = caps;
  other.vendorId = 0x1002;
  requireRefused(other, bytes, "made on device");
  other = caps;
  other.driverVersion += 1;
  requireRefused(other, bytes, "another driver");
  other = caps;
  other.pipelineCacheUuid[5] ^= 1;
  requireRefused(other, bytes, "another driver");
  // Another library version: the data as that version writes it (version word, checksum redone
  // by encoding it through a patched copy is not possible here, so the word is changed and the
  // checksum left: damage is what such bytes show first, and both say "tune again").
  std::vector<uint8_t> version = bytes;
  version[8] ^= 1;
  requireRefused(caps, version, "tune again");
}
