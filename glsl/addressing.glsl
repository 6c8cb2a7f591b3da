// 64-bit address arithmetic. An index into an array is a 32-bit integer in SPIR-V, and drivers
// may compute index * element size in 32 bits (NVIDIA's driver 580 wrapped element 2^30 of a
// u32 array through a buffer reference to element 0). Kernels keep every such byte offset
// below 2^31 by moving their buffer references to a per-workgroup (or per-tile) base with this,
// or, where a scatter may land anywhere (kFlagWideAddresses), per element.
#extension GL_EXT_buffer_reference_uvec2 : require

// base + index * 2^log2Bytes (log2Bytes 2 or 3), with the carry into the high word.
uvec2 addressAt(uvec2 base, uint index, uint log2Bytes) {
  uint carry;
  uint lo = uaddCarry(base.x, index << log2Bytes, carry);
  return uvec2(lo, base.y + (index >> (32u - log2Bytes)) + carry);
}

// a / b rounded up, for any a (a + b - 1 could wrap).
uint divideUp(uint a, uint b) { return a / b + (a % b != 0u ? 1u : 0u); }
