// What every vksort test shares: one validated Vulkan context and sorter, input generators, a
// sort that runs through the public API between the barriers the README names, and the CPU
// reference.
#pragma once
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "introspection.hpp"
#include "vk_context.hpp"

namespace vksort_test {

// What a sorter chose inside (its tiers' tiles, its kernels' choices): src/introspection.hpp.
using TestProperties = vksort::detail::SorterInternals;
inline TestProperties testProperties(vksort::Sorter sorter) { return vksort::detail::sorterInternals(sorter); }

struct Gpu {
  vkctx::Context ctx;
  vksort::Sorter sorter = nullptr;
  explicit Gpu(const vkctx::Options& o);
  ~Gpu();
};

// The process-wide context and sorter, with validation on (VKSORT_VALIDATION=0 turns it off).
Gpu& gpu();

// For its lifetime, gpu().sorter is a sorter made with `tuning` added to VKSORT_TUNING (e.g.
// tiny portions to run the large-count paths on small sorts; "algorithm=2" for reduce-then-scan).
struct TunedSorter {
  explicit TunedSorter(const char* tuning);
  ~TunedSorter();
  vksort::Sorter saved;
};

// Destroys it; main() calls this before returning, while the Vulkan loader and layers are still
// alive (static destruction after main crashed on the NVIDIA driver).
void shutdownGpu();

// Fails the running test if validation has said anything.
void requireNoValidationMessages();

enum class Dist { uniform, q2, q4, q8, q16, allEqual, sorted, reversed, fewDistinct };
const char* name(Dist d);
std::vector<uint32_t> makeKeys(Dist d, size_t n, uint64_t seed);

std::vector<uint32_t> iota(size_t n);

// A sort's config: key and value types, order, bit range [begin, end).
inline vksort::SortConfig configOf(vksort::KeyType key, vksort::ValueType values, vksort::SortOrder order,
                                   uint32_t begin, uint32_t end) {
  vksort::SortConfig c;
  c.keyType = key;
  c.valueType = values;
  c.order = order;
  c.beginBit = begin;
  c.endBit = end;
  return c;
}

// Keys and values are vectors of 32-bit words: a 64-bit element is two, low word first.
uint32_t keyWords(const vksort::SortConfig& c);
// Whether keys or values are 64-bit: the sorter's wide tiles (SorterProperties::wideTileKeys...).
bool wideElements(const vksort::SortConfig& c);
// n keys of `config`'s width: for 64-bit keys, `d` in the high word and uniform bits in the low
// one (so that high digits carry the distribution and the low ones still vary).
std::vector<uint32_t> makeKeysFor(const vksort::SortConfig& config, Dist d, size_t n, uint64_t seed);
// Values that name their index: u32 i; u64 (i, ~i), so that both words are checked. Index values
// (ValueType::index) are what the sort must write: i.
std::vector<uint32_t> makeValues(size_t n, vksort::ValueType type);
// What a values buffer holds before a sort: `values`, or for index values (which the sort must not
// read) a pattern no index has.
std::vector<uint32_t> valuesBefore(const std::vector<uint32_t>& values, const vksort::SortConfig& config);

// Sorts on the GPU: one command buffer copies the input in, sorts, copies the result out, with
// the contract's barriers between. Guard words around each range must survive untouched.
struct Sorted {
  std::vector<uint32_t> keys;
  std::vector<uint32_t> values;
  std::vector<uint32_t> header;   // the scratch header the sort left (shader_interface.h)
  std::vector<uint32_t> scratch;  // with readScratch: the whole scratch range it left
};
// Indirect sorts: the count comes from a GPU buffer, written in the same command buffer by a
// transfer or by a shader; keys.size() is then maxCount.
enum class CountSource { transfer, shader };
struct IndirectCount {
  uint32_t value;
  CountSource source = CountSource::transfer;
};

// `values` given with config.valueType none sorts u32 values. Keys and values start `leadWords`
// words past the 256 bytes of guard words that come first in their buffers (a multiple of their
// element size; otherwise their ranges are 16-byte aligned). The scratch starts as the garbage
// kScratchGarbage everywhere.
constexpr uint32_t kScratchGarbage = 0xA5A5A5A5u;
Sorted gpuSort(const std::vector<uint32_t>& keys, const std::vector<uint32_t>* values, vksort::SortConfig config = {},
               const IndirectCount* indirect = nullptr, uint32_t leadWords = 0, bool readScratch = false);

// Checks `out` against std::stable_sort of `keys` by vksort::keyOrderBits (values: those of
// makeValues, of config.valueType, or u32 when that is none and `pairs`).
void checkAgainstReference(const std::vector<uint32_t>& keys, const Sorted& out, bool pairs,
                           const vksort::SortConfig& config = {});

// Sorts `keys` directly, with makeValues values where config.valueType has them, checks the result
// against the reference, and returns it.
Sorted sortAndCheck(const std::vector<uint32_t>& keys, const vksort::SortConfig& config = {});

// Sorts keys (maxCount = keys.size()) indirectly with `countValue` in the count buffer, and checks
// that the first min(countValue, maxCount) are sorted exactly and the rest untouched.
void sortIndirectAndCheck(const std::vector<uint32_t>& keys, bool pairs, uint32_t countValue, CountSource source,
                          const vksort::SortConfig& config = {});

// A splat renderer's pairs (f32 keys, u32 values), small enough for lavapipe to tune in seconds.
vksort::PreparedSort smallPairs();

// A tuneSorts() call on the test device's queue: `count` of `sorts`, a 2-second budget.
vksort::TuneInfo tuneInfo(const vksort::SorterCreateInfo* ci, const vksort::PreparedSort* sorts, uint32_t count);

}  // namespace vksort_test
