// Scan kernel: one workgroup per pass turns that pass's digit histogram (scratch header) into
// the digits' exclusive bin starts, in place, and names the pass's most frequent digit with its
// share of the keys (Onesweep counts a digit that holds many of them a subgroup at a time:
// onesweep.glsl, HOT_DIGIT_FROM).
//   reads/writes: header[kHeaderHist + pass * kRadix + digit]
//   writes:       header[kHeaderTopDigits + pass]
#version 450
#include "common.glsl"

layout(local_size_x_id = VKSORT_SPEC_WORKGROUP_SIZE) in;
layout(constant_id = VKSORT_SPEC_MIN_SUBGROUP_SIZE) const uint MIN_SUBGROUP_SIZE = 4u;
const uint MAX_SUBGROUPS = gl_WorkGroupSize.x / MIN_SUBGROUP_SIZE;
#include "workgroup_scan.glsl"

shared uint s_top;  // the most frequent digit's share (kTopShareOne: all keys) and digit

void main() {
  uint row = kHeaderHist + gl_WorkGroupID.x * kRadix;
  if (gl_LocalInvocationIndex == 0u) s_top = 0u;
  barrier();
  float total = float(max(sortCount(), 1u));
  for (uint d = gl_LocalInvocationIndex; d < kRadix; d += gl_WorkGroupSize.x) {
    uint count = pc.header.v[row + d];
    s_digitScan[d] = count;
    atomicMax(s_top, (uint(float(count) / total * float(kTopShareOne)) << 8u) | d);
  }
  barrier();
  exclusiveScanDigits();
  for (uint d = gl_LocalInvocationIndex; d < kRadix; d += gl_WorkGroupSize.x)
    pc.header.v[row + d] = s_digitScan[d];
  if (gl_LocalInvocationIndex == 0u) pc.header.v[kHeaderTopDigits + gl_WorkGroupID.x] = s_top;
}
