// Does a wider digit pay on this GPU? Issue 63's design 1 (32-bit keys in three passes of 11 bits,
// 64-bit keys in six) measured with CUB's own Onesweep, whose digit width is a policy parameter:
// the same kernel at 8 and 11 bits, so what changes is the digit alone, not our code. CUB keeps its
// block's storage in static shared memory (48 KB), an 11-bit rank needs a 2048-counter row per warp
// plus two more rows, and CUB's look-back needs the block's threads to divide the digits (else its
// ballots wait on lanes that skip them: the kernel hangs), so 11 bits run 64 threads a block; 8 bits
// run CUB's own sm90 shape and the same 64-thread shapes, which separates the digit from the block.
// Keys are the benchmark's (cuda_common.cuh's gen(): the AND of q hashes), 32-bit offsets. Prints
// vksort_bench's CSV; impl names bits, threads and keys per thread. Built with the CUB reference
// (-DVKSORT_BUILD_CUB_BENCH=ON); run it alone on the GPU.
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuda_common.cuh"

namespace {

// CUB's sm90 policy for K and V with the Onesweep digit width, block and tile replaced. The
// policies of the other algorithms are CUB's own: the dispatcher names them, sm90 never runs them.
template <class K, class V, int Bits, int Threads, int Items>
struct PolicyHub {
  using Cub = typename cub::detail::radix::policy_hub<K, V, int>::Policy900;
  struct Policy900 : cub::ChainedPolicy<900, Policy900, Policy900> {
    static constexpr bool ONESWEEP = true;
    static constexpr int ONESWEEP_RADIX_BITS = Bits;
    using HistogramPolicy = cub::AgentRadixSortHistogramPolicy<128, 16, 1, K, Bits>;
    using ExclusiveSumPolicy = cub::AgentRadixSortExclusiveSumPolicy<256, Bits>;
    using OnesweepPolicy =
        cub::AgentRadixSortOnesweepPolicy<Threads, Items, K, 1, cub::RADIX_RANK_MATCH_EARLY_COUNTS_ANY,
                                          cub::BLOCK_SCAN_RAKING_MEMOIZE, cub::RADIX_SORT_STORE_DIRECT, Bits>;
    using ScanPolicy = typename Cub::ScanPolicy;
    using DownsweepPolicy = typename Cub::DownsweepPolicy;
    using AltDownsweepPolicy = typename Cub::AltDownsweepPolicy;
    using UpsweepPolicy = typename Cub::UpsweepPolicy;
    using AltUpsweepPolicy = typename Cub::AltUpsweepPolicy;
    using SingleTilePolicy = typename Cub::SingleTilePolicy;
    using SegmentedPolicy = typename Cub::SegmentedPolicy;
    using AltSegmentedPolicy = typename Cub::AltSegmentedPolicy;
  };
  using MaxPolicy = Policy900;
};

struct Buffers {
  size_t n = 0;
  void *k0 = nullptr, *k1 = nullptr, *kp = nullptr, *v0 = nullptr, *v1 = nullptr, *tmp = nullptr;
  size_t tmpBytes = 0;
};

// Times one shape: 200 ms of back-to-back sorts, then 20 sorts each timed with CUDA events (input
// restored outside them); prints the median and minimum and whether the keys came out ordered.
template <class K, bool Pairs, int Bits, int Threads, int Items>
void shape(Buffers& b, const char* mode, int q) {
  using V = std::conditional_t<Pairs, uint32_t, cub::NullType>;
  using Dispatch = cub::DispatchRadixSort<cub::SortOrder::Ascending, K, V, int, cub::detail::identity_decomposer_t,
                                          PolicyHub<K, V, Bits, Threads, Items>>;
  const int n = int(b.n);
  cub::DoubleBuffer<K> kb(static_cast<K*>(b.k0), static_cast<K*>(b.k1));
  cub::DoubleBuffer<V> vb(static_cast<V*>(b.v0), static_cast<V*>(b.v1));
  auto sort = [&](void* tmp, size_t& bytes) {
    CK(Dispatch::Dispatch(tmp, bytes, kb, vb, n, 0, int(8 * sizeof(K)), false, 0));
  };
  size_t bytes = 0;
  sort(nullptr, bytes);
  if (bytes > b.tmpBytes) {
    CK(cudaFree(b.tmp));
    CK(cudaMalloc(&b.tmp, bytes));
    b.tmpBytes = bytes;
  }
  auto restore = [&] {
    CK(cudaMemcpyAsync(b.k0, b.kp, b.n * sizeof(K), cudaMemcpyDeviceToDevice));
    if (Pairs) iota<uint32_t><<<unsigned((b.n + 255) / 256), 256>>>(static_cast<uint32_t*>(b.v0), b.n);
    kb = cub::DoubleBuffer<K>(static_cast<K*>(b.k0), static_cast<K*>(b.k1));
    vb = cub::DoubleBuffer<V>(static_cast<V*>(b.v0), static_cast<V*>(b.v1));
  };
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> t;
  for (int it = -40; it < 20; ++it) {  // the first 40: warm-up, not kept
    restore();
    CK(cudaEventRecord(e0));
    sort(b.tmp, bytes);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (it >= 0) t.push_back(ms);
  }
  std::vector<K> h(b.n);
  CK(cudaMemcpy(h.data(), kb.Current(), b.n * sizeof(K), cudaMemcpyDeviceToHost));
  bool ok = std::is_sorted(h.begin(), h.end());
  if (Pairs && ok) {  // every value an index whose key is the one beside it
    std::vector<K> in(b.n);
    std::vector<uint32_t> v(b.n);
    CK(cudaMemcpy(in.data(), b.kp, b.n * sizeof(K), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(v.data(), vb.Current(), b.n * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < b.n && ok; ++i) ok = v[i] < b.n && in[v[i]] == h[i];
  }
  std::sort(t.begin(), t.end());
  const float med = t[t.size() / 2];
  std::printf("cub-b%d-%dx%d,%s,q%d,%zu,%.4f,%.4f,%.2f,%s\n", Bits, Threads, Items, mode, q, b.n, med, t[0],
              b.n / (med * 1e6), ok ? "ok" : "FAIL");
  std::fflush(stdout);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
}

template <class K, bool Pairs>
Buffers allocate(size_t n, int q) {
  Buffers b;
  b.n = n;
  CK(cudaMalloc(&b.k0, n * sizeof(K)));
  CK(cudaMalloc(&b.k1, n * sizeof(K)));
  CK(cudaMalloc(&b.kp, n * sizeof(K)));
  if (Pairs) {
    CK(cudaMalloc(&b.v0, n * 4));
    CK(cudaMalloc(&b.v1, n * 4));
  }
  gen<K, K><<<unsigned((n + 255) / 256), 256>>>(static_cast<K*>(b.kp), n, 12345, q);
  return b;
}

void release(Buffers& b) {
  for (void* p : {b.k0, b.k1, b.kp, b.v0, b.v1, b.tmp}) cudaFree(p);
}

// One mode at one size and skew, every shape. CUB's own shape at 8 bits comes first.
void run(const std::string& mode, size_t n, int q) {
  if (mode == "keys32") {
    Buffers b = allocate<uint32_t, false>(n, q);
    shape<uint32_t, false, 8, 384, 20>(b, "keys32", q);
    shape<uint32_t, false, 8, 128, 32>(b, "keys32", q);
    shape<uint32_t, false, 8, 64, 32>(b, "keys32", q);
    shape<uint32_t, false, 11, 64, 32>(b, "keys32", q);
    shape<uint32_t, false, 8, 64, 64>(b, "keys32", q);
    shape<uint32_t, false, 11, 64, 64>(b, "keys32", q);
    release(b);
  } else if (mode == "pairs32") {
    Buffers b = allocate<uint32_t, true>(n, q);
    shape<uint32_t, true, 8, 384, 23>(b, "pairs32", q);
    shape<uint32_t, true, 8, 64, 32>(b, "pairs32", q);
    shape<uint32_t, true, 11, 64, 32>(b, "pairs32", q);
    shape<uint32_t, true, 8, 64, 48>(b, "pairs32", q);
    shape<uint32_t, true, 11, 64, 48>(b, "pairs32", q);
    release(b);
  } else if (mode == "keys64") {
    Buffers b = allocate<uint64_t, false>(n, q);
    shape<uint64_t, false, 8, 384, 30>(b, "keys64", q);
    shape<uint64_t, false, 8, 64, 32>(b, "keys64", q);
    shape<uint64_t, false, 11, 64, 32>(b, "keys64", q);
    release(b);
  } else {
    std::fprintf(stderr, "unknown mode %s (keys32, pairs32, keys64)\n", mode.c_str());
    std::exit(2);
  }
}

}  // namespace

// usage: vksort_radix_bits_probe LOG2 [Q ...]   (each mode at 2^LOG2 keys, at each skew q)
int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: vksort_radix_bits_probe LOG2 [Q ...]\n");
    return 2;
  }
  const size_t n = size_t(1) << std::atoi(argv[1]);
  std::vector<int> qs;
  for (int i = 2; i < argc; ++i) qs.push_back(std::atoi(argv[i]));
  if (qs.empty()) qs.push_back(1);
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("# %s, %d SMs, CUB %d\n# impl,mode,dist,n,median_ms,min_ms,gkeys_per_s,check\n", p.name,
              p.multiProcessorCount, CUB_VERSION);
  for (int q : qs)
    for (const char* mode : {"keys32", "pairs32", "keys64"}) run(mode, n, q);
  return 0;
}
