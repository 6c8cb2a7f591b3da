// Input keys, identical to ../shared/bench/cub_bench.cu's gen(): each key is the AND of q
// splitmix-style hashes of its index (Thearling & Smith entropy bands), seed 12345. With
// hasValues it writes the pristine values instead: dst[i] = i.
#version 450
layout(local_size_x = 256) in;  // before the include: flatId() reads gl_WorkGroupSize
#include "bench_common.glsl"
void main() {
  uint i = flatId();
  if (i >= pc.count) return;
  if (pc.hasValues != 0u) {
    pc.dst.v[i] = i;
    return;
  }
  uint acc = ~0u;
  for (uint s = 0u; s < pc.q; ++s) {
    uint64_t x = (uint64_t(i) + 1ul) * 0x9E3779B97F4A7C15ul ^ (12345ul + uint64_t(s)) * 0xD1B54A32D192ED03ul;
    x ^= x >> 31; x *= 0xBF58476D1CE4E5B9ul; x ^= x >> 29; x *= 0x94D049BB133111EBul; x ^= x >> 32;
    acc &= uint(x);
  }
  pc.dst.v[i] = acc;
}
