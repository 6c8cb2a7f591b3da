// Key types, value types, orders and bit ranges (include/vksort/vksort.hpp, SortConfig), each
// checked exactly against std::stable_sort of the ordered bits, with index values so stability is
// checked too.
#include <cstring>
#include <limits>
#include <vector>

#include "plan.hpp"  // keyTypeName
#include "test_support.hpp"

using namespace vksort_test;
using vksort::KeyType;
using vksort::SortOrder;
using vksort::ValueType;

namespace {

const uint32_t kPublicKeysSpirv[] = {
#include "public_keys.comp.spv.inc"
};

// Every key type, from the count the library keeps (a new type is sorted here without a line).
const std::vector<KeyType> kAllKeyTypes = [] {
  std::vector<KeyType> all;
  for (uint32_t t = 0; t < vksort::detail::kKeyTypes; ++t) all.push_back(KeyType(t));
  return all;
}();

const char* name(KeyType t) { return vksort::detail::keyTypeName(t); }

uint32_t floatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
uint64_t doubleBits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

// Every edge value of a float type: zeros, infinities, NaNs of both signs, denormals, extremes.
std::vector<uint64_t> floatEdges(KeyType type) {
  if (type == KeyType::f32)
    return {0x00000000u,     0x80000000u,                    // +0.0, -0.0
            0x7f800000u,     0xff800000u,                    // +inf, -inf
            0x7fc00000u,     0x7f800001u,      0x7fffffffu,  // positive NaNs
            0xffc00000u,     0xff800001u,      0xffffffffu,  // negative NaNs
            0x00000001u,     0x807fffffu,      0x00400000u,  // denormals
            0x7f7fffffu,     0xff7fffffu,      0x00800000u,  // largest, smallest normal
            floatBits(1.0f), floatBits(-1.0f), floatBits(0.5f)};
  return {0ull,
          1ull << 63,  // +0.0, -0.0
          0x7ff0000000000000ull,
          0xfff0000000000000ull,  // +inf, -inf
          0x7ff8000000000000ull,
          0x7ff0000000000001ull,
          ~0ull >> 1,  // positive NaNs
          0xfff8000000000000ull,
          0xfff0000000000001ull,
          ~0ull,  // negative NaNs
          1ull,
          0x800fffffffffffffull,
          0x0008000000000000ull,  // denormals
          0x7fefffffffffffffull,
          0xffefffffffffffffull,
          0x0010000000000000ull,
          doubleBits(1.0),
          doubleBits(-1.0),
          doubleBits(0.5),
          doubleBits(1.0 + 1e-15)};
}

// Uniform random bits, and for floats every edge value scattered among random finite values of
// both signs.
std::vector<uint32_t> keysFor(KeyType type, size_t n, uint64_t seed) {
  vksort::SortConfig config;
  config.keyType = type;
  std::vector<uint32_t> k = makeKeysFor(config, Dist::uniform, n, seed);
  if (type != KeyType::f32 && type != KeyType::f64) return k;
  std::vector<uint64_t> edges = floatEdges(type);
  for (size_t i = 0; i < n; ++i) {
    if (type == KeyType::f32) {
      k[i] = i % 7 == 0 ? uint32_t(edges[(i / 7) % edges.size()])
                        : floatBits(float(int32_t(k[i] >> 8) - (1 << 23)) * 1.5e-3f);
      continue;
    }
    uint64_t bits = i % 7 == 0 ? edges[(i / 7) % edges.size()]
                               : doubleBits(double(int32_t(k[2 * i + 1])) * 1e-3 + double(k[2 * i]) * 1e-12);
    k[2 * i] = uint32_t(bits), k[2 * i + 1] = uint32_t(bits >> 32);
  }
  return k;
}

// The whole key's bits.
vksort::SortConfig configOf(KeyType type, ValueType values = ValueType::none, SortOrder order = SortOrder::ascending) {
  return vksort_test::configOf(type, values, order, 0, vksort::keyBytes(type) * 8);
}

}  // namespace

