#include "test_support.hpp"

#include "shader_interface.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <random>

namespace vksort_test {

Gpu::Gpu(const vkctx::Options& o) : ctx(o) {
  const vksort::SorterDeveloperOptions developer = vkctx::developerOptionsFromEnvironment();
  vkctx::check(vksort::createSorter(ctx.sorterCreateInfo(&developer), &sorter), "createSorter");
}
Gpu::~Gpu() { vksort::destroySorter(sorter); }

namespace {
std::unique_ptr<Gpu> g;
}

void shutdownGpu() { g.reset(); }

Gpu& gpu() {
  if (!g) {
    const char* v = std::getenv("VKSORT_VALIDATION");
    vkctx::Options o;
    o.validation = !(v && std::string(v) == "0");
    g = std::make_unique<Gpu>(o);
    TestProperties p = testProperties(g->sorter);
    std::string line = std::string("device: ") + g->ctx.properties.deviceName + ", subgroup " +
                       std::to_string(p.subgroupSize) + (p.requiredSubgroupSize ? " (required)" : "") + ", workgroup " +
                       std::to_string(p.workgroupSize) + ", tile " + std::to_string(p.tileKeys) + ", validation " +
                       (o.validation ? "on" : "off");
    MESSAGE(line);
  }
  return *g;
}

TunedSorter::TunedSorter(const char* tuning) : saved(gpu().sorter) {
  // Added to the run's own VKSORT_TUNING (scripts/test.sh runs the suite once per algorithm).
  vksort::SorterDeveloperOptions developer = vkctx::developerOptionsFromEnvironment();
  const std::string outer = developer.tuning;
  const std::string combined = outer.empty() ? std::string(tuning) : outer + "," + tuning;
  developer.tuning = combined.c_str();
  vksort::Sorter tuned = nullptr;
  vksort::Status st = vksort::createSorter(gpu().ctx.sorterCreateInfo(&developer), &tuned);
  vkctx::check(st, ("createSorter with tuning " + combined).c_str());
  gpu().sorter = tuned;
}
TunedSorter::~TunedSorter() {
  vksort::destroySorter(gpu().sorter);
  gpu().sorter = saved;
}

void requireNoValidationMessages() {
  REQUIRE_MESSAGE(gpu().ctx.validationMessages() == 0, gpu().ctx.lastValidationMessage());
}

const char* name(Dist d) {
  switch (d) {
    case Dist::uniform: return "uniform";
    case Dist::q2: return "q2";
    case Dist::q4: return "q4";
    case Dist::q8: return "q8";
    case Dist::q16: return "q16";
    case Dist::allEqual: return "all-equal";
    case Dist::sorted: return "sorted";
    case Dist::reversed: return "reversed";
    case Dist::fewDistinct: return "few-distinct";
  }
  return "?";
}

std::vector<uint32_t> makeKeys(Dist d, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> k(n);
  auto entropyBand = [&](int q) {  // AND of q uniform samples (Thearling & Smith)
    for (auto& x : k) {
      uint32_t v = ~0u;
      for (int i = 0; i < q; ++i) v &= uint32_t(rng());
      x = v;
    }
  };
  switch (d) {
    case Dist::uniform: entropyBand(1); break;
    case Dist::q2: entropyBand(2); break;
    case Dist::q4: entropyBand(4); break;
    case Dist::q8: entropyBand(8); break;
    case Dist::q16: entropyBand(16); break;
    case Dist::allEqual: std::fill(k.begin(), k.end(), uint32_t(rng())); break;
    case Dist::sorted:
      entropyBand(1);
      std::sort(k.begin(), k.end());
      break;
    case Dist::reversed:
      entropyBand(1);
      std::sort(k.begin(), k.end(), std::greater<>());
      break;
    case Dist::fewDistinct: {
      uint32_t values[7];
      for (auto& v : values) v = uint32_t(rng());
      for (auto& x : k) x = values[rng() % 7];
      break;
    }
  }
  return k;
}

std::vector<uint32_t> iota(size_t n) {
  std::vector<uint32_t> v(n);
  std::iota(v.begin(), v.end(), 0u);
  return v;
}

uint32_t keyWords(const vksort::SortConfig& c) { return vksort::keyBytes(c.keyType) / 4; }

bool wideElements(const vksort::SortConfig& c) { return keyWords(c) == 2 || c.valueType == vksort::ValueType::u64; }

std::vector<uint32_t> makeKeysFor(const vksort::SortConfig& config, Dist d, size_t n, uint64_t seed) {
  std::vector<uint32_t> high = makeKeys(d, n, seed);
  if (keyWords(config) == 1) return high;
  std::vector<uint32_t> low = makeKeys(d == Dist::allEqual ? Dist::allEqual : Dist::uniform, n, seed + 1);
  std::vector<uint32_t> k(2 * n);
  for (size_t i = 0; i < n; ++i) k[2 * i] = low[i], k[2 * i + 1] = high[i];
  return k;
}

std::vector<uint32_t> makeValues(size_t n, vksort::ValueType type) {
  if (type != vksort::ValueType::u64) return iota(n);
  std::vector<uint32_t> v(2 * n);
  for (size_t i = 0; i < n; ++i) v[2 * i] = uint32_t(i), v[2 * i + 1] = ~uint32_t(i);
  return v;
}

std::vector<uint32_t> valuesBefore(const std::vector<uint32_t>& values, const vksort::SortConfig& config) {
  if (config.valueType != vksort::ValueType::index) return values;
  std::vector<uint32_t> garbage(values.size());
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = 0xDEAD0000u ^ uint32_t(i * 2654435761u);
  return garbage;
}

namespace {

const uint32_t kWriteCountSpirv[] = {
#include "write_count.comp.spv.inc"
};

constexpr uint32_t kGuardWords = 64;
constexpr uint32_t kGuard = 0xDEADBEEFu;

// Host staging laid out as [guard][data][guard], copied whole into a device buffer of the same
// layout; the data range is what vksort sees.
struct Guarded {
  vkctx::Buffer device, host;
  size_t n, before;  // the range's words, and the guard words before it
  Guarded(vkctx::Context& ctx, const std::vector<uint32_t>& data, uint32_t leadWords = 0)
      : n(data.size()), before(kGuardWords + leadWords) {
    VkDeviceSize bytes = (before + n + kGuardWords) * 4;
    device = ctx.createDeviceBuffer(bytes);
    host = ctx.createHostBuffer(bytes);
    auto* w = static_cast<uint32_t*>(host.mapped);
    std::fill(w, w + before + n + kGuardWords, kGuard);
    std::copy(data.begin(), data.end(), w + before);
  }
  vksort::BufferRange range() const { return {device.buffer, before * 4, n * 4}; }
  void copy(VkCommandBuffer cmd, bool toDevice) const {
    VkBufferCopy region{0, 0, device.size};
    vkCmdCopyBuffer(cmd, toDevice ? host.buffer : device.buffer, toDevice ? device.buffer : host.buffer, 1, &region);
  }
  std::vector<uint32_t> result() const {
    auto* w = static_cast<const uint32_t*>(host.mapped);
    for (size_t i = 0; i < before; ++i) REQUIRE_MESSAGE(w[i] == kGuard, "guard word before the range was overwritten");
    for (size_t i = 0; i < kGuardWords; ++i)
      REQUIRE_MESSAGE(w[before + n + i] == kGuard, "guard word after the range was overwritten");
    return std::vector<uint32_t>(w + before, w + before + n);
  }
  void destroy(vkctx::Context& ctx) {
    ctx.destroy(device);
    ctx.destroy(host);
  }
};

// The scratch range sits between two guard areas of its buffer, filled with the same garbage as
// the scratch: a sort that writes past its scratch range changes them. 256 bytes keep the
// range's address a multiple of the scratch alignment.
constexpr VkDeviceSize kScratchGuardBytes = 256;

}  // namespace

Sorted gpuSort(const std::vector<uint32_t>& keys, const std::vector<uint32_t>* values, vksort::SortConfig config,
               const IndirectCount* indirect, uint32_t leadWords, bool readScratch) {
  Gpu& g = gpu();
  vkctx::Context& ctx = g.ctx;
  bool pairs = values != nullptr;
  if (pairs && config.valueType == vksort::ValueType::none) config.valueType = vksort::ValueType::u32;
  if (!pairs) config.valueType = vksort::ValueType::none;
  uint32_t n = uint32_t(keys.size() / keyWords(config));

  vksort::SortInfo info;
  info.config = config;
  info.count = n;
  info.maxCount = n;
  vksort::ScratchRequirements req;
  vkctx::check(vksort::getScratchRequirements(g.sorter, info.config, n, &req), "getScratchRequirements");
  REQUIRE(kScratchGuardBytes % req.alignment == 0);
  vkctx::Buffer scratch = ctx.createDeviceBuffer(req.size + 2 * kScratchGuardBytes, req.usage);
  // The guards, then the scratch header (the scratch's first part: scratch_layout.cpp).
  constexpr VkDeviceSize kHeaderBytes = vksort::detail::kHeaderWords * 4;
  REQUIRE(req.size >= kHeaderBytes);
  vkctx::Buffer scratchGuards = ctx.createHostBuffer(2 * kScratchGuardBytes + kHeaderBytes);

  Guarded k(ctx, keys, leadWords);
  Guarded v(ctx, pairs ? valuesBefore(*values, config) : std::vector<uint32_t>(), leadWords);
  // Transfer-written counts arrive with the keys; shader-written ones start as a wrong value.
  Guarded c(ctx, {indirect && indirect->source == CountSource::transfer ? indirect->value : 0xBADu});
  info.keys = k.range();
  info.values = pairs ? v.range() : vksort::BufferRange{};
  info.scratch = {scratch.buffer, kScratchGuardBytes, req.size};
  if (indirect) info.countBuffer = c.range();

  VkCommandBuffer cmd = ctx.beginCommands();
  // Scratch starts as garbage: a sort may assume nothing about what a previous one left there.
  vkCmdFillBuffer(cmd, scratch.buffer, 0, VK_WHOLE_SIZE, kScratchGarbage);
  k.copy(cmd, true);
  if (pairs) v.copy(cmd, true);
  c.copy(cmd, true);
  std::unique_ptr<vkctx::ComputePipeline> writeCount;
  if (indirect && indirect->source == CountSource::shader) {
    vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
    writeCount = std::make_unique<vkctx::ComputePipeline>(ctx, kWriteCountSpirv, sizeof kWriteCountSpirv, 12);
    struct {
      VkDeviceAddress target;
      uint32_t value;
    } push{ctx.address(c.device) + kGuardWords * 4, indirect->value};
    writeCount->dispatch(cmd, &push, 1);
  }
  // The contract's "before" barrier, for whatever wrote keys, values and count.
  vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT, vksort::kSortDstStage,
                       vksort::kSortDstAccess);
  vkctx::check(vksort::recordSort(g.sorter, cmd, info), "recordSort");
  vkctx::memoryBarrier(cmd, vksort::kSortSrcStage, vksort::kSortSrcAccess, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_ACCESS_TRANSFER_READ_BIT);
  k.copy(cmd, false);
  c.copy(cmd, false);
  if (pairs) v.copy(cmd, false);
  const VkBufferCopy guards[3] = {{0, 0, kScratchGuardBytes},
                                  {kScratchGuardBytes + req.size, kScratchGuardBytes, kScratchGuardBytes},
                                  {kScratchGuardBytes, 2 * kScratchGuardBytes, kHeaderBytes}};
  vkCmdCopyBuffer(cmd, scratch.buffer, scratchGuards.buffer, 3, guards);
  vkctx::Buffer scratchCopy;
  if (readScratch) {
    scratchCopy = ctx.createHostBuffer(req.size);
    const VkBufferCopy whole{kScratchGuardBytes, 0, req.size};
    vkCmdCopyBuffer(cmd, scratch.buffer, scratchCopy.buffer, 1, &whole);
  }
  vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                       VK_ACCESS_HOST_READ_BIT);
  ctx.submitAndWait(cmd);
  requireNoValidationMessages();
  const uint32_t* guard = static_cast<const uint32_t*>(scratchGuards.mapped);
  bool scratchGuardsKept = true;
  for (VkDeviceSize i = 0; i < 2 * kScratchGuardBytes / 4; ++i) scratchGuardsKept &= guard[i] == kScratchGarbage;
  CHECK_MESSAGE(scratchGuardsKept, "the sort wrote outside its scratch range");
  std::vector<uint32_t> header(guard + 2 * kScratchGuardBytes / 4, guard + (2 * kScratchGuardBytes + kHeaderBytes) / 4);
  ctx.destroy(scratchGuards);

  Sorted out{k.result(), pairs ? v.result() : std::vector<uint32_t>(), std::move(header), {}};
  if (readScratch) {
    const auto* w = static_cast<const uint32_t*>(scratchCopy.mapped);
    out.scratch.assign(w, w + req.size / 4);
    ctx.destroy(scratchCopy);
  }
  if (indirect) CHECK_MESSAGE(c.result()[0] == indirect->value, "the sort wrote to the count");
  k.destroy(ctx);
  v.destroy(ctx);
  c.destroy(ctx);
  ctx.destroy(scratch);
  return out;
}

