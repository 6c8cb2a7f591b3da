// Depth keys from the GPU (recordDepthKeys): f32 depths quantized in place over the range of the
// finite ones. Checked against the definition in double precision (every key within one of
// floor((d - min) / (max - min) * 2^bits), at most 2^bits - 1), for order (a nearer depth never
// has a larger key; the nearest key 0, the farthest 2^bits - 1), non-finite depths at the ends,
// both orders, direct and indirect counts (nothing past the count touched), the largest grid,
// bad arguments, and as a renderer uses it: the keys sorted as a permutation come out in depth
// order up to the quantization step.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>

#include "test_support.hpp"

using namespace vksort_test;
using vksort::SortOrder;

namespace {

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Depths of a scene: most in a few clusters, some spread over [near, far].
std::vector<float> sceneDepths(size_t n, float nearest, float farthest, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> spread(nearest, farthest), cluster(-0.5f, 0.5f);
  std::vector<float> d(n);
  for (size_t i = 0; i < n; ++i)
    d[i] = i % 3 == 0 ? spread(rng) : std::clamp(nearest + 3.0f + float(i % 7) + cluster(rng), nearest, farthest);
  d[n / 2] = nearest, d[n / 3] = farthest;  // the range's ends, exactly
  return d;
}

struct DepthRun {
  uint32_t bits = 16;
  SortOrder order = SortOrder::ascending;
  bool indirect = false;
  uint32_t countValue = 0;  // indirect: the count buffer's value
};

// Runs recordDepthKeys over `depths` (maxCount: all of them) and returns the buffer after.
std::vector<uint32_t> depthKeys(const std::vector<float>& depths, const DepthRun& run) {
  vkctx::Context& ctx = gpu().ctx;
  const uint32_t n = uint32_t(depths.size());
  vkctx::Buffer buffer = ctx.createDeviceBuffer(VkDeviceSize(std::max(n, 1u)) * 4);
  vkctx::Buffer scratch = ctx.createDeviceBuffer(vksort::kDepthKeysScratchBytes);
  vkctx::Buffer count = ctx.createDeviceBuffer(4);
  ctx.upload(buffer, depths.data(), VkDeviceSize(n) * 4);
  ctx.upload(count, &run.countValue, 4);
  vksort::DepthKeysInfo info;
  info.depths = buffer.range();
  info.count = n;
  info.maxCount = n;
  if (run.indirect) info.countBuffer = count.range();
  info.bits = run.bits;
  info.order = run.order;
  info.scratch = scratch.range();
  VkCommandBuffer cmd = ctx.beginCommands();
  vkCmdFillBuffer(cmd, scratch.buffer, 0, VK_WHOLE_SIZE, kScratchGarbage);  // nothing assumed there
  vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, vksort::kSortDstStage,
                       vksort::kSortDstAccess);
  vkctx::check(vksort::recordDepthKeys(gpu().sorter, cmd, info), "recordDepthKeys");
  ctx.submitAndWait(cmd);
  requireNoValidationMessages();
  std::vector<uint32_t> out(n);
  ctx.download(buffer, out.data(), VkDeviceSize(n) * 4);
  for (vkctx::Buffer* b : {&buffer, &scratch, &count}) ctx.destroy(*b);
  return out;
}

