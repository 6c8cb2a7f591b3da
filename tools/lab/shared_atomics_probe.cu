// Which forms of a per-key shared-memory atomic stay fast when a warp's lanes share a digit: the
// question behind the binning pass's counter rows (docs/PERFORMANCE-LOG.md, s50). Every thread
// adds 20 digits' worth of atomics, 64 times over, to its warp's 256 counters; the digits take 256,
// 16, 4 or 1 distinct values. Prints picoseconds per key-atomic over the whole GPU, one row per
// form. Built with the CUB reference (-DVKSORT_BUILD_CUB_BENCH=ON); run it alone on the GPU.
#include <cstdio>

namespace {
constexpr int kThreads = 384, kKeys = 20, kRepeats = 64;

__device__ unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

enum Form { kOneUnused, kOneUsed, kHalfUnused, kHalfUsed, kTwoUnused, kMatchAnyLeader, kForms };
const char* const kNames[kForms] = {
    "+1, result unused (a warp's own row: CUB's count)",
    "+1, result used (a warp's own row: a rank per key)",
    "+(1 << 16 * (warp % 2)), unused (rows shared by two warps: our count)",
    "+(1 << 16 * (warp % 2)), used (rows shared by two warps: our rank)",
    "+2, result unused",
    "match.any, the group's last lane adds its size, shuffled",
};

template <int F>
__global__ void probe(unsigned distinct, unsigned* out) {
  __shared__ unsigned rows[kThreads / 32 * 256];
  for (int i = threadIdx.x; i < kThreads / 32 * 256; i += kThreads) rows[i] = 0;
  __syncthreads();
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned digit[kKeys];
  for (int i = 0; i < kKeys; ++i) {
    const unsigned h = mix(blockIdx.x * 7919u + threadIdx.x * 131u + unsigned(i));
    digit[i] = distinct >= 256 ? (h & 255u) : (h % distinct) * (256u / distinct);
  }
  unsigned sum = 0;
  for (int r = 0; r < kRepeats; ++r) {
#pragma unroll
    for (int i = 0; i < kKeys; ++i) {
      unsigned* own = &rows[warp * 256 + digit[i]];
      unsigned* paired = &rows[warp / 2 * 256 + digit[i]];
      if (F == kOneUnused) atomicAdd(own, 1u);
      if (F == kOneUsed) sum += atomicAdd(own, 1u);
      if (F == kHalfUnused) atomicAdd(paired, 1u << (16 * (warp & 1)));
      if (F == kHalfUsed) sum += atomicAdd(paired, 1u << (16 * (warp & 1)));
      if (F == kTwoUnused) atomicAdd(own, 2u);
      if (F == kMatchAnyLeader) {
        const unsigned peers = __match_any_sync(~0u, digit[i]);
        const unsigned leader = 31 - __clz(peers), upTo = __popc(peers & (0xFFFFFFFFu >> (31 - lane)));
        unsigned first = 0;
        if (lane == leader) first = atomicAdd(own, upTo);
        sum += __shfl_sync(~0u, first, leader) + upTo;
      }
    }
  }
  __syncthreads();
  out[blockIdx.x * kThreads + threadIdx.x] = sum + rows[threadIdx.x];
}

template <int F>
float picoseconds(unsigned distinct, unsigned* out, int blocks) {
  cudaEvent_t begin, end;
  cudaEventCreate(&begin);
  cudaEventCreate(&end);
  probe<F><<<blocks, kThreads>>>(distinct, out);
  cudaEventRecord(begin);
  constexpr int kLaunches = 5;
  for (int t = 0; t < kLaunches; ++t) probe<F><<<blocks, kThreads>>>(distinct, out);
  cudaEventRecord(end);
  cudaEventSynchronize(end);
  float ms = 0;
  cudaEventElapsedTime(&ms, begin, end);
  cudaEventDestroy(begin);
  cudaEventDestroy(end);
  if (cudaGetLastError() != cudaSuccess) return -1;
  return ms / kLaunches * 1e9f / (float(blocks) * kThreads * kKeys * kRepeats);
}

template <int F>
void row(unsigned* out, int blocks) {
  std::printf("%s", kNames[F]);
  for (unsigned distinct : {256u, 16u, 4u, 1u}) std::printf(",%.2f", picoseconds<F>(distinct, out, blocks));
  std::printf("\n");
}
}  // namespace

int main() {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int blocks = sms * 32;
  unsigned* out = nullptr;
  if (cudaMalloc(&out, size_t(blocks) * kThreads * 4) != cudaSuccess) return 1;
  for (int warm = 0; warm < 20; ++warm) picoseconds<kOneUsed>(1, out, blocks);  // clocks up first
  std::printf("# form,256 distinct digits,16,4,1   (ps per key-atomic, whole GPU)\n");
  row<kOneUnused>(out, blocks);
  row<kOneUsed>(out, blocks);
  row<kHalfUnused>(out, blocks);
  row<kHalfUsed>(out, blocks);
  row<kTwoUnused>(out, blocks);
  row<kMatchAnyLeader>(out, blocks);
  cudaFree(out);
  return 0;
}