TEST_SUITE("keys") {
  TEST_CASE("every key type x value type x order") {
    const TestProperties p = testProperties(gpu().sorter);
    for (KeyType type : kAllKeyTypes)
      for (ValueType values : {ValueType::none, ValueType::u32, ValueType::u64})
        for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
          CAPTURE(name(type));
          CAPTURE(int(values));
          CAPTURE(order == SortOrder::descending);
          vksort::SortConfig config = configOf(type, values, order);
          bool wide = vksort::keyBytes(type) == 8 || values == ValueType::u64;
          const uint32_t n = 3 * (wide ? p.wideTileKeys : p.tileKeys) + 17;
          sortAndCheck(keysFor(type, n, 5 + int(type) + 10 * int(values)), config);
        }
  }

  TEST_CASE("float edge values keep the documented order, -0.0 and +0.0 their input order") {
    for (KeyType type : {KeyType::f32, KeyType::f64}) {
      CAPTURE(name(type));
      // Many copies of each edge value, interleaved with zeros of both signs: equal keys must
      // stay in input order.
      vksort::SortConfig config = configOf(type, ValueType::u32);
      std::vector<uint32_t> keys = keysFor(type, 7 * 20 * 40, 9);
      const uint32_t kw = keyWords(config);
      for (size_t i = 0; i < keys.size() / kw; i += 3) {
        bool negative = (i / 3) % 2;
        if (kw == 1) keys[i] = negative ? 0x80000000u : 0u;
        else keys[2 * i] = 0, keys[2 * i + 1] = negative ? 0x80000000u : 0u;
      }
      sortAndCheck(keys, config);
      config.order = SortOrder::descending;
      sortAndCheck(keys, config);
    }
    // The reference itself, spelled out for a few values.
    vksort::SortConfig f32 = configOf(KeyType::f32), f64 = configOf(KeyType::f64);
    auto rank = [&](uint32_t bits) { return vksort::keyOrderBits(f32, bits); };
    CHECK(rank(0xffc00000u) < rank(0xff800000u));       // -NaN < -inf
    CHECK(rank(0xff800000u) < rank(floatBits(-1.0f)));  // -inf < -1
    CHECK(rank(0x807fffffu) < rank(0x80000000u));       // -denormal < -0
    CHECK(rank(0x80000000u) == rank(0u));               // -0 == +0
    CHECK(rank(0x00000001u) < rank(floatBits(1.0f)));   // denormal < 1
    CHECK(rank(0x7f800000u) < rank(0x7fc00000u));       // +inf < +NaN
    auto rank64 = [&](uint64_t bits) { return vksort::keyOrderBits(f64, bits); };
    CHECK(rank64(0xfff8000000000000ull) < rank64(0xfff0000000000000ull));  // -NaN < -inf
    CHECK(rank64(0xfff0000000000000ull) < rank64(doubleBits(-1.0)));       // -inf < -1
    CHECK(rank64(1ull << 63) == rank64(0));                                // -0 == +0
    CHECK(rank64(1) < rank64(doubleBits(1.0)));                            // denormal < 1
    CHECK(rank64(doubleBits(1.0)) < rank64(doubleBits(1.0 + 1e-15)));      // low word decides
    CHECK(rank64(0x7ff0000000000000ull) < rank64(0x7ff8000000000000ull));  // +inf < +NaN
  }

  TEST_CASE("bit ranges, odd and even pass counts") {
    const TestProperties p = testProperties(gpu().sorter);
    struct Range {
      KeyType type;
      uint32_t begin, end;
    };
    // 64-bit keys: each pass runs the pipeline of the word that holds its digit (low, high, or
    // both: [28, 36) and [4, 60) at bit 28; [24, 32) of [0, 32) in the low word alone).
    auto sortRanges = [&] {
      for (Range r : {Range{KeyType::u32, 0, 16}, Range{KeyType::u32, 8, 24}, Range{KeyType::u32, 4, 28},
                      Range{KeyType::u32, 0, 8}, Range{KeyType::u32, 24, 32}, Range{KeyType::u32, 28, 32},
                      Range{KeyType::u32, 3, 4}, Range{KeyType::u32, 0, 32}, Range{KeyType::u64, 0, 48},
                      Range{KeyType::u64, 32, 64}, Range{KeyType::u64, 28, 36}, Range{KeyType::u64, 4, 60},
                      Range{KeyType::u64, 0, 32}, Range{KeyType::u64, 30, 32}, Range{KeyType::i64, 40, 64},
                      Range{KeyType::f64, 52, 64}, Range{KeyType::f64, 0, 64}})
        for (ValueType values : {ValueType::none, ValueType::u32}) {
          CAPTURE(name(r.type));
          CAPTURE(r.begin);
          CAPTURE(r.end);
          CAPTURE(int(values));
          vksort::SortConfig config = configOf(r.type, values);
          config.beginBit = r.begin;
          config.endBit = r.end;
          // As many keys as two tiles, and past the one-workgroup sort (binning passes, or chained).
          const bool wide = keyWords(config) == 2;
          const uint32_t n = 2 * (wide ? p.wideTileKeys : p.tileKeys) + 123;
          sortAndCheck(keysFor(r.type, n, r.begin * 33 + r.end), config);
          const uint32_t past = (wide ? p.smallSortWideMaxKeys : p.smallSortMaxKeys) + n;
          sortAndCheck(keysFor(r.type, past, r.begin * 33 + r.end + 1), config);
        }
    };
    sortRanges();
    if (p.chainedMaxKeys != 0) {  // those sorts ran chained (all passes in one pipeline): now in passes
      TunedSorter unchained("chained_up_to=0");
      sortRanges();
    }
    // A signed, descending 16-bit range: the high half of i32 keys (bit 31 flipped) decides.
    vksort::SortConfig config = configOf(KeyType::i32, ValueType::u64, SortOrder::descending);
    config.beginBit = 16;
    sortAndCheck(makeKeys(Dist::q2, 2 * p.tileKeys + 123, 77), config);
  }

  TEST_CASE("an odd pass count adds one dispatch") {
    vksort::SortConfig even, odd, wide = configOf(KeyType::u64);
    even.endBit = 16;
    odd.endBit = 24;
    CHECK(vksort::getSortTimestampCount(even) == 4 + 2);
    CHECK(vksort::getSortTimestampCount(odd) == 4 + 3 + 1);
    CHECK(vksort::getSortTimestampCount(wide) == 4 + 8);
  }

  TEST_CASE("keys.glsl, as a renderer's shader includes it, makes the keys vksort orders by") {
    vkctx::Context& ctx = gpu().ctx;
    vkctx::ComputePipeline pipeline(ctx, kPublicKeysSpirv, sizeof kPublicKeysSpirv, 36);
    const uint32_t n = 7 * 20 * 4;
    vkctx::Buffer src = ctx.createDeviceBuffer(n * 8), dst = ctx.createDeviceBuffer(n * 8);
    for (KeyType type : {KeyType::f32, KeyType::i32, KeyType::f64, KeyType::i64}) {
      CAPTURE(name(type));
      std::vector<uint32_t> in = keysFor(type, n, 12);
      vksort::SortConfig config = configOf(type);
      const uint32_t kw = keyWords(config);
      ctx.upload(src, in.data(), in.size() * 4);
      uint32_t mode = type == KeyType::f32 ? 0 : type == KeyType::i32 ? 1 : type == KeyType::f64 ? 2 : 3;
      struct {
        VkDeviceAddress src, dst;
        uint32_t count, mode;
        float nearDepth, farDepth;
        uint32_t bits;
      } push{ctx.address(src), ctx.address(dst), n, mode, 0, 0, 0};
      VkCommandBuffer cmd = ctx.beginCommands();
      pipeline.dispatch(cmd, &push, (n + 63) / 64);
      vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                           VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
      ctx.submitAndWait(cmd);
      requireNoValidationMessages();
      std::vector<uint32_t> out(n * kw);
      ctx.download(dst, out.data(), out.size() * 4);
      size_t wrong = 0;
      for (uint32_t i = 0; i < n; ++i) {
        uint64_t key = kw == 1 ? in[i] : uint64_t(in[2 * i]) | uint64_t(in[2 * i + 1]) << 32;
        uint64_t got = kw == 1 ? out[i] : uint64_t(out[2 * i]) | uint64_t(out[2 * i + 1]) << 32;
        wrong += got != vksort::keyOrderBits(config, key);
      }
      CHECK(wrong == 0);
    }
    ctx.destroy(src);
    ctx.destroy(dst);
  }

  TEST_CASE("keys.glsl's quantized depth key: clamped, even, never decreasing") {
    vkctx::Context& ctx = gpu().ctx;
    vkctx::ComputePipeline pipeline(ctx, kPublicKeysSpirv, sizeof kPublicKeysSpirv, 36);
    // Depths from before nearDepth to past farDepth, ascending, then NaN and infinities.
    const float nearDepth = 0.5f, farDepth = 12.5f;
    std::vector<float> depths;
    for (int i = 0; i <= 4000; ++i) depths.push_back(-1.0f + 15.0f * float(i) / 4000.0f);
    depths.push_back(std::numeric_limits<float>::infinity());
    const size_t ordered = depths.size();
    depths.push_back(-std::numeric_limits<float>::infinity());
    depths.push_back(std::numeric_limits<float>::quiet_NaN());
    const uint32_t n = uint32_t(depths.size());
    vkctx::Buffer src = ctx.createDeviceBuffer(n * 4), dst = ctx.createDeviceBuffer(n * 4);
    ctx.upload(src, depths.data(), n * 4);
    for (uint32_t bits : {16u, 10u, 24u}) {
      CAPTURE(bits);
      struct {
        VkDeviceAddress src, dst;
        uint32_t count, mode;
        float nearDepth, farDepth;
        uint32_t bits;
      } push{ctx.address(src), ctx.address(dst), n, 4, nearDepth, farDepth, bits};
      VkCommandBuffer cmd = ctx.beginCommands();
      pipeline.dispatch(cmd, &push, (n + 63) / 64);
      vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                           VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
      ctx.submitAndWait(cmd);
      std::vector<uint32_t> keys(n);
      ctx.download(dst, keys.data(), n * 4);
      const uint32_t top = (1u << bits) - 1;
      // f32 arithmetic: within one step of the exact rounding up to 16 bits, a few past that.
      const uint32_t slack = std::max(1u, top >> 21);
      size_t off = 0, disordered = 0;
      for (size_t i = 0; i < ordered; ++i) {
        const float d = depths[i];
        const double exact = (double(d) - nearDepth) / (farDepth - nearDepth) * top;
        const uint32_t want = d <= nearDepth ? 0 : d >= farDepth ? top : uint32_t(exact + 0.5);
        off += keys[i] + slack < want || keys[i] > want + slack;
        disordered += i > 0 && keys[i] < keys[i - 1];
      }
      CHECK(off == 0);
      CHECK(disordered == 0);
      CHECK(keys[ordered] == 0);        // -inf: nearest
      CHECK(keys[ordered + 1] == top);  // NaN: farthest
    }
    requireNoValidationMessages();
    ctx.destroy(src);
    ctx.destroy(dst);
  }
}
