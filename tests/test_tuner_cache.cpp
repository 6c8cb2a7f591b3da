// The tuner and the caller's pipeline cache (a file of its own: test_tuner.cpp includes volk.h,
// whose device functions are not the loader's).
#include <doctest/doctest.h>

#include "test_support.hpp"

using vksort_test::gpu;
using vksort_test::requireNoValidationMessages;

TEST_SUITE("tuner") {
  TEST_CASE("tuneSorts starts from the caller's pipeline cache and leaves what it built there") {
    // An application's cache holds its prepared sorts' pipelines: the tuner seeds its own cache
    // with them and merges what it built back, so the tuned sorter's pipelines are warm.
    VkDevice device = gpu().ctx.device;
    auto cacheInfo = vkctx::vkStruct<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
    VkPipelineCache cache = VK_NULL_HANDLE;
    REQUIRE(vkCreatePipelineCache(device, &cacheInfo, nullptr, &cache) == VK_SUCCESS);
    auto cacheBytes = [&] {
      size_t bytes = 0;
      CHECK(vkGetPipelineCacheData(device, cache, &bytes, nullptr) == VK_SUCCESS);
      return bytes;
    };
    const size_t empty = cacheBytes();
    vksort::SorterCreateInfo ci = gpu().ctx.sorterCreateInfo();
    ci.pipelineCache = cache;
    // Whether the driver keeps anything in a cache (lavapipe's stay empty): a sorter that builds a
    // sort's pipelines into another one.
    VkPipelineCache probe = VK_NULL_HANDLE;
    REQUIRE(vkCreatePipelineCache(device, &cacheInfo, nullptr, &probe) == VK_SUCCESS);
    vksort::SorterCreateInfo probing = ci;
    probing.pipelineCache = probe;
    vksort::Sorter sorter = nullptr;
    REQUIRE(vksort::createSorter(probing, &sorter));
    vksort::PreparedSort small;
    small.maxCount = 4096;
    REQUIRE(vksort::prepareSorts(sorter, 1, &small));
    vksort::destroySorter(sorter);
    size_t probeBytes = 0;
    REQUIRE(vkGetPipelineCacheData(device, probe, &probeBytes, nullptr) == VK_SUCCESS);
    vkDestroyPipelineCache(device, probe, nullptr);
    const bool keeps = probeBytes > empty;
    const vksort::PreparedSort sort = vksort_test::smallPairs();
    const vksort::TuneInfo info = vksort_test::tuneInfo(&ci, &sort, 1);
    vksort::TuningResult result;
    const vksort::Status st = vksort::tuneSorts(info, &result);
    REQUIRE_MESSAGE(st, st.message);
    if (keeps) CHECK(cacheBytes() > empty);
    else MESSAGE("this driver keeps nothing in pipeline caches: the merge is not observable here");
    vkDestroyPipelineCache(device, cache, nullptr);
    requireNoValidationMessages();
  }
}
