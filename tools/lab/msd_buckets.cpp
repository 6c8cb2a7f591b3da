// How many global passes would a hybrid MSD sort (issue 63's design 4) make over the benchmark's
// keys? One or more most-significant-digit passes split the keys into buckets by their top 8, 16,
// ... bits; a bucket of at most CAP keys then finishes inside one workgroup's shared memory in one
// read and one write. This counts, on the CPU, the keys vksort_bench and the CUB reference sort:
// per level, the share of keys already in a bucket of at most CAP, and the moves per key of the
// whole hybrid (its MSD passes until the key's bucket fits, plus the local sort's; a bucket of one
// key value needs none), against LSD Onesweep's moving passes. No GPU: it measures inputs.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

#include "command_line.hpp"
#include "workloads.hpp"

namespace {

struct Keys {
  std::string name;
  std::vector<uint64_t> ordered;  // each key as an unsigned number in sort order, its bit range only
  uint32_t bits = 32;             // width of the bit range
};

// The benchmark's synthetic keys (gen() of cub_bench.cu and gen_keys.comp): the AND of q hashes.
Keys synthetic(size_t n, int q) {
  Keys k{"keys32 q" + std::to_string(q), std::vector<uint64_t>(n), 32};
  for (size_t i = 0; i < n; ++i) {
    uint64_t acc = ~0ull;
    for (int s = 0; s < q; ++s) {
      uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ (12345ull + s) * 0xD1B54A32D192ED03ull;
      x ^= x >> 31, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 29, x *= 0x94D049BB133111EBull, x ^= x >> 32;
      acc &= x;
    }
    k.ordered[i] = uint32_t(acc);
  }
  return k;
}

// A renderer workload's keys mapped to their sort order: floats by sign, descending inverted.
Keys workload(const std::string& name, size_t n) {
  const bench_workloads::Spec& s = bench_workloads::specOf(name);
  const std::vector<uint32_t> words = bench_workloads::generate(name, n);
  Keys k{name, std::vector<uint64_t>(n), s.endBit - s.beginBit};
  const uint64_t mask = k.bits == 64 ? ~0ull : (1ull << k.bits) - 1;
  for (size_t i = 0; i < n; ++i) {
    uint64_t v = s.keyBits == 64 ? words[2 * i] | uint64_t(words[2 * i + 1]) << 32 : words[i];
    if (s.floatKeys) v = (v & 0x80000000u) ? ~v & 0xFFFFFFFFu : v | 0x80000000u;
    v = (v >> s.beginBit) & mask;
    if (s.descending) v = ~v & mask;
    k.ordered[i] = v;
  }
  return k;
}

// LSD Onesweep's moving passes: 8-bit digits of the range where keys differ (constant ones skipped).
int lsdMovingPasses(const Keys& k) {
  int moving = 0;
  for (uint32_t lo = 0; lo < k.bits; lo += 8) {
    const uint64_t first = (k.ordered[0] >> lo) & 0xFF;
    moving += std::any_of(k.ordered.begin(), k.ordered.end(), [&](uint64_t v) { return ((v >> lo) & 0xFF) != first; });
  }
  return moving;
}

void report(Keys k, const std::vector<size_t>& caps) {
  const size_t n = k.ordered.size();
  const uint32_t levels = (k.bits + 7) / 8;
  std::printf("%s, %zu keys over %u bits: LSD moves each key %d times\n", k.name.c_str(), n, k.bits,
              lsdMovingPasses(k));
  std::vector<uint64_t>& v = k.ordered;
  std::sort(v.begin(), v.end());  // buckets at every level are runs of equal prefixes
  auto prefix = [&](size_t i, uint32_t level) {
    return level == 0 ? 0 : v[i] >> (k.bits > 8 * level ? k.bits - 8 * level : 0);
  };
  for (size_t cap : caps) {
    std::vector<uint32_t> fitsAfter(n, levels);  // MSD passes after which key i's bucket fits
    std::vector<uint32_t> moved(n, 0);           // passes that moved key i before it fits
    std::printf("  cap %zu keys: share of keys in a bucket that fits after", cap);
    for (uint32_t level = 1; level <= levels; ++level) {
      size_t fit = 0;
      for (size_t begin = 0, end; begin < n; begin = end) {  // a bucket of the level above
        bool split = false;
        for (end = begin + 1; end < n && prefix(end, level - 1) == prefix(begin, level - 1); ++end)
          split = split || prefix(end, level) != prefix(begin, level);
        // A level whose bucket holds one digit moves none of its keys (a constant pass, skipped).
        for (size_t b = begin, e; b < end; b = e) {
          for (e = b + 1; e < end && prefix(e, level) == prefix(b, level); ++e) {
          }
          for (size_t i = b; i < e; ++i) {
            if (fitsAfter[i] >= level) moved[i] += split;
            if (e - b <= cap) fitsAfter[i] = std::min(fitsAfter[i], level);
          }
          if (e - b <= cap) fit += e - b;
        }
      }
      std::printf(" %u: %.1f%%", level, 100.0 * double(fit) / double(n));
    }
    // Moves: the MSD passes that split the key's bucket until it fits, then one local sort (none
    // once every digit was taken: the bucket is one key value).
    double moves = 0;
    for (size_t i = 0; i < n; ++i) moves += moved[i] + (fitsAfter[i] < levels ? 1u : 0u);
    std::printf("; hybrid moves each key %.2f times\n", moves / double(n));
  }
}

}  // namespace

const char kUsage[] =
    "usage: vksort_msd_buckets [LOG2 [CAP ...]]\n"
    "  LOG2  keys 2^LOG2 of each of the benchmark's kinds (1 to 28, default 24)\n"
    "  CAP   bucket sizes that finish in one workgroup (default 4096 8192)\n";

int main(int argc, char** argv) try {
  for (int i = 1; i < argc; ++i) cli::helpIfAsked(argv[i], kUsage);
  const int lg = argc > 1 ? int(cli::number("LOG2", argv[1], 1, 28)) : 24;
  std::vector<size_t> caps;
  for (int i = 2; i < argc; ++i) caps.push_back(size_t(cli::number("CAP", argv[i], 1, uint64_t(1) << 32)));
  if (caps.empty()) caps = {4096, 8192};
  const size_t n = size_t(1) << lg;
  for (int q : {1, 4, 16}) report(synthetic(n, q), caps);
  for (const char* name : {"room", "object", "depth16", "top16", "tile64"}) report(workload(name, n), caps);
  return 0;
} catch (const std::exception& e) {
  return cli::report("vksort_msd_buckets", e, kUsage);
}
