// The tuner's input (src/tuner/bench.cpp): keys of `words` 32-bit words, each the AND of q hashes of its
// index (q 1: uniform; larger q crowds keys onto fewer digits), or with `values` set the
// values 0, 1, 2... (64-bit: high word 0). A grid-stride loop: any count fits the grid a
// device allows. Indices past 2^32 / words do not occur: the tuner sorts far fewer keys.
#version 450
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 256) in;
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer Words { uint v[]; };
layout(push_constant) uniform Push {
  Words dst;
  uint count;
  uint words;
  uint q;
  uint values;
} pc;

// One 32-bit hash (lowbias32) per word, key and sample: no 64-bit integers, which not every
// device has.
uint mixed(uint x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu;
  return x ^ (x >> 16);
}

void main() {
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride)
    for (uint w = 0u; w < pc.words; ++w) {
      uint v = w == 0u ? i : 0u;
      if (pc.values == 0u) {
        v = ~0u;
        for (uint s = 0u; s < max(pc.q, 1u); ++s) v &= mixed((i * pc.words + w) ^ mixed(s + 12345u));
      }
      pc.dst.v[i * pc.words + w] = v;
    }
}
