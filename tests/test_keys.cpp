// Key types, orders and bit ranges (include/vksort/vksort.hpp, SortConfig), each checked exactly
// against std::stable_sort of the ordered bits, with index values so stability is checked too.
#include <cstring>

#include "test_support.hpp"

using namespace vksort_test;

namespace {

const uint32_t kPublicKeysSpirv[] = {
#include "public_keys.comp.spv.inc"
};

const char* name(vksort::KeyType t) {
  return t == vksort::KeyType::u32 ? "u32" : t == vksort::KeyType::i32 ? "i32" : "f32";
}

uint32_t floatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// Uniform random bits, and for floats every edge value scattered among random finite floats.
std::vector<uint32_t> keysFor(vksort::KeyType type, size_t n, uint64_t seed) {
  std::vector<uint32_t> k = makeKeys(Dist::uniform, n, seed);
  if (type == vksort::KeyType::f32) {
    const uint32_t edges[] = {0x00000000u, 0x80000000u,              // +0.0, -0.0
                              0x7f800000u, 0xff800000u,              // +inf, -inf
                              0x7fc00000u, 0x7f800001u, 0x7fffffffu, // positive NaNs
                              0xffc00000u, 0xff800001u, 0xffffffffu, // negative NaNs
                              0x00000001u, 0x807fffffu, 0x00400000u, // denormals
                              0x7f7fffffu, 0xff7fffffu, 0x00800000u, // largest, smallest normal
                              floatBits(1.0f), floatBits(-1.0f), floatBits(0.5f)};
    for (size_t i = 0; i < n; ++i) {
      if (i % 7 == 0) k[i] = edges[(i / 7) % (sizeof edges / 4)];
      else k[i] = floatBits(float(int32_t(k[i] >> 8) - (1 << 23)) * 1.5e-3f);  // finite, both signs
    }
  }
  return k;
}

void sortAndCheck(const std::vector<uint32_t>& keys, bool pairs, const vksort::SortConfig& config) {
  std::vector<uint32_t> values = iota(keys.size());
  Sorted out = gpuSort(keys, pairs ? &values : nullptr, config);
  checkAgainstReference(keys, out, pairs, config);
}

}  // namespace

TEST_SUITE("keys") {
  TEST_CASE("every key type, with and without values, in both orders") {
    const uint32_t n = 3 * vksort::getSorterProperties(gpu().sorter).tileKeys + 17;
    for (vksort::KeyType type : {vksort::KeyType::u32, vksort::KeyType::i32, vksort::KeyType::f32})
      for (vksort::SortOrder order : {vksort::SortOrder::ascending, vksort::SortOrder::descending})
        for (bool pairs : {false, true}) {
          CAPTURE(name(type));
          CAPTURE(order == vksort::SortOrder::descending);
          CAPTURE(pairs);
          vksort::SortConfig config;
          config.keyType = type;
          config.order = order;
          sortAndCheck(keysFor(type, n, 5 + int(type)), pairs, config);
        }
  }

  TEST_CASE("float edge values keep the documented order, -0.0 and +0.0 their input order") {
    // Many copies of each edge value, interleaved: equal keys must stay in input order.
    std::vector<uint32_t> keys = keysFor(vksort::KeyType::f32, 7 * 19 * 40, 9);
    for (size_t i = 0; i < keys.size(); i += 3) keys[i] = (i / 3) % 2 ? 0x80000000u : 0u;
    vksort::SortConfig config;
    config.keyType = vksort::KeyType::f32;
    std::vector<uint32_t> values = iota(keys.size());
    Sorted out = gpuSort(keys, &values, config);
    checkAgainstReference(keys, out, true, config);
    // The reference itself, spelled out for a few values.
    auto rank = [&](uint32_t bits) { return vkctx::referenceOrderBits(bits, config); };
    CHECK(rank(0xffc00000u) < rank(0xff800000u));              // -NaN < -inf
    CHECK(rank(0xff800000u) < rank(floatBits(-1.0f)));         // -inf < -1
    CHECK(rank(0x807fffffu) < rank(0x80000000u));              // -denormal < -0
    CHECK(rank(0x80000000u) == rank(0u));                      // -0 == +0
    CHECK(rank(0x00000001u) < rank(floatBits(1.0f)));          // denormal < 1
    CHECK(rank(0x7f800000u) < rank(0x7fc00000u));              // +inf < +NaN
  }

  TEST_CASE("bit ranges, odd and even pass counts") {
    const uint32_t n = 2 * vksort::getSorterProperties(gpu().sorter).tileKeys + 123;
    struct Range {
      uint32_t begin, end;
    };
    for (Range r : {Range{0, 16}, Range{8, 24}, Range{4, 28}, Range{0, 8}, Range{24, 32}, Range{28, 32}, Range{3, 4}, Range{0, 32}})
      for (bool pairs : {false, true}) {
        CAPTURE(r.begin);
        CAPTURE(r.end);
        CAPTURE(pairs);
        vksort::SortConfig config;
        config.beginBit = r.begin;
        config.endBit = r.end;
        sortAndCheck(makeKeys(Dist::uniform, n, r.begin * 33 + r.end), pairs, config);
      }
    // A signed, descending 16-bit range: the high half of i32 keys (bit 31 flipped) decides.
    vksort::SortConfig config;
    config.keyType = vksort::KeyType::i32;
    config.order = vksort::SortOrder::descending;
    config.beginBit = 16;
    config.endBit = 32;
    sortAndCheck(makeKeys(Dist::q2, n, 77), true, config);
  }

  TEST_CASE("an odd pass count adds one dispatch") {
    vksort::SortConfig even, odd;
    even.endBit = 16;
    odd.endBit = 24;
    CHECK(vksort::getSortTimestampCount(even) == 4 + 2);
    CHECK(vksort::getSortTimestampCount(odd) == 4 + 3 + 1);
  }

  TEST_CASE("keys.glsl, as a renderer's shader includes it, makes the keys vksort orders by") {
    vkctx::Context& ctx = gpu().ctx;
    std::vector<uint32_t> in = keysFor(vksort::KeyType::f32, 7 * 19 * 4, 12);
    const uint32_t n = uint32_t(in.size());
    vkctx::ComputePipeline pipeline(ctx, kPublicKeysSpirv, sizeof kPublicKeysSpirv, 24);
    vkctx::Buffer src = ctx.createDeviceBuffer(n * 4), dst = ctx.createDeviceBuffer(n * 4);
    ctx.upload(src, in.data(), n * 4);
    for (vksort::KeyType type : {vksort::KeyType::f32, vksort::KeyType::i32}) {
      CAPTURE(name(type));
      struct {
        VkDeviceAddress src, dst;
        uint32_t count, mode;
      } push{ctx.address(src), ctx.address(dst), n, type == vksort::KeyType::f32 ? 0u : 1u};
      VkCommandBuffer cmd = ctx.beginCommands();
      pipeline.dispatch(cmd, &push, (n + 63) / 64);
      vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                           VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
      ctx.submitAndWait(cmd);
      requireNoValidationMessages();
      std::vector<uint32_t> out(n);
      ctx.download(dst, out.data(), n * 4);
      vksort::SortConfig config;
      config.keyType = type;
      size_t wrong = 0;
      for (uint32_t i = 0; i < n; ++i) wrong += out[i] != vkctx::referenceOrderBits(in[i], config);
      CHECK(wrong == 0);
    }
    ctx.destroy(src);
    ctx.destroy(dst);
  }
}
