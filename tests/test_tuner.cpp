// On-device tuning through the public API: tuneSorts() measures and returns tuning data that
// createSorter takes; data it cannot use is refused or ignored as the caller asks; the tuner
// checks its arguments and can be cancelled. Sorts with tuned tiles are checked like any other.
#include <cstring>
#include <string>
#include <vector>

#include "sorter_state.hpp"  // first: volk.h before any Vulkan header
#include "c_create_info.hpp"
#include "test_support.hpp"
#include "tuning_data.hpp"
#include "vksort/vksort.h"

using namespace vksort_test;

namespace {

// For its lifetime gpu().sorter is `sorter` (which it destroys after).
struct SorterSwap {
  explicit SorterSwap(vksort::Sorter sorter) : saved(gpu().sorter) { gpu().sorter = sorter; }
  ~SorterSwap() {
    vksort::destroySorter(gpu().sorter);
    gpu().sorter = saved;
  }
  vksort::Sorter saved;
};

// A sorter of `ci` with `data`, required to match the device.
vksort::Sorter createRequiringData(const vksort::SorterCreateInfo& ci, const std::vector<uint8_t>& data) {
  vksort::SorterCreateInfo withData = ci;
  withData.pTuningData = data.data();
  withData.tuningDataSize = data.size();
  withData.requireTuningData = true;
  vksort::Sorter sorter = nullptr;
  const vksort::Status created = vksort::createSorter(withData, &sorter);
  REQUIRE_MESSAGE(created, created.message);
  return sorter;
}

}  // namespace

