// Scan kernel: one workgroup per pass turns that pass's digit histogram (scratch header) into
// the digits' exclusive bin starts, in place.
//   reads/writes: header[kHeaderHist + pass * kRadix + digit]
#version 450
#include "common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 2) const uint MIN_SUBGROUP_SIZE = 4u;
const uint MAX_SUBGROUPS = gl_WorkGroupSize.x / MIN_SUBGROUP_SIZE;
#include "workgroup_scan.glsl"

void main() {
  uint row = kHeaderHist + gl_WorkGroupID.x * kRadix;
  for (uint d = gl_LocalInvocationIndex; d < kRadix; d += gl_WorkGroupSize.x)
    s_digitScan[d] = pc.header.v[row + d];
  barrier();
  exclusiveScanDigits();
  for (uint d = gl_LocalInvocationIndex; d < kRadix; d += gl_WorkGroupSize.x)
    pc.header.v[row + d] = s_digitScan[d];
}
