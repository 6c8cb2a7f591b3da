// Depth keys (recordDepthKeys): f32 depths quantized in place to `bits`-bit u32 keys over the range
// their finite values span, so that a sort over [0, bits) orders them with 1 or 2 passes where f32
// takes 4. Two kernels over the same G workgroups (gl_NumWorkGroups.x), each workgroup taking every
// G-th block of kDepthKeysWorkgroup depths: depth_range.comp writes each workgroup's smallest and
// largest finite depth to scratch words [2g, 2g + 1], as order keys (vksortFloatKey: one uint
// min/max orders negatives too); depth_keys.comp has every workgroup reduce those G pairs (no
// atomics, so nothing to clear and the same range every run) and write each depth's key.
//   push: keysIn = keysOut = the depths; header = the scratch; count (countIn where
//   kFlagIndirectCount, clamped to maxCount); shift = bits; kFlagDescending
#ifndef VKSORT_DEPTH_KEYS_GLSL
#define VKSORT_DEPTH_KEYS_GLSL
layout(local_size_x = kDepthKeysWorkgroup) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer DepthWords { uint v[]; };

uint depthCount() {
  return (pc.flags & kFlagIndirectCount) != 0u ? min(pc.countIn.v, pc.maxCount) : pc.count;
}
uint depthGroups() { return gl_NumWorkGroups.x; }

// Block b's depths (each workgroup rebases: byte offsets stay below 2^31, addressing.glsl).
DepthWords depthBlock(uint b) { return DepthWords(addressAt(uvec2(pc.keysIn), b * kDepthKeysWorkgroup, 2u)); }

bool isFinite(uint bits) { return (bits & 0x7F800000u) != 0x7F800000u; }

// The workgroup's smallest and largest of (lo, hi), through shared memory; every invocation gets them.
shared uvec2 s_range[kDepthKeysWorkgroup];
uvec2 workgroupRange(uvec2 range) {
  uint i = gl_LocalInvocationIndex;
  s_range[i] = range;
  barrier();
  for (uint half_ = kDepthKeysWorkgroup / 2u; half_ > 0u; half_ >>= 1) {
    if (i < half_) s_range[i] = uvec2(min(s_range[i].x, s_range[i + half_].x), max(s_range[i].y, s_range[i + half_].y));
    barrier();
  }
  uvec2 whole = s_range[0];
  barrier();
  return whole;
}
const uvec2 kEmptyRange = uvec2(0xFFFFFFFFu, 0u);  // lo > hi: no finite depth seen

#endif  // VKSORT_DEPTH_KEYS_GLSL
