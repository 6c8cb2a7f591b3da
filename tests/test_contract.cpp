// The barrier contract of the README, under synchronization validation: caller work recorded
// before and after a sort in the same command buffer, with only the barriers the contract names;
// and sorts that share one scratch buffer recorded back to back with no barrier of the caller's.
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
      for (const auto& [keyType, endBit, expected] : {std::tuple{vksort::KeyType::u32, 32u, 8u}, std::tuple{vksort::KeyType::u64, 64u, 12u},
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
        vkctx::Buffer keyBuf = ctx.createDeviceBuffer(keys.size() * 4), scratch = ctx.createDeviceBuffer(req.size, req.usage);
        ctx.upload(keyBuf, keys.data(), keys.size() * 4);
        info.keys = keyBuf.range();
        info.scratch = scratch.range();
        info.timestampPool = pool;
        info.firstTimestamp = 2;  // an offset into the caller's pool

        VkCommandBuffer cmd = ctx.beginCommands();
        vkCmdResetQueryPool(cmd, pool, 0, qi.queryCount);
        vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, vksort::kSortDstStage,
                             vksort::kSortDstAccess);
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
