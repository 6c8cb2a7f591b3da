// Init kernel: prepares the scratch header before a sort (a compute dispatch rather than
// vkCmdFillBuffer, so that a sort uses no stage but the compute shader and its barrier contract
// stays compute-to-compute). Zeroes the histograms, tile tickets, moving passes and fallbacks; stores the
// count; for an indirect sort reads the caller's count, clamps it to maxCount, and writes the
// indirect dispatch arguments of the kernels whose grids depend on it.
//   reads:  countIn (indirect sorts)
//   writes: header[0, kHeaderWords)
#version 450
layout(local_size_x = 128) in;  // every device offers 128
#include "common.glsl"

#include "dispatch_grid.glsl"

void main() {
  for (uint i = gl_LocalInvocationIndex; i < kHeaderCount; i += gl_WorkGroupSize.x) pc.header.v[i] = 0u;
  // One ticket counter per binning dispatch: passes x portions of the largest count (a chained
  // sort's counters: kChainCounters).
  uint tickets = max(pc.passCount * divideUp(pc.maxCount, pc.portionKeys), kChainCounters);
  for (uint i = gl_LocalInvocationIndex; i < tickets; i += gl_WorkGroupSize.x) pc.tickets.v[i] = 0u;
  if (gl_LocalInvocationIndex != 0u) return;
  pc.header.v[kHeaderMovingPasses] = 0u;
  pc.header.v[kHeaderPassWork] = 0u;
  pc.header.v[kHeaderFallbacks] = 0u;
  if ((pc.flags & kFlagIndirectCount) == 0u) {
    pc.header.v[kHeaderCount] = pc.count;
    return;
  }
  uint count = min(pc.countIn.v, pc.maxCount);  // untrusted: never past what the scratch was sized for
  pc.header.v[kHeaderCount] = count;
  // Either the small sort's one workgroup, or the grids of the full sort.
  bool small = count <= pc.pass;  // init's `pass`: the small sort's keys (shader_interface.h)
  uint full = small ? 0u : count;
  writeDispatch(kDispatchSmall, small && count != 0u ? 1u : 0u);
  writeDispatch(kDispatchHistogram, divideUp(full, pc.histogramGroupKeys));
  writeDispatch(kDispatchBinning, binningGroups(full));
  writeDispatch(kDispatchCopyBack, divideUp(full, kCopyBackWorkgroup));
  writeDispatch(kDispatchTiles, divideUp(full, pc.tileKeys));
}
