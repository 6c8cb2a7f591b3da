// What the CUB reference and its probes share: a CUDA call checked, and the benchmark's keys.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                         \
  do {                                                                                \
    cudaError_t e_ = (x);                                                             \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                   \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

// Keys of type K: the AND of q hashes of the index (gen_keys.comp's hash), truncated to the bits
// of Bits and stored as K (floats: those bits).
template <class K, class Bits>
__global__ void gen(K* k, size_t n, uint64_t seed, int q) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  uint64_t acc = ~0ull;
  for (int s = 0; s < q; ++s) {
    uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ (seed + s) * 0xD1B54A32D192ED03ull;
    x ^= x >> 31, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 29, x *= 0x94D049BB133111EBull, x ^= x >> 32;
    acc &= x;
  }
  Bits b = Bits(acc);
  k[i] = *reinterpret_cast<K*>(&b);
}

// Values 0, 1, 2, ...: each value its key's input index.
template <class V>
__global__ void iota(V* v, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) v[i] = V(i);
}
