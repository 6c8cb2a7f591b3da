// The barrier contract of the README: caller work recorded before and after a sort in the same
// command buffer, with only the barriers the contract names; sorts that share one scratch buffer
// recorded back to back with no barrier of the caller's; and, since synchronization validation
// does not track the device addresses vksort reads and writes through, a test that the
// contract's barriers are needed (without each, a GPU sees wrong data) and enough.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <tuple>

#include "test_support.hpp"

using namespace vksort_test;

namespace {

const uint32_t kFillKeysSpirv[] = {
#include "fill_keys.comp.spv.inc"
};
const uint32_t kCheckSortedSpirv[] = {
#include "check_sorted.comp.spv.inc"
};

uint32_t hash(uint32_t x) {  // as fill_keys.comp
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

}  // namespace

TEST_SUITE("contract") {
  TEST_CASE("shader work before and after a sort, with only the contract's barriers") {
    Gpu& g = gpu();
    vkctx::Context& ctx = g.ctx;
    const uint32_t n = 3 * testProperties(g.sorter).tileKeys + 77;
    const uint32_t seed = 0x5eed;

    vksort::SortInfo info;
    info.config.valueType = vksort::ValueType::u32;
    info.count = info.maxCount = n;
    vksort::ScratchRequirements req;
    vkctx::check(vksort::getScratchRequirements(g.sorter, info.config, n, &req), "getScratchRequirements");
    vkctx::Buffer keys = ctx.createDeviceBuffer(n * 4), values = ctx.createDeviceBuffer(n * 4),
                  copy = ctx.createDeviceBuffer(n * 4), result = ctx.createDeviceBuffer(16),
                  scratch = ctx.createDeviceBuffer(req.size, req.usage), readback = ctx.createHostBuffer(n * 4 + 16);
    info.keys = keys.range();
    info.values = values.range();
    info.scratch = scratch.range();

    struct FillPush {
      VkDeviceAddress keys, values;
      uint32_t count, seed;
    } fillPush{ctx.address(keys), ctx.address(values), n, seed};
    struct CheckPush {
      VkDeviceAddress keys, values, copy, result;
      uint32_t count;
    } checkPush{ctx.address(keys), ctx.address(values), ctx.address(copy), ctx.address(result), n};
    vkctx::ComputePipeline fill(ctx, kFillKeysSpirv, sizeof kFillKeysSpirv, sizeof(FillPush));
    vkctx::ComputePipeline checker(ctx, kCheckSortedSpirv, sizeof kCheckSortedSpirv, sizeof(CheckPush));
    const uint32_t groups = (n + 63) / 64;  // local_size_x = 64 in both

    VkCommandBuffer cmd = ctx.beginCommands();
    vkCmdFillBuffer(cmd, result.buffer, 0, 16, 0);
    fill.dispatch(cmd, &fillPush, groups);
    // The contract's "before" barrier.
    vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, vksort::kSortDstStage,
                         vksort::kSortDstAccess);
    vkctx::check(vksort::recordSort(g.sorter, cmd, info), "recordSort");
    // The contract's "after" barrier (plus the fill of `result`, which is the test's own).
    vkctx::memoryBarrier(cmd, vksort::kSortSrcStage | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         vksort::kSortSrcAccess | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    checker.dispatch(cmd, &checkPush, groups);
    vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    VkBufferCopy toHost[2] = {{0, 0, n * 4}, {0, n * 4, 16}};
    vkCmdCopyBuffer(cmd, copy.buffer, readback.buffer, 1, &toHost[0]);
    vkCmdCopyBuffer(cmd, result.buffer, readback.buffer, 1, &toHost[1]);
    vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                         VK_ACCESS_HOST_READ_BIT);
    ctx.submitAndWait(cmd);
    requireNoValidationMessages();

    std::vector<uint32_t> expected(n);
    for (uint32_t i = 0; i < n; ++i) expected[i] = hash(i ^ seed);
    std::sort(expected.begin(), expected.end());
    const auto* words = static_cast<const uint32_t*>(readback.mapped);
    CHECK(std::equal(expected.begin(), expected.end(), words));
    CHECK(words[n] == 0);      // keys out of order, seen by the shader after the sort
    CHECK(words[n + 1] == 0);  // equal keys out of input order

    for (vkctx::Buffer* b : {&keys, &values, &copy, &result, &scratch, &readback}) ctx.destroy(*b);
  }

