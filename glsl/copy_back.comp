// Copy-back kernel: after an odd number of binning passes the sorted keys (and values) are in the
// scratch copies; this moves them to the caller's buffers (values alone with kFlagDiscardKeys).
// Where every pass was constant none ran (pass_route.glsl): the keys never left the caller's
// buffers, and every workgroup leaves. One element per invocation, 32- or 64-bit (kFlagKeys64,
// kFlagValues64), from per-workgroup bases so that indices stay small.
//   reads keysIn/valsIn [0, count), writes keysOut/valsOut [0, count)
#version 450
layout(local_size_x = 256) in;  // before common.glsl: nothing there may see gl_WorkGroupSize as 1
#include "common.glsl"
#include "pass_route.glsl"

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Elements32 { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Elements64 { uvec2 v[]; };

// Element first + i of `from` to `to`.
void copyElement(uvec2 from, uvec2 to, uint first, uint i, bool wide) {
  if (wide) Elements64(addressAt(to, first, 3u)).v[i] = Elements64(addressAt(from, first, 3u)).v[i];
  else Elements32(addressAt(to, first, 2u)).v[i] = Elements32(addressAt(from, first, 2u)).v[i];
}

void main() {
  uint first = flatWorkGroupId() * gl_WorkGroupSize.x;
  uint i = gl_LocalInvocationIndex;
  uint count = sortCount();
  if (first >= count || i >= count - first || movingPasses(pc.header.v[kHeaderMovingPasses]) == 0u) return;
  if ((pc.flags & kFlagDiscardKeys) == 0u) copyElement(uvec2(pc.keysIn), uvec2(pc.keysOut), first, i, (pc.flags & kFlagKeys64) != 0u);
  if ((pc.flags & kFlagCopyValues) != 0u)
    copyElement(uvec2(pc.valsIn), uvec2(pc.valsOut), first, i, (pc.flags & kFlagValues64) != 0u);
}