TEST_SUITE("tuner") {
  TEST_CASE("tuneSorts returns tuning data that createSorter uses") {
    const vksort::SorterCreateInfo ci = gpu().ctx.sorterCreateInfo();
    const vksort::PreparedSort sorts[] = {smallPairs()};
    vksort::TuneInfo info = tuneInfo(&ci, sorts, 1);
    struct Seen {
      uint32_t calls = 0, lastStep = 0;
      bool ordered = true;
    } seen;
    info.pUserData = &seen;
    info.pfnProgress = [](const vksort::TuningProgress& p, void* user) {
      Seen* s = static_cast<Seen*>(user);
      s->ordered = s->ordered && p.step > s->lastStep && p.step <= p.steps && p.what != nullptr;
      s->lastStep = p.step;
      ++s->calls;
      return true;
    };
    vksort::TuningResult result;
    const vksort::Status st = vksort::tuneSorts(info, &result);
    REQUIRE_MESSAGE(st, st.message);
    CHECK(seen.calls >= 2);
    CHECK(seen.ordered);
    CHECK(result.data.size() >= 48);
    CHECK(result.report.find("pairs32") != std::string::npos);
    // The caller's f32 keys, checked in their order (a candidate checked as unsigned keys would
    // be dropped as sorting wrongly).
    CHECK_MESSAGE(result.report.find("pairs32 measured with the caller's keys: f32") != std::string::npos,
                  result.report);
    CHECK_MESSAGE(result.report.find("sorted wrongly") == std::string::npos, result.report);
    CHECK(result.seconds > 0);
    requireNoValidationMessages();

    vksort::Sorter sorter = createRequiringData(ci, result.data);
    SorterSwap swap(sorter);
    // In use where a tile beat its row (the report's table rows); else the rows stayed, and the
    // description says they were measured.
    const bool kept = result.report.find("As rows of") != std::string::npos;
    CHECK(vksort::getSorterProperties(sorter).tuned == kept);
    std::string description;
    REQUIRE(vksort::describeSort(sorter, sorts[0].config, 15000, false, &description));
    CHECK_MESSAGE((description.find("this device's tuning data") != std::string::npos) == kept, description);
    // Measured, the row says so (a slow build, as under the sanitizers, may spend the 2 s before
    // the task's measurement, and the report then says it was not measured).
    if (result.report.find("not measured") == std::string::npos)
      CHECK_MESSAGE(description.find("by vksort_tune") != std::string::npos, description);
    sortAndCheck(makeKeys(Dist::uniform, 15000, 3), sorts[0].config);
    requireNoValidationMessages();
  }

  TEST_CASE("tiles from tuning data sort correctly, and describeSort names them") {
    // A tuned tile unlike every row: tier 0's pairs32 with fewer keys per invocation and a
    // one-predecessor look-back (the tuner's candidates are built the same way).
    vksort::Sorter plain = gpu().sorter;
    const vksort::detail::Tuning& table = plain->tuning;
    vksort::detail::TunedTiles tiles;
    tiles.algorithm = table.algorithm;
    tiles.tileCount = 1;
    vksort::detail::TileShape shape = table.tiers[0].shape[vksort::detail::kPairs32];
    shape.keysPerInvocation = std::max(1u, shape.keysPerInvocation / 2);
    shape.lookbackWindow = 1;
    tiles.tiles[0] = {0, vksort::detail::kPairs32, 0, 5000, 200, 100, shape};
    vksort::Sorter sorter = nullptr;
    const vksort::Status st = vksort::detail::createSorterTuned(gpu().ctx.sorterCreateInfo(), &tiles, &sorter);
    REQUIRE_MESSAGE(st, st.message);
    SorterSwap swap(sorter);
    const vksort::SortConfig config =
        configOf(vksort::KeyType::u32, vksort::ValueType::u32, vksort::SortOrder::ascending, 0, 32);
    std::string description;
    REQUIRE(vksort::describeSort(sorter, config, 30000, true, &description));
    CHECK_MESSAGE(description.find("2.00x the built-in row") != std::string::npos, description);
    for (Dist d : {Dist::uniform, Dist::q4, Dist::allEqual}) {
      CAPTURE(name(d));
      sortAndCheck(makeKeys(d, 30000, 5), config);
      const std::vector<uint32_t> keys = makeKeys(d, 30000, 6);
      sortIndirectAndCheck(keys, true, 17000, CountSource::transfer, config);
    }
    requireNoValidationMessages();
  }

  TEST_CASE("tuning data from elsewhere is refused, or ignored, as the caller chooses") {
    vksort::SorterCreateInfo ci = gpu().ctx.sorterCreateInfo();
    const vksort::detail::DeviceCaps& caps = gpu().sorter->caps;
    vksort::detail::DeviceCaps other = caps;
    other.deviceId ^= 0x100;
    const std::vector<uint8_t> foreign = vksort::detail::encodeTuningData(other, {});
    const std::vector<uint8_t> own = vksort::detail::encodeTuningData(caps, {});
    const std::vector<uint8_t> truncated(own.begin(), own.end() - 4);
    std::vector<uint8_t> flipped = own;
    flipped[own.size() - 3] ^= 0x10;
    for (const std::vector<uint8_t>* data :
         {&foreign, &truncated, static_cast<const std::vector<uint8_t>*>(&flipped)}) {
      ci.pTuningData = data->data();
      ci.tuningDataSize = data->size();
      ci.requireTuningData = true;
      vksort::Sorter sorter = reinterpret_cast<vksort::Sorter>(uintptr_t(0x1234));
      const vksort::Status refused = vksort::createSorter(ci, &sorter);
      CHECK(refused.result == vksort::Result::errorIncompatibleTuning);
      CHECK(refused.message.find("tuning data") != std::string::npos);
      CHECK(sorter == reinterpret_cast<vksort::Sorter>(uintptr_t(0x1234)));
      ci.requireTuningData = false;
      const vksort::Status ignored = vksort::createSorter(ci, &sorter);
      REQUIRE_MESSAGE(ignored, ignored.message);
      CHECK(!vksort::getSorterProperties(sorter).tuned);
      vksort::destroySorter(sorter);
    }
    // Required data that is not there; a size without a pointer.
    ci.pTuningData = nullptr;
    ci.tuningDataSize = 0;
    ci.requireTuningData = true;
    vksort::Sorter none = nullptr;
    vksort::Status missing = vksort::createSorter(ci, &none);
    CHECK(missing.result == vksort::Result::errorIncompatibleTuning);
    CHECK(missing.message.find("requireTuningData is set but no tuning data was given") != std::string::npos);
    CHECK(none == nullptr);
    ci.requireTuningData = false;
    ci.tuningDataSize = 64;
    missing = vksort::createSorter(ci, &none);
    CHECK(missing.result == vksort::Result::errorInvalidArgument);
    CHECK(missing.message.find("tuningDataSize is 64 but pTuningData is null") != std::string::npos);
    CHECK(none == nullptr);
    ci.tuningDataSize = 0;
    // The same through the C API.
    VksortSorterCreateInfo cci = cCreateInfo(ci);
    cci.pTuningData = foreign.data();
    cci.tuningDataSize = foreign.size();
    cci.requireTuningData = VK_TRUE;
    VksortSorter csorter = nullptr;
    CHECK(vksortCreateSorter(&cci, &csorter) == VKSORT_ERROR_INCOMPATIBLE_TUNING);
    CHECK(std::string(vksortGetLastErrorMessage()).find("made on device") != std::string::npos);
    CHECK(csorter == nullptr);
    // Its own data is taken.
    VksortSorterCreateInfo ownInfo = cci;
    ownInfo.pTuningData = own.data();
    ownInfo.tuningDataSize = own.size();
    REQUIRE(vksortCreateSorter(&ownInfo, &csorter) == VKSORT_SUCCESS);
    VksortSorterProperties props{};
    vksortGetSorterProperties(csorter, &props);
    CHECK(props.tuned == VK_FALSE);  // it changes nothing
    vksortDestroySorter(csorter);
    // Data that changes a tile is in use.
    vksort::detail::TunedTiles one;
    one.tileCount = 1;
    one.tiles[0] = {0, vksort::detail::kPairs32, 0, 5000, 200, 100, gpu().sorter->tuning.tiers[0].shape[0]};
    one.tiles[0].shape.lookbackWindow = one.tiles[0].shape.lookbackWindow == 1 ? 2 : 1;
    const std::vector<uint8_t> changing = vksort::detail::encodeTuningData(caps, one);
    ownInfo.pTuningData = changing.data();
    ownInfo.tuningDataSize = changing.size();
    REQUIRE(vksortCreateSorter(&ownInfo, &csorter) == VKSORT_SUCCESS);
    vksortGetSorterProperties(csorter, &props);
    CHECK(props.tuned == VK_TRUE);
    vksortDestroySorter(csorter);
    requireNoValidationMessages();
  }

  TEST_CASE("a never-measured device's long tier is tuned in parts, each a tier of the data") {
    // untuned=1 gives any device the one tier a device no vendor table knows starts from; 2,049 to
    // 140,000 keys span more than 64 times, so the tuner tunes them in two parts, the second from
    // 2^16 (tuner/search_space.hpp), and the data splits the tier there.
    vksort::SorterDeveloperOptions developer;
    developer.tuning = "untuned=1";
    const vksort::SorterCreateInfo ci = gpu().ctx.sorterCreateInfo(&developer);
    vksort::PreparedSort sort;
    sort.config.keyType = vksort::KeyType::u32;
    sort.maxCount = 140000;
    vksort::TuneInfo info = tuneInfo(&ci, &sort, 1);
    info.timeBudgetSeconds = 6;
    vksort::TuningResult result;
    const vksort::Status st = vksort::tuneSorts(info, &result);
    REQUIRE_MESSAGE(st, st.message);
    vksort::detail::TunedTiles tiles;
    REQUIRE(vksort::detail::decodeTuningData(gpu().sorter->caps, result.data.data(), result.data.size(), &tiles));
    bool secondPart = false;
    for (uint32_t i = 0; i < tiles.tileCount; ++i) {
      CHECK(tiles.tiles[i].tileClass == vksort::detail::kAlone32);
      CHECK((tiles.tiles[i].from == 0 || tiles.tiles[i].from == 1u << 16));
      secondPart = secondPart || tiles.tiles[i].from == 1u << 16;
    }
    CHECK_MESSAGE(secondPart, result.report);
    vksort::Sorter sorter = createRequiringData(ci, result.data);
    SorterSwap swap(sorter);
    REQUIRE(sorter->tuning.tierCount == 2);
    CHECK(sorter->tuning.tiers[1].from == 1u << 16);
    for (uint32_t n : {30000u, 100000u}) sortAndCheck(makeKeys(Dist::uniform, n, 9), sort.config);
    requireNoValidationMessages();
  }

  TEST_CASE("tuneSorts checks its arguments and can be cancelled") {
    const vksort::SorterCreateInfo ci = gpu().ctx.sorterCreateInfo();
    const vksort::PreparedSort sorts[] = {smallPairs()};
    vksort::TuningResult result;
    result.report = "untouched";
    vksort::TuneInfo info = tuneInfo(&ci, sorts, 1);
    CHECK(vksort::tuneSorts(info, nullptr).result == vksort::Result::errorInvalidArgument);
    info.pSorterCreateInfo = nullptr;
    CHECK(vksort::tuneSorts(info, &result).result == vksort::Result::errorInvalidArgument);
    info = tuneInfo(&ci, sorts, 1);
    info.queue = VK_NULL_HANDLE;
    CHECK(vksort::tuneSorts(info, &result).result == vksort::Result::errorInvalidArgument);
    info = tuneInfo(&ci, nullptr, 1);
    CHECK(vksort::tuneSorts(info, &result).result == vksort::Result::errorInvalidArgument);
    info = tuneInfo(&ci, sorts, 1);
    info.timeBudgetSeconds = -1;
    CHECK(vksort::tuneSorts(info, &result).result == vksort::Result::errorInvalidArgument);
    // Cancelled at the first report of progress.
    info = tuneInfo(&ci, sorts, 1);
    info.pfnProgress = [](const vksort::TuningProgress&, void*) { return false; };
    const vksort::Status cancelled = vksort::tuneSorts(info, &result);
    CHECK(cancelled.result == vksort::Result::errorCancelled);
    CHECK(result.report == "untouched");
    CHECK(result.data.empty());
    requireNoValidationMessages();
  }

  TEST_CASE("the C API tunes, and frees what it returned") {
    const vksort::SorterCreateInfo ci = gpu().ctx.sorterCreateInfo();
    const VksortSorterCreateInfo cci = cCreateInfo(ci, VKSORT_ALGORITHM_ONESWEEP);
    const VksortPreparedSort sorts[] = {
        {{VKSORT_KEY_TYPE_U32, VKSORT_VALUE_TYPE_NONE, VKSORT_SORT_ORDER_ASCENDING, 0, 0, 0}, 10000}};
    uint32_t calls = 0;
    const VksortTuneInfo info{.pSorterCreateInfo = &cci,
                              .queue = gpu().ctx.queue,
                              .queueFamilyIndex = gpu().ctx.queueFamily,
                              .sortCount = 1,
                              .pSorts = sorts,
                              .timeBudgetSeconds = 1,
                              .pfnProgress = [](const VksortTuningProgress*, void* user) -> VkBool32 {
                                ++*static_cast<uint32_t*>(user);
                                return VK_TRUE;
                              },
                              .pUserData = &calls};
    VksortTuningResult result{};
    REQUIRE_MESSAGE(vksortTuneSorts(&info, &result) == VKSORT_SUCCESS, vksortGetLastErrorMessage());
    CHECK(calls >= 1);
    CHECK(result.dataSize >= 48);
    CHECK(std::string(result.pReport).find("alone32") != std::string::npos);
    // The caller's algorithm is the only one measured.
    CHECK(std::string(result.pReport).find("reduce-then-scan") == std::string::npos);
    VksortSorterCreateInfo withData = cci;
    withData.pTuningData = result.pData;
    withData.tuningDataSize = result.dataSize;
    withData.requireTuningData = VK_TRUE;
    VksortSorter sorter = nullptr;
    CHECK(vksortCreateSorter(&withData, &sorter) == VKSORT_SUCCESS);
    vksortDestroySorter(sorter);
    vksortFreeTuningResult(&result);
    CHECK(result.pData == nullptr);
    CHECK(result.pReport == nullptr);
    CHECK(vksortTuneSorts(&info, nullptr) == VKSORT_ERROR_INVALID_ARGUMENT);
    requireNoValidationMessages();
  }
}
