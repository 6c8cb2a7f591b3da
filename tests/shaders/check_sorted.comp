// Test work after a sort: counts adjacent pairs out of order (keys) or out of input order among
// equal keys (values), into values-of-result[0] and [1], and copies the keys to `copy`.
#version 450
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430) buffer Words { uint v[]; };
layout(push_constant) uniform Push { Words keys; Words values; Words copy; Words result; uint count; } pc;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.count) return;
  pc.copy.v[i] = pc.keys.v[i];
  if (i + 1 >= pc.count) return;
  uint a = pc.keys.v[i], b = pc.keys.v[i + 1];
  if (a > b) atomicAdd(pc.result.v[0], 1u);
  if (a == b && pc.values.v[i] > pc.values.v[i + 1]) atomicAdd(pc.result.v[1], 1u);
}