  TEST_CASE("each barrier of the contract is needed, and the two suffice") {
    // A large copy writes the keys right before the sort (a transfer: the sort's own first
    // barrier orders earlier compute work, not transfers), and a shader reads them right after
    // it. With both barriers every trial must be right. Without "after" the reader may read keys
    // the last pass has not written yet: on a GPU that must be seen at least once with Onesweep
    // (H100: 9 of 10). Reduce-then-scan's last downsweep there hands the SMs over tile by tile
    // and was never caught (0 of 10): only reported. Without
    // "before" the sort may read keys the copy has not written yet; that is only reported: the
    // NVIDIA driver finishes all earlier work at the sort's own first barrier (H100: 0 of 10
    // wrong), which the specification does not promise. On a CPU device (lavapipe runs commands
    // one after another) both are only reported.
    Gpu& g = gpu();
    vkctx::Context& ctx = g.ctx;
    const bool gpuDevice = ctx.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ||
                           ctx.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
    const uint32_t n = gpuDevice ? 1u << 24 : 1u << 15;
    const uint32_t trials = gpuDevice ? 10 : 2;
    std::vector<uint32_t> input = makeKeys(Dist::uniform, n, 77), expected = input;
    std::sort(expected.begin(), expected.end());
    vksort::SortInfo info;
    info.count = info.maxCount = n;
    vksort::ScratchRequirements req;
    vkctx::check(vksort::getScratchRequirements(g.sorter, info.config, n, &req), "getScratchRequirements");
    vkctx::Buffer source = ctx.createDeviceBuffer(n * 4), keys = ctx.createDeviceBuffer(n * 4),
                  seen = ctx.createDeviceBuffer(n * 4), result = ctx.createDeviceBuffer(16),
                  scratch = ctx.createDeviceBuffer(req.size, req.usage);
    ctx.upload(source, input.data(), n * 4);
    info.keys = keys.range();
    info.scratch = scratch.range();
    struct CheckPush {
      VkDeviceAddress keys, values, copy, result;
      uint32_t count;
    } checkPush{ctx.address(keys), ctx.address(keys), ctx.address(seen), ctx.address(result), n};
    vkctx::ComputePipeline reader(ctx, kCheckSortedSpirv, sizeof kCheckSortedSpirv, sizeof(CheckPush));

    enum Variant { kBoth, kNoBefore, kNoAfter };
    for (Variant variant : {kBoth, kNoBefore, kNoAfter}) {
      uint32_t wrong = 0;
      for (uint32_t trial = 0; trial < trials; ++trial) {
        VkCommandBuffer cmd = ctx.beginCommands();
        // Stale keys (all zero) and a clean result first, finished before anything below.
        vkCmdFillBuffer(cmd, keys.buffer, 0, VK_WHOLE_SIZE, 0);
        vkCmdFillBuffer(cmd, seen.buffer, 0, VK_WHOLE_SIZE, 0);
        vkCmdFillBuffer(cmd, result.buffer, 0, VK_WHOLE_SIZE, 0);
        vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                             VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        const VkBufferCopy all{0, 0, VkDeviceSize(n) * 4};
        vkCmdCopyBuffer(cmd, source.buffer, keys.buffer, 1, &all);  // the writer
        if (variant != kNoBefore)
          vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, vksort::kSortDstStage,
                               vksort::kSortDstAccess);
        vkctx::check(vksort::recordSort(g.sorter, cmd, info), "recordSort");
        if (variant != kNoAfter)
          vkctx::memoryBarrier(cmd, vksort::kSortSrcStage, vksort::kSortSrcAccess, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               VK_ACCESS_SHADER_READ_BIT);
        reader.dispatch(cmd, &checkPush, (n + 63) / 64);  // the reader
        vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_ACCESS_TRANSFER_READ_BIT);
        ctx.submitAndWait(cmd);
        std::vector<uint32_t> sawKeys(n), finalKeys(n);
        ctx.download(seen, sawKeys.data(), n * 4);
        ctx.download(keys, finalKeys.data(), n * 4);
        const bool right = sawKeys == expected && finalKeys == expected;
        wrong += !right;
        if (variant == kBoth) REQUIRE_MESSAGE(right, "wrong keys with both barriers, trial " << trial);
      }
      static const char* const kNames[] = {"both barriers", "without the before barrier", "without the after barrier"};
      MESSAGE(std::string(kNames[variant])
              << ": " << wrong << " of " << trials << " trials wrong (" << ctx.properties.deviceName << ")");
      if (variant == kNoAfter && gpuDevice && testProperties(g.sorter).algorithm == vksort::Algorithm::onesweep)
        CHECK_MESSAGE(wrong > 0, std::string(kNames[variant])
                                     << " was never seen wrong: the test cannot show the barrier is needed");
    }
    requireNoValidationMessages();
    for (vkctx::Buffer* b : {&source, &keys, &seen, &result, &scratch}) ctx.destroy(*b);
  }

  TEST_CASE("sorts back to back in one command buffer, with one shared scratch and with separate ones") {
    Gpu& g = gpu();
    vkctx::Context& ctx = g.ctx;
    const uint32_t n = 2 * testProperties(g.sorter).tileKeys + 5;
    for (bool sharedScratch : {true, false}) {
      CAPTURE(sharedScratch);
      std::vector<uint32_t> a = makeKeys(Dist::uniform, n, 11), b = makeKeys(Dist::q2, n, 12);
      vksort::SortInfo info;
      info.count = info.maxCount = n;
      vksort::ScratchRequirements req;
      vkctx::check(vksort::getScratchRequirements(g.sorter, info.config, n, &req), "getScratchRequirements");
      vkctx::Buffer scratchA = ctx.createDeviceBuffer(req.size, req.usage);
      vkctx::Buffer scratchB = ctx.createDeviceBuffer(sharedScratch ? 16 : req.size, req.usage);
      vkctx::Buffer keysA = ctx.createDeviceBuffer(n * 4), keysB = ctx.createDeviceBuffer(n * 4);
      ctx.upload(keysA, a.data(), n * 4);
      ctx.upload(keysB, b.data(), n * 4);

      VkCommandBuffer cmd = ctx.beginCommands();
      vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, vksort::kSortDstStage,
                           vksort::kSortDstAccess);
      info.keys = keysA.range();
      info.scratch = scratchA.range();
      vkctx::check(vksort::recordSort(g.sorter, cmd, info), "recordSort A");
      info.keys = keysB.range();
      info.scratch = sharedScratch ? scratchA.range() : scratchB.range();
      vkctx::check(vksort::recordSort(g.sorter, cmd, info), "recordSort B");
      vkctx::memoryBarrier(cmd, vksort::kSortSrcStage, vksort::kSortSrcAccess, VK_PIPELINE_STAGE_TRANSFER_BIT,
                           VK_ACCESS_TRANSFER_READ_BIT);
      ctx.submitAndWait(cmd);
      requireNoValidationMessages();  // synchronization validation: the recorder's barriers suffice

      std::vector<uint32_t> outA(n), outB(n);
      ctx.download(keysA, outA.data(), n * 4);
      ctx.download(keysB, outB.data(), n * 4);
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      CHECK(outA == a);
      CHECK(outB == b);
      for (vkctx::Buffer* buf : {&scratchA, &scratchB, &keysA, &keysB}) ctx.destroy(*buf);
    }
  }
}

