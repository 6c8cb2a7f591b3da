// The C API (include/vksort/vksort.h), driven from C (c_api_calls.c); this side brings the device
// and checks the sorted result.
#include <vksort/vksort.h>

#include "c_create_info.hpp"
#include "test_support.hpp"

using namespace vksort_test;

extern "C" int cApiCreate(const VksortSorterCreateInfo*, uint32_t, VksortSorter*, VksortScratchRequirements*);
extern "C" int cApiRecord(VksortSorter, VkCommandBuffer, VkBuffer, VkBuffer, VkBuffer, VkDeviceSize, uint32_t);
extern "C" int cApiSetup(const VksortSorterCreateInfo*, PFN_vkGetInstanceProcAddr);

TEST_SUITE("c_api") {
  TEST_CASE("create, query, reject, and sort f32 pairs in descending order, from C") {
    vkctx::Context& ctx = gpu().ctx;
    vksort::SorterCreateInfo cpp = ctx.sorterCreateInfo();
    const VksortSorterCreateInfo ci = cCreateInfo(cpp);
    const uint32_t n = 3000;
    VksortSorter sorter = nullptr;
    VksortScratchRequirements req{};
    REQUIRE(cApiSetup(&ci, vkGetInstanceProcAddr) == 0);
    REQUIRE(cApiCreate(&ci, n, &sorter, &req) == 0);

    std::vector<uint32_t> keys = makeKeys(Dist::q2, n, 31), values = iota(n);
    vkctx::Buffer k = ctx.createDeviceBuffer(n * 4), v = ctx.createDeviceBuffer(n * 4),
                  scratch = ctx.createDeviceBuffer(req.size, req.usage);
    ctx.upload(k, keys.data(), n * 4);
    ctx.upload(v, values.data(), n * 4);
    VkCommandBuffer cmd = ctx.beginCommands();
    vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VKSORT_SORT_DST_STAGE,
                         VKSORT_SORT_DST_ACCESS);
    CHECK(cApiRecord(sorter, cmd, k.buffer, v.buffer, scratch.buffer, req.size, n) == 0);
    vkctx::memoryBarrier(cmd, VKSORT_SORT_SRC_STAGE, VKSORT_SORT_SRC_ACCESS, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_ACCESS_TRANSFER_READ_BIT);
    ctx.submitAndWait(cmd);
    requireNoValidationMessages();

    Sorted out{.keys = std::vector<uint32_t>(n), .values = std::vector<uint32_t>(n), .header = {}, .scratch = {}};
    ctx.download(k, out.keys.data(), n * 4);
    ctx.download(v, out.values.data(), n * 4);
    vksort::SortConfig config;
    config.keyType = vksort::KeyType::f32;
    config.order = vksort::SortOrder::descending;
    checkAgainstReference(keys, out, true, config);
    for (vkctx::Buffer* b : {&k, &v, &scratch}) ctx.destroy(*b);
    vksortDestroySorter(sorter);
  }
}
