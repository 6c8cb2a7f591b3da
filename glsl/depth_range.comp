// Depth keys, kernel 1 of 2 (depth_keys.glsl): each workgroup's range of finite depths.
//   reads keysIn [0, count), writes header [2 * workgroup, + 2)
#version 450
#include "common.glsl"
#include "depth_keys.glsl"

void main() {
  uint count = depthCount(), groups = depthGroups(), i = gl_LocalInvocationIndex;
  uvec2 range = kEmptyRange;
  for (uint b = gl_WorkGroupID.x; b < divideUp(count, kDepthKeysWorkgroup); b += groups) {
    if (i >= count - b * kDepthKeysWorkgroup) break;
    uint bits = depthBlock(b).v[i];
    if (isFinite(bits)) {
      uint key = vksortFloatBitsKey(bits);
      range = uvec2(min(range.x, key), max(range.y, key));
    }
  }
  range = workgroupRange(range);
  if (i == 0u) {
    pc.header.v[2u * gl_WorkGroupID.x] = range.x;
    pc.header.v[2u * gl_WorkGroupID.x + 1u] = range.y;
  }
}
