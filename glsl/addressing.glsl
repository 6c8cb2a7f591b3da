// 64-bit address arithmetic for indices that may pass 2^31 elements: an index into an array is a
// 32-bit integer in SPIR-V, which drivers may treat as signed. Kernels whose indices can grow
// that large move their buffer references to a per-workgroup base with this instead.
#extension GL_EXT_buffer_reference_uvec2 : require

// base + index * 2^log2Bytes (log2Bytes 2 or 3), with the carry into the high word.
uvec2 addressAt(uvec2 base, uint index, uint log2Bytes) {
  uint carry;
  uint lo = uaddCarry(base.x, index << log2Bytes, carry);
  return uvec2(lo, base.y + (index >> (32u - log2Bytes)) + carry);
}

// a / b rounded up, for any a (a + b - 1 could wrap).
uint divideUp(uint a, uint b) { return a / b + (a % b != 0u ? 1u : 0u); }