// Checks keys[0, count) against the definition, and the rest untouched.
void checkKeys(const std::vector<float>& depths, const std::vector<uint32_t>& keys, const DepthRun& run,
               uint32_t count) {
  const uint32_t top = (1u << run.bits) - 1;
  double lo = INFINITY, hi = -INFINITY;
  for (uint32_t i = 0; i < count; ++i)
    if (std::isfinite(depths[i])) lo = std::min(lo, double(depths[i])), hi = std::max(hi, double(depths[i]));
  const bool descending = run.order == SortOrder::descending;
  uint32_t wrong = 0, distinct = 0;
  std::vector<bool> seen(size_t(top) + 1);
  for (uint32_t i = 0; i < count; ++i) {
    const float d = depths[i];
    int64_t want;
    if (std::isnan(d) || std::isinf(d)) want = std::signbit(d) ? 0 : top;
    else
      want = hi > lo
                 ? std::min<int64_t>(int64_t(std::floor((d - lo) / (hi - lo) * std::ldexp(1.0, int(run.bits)))), top)
                 : 0;
    if (descending) want = top - want;
    const int64_t got = keys[i];
    // Within one step of the exact value (float arithmetic); the ends and non-finite exactly.
    const bool exact = !std::isfinite(d) || d == lo || d == hi;
    if (got > top || (exact ? got != want : std::abs(got - want) > 1)) {
      if (wrong++ < 5) MESSAGE("depth ", d, " (bits ", bitsOf(d), "): key ", got, ", want ", want);
    }
    if (got <= top && !seen[size_t(got)]) seen[size_t(got)] = true, ++distinct;
  }
  CHECK(wrong == 0);
  // Monotone: in depth order the keys never step back.
  std::vector<uint32_t> byDepth(count);
  std::iota(byDepth.begin(), byDepth.end(), 0u);
  const vksort::SortConfig f32 = configOf(vksort::KeyType::f32, vksort::ValueType::none, SortOrder::ascending, 0, 32);
  std::stable_sort(byDepth.begin(), byDepth.end(), [&](uint32_t a, uint32_t b) {
    return vksort::keyOrderBits(f32, bitsOf(depths[a])) < vksort::keyOrderBits(f32, bitsOf(depths[b]));
  });
  uint32_t backwards = 0;
  for (uint32_t k = 1; k < count; ++k) {
    const uint32_t a = keys[byDepth[k - 1]], b = keys[byDepth[k]];
    backwards += descending ? a < b : a > b;
  }
  CHECK(backwards == 0);
  for (size_t i = count; i < depths.size(); ++i) REQUIRE(keys[i] == bitsOf(depths[i]));  // past the count
  MESSAGE(count, " depths, ", run.bits, " bits: ", distinct, " distinct keys");
}

}  // namespace