Sorted sortAndCheck(const std::vector<uint32_t>& keys, const vksort::SortConfig& config) {
  const size_t n = keys.size() / keyWords(config);
  std::vector<uint32_t> values = makeValues(n, config.valueType);
  const bool pairs = config.valueType != vksort::ValueType::none;
  Sorted out = gpuSort(keys, pairs ? &values : nullptr, config);
  checkAgainstReference(keys, out, pairs, config);
  return out;
}

void checkAgainstReference(const std::vector<uint32_t>& keys, const Sorted& out, bool pairs,
                           const vksort::SortConfig& config) {
  const uint32_t kw = keyWords(config);
  const size_t n = keys.size() / kw;
  vksort::ValueType valueType = config.valueType == vksort::ValueType::none ? vksort::ValueType::u32 : config.valueType;
  const uint32_t vw = valueType == vksort::ValueType::u64 ? 2 : 1;
  std::vector<uint32_t> values = makeValues(n, valueType);
  auto key = [&](const std::vector<uint32_t>& k, size_t i) {
    return kw == 1 ? uint64_t(k[i]) : uint64_t(k[2 * i]) | uint64_t(k[2 * i + 1]) << 32;
  };
  std::vector<uint32_t> order = iota(n);
  std::vector<uint64_t> rank(n);
  for (size_t i = 0; i < n; ++i) rank[i] = vksort::keyOrderBits(config, key(keys, i));
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return rank[a] < rank[b]; });
  REQUIRE(out.keys.size() == keys.size());
  if (pairs) REQUIRE(out.values.size() == n * vw);
  size_t firstBadKey = n, firstBadValue = n;
  for (size_t i = 0; i < n; ++i) {
    if (!config.discardKeys && key(out.keys, i) != key(keys, order[i]) && firstBadKey == n) firstBadKey = i;
    if (pairs && firstBadValue == n)
      for (uint32_t w = 0; w < vw; ++w)
        if (out.values[i * vw + w] != values[size_t(order[i]) * vw + w]) firstBadValue = i;
  }
  CHECK_MESSAGE(firstBadKey == n, "first wrong key at index " << firstBadKey);
  if (pairs) CHECK_MESSAGE(firstBadValue == n, "first wrong value (stability) at index " << firstBadValue);
}

