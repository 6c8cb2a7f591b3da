// Init kernel: zeroes the scratch header (histograms and tile tickets) before a sort. A compute
// dispatch rather than vkCmdFillBuffer, so that a sort uses no stage but the compute shader and
// its barrier contract stays compute-to-compute.
//   writes: header[0, kHeaderWords)
#version 450
#include "common.glsl"

layout(local_size_x = 128) in;  // every device offers 128

void main() {
  for (uint i = gl_LocalInvocationIndex; i < kHeaderWords; i += gl_WorkGroupSize.x) pc.header.v[i] = 0u;
}