TEST_SUITE("depth_keys") {
  TEST_CASE("keys by the definition, in order, both orders, 8, 16 and 24 bits") {
    const std::vector<float> depths = sceneDepths(100003, 0.2f, 1500.0f, 1);
    for (uint32_t bits : {8u, 16u, 24u})
      for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
        CAPTURE(bits);
        CAPTURE(order == SortOrder::descending);
        DepthRun run{bits, order};
        checkKeys(depths, depthKeys(depths, run), run, uint32_t(depths.size()));
      }
  }

  TEST_CASE("negative depths, non-finite ones at the ends without widening the range, all equal") {
    std::vector<float> depths = sceneDepths(5000, -40.0f, 25.0f, 2);
    depths[7] = INFINITY, depths[8] = -INFINITY, depths[9] = std::numeric_limits<float>::quiet_NaN();
    depths[10] = -std::numeric_limits<float>::quiet_NaN(), depths[11] = -0.0f, depths[12] = 0.0f;
    for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
      DepthRun run{12, order};
      const std::vector<uint32_t> keys = depthKeys(depths, run);
      checkKeys(depths, keys, run, uint32_t(depths.size()));
      CHECK(keys[11] == keys[12]);  // -0.0 and +0.0
    }
    const std::vector<float> same(3000, 7.5f);
    DepthRun run{16};
    const std::vector<uint32_t> keys = depthKeys(same, run);
    CHECK(std::count(keys.begin(), keys.end(), 0u) == 3000);
  }

  TEST_CASE("indirect counts: below maxCount, above it (clamped), zero; nothing past them touched") {
    const std::vector<float> depths = sceneDepths(20000, 1.0f, 90.0f, 3);
    for (uint32_t value : {12345u, 20000u, 999999u, 0u}) {
      CAPTURE(value);
      DepthRun run{16, SortOrder::descending, true, value};
      checkKeys(depths, depthKeys(depths, run), run, std::min(value, 20000u));
    }
  }

  TEST_CASE("more depths than the largest grid covers in one round") {
    // 1024 workgroups of 16 x 256: each workgroup takes several rounds.
    const std::vector<float> depths = sceneDepths(4u << 20 | 12345u, 0.5f, 300.0f, 4);
    DepthRun run{16};
    checkKeys(depths, depthKeys(depths, run), run, uint32_t(depths.size()));
  }

  TEST_CASE("as a renderer sorts: keys sorted as a permutation come out in depth order, to a step") {
    const std::vector<float> depths = sceneDepths(60001, 0.2f, 800.0f, 5);
    for (uint32_t bits : {16u, 24u}) {
      CAPTURE(bits);
      DepthRun run{bits, SortOrder::descending};
      const std::vector<uint32_t> keys = depthKeys(depths, run);
      vksort::SortConfig c = configOf(vksort::KeyType::u32, vksort::ValueType::index, SortOrder::ascending, 0, bits);
      c.discardKeys = true;
      const Sorted out = gpuSort(keys, &keys, c);  // (the values given only say "pairs")
      checkAgainstReference(keys, out, true, c);
      const float step = (800.0f - 0.2f) / float(1u << bits);
      uint32_t unordered = 0;
      std::vector<bool> seen(depths.size());
      for (size_t k = 0; k < out.values.size(); ++k) {
        REQUIRE(out.values[k] < depths.size());
        seen[out.values[k]] = true;
        if (k > 0) unordered += depths[out.values[k]] > depths[out.values[k - 1]] + step * 1.001f;  // farthest first
      }
      CHECK(unordered == 0);
      CHECK(std::count(seen.begin(), seen.end(), true) == int64_t(depths.size()));
    }
  }

  TEST_CASE("bad arguments: an error, nothing recorded") {
    vkctx::Context& ctx = gpu().ctx;
    vkctx::Buffer buffer = ctx.createDeviceBuffer(4096),
                  scratch = ctx.createDeviceBuffer(vksort::kDepthKeysScratchBytes);
    vksort::DepthKeysInfo good;
    good.depths = buffer.range();
    good.count = good.maxCount = 1024;
    good.scratch = scratch.range();
    VkCommandBuffer cmd = ctx.beginCommands();
    auto fails = [&](vksort::DepthKeysInfo info, const char* message) {
      CAPTURE(message);
      vksort::Status st = vksort::recordDepthKeys(gpu().sorter, cmd, info);
      CHECK(st.result == vksort::Result::errorInvalidArgument);
      CHECK(st.message.find(message) != std::string::npos);
    };
    vksort::DepthKeysInfo info = good;
    info.bits = 0;
    fails(info, "bits 0: depth keys take 1 to 24 bits");
    info.bits = 25;
    fails(info, "bits 25");
    info = good;
    info.order = SortOrder(7);
    fails(info, "unsupported sort order 7");
    info = good;
    info.count = 1025;
    fails(info, "count 1025 exceeds maxCount 1024");
    info = good;
    info.count = info.maxCount = 1025;
    fails(info, "depths.size 4096 is below the 4100 bytes needed");
    info = good;
    info.scratch.size = vksort::kDepthKeysScratchBytes - 4;
    fails(info, "scratch.size");
    info = good;
    info.depths.offset = 2;
    fails(info, "depths.offset 2 is not a multiple of 4");
    info = good;
    info.countBuffer = {buffer.buffer, 0, 2};
    fails(info, "countBuffer.size 2");
    info = good;
    info.countBuffer = {buffer.buffer, 400, 4};
    fails(info, "depths [0, 4096) and countBuffer [400, 404) overlap in one buffer");
    vksort::DepthKeysInfo none;  // a count of 0 records nothing and needs no range
    CHECK(vksort::recordDepthKeys(gpu().sorter, cmd, none));
    CHECK(vksort::recordDepthKeys(nullptr, cmd, good).result == vksort::Result::errorInvalidArgument);
    CHECK(vksort::recordDepthKeys(gpu().sorter, VK_NULL_HANDLE, good).result == vksort::Result::errorInvalidArgument);
    ctx.submitAndWait(cmd);  // empty: nothing was recorded
    requireNoValidationMessages();
    for (vkctx::Buffer* b : {&buffer, &scratch}) ctx.destroy(*b);
  }
}
