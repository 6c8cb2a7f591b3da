// Scan kernel: one workgroup per pass turns that pass's digit histogram (scratch header) into
// the digits' exclusive bin starts, in place; classes the pass by its most frequent digit's share
// of the keys (shader_interface.h's kPass*, against the percents of pc.passShares: the only place
// a share is compared); and marks the pass as moving keys unless one digit holds all of them (with
// kFlagSkipConstantPasses; pass_route.glsl). Where the sort's passes choose between two binning
// kernels (a nonzero skewed-from share), it gives the pass's grid to the skewed one where the top
// digit holds at least that share of the keys, else to the plain one.
//   reads/writes: header[kHeaderHist + pass * kRadix + digit]
//   writes:       header[kHeaderPassClasses + pass], header[kHeaderMovingPasses] (bit pass, atomic),
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

uint percentOfShares(uint at) { return bitfieldExtract(pc.passShares, int(at), 8); }

// The class (kPass*) of a pass whose top digit holds `share` of the keys, for the binning kernel
// that runs it (`skewed`: the skewed one, which ranks the hot digit as far as it counts it).
uint passClass(uint share, bool skewed) {
  uint from = percentOfShares(kShareHotFrom), to = percentOfShares(kShareHotTo);
  uint rankedTo = skewed ? to : percentOfShares(kShareRankedTo);
  if (from == 0u) return kPassSpread;
  uint percents = share * 100u;  // against percent * kTopShareOne
  if (percents >= from * kTopShareOne && percents <= to * kTopShareOne)
    return percents <= rankedTo * kTopShareOne ? kPassHotRanked : kPassHotCounted;
  return percents > to * kTopShareOne ? kPassCrowded : kPassSpread;
}

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
  uint share = s_top >> 8u, skewedFrom = percentOfShares(kShareSkewedFrom);
  // (The skewed-from share rounded down, as the host gave it when the choice was measured;
  // passClass() compares exactly, as the binning kernels did.)
  bool skewed = skewedFrom != 0u && share >= skewedFrom * kTopShareOne / 100u;
  pc.header.v[kHeaderPassClasses + gl_WorkGroupID.x] =
      (share << kTopShareShift) | (passClass(share, skewed) << kPassClassShift) | (s_top & 0xFFu);
  if (!s_constant || (pc.flags & kFlagSkipConstantPasses) == 0u)
    atomicOr(pc.header.v[kHeaderMovingPasses], 1u << gl_WorkGroupID.x);
  if (skewedFrom == 0u) return;
  // An indirect sort's binning grid is the init kernel's (which also holds its choice of the
  // one-workgroup sort: none).
  uint at = kHeaderDispatch + kDispatchBinning * 4u;
  uint groups = (pc.flags & kFlagIndirectCount) != 0u ? pc.header.v[at] * pc.header.v[at + 1u] : binningGroups(keys);
  writeGrid(kHeaderPassGrids + 6u * gl_WorkGroupID.x, skewed ? 0u : groups);
  writeGrid(kHeaderPassGrids + 6u * gl_WorkGroupID.x + 3u, skewed ? groups : 0u);
}
