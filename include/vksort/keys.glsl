// vksort keys for GLSL: order-preserving maps from 32- and 64-bit values to unsigned keys, the
// same ones vksort applies to i32, f32, i64 and f64 keys. 64-bit values are uvec2(low word,
// high word), as they lie in memory (unpackDouble2x32 / unpackUint2x32 give that form). #include it in your own shaders to build keys that sort
// as you mean them, e.g. a depth key for back-to-front splats:
//   keys[i] = ~vksortFloatKey(viewDepth);      // farthest first, with an ascending u32 sort
// Order of vksortFloatKey: -NaN (by bits) < -inf < negatives < -0.0 == +0.0 < positives < +inf
// < +NaN (by bits); denormals in place. -0.0 and +0.0 map to the same key. vksortDoubleBitsKey
// orders doubles the same way.
#ifndef VKSORT_KEYS_GLSL
#define VKSORT_KEYS_GLSL

// IEEE-754 single bits -> key: flip all bits of negatives, the sign bit of the rest.
uint vksortFloatBitsKey(uint bits) {
  if (bits == 0x80000000u) bits = 0u;  // -0.0 sorts as +0.0
  return (bits & 0x80000000u) != 0u ? ~bits : bits | 0x80000000u;
}
uint vksortFloatKey(float f) { return vksortFloatBitsKey(floatBitsToUint(f)); }

// Two's-complement int bits -> key: flip the sign bit.
uint vksortIntBitsKey(uint bits) { return bits ^ 0x80000000u; }
uint vksortIntKey(int i) { return vksortIntBitsKey(uint(i)); }

// IEEE-754 double bits (low, high word) -> key: as for floats, on the high word's sign.
uvec2 vksortDoubleBitsKey(uvec2 bits) {
  if (bits == uvec2(0u, 0x80000000u)) bits = uvec2(0u);  // -0.0 sorts as +0.0
  return (bits.y & 0x80000000u) != 0u ? ~bits : uvec2(bits.x, bits.y | 0x80000000u);
}

// Two's-complement 64-bit int bits (low, high word) -> key: flip the sign bit.
uvec2 vksortInt64BitsKey(uvec2 bits) { return uvec2(bits.x, bits.y ^ 0x80000000u); }

// A view depth quantized to `bits` bits (1 to 24) over [nearDepth, farDepth]: 0 at nearDepth or
// nearer, 2^bits - 1 at farDepth or farther (and for NaN), evenly spaced between, never
// decreasing as depth grows. The recommended splat key: 16 bits sorted over bits [0, 16) take two
// passes where an f32 key takes four (about twice as fast: docs/PERFORMANCE.md, renderer
// workloads), at the cost of ties between depths closer than (farDepth - nearDepth) / 65535,
// which keep their input order (the sort is stable). Back to front: sort descending, or use
// 2^bits - 1 - key.
// Steps are exact to within one up to 16 bits; past that f32 arithmetic may put a depth a few
// steps off (never out of order).
uint vksortQuantizedDepthKey(float depth, float nearDepth, float farDepth, uint bits) {
  const uint top = (1u << clamp(bits, 1u, 24u)) - 1u;
  const float steps = (depth - nearDepth) * (float(top) / (farDepth - nearDepth));
  if (!(steps > 0.0)) return isnan(steps) ? top : 0u;  // nearer than nearDepth (or NaN, farthest)
  return steps >= float(top) ? top : uint(steps + 0.5);
}

#endif