void sortIndirectAndCheck(const std::vector<uint32_t>& keys, bool pairs, uint32_t countValue, CountSource source,
                          const vksort::SortConfig& config) {
  const uint32_t kw = keyWords(config);
  const uint32_t maxCount = uint32_t(keys.size() / kw);
  const uint32_t n = std::min(countValue, maxCount);
  std::vector<uint32_t> values = makeValues(maxCount, config.valueType);
  const size_t vw = values.size() / std::max(maxCount, 1u);
  IndirectCount indirect{countValue, source};
  Sorted out = gpuSort(keys, pairs ? &values : nullptr, config, &indirect);

  // The first n elements are the sort of the first n inputs...
  std::vector<uint32_t> head(keys.begin(), keys.begin() + n * kw);
  Sorted outHead{.keys = std::vector<uint32_t>(out.keys.begin(), out.keys.begin() + n * kw),
                 .values = pairs ? std::vector<uint32_t>(out.values.begin(), out.values.begin() + n * vw)
                                 : std::vector<uint32_t>(),
                 .header = {},
                 .scratch = {}};
  checkAgainstReference(head, outHead, pairs, config);
  // ...and the rest is untouched.
  CHECK(std::equal(keys.begin() + n * kw, keys.end(), out.keys.begin() + n * kw));
  if (pairs) {
    const std::vector<uint32_t> before = valuesBefore(values, config);
    CHECK(std::equal(before.begin() + n * vw, before.end(), out.values.begin() + n * vw));
  }
}

vksort::PreparedSort smallPairs() {
  vksort::PreparedSort p;
  p.config.keyType = vksort::KeyType::f32;
  p.config.valueType = vksort::ValueType::u32;
  p.maxCount = 20000;
  return p;
}

vksort::TuneInfo tuneInfo(const vksort::SorterCreateInfo* ci, const vksort::PreparedSort* sorts, uint32_t count) {
  vksort::TuneInfo info;
  info.pSorterCreateInfo = ci;
  info.queue = gpu().ctx.queue;
  info.queueFamilyIndex = gpu().ctx.queueFamily;
  info.sortCount = count;
  info.pSorts = sorts;
  info.timeBudgetSeconds = 2;
  return info;
}

}  // namespace vksort_test
