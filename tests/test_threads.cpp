// One sorter, eight threads recording at once into their own command buffers.
#include <algorithm>
#include <thread>

#include "test_support.hpp"

using namespace vksort_test;

TEST_SUITE("threads") {
  TEST_CASE("eight threads record with one sorter concurrently") {
    Gpu& g = gpu();
    vkctx::Context& ctx = g.ctx;
    constexpr int kThreads = 8;
    const uint32_t n = 3 * testProperties(g.sorter).tileKeys + 101;
    vksort::SortInfo info;
    info.count = info.maxCount = n;
    vksort::ScratchRequirements req;
    REQUIRE(vksort::getScratchRequirements(g.sorter, info.config, n, &req));

    struct Job {
      std::vector<uint32_t> input;
      vkctx::Buffer keys, scratch;
      VkCommandPool pool = VK_NULL_HANDLE;
      VkCommandBuffer cmd = VK_NULL_HANDLE;
      vksort::Status status;
    };
    std::vector<Job> jobs(kThreads);
    for (int t = 0; t < kThreads; ++t) {
      Job& j = jobs[t];
      j.input = makeKeys(Dist::uniform, n, 100 + t);
      j.keys = ctx.createDeviceBuffer(n * 4);
      j.scratch = ctx.createDeviceBuffer(req.size, req.usage);
      ctx.upload(j.keys, j.input.data(), n * 4);
      VkCommandPoolCreateInfo pci =
          vkctx::vkStruct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
      pci.queueFamilyIndex = ctx.queueFamily;
      vkctx::check(vkCreateCommandPool(ctx.device, &pci, nullptr, &j.pool), "vkCreateCommandPool");
      VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, j.pool,
                                     VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
      vkctx::check(vkAllocateCommandBuffers(ctx.device, &ai, &j.cmd), "vkAllocateCommandBuffers");
    }

    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        Job& j = jobs[t];
        VkCommandBufferBeginInfo bi =
            vkctx::vkStruct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
        vkBeginCommandBuffer(j.cmd, &bi);
        vkctx::memoryBarrier(j.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, vksort::kSortDstStage,
                             vksort::kSortDstAccess);
        vksort::SortInfo mine = info;
        mine.keys = j.keys.range();
        mine.scratch = j.scratch.range();
        j.status = vksort::recordSort(g.sorter, j.cmd, mine);
        vkctx::memoryBarrier(j.cmd, vksort::kSortSrcStage, vksort::kSortSrcAccess, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_ACCESS_TRANSFER_READ_BIT);
        vkEndCommandBuffer(j.cmd);
      });
    }
    for (std::thread& th : threads) th.join();

    std::vector<VkCommandBuffer> cmds;
    for (Job& j : jobs) {
      REQUIRE_MESSAGE(j.status, j.status.message);
      cmds.push_back(j.cmd);
    }
    VkSubmitInfo si = vkctx::vkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    si.commandBufferCount = kThreads;
    si.pCommandBuffers = cmds.data();
    vkctx::check(vkQueueSubmit(ctx.queue, 1, &si, VK_NULL_HANDLE), "vkQueueSubmit");
    vkctx::check(vkQueueWaitIdle(ctx.queue), "vkQueueWaitIdle");
    requireNoValidationMessages();

    for (Job& j : jobs) {
      std::vector<uint32_t> out(n);
      ctx.download(j.keys, out.data(), n * 4);
      std::sort(j.input.begin(), j.input.end());
      CHECK(out == j.input);
      vkDestroyCommandPool(ctx.device, j.pool, nullptr);
      ctx.destroy(j.keys);
      ctx.destroy(j.scratch);
    }
  }
}
