// Depth keys, kernel 2 of 2 (depth_keys.glsl): the range of every workgroup of kernel 1, then each
// depth d in place as its key: floor((d - lo) / (hi - lo) * 2^bits), at most 2^bits - 1 (each
// step is monotone, so a nearer depth never gets a larger key); -inf and NaNs with the sign bit
// 0, +inf and other NaNs 2^bits - 1; descending: 2^bits - 1 less that. The span is taken in
// halves so that no step overflows, whatever the finite range.
//   reads header [0, 2 * groups), keysIn [0, count); writes keysOut [0, count)
#version 450
#include "common.glsl"
#include "depth_keys.glsl"

// An order key back to its float (vksortFloatBitsKey's inverse).
float floatOfKey(uint key) { return uintBitsToFloat((key & 0x80000000u) != 0u ? key & 0x7FFFFFFFu : ~key); }

void main() {
  uint count = depthCount(), groups = depthGroups(), i = gl_LocalInvocationIndex;
  uvec2 range = kEmptyRange;
  for (uint g = i; g < groups; g += kDepthKeysWorkgroup)
    range = uvec2(min(range.x, pc.header.v[2u * g]), max(range.y, pc.header.v[2u * g + 1u]));
  range = workgroupRange(range);
  precise float lo = floatOfKey(range.x) * 0.5, span = floatOfKey(range.y) * 0.5 - lo;
  uint top = (1u << pc.shift) - 1u;  // bits: 1 to 24 (a float resolves no finer)
  // 2^bits / span, or 0 where every finite depth is the same (or none is finite).
  precise float scale = range.x < range.y && span > 0.0 ? exp2(float(pc.shift)) / span : 0.0;
  bool descending = (pc.flags & kFlagDescending) != 0u;
  for (uint b = gl_WorkGroupID.x; b < divideUp(count, kDepthKeysWorkgroup); b += groups) {
    if (i >= count - b * kDepthKeysWorkgroup) break;
    DepthWords block = depthBlock(b);
    uint bits = block.v[i];
    uint key = 0u;
    if (isFinite(bits)) {
      precise float q = (uintBitsToFloat(bits) * 0.5 - lo) * scale;
      if (scale > 0.0) key = q >= float(top) ? top : uint(max(q, 0.0));
    } else {
      key = (bits & 0x80000000u) != 0u ? 0u : top;
    }
    block.v[i] = descending ? top - key : key;
  }
}
