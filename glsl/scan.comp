// Scan kernel: one workgroup per pass turns that pass's digit histogram (scratch header) into
// the digits' exclusive bin starts, in place, and names the pass's most frequent digit with its
// share of the keys (Onesweep counts a digit that holds many of them a subgroup at a time:
// onesweep.glsl, HOT_DIGIT_FROM), and marks the pass as moving keys unless one digit holds all of
// them (with kFlagSkipConstantPasses; pass_route.glsl). Where the sort's passes choose between
// two binning kernels (a nonzero skew share), it gives the pass's grid to the skewed one
// where the top digit holds at least that share of the keys, else to the plain one.
//   reads/writes: header[kHeaderHist + pass * kRadix + digit]
//   writes:       header[kHeaderTopDigits + pass], header[kHeaderMovingPasses] (bit pass, atomic),
//                 header[kHeaderPassGrids + pass * 6, +6) (two kernels per pass)
#version 450
#include "common.glsl"

layout(local_size_x_id = VKSORT_SPEC_WORKGROUP_SIZE) in;
layout(constant_id = VKSORT_SPEC_MIN_SUBGROUP_SIZE) const uint MIN_SUBGROUP_SIZE = 4u;
const uint MAX_SUBGROUPS = gl_WorkGroupSize.x / MIN_SUBGROUP_SIZE;
#define DIGIT_SCAN_WORDS kRadix
#include "workgroup_scan.glsl"
#include "dispatch_grid.glsl"

shared uint s_top;  // the most frequent digit's share (kTopShareOne: all keys) and digit
shared bool s_constant;  // one digit holds every key

void main() {
  uint row = kHeaderHist + gl_WorkGroupID.x * kRadix;
  if (gl_LocalInvocationIndex == 0u) {
    s_top = 0u;
    s_constant = false;
  }
  barrier();
  uint keys = sortCount();
  float total = float(max(keys, 1u));
  for (uint d = gl_LocalInvocationIndex; d < kRadix; d += gl_WorkGroupSize.x) {
    uint count = pc.header.v[row + d];
    s_digitScan[d] = count;
    atomicMax(s_top, (uint(float(count) / total * float(kTopShareOne)) << 8u) | d);
    if (count == keys) s_constant = true;
  }
  barrier();
  exclusiveScanDigits();
  for (uint d = gl_LocalInvocationIndex; d < kRadix; d += gl_WorkGroupSize.x)
    pc.header.v[row + d] = s_digitScan[d];
  if (gl_LocalInvocationIndex != 0u) return;
  pc.header.v[kHeaderTopDigits + gl_WorkGroupID.x] = s_top;
  if (!s_constant || (pc.flags & kFlagSkipConstantPasses) == 0u)
    atomicOr(pc.header.v[kHeaderMovingPasses], 1u << gl_WorkGroupID.x);
  uint skewedFrom = pc.dispatchIndex;  // (the scan's meaning: shader_interface.h)
  if (skewedFrom == 0u) return;
  // An indirect sort's binning grid is the init kernel's (which also holds its choice of the
  // one-workgroup sort: none).
  uint at = kHeaderDispatch + kDispatchBinning * 4u;
  uint groups = (pc.flags & kFlagIndirectCount) != 0u ? pc.header.v[at] * pc.header.v[at + 1u] : binningGroups(keys);
  bool skewed = (s_top >> 8u) >= skewedFrom;
  writeGrid(kHeaderPassGrids + 6u * gl_WorkGroupID.x, skewed ? 0u : groups);
  writeGrid(kHeaderPassGrids + 6u * gl_WorkGroupID.x + 3u, skewed ? groups : 0u);
}
