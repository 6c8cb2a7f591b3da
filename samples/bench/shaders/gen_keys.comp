// Input keys, identical to samples/bench/cub/cub_bench.cu's gen(): each key is the AND of q
// splitmix-style hashes of its index (Thearling & Smith entropy bands), seed 12345; 64-bit keys
// (words 2) keep the whole hash, 32-bit ones its low half. With hasValues it writes the pristine
// values instead: i (64-bit: i, 0).
#version 450
layout(local_size_x = 256) in;  // before the include: flatId() reads gl_WorkGroupSize
#include "bench_common.glsl"
void main() {
  uint i = flatId();
  if (i >= pc.count) return;
  uint64_t acc = ~0ul;
  if (pc.hasValues != 0u) {
    acc = uint64_t(i);
  } else {
    for (uint s = 0u; s < pc.q; ++s) {
      uint64_t x = (uint64_t(i) + 1ul) * 0x9E3779B97F4A7C15ul ^ (12345ul + uint64_t(s)) * 0xD1B54A32D192ED03ul;
      x ^= x >> 31; x *= 0xBF58476D1CE4E5B9ul; x ^= x >> 29; x *= 0x94D049BB133111EBul; x ^= x >> 32;
      acc &= x;
    }
  }
  Words dst = Words(workgroupBase(pc.dst, 4u * pc.words));
  uint l = gl_LocalInvocationID.x * pc.words;
  dst.v[l] = uint(acc);
  if (pc.words == 2u) dst.v[l + 1u] = uint(acc >> 32);
}