TEST_SUITE("contract") {
  TEST_CASE("profiling writes one timestamp before and one after each dispatch") {
    // Every path a sort may take writes all of its timestamps: each query must become available
    // (one left unwritten hung the caller's wait for the results on an H100: the chained sort).
    for (const char* variant : {"", "algorithm=1,small_keys=0,chained_up_to=4294967295",
                                "algorithm=1,small_keys=0,chained_up_to=0", "algorithm=2,small_keys=0"}) {
      std::optional<TunedSorter> tuned;
      if (*variant) tuned.emplace(variant);
      Gpu& g = gpu();
      vkctx::Context& ctx = g.ctx;
      const uint32_t n = 2 * testProperties(g.sorter).tileKeys + 9;
      // Four passes; eight; three and the copy-back.
      for (const auto& [keyType, endBit, expected] :
           {std::tuple{vksort::KeyType::u32, 32u, 8u}, std::tuple{vksort::KeyType::u64, 64u, 12u},
            std::tuple{vksort::KeyType::u32, 24u, 8u}}) {
        const std::string tuning = variant;
        CAPTURE(tuning);
        CAPTURE(endBit);
        vksort::SortInfo info;
        info.config = configOf(keyType, vksort::ValueType::none, vksort::SortOrder::ascending, 0, endBit);
        info.count = info.maxCount = n;
        const std::vector<uint32_t> keys = makeKeysFor(info.config, Dist::uniform, n, 21);
        const uint32_t stamps = vksort::getSortTimestampCount(info.config);
        CHECK(stamps == expected);  // before, init, histogram, scan, the passes (and the copy-back)
        VkQueryPoolCreateInfo qi = vkctx::vkStruct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
        qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qi.queryCount = stamps + 2;
        VkQueryPool pool;
        vkctx::check(vkCreateQueryPool(ctx.device, &qi, nullptr, &pool), "vkCreateQueryPool");
        vksort::ScratchRequirements req;
        REQUIRE(vksort::getScratchRequirements(g.sorter, info.config, n, &req));
        vkctx::Buffer keyBuf = ctx.createDeviceBuffer(keys.size() * 4),
                      scratch = ctx.createDeviceBuffer(req.size, req.usage);
        ctx.upload(keyBuf, keys.data(), keys.size() * 4);
        info.keys = keyBuf.range();
        info.scratch = scratch.range();
        info.timestampPool = pool;
        info.firstTimestamp = 2;  // an offset into the caller's pool

        VkCommandBuffer cmd = ctx.beginCommands();
        vkCmdResetQueryPool(cmd, pool, 0, qi.queryCount);
        vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, vksort::kSortDstStage,
                             vksort::kSortDstAccess);
        // A pool the caller says is too small, or queries past 2^32, are refused before anything
        // is recorded (a write past a pool's end crashed a driver).
        for (auto [queries, first] : {std::pair{qi.queryCount - 1, 2u}, std::pair{0u, 0xFFFFFFFFu - stamps + 1}}) {
          vksort::SortInfo bad = info;
          bad.timestampPoolQueries = queries;
          bad.firstTimestamp = first;
          const vksort::Status refused = vksort::recordSort(g.sorter, cmd, bad);
          CHECK(refused.result == vksort::Result::errorInvalidArgument);
          CHECK_MESSAGE(refused.message.find("past the") != std::string::npos, refused.message);
        }
        info.timestampPoolQueries = qi.queryCount;  // exactly enough
        vkctx::check(vksort::recordSort(g.sorter, cmd, info), "recordSort");
        vkctx::memoryBarrier(cmd, vksort::kSortSrcStage, vksort::kSortSrcAccess, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_ACCESS_TRANSFER_READ_BIT);
        ctx.submitAndWait(cmd);
        requireNoValidationMessages();

        std::vector<uint64_t> ticks(stamps);
        // The work is done, so every one of the sort's queries is available (not waited for:
        // an unwritten one would wait forever)...
        CHECK(vkGetQueryPoolResults(ctx.device, pool, 2, stamps, ticks.size() * 8, ticks.data(), 8,
                                    VK_QUERY_RESULT_64_BIT) == VK_SUCCESS);
        for (uint32_t i = 0; i + 1 < stamps; ++i) CHECK(ticks[i] <= ticks[i + 1]);  // ...and in order
        uint64_t before[2];  // ...and the two queries before firstTimestamp were left alone
        CHECK(vkGetQueryPoolResults(ctx.device, pool, 0, 2, sizeof before, before, 8, VK_QUERY_RESULT_64_BIT) ==
              VK_NOT_READY);

        Sorted out;
        out.keys.resize(keys.size());
        ctx.download(keyBuf, out.keys.data(), keys.size() * 4);
        checkAgainstReference(keys, out, false, info.config);
        vkDestroyQueryPool(ctx.device, pool, nullptr);
        ctx.destroy(keyBuf);
        ctx.destroy(scratch);
      }
    }
  }
}
