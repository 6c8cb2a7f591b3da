// Test of include/vksort/keys.glsl as a renderer's shader uses it: out[i] = the key of in[i], as
// f32 (mode 0), i32 (mode 1), f64 (mode 2) or i64 (mode 3); 64-bit elements are word pairs; mode
// 4: in[i] an f32 depth, out[i] its vksortQuantizedDepthKey over [nearDepth, farDepth] in `bits`.
#version 450
#extension GL_EXT_buffer_reference : require
#include "vksort/keys.glsl"
layout(local_size_x = 64) in;
layout(buffer_reference, std430) buffer Words { uint v[]; };
layout(push_constant) uniform Push { Words src; Words dst; uint count; uint mode; float nearDepth; float farDepth; uint bits; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.count) return;
  if (pc.mode == 2u || pc.mode == 3u) {
    uvec2 bits = uvec2(pc.src.v[2u * i], pc.src.v[2u * i + 1u]);
    uvec2 key = pc.mode == 2u ? vksortDoubleBitsKey(bits) : vksortInt64BitsKey(bits);
    pc.dst.v[2u * i] = key.x;
    pc.dst.v[2u * i + 1u] = key.y;
    return;
  }
  uint bits = pc.src.v[i];
  if (pc.mode == 4u) {
    pc.dst.v[i] = vksortQuantizedDepthKey(uintBitsToFloat(bits), pc.nearDepth, pc.farDepth, pc.bits);
    return;
  }
  pc.dst.v[i] = pc.mode == 0u ? vksortFloatKey(uintBitsToFloat(bits)) : vksortIntKey(int(bits));
}
