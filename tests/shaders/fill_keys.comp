// Test work before a sort: writes keys[i] = hash(i, seed) and values[i] = i.
#version 450
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430) buffer Words { uint v[]; };
layout(push_constant) uniform Push { Words keys; Words values; uint count; uint seed; } pc;

uint hash(uint x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.count) return;
  pc.keys.v[i] = hash(i ^ pc.seed);
  pc.values.v[i] = i;
}
