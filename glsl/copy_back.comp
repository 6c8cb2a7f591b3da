// Copy-back kernel: after an odd number of binning passes the sorted keys (and values) are in the
// scratch copies; this moves them to the caller's buffers. One element per invocation.
//   reads keysIn/valsIn [0, count), writes keysOut/valsOut [0, count)
#version 450
layout(local_size_x = 256) in;  // before common.glsl: nothing there may see gl_WorkGroupSize as 1
#include "common.glsl"

void main() {
  uint i = flatWorkGroupId() * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
  uint count = sortCount();
  if (i >= count) return;
  pc.keysOut.v[i] = pc.keysIn.v[i];
  if ((pc.flags & kFlagCopyValues) != 0u) pc.valsOut.v[i] = pc.valsIn.v[i];
}
