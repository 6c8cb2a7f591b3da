// Declarations every vksort kernel shares: extensions, the buffer-reference types the push
// constants carry, and the push-constant block itself (layout in shader_interface.h).
#ifndef VKSORT_COMMON_GLSL
#define VKSORT_COMMON_GLSL
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_memory_scope_semantics : require  // barriers that order shared memory alone
// [[unroll]] on loops over a thread's keys: a loop the driver leaves rolled indexes its register
// arrays dynamically, which puts them in local memory.
#extension GL_EXT_control_flow_attributes : require

// Keys are KEY_WORDS 32-bit words (a define: kernels are compiled once per key width); a
// 64-bit key is a uvec2 of its low and high words.
#ifndef KEY_WORDS
#define KEY_WORDS 1
#endif
const uint kKeyWords = KEY_WORDS == 1 ? 1u : 2u;
#if KEY_WORDS == 1
#define KeyT uint
#define KEY_BYTES 4
#define KEY_LOG2_BYTES 2u
#else
#define KeyT uvec2
#define KEY_BYTES 8
#define KEY_LOG2_BYTES 3u
#endif
// The reference types of keys and values, read through KeysIn and written through KeysOut
// (values: ValsIn / ValsOut 32-bit, ValsIn64 / ValsOut64 64-bit; the names are arguments), with
// `qualifiers`: restrict here, where a dispatch never reads what it writes; coherent in a kernel
// whose workgroups read what others of the same dispatch wrote (chained.glsl).
#define DECLARE_ELEMENT_REFERENCES(qualifiers, KeysIn, KeysOut, ValsIn, ValsOut, ValsIn64, ValsOut64)             \
  layout(buffer_reference, std430, buffer_reference_align = KEY_BYTES) readonly qualifiers buffer KeysIn { KeyT v[]; };  \
  layout(buffer_reference, std430, buffer_reference_align = KEY_BYTES) writeonly qualifiers buffer KeysOut { KeyT v[]; }; \
  layout(buffer_reference, std430, buffer_reference_align = 4) readonly qualifiers buffer ValsIn { uint v[]; };          \
  layout(buffer_reference, std430, buffer_reference_align = 4) writeonly qualifiers buffer ValsOut { uint v[]; };        \
  layout(buffer_reference, std430, buffer_reference_align = 8) readonly qualifiers buffer ValsIn64 { uvec2 v[]; };       \
  layout(buffer_reference, std430, buffer_reference_align = 8) writeonly qualifiers buffer ValsOut64 { uvec2 v[]; };
DECLARE_ELEMENT_REFERENCES(restrict, KeysIn, KeysOut, ValsIn, ValsOut, ValsIn64, ValsOut64)
// Counters written with atomics by many workgroups.
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer Words { uint v[]; };
// Look-back words: other workgroups publish into them while this one spins on them. Written with
// atomics; read through StatusLoads (plain loads) or with atomics, per lookback.glsl.
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer Status { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) coherent volatile readonly buffer StatusLoads { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer CountIn { uint v; };

#include "shader_interface.h"

layout(push_constant) uniform PushConstants { SortPush pc; };

// The number of keys: the push constant, or for an indirect sort what the init kernel read.
uint sortCount() { return (pc.flags & kFlagIndirectCount) != 0u ? pc.header.v[kHeaderCount] : pc.count; }

// Workgroups beyond gl_NumWorkGroups.x go into y (lavapipe caps x at 65535).
uint flatWorkGroupId() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

#include "vksort/keys.glsl"

#include "addressing.glsl"

// Specialization constant, so that each key type compiles to its own code: read from push
// constants, the map would cost a run-time choice per key.
layout(constant_id = VKSORT_SPEC_KEY_TYPE) const uint KEY_TYPE = KEY_WORDS == 1 ? kKeyU32 : kKeyU64;

bool descending() { return (pc.flags & kFlagDescending) != 0u; }

// The bits that order a stored key, within the bit range: its type's order-preserving map,
// inverted when descending, bits at or above the range's end cleared.
#if KEY_WORDS == 1
uint orderedBits(uint key) {
  uint bits = KEY_TYPE == kKeyF32 ? vksortFloatBitsKey(key) : KEY_TYPE == kKeyI32 ? vksortIntBitsKey(key) : key;
  return (descending() ? ~bits : bits) & pc.rangeMaskLo;
}
#else
uvec2 orderedBits(uvec2 key) {
  uvec2 bits = KEY_TYPE == kKeyF64 ? vksortDoubleBitsKey(key) : KEY_TYPE == kKeyI64 ? vksortInt64BitsKey(key) : key;
  return (descending() ? ~bits : bits) & uvec2(pc.rangeMaskLo, pc.rangeMaskHi);
}
#endif

// The digit at `shift` of ordered bits. A shift, not bitfieldExtract: a last digit may reach past
// bit 31 (range [28, 32) at shift 28), which bitfieldExtract leaves undefined.
uint digitOfBits(uint bits, uint shift) { return (bits >> shift) & (kRadix - 1u); }

#if KEY_WORDS == 1
// Ordered bits moved down by `shift` (below the key's width): digits of successive passes then
// sit at constant places (the histogram's).
uint bitsFrom(uint bits, uint shift) { return bits >> shift; }
#else
uvec2 bitsFrom(uvec2 b, uint shift) {
  if (shift >= 32u) return uvec2(b.y >> (shift - 32u), 0u);
  return uvec2((b.x >> shift) | (shift == 0u ? 0u : b.y << (32u - shift)), b.y >> shift);
}
// A digit may straddle the two words (shift 28: bits 28..35).
uint digitOfBits(uvec2 b, uint shift) { return digitOfBits(bitsFrom(b, shift).x, 0u); }

// The word that holds this pipeline's digits, kDigit*Word: the other word's map, the run-time
// choice and the funnel shift compile away (PERFORMANCE-LOG.md, session 34).
layout(constant_id = VKSORT_SPEC_DIGIT_WORD) const uint DIGIT_WORD = kDigitAnyWord;
#endif

// The digit at `shift` of ordered bits (orderedBits()), in this pipeline's digit word.
uint orderedDigitOf(KeyT bits, uint shift) {
#if KEY_WORDS == 2
  if (DIGIT_WORD == kDigitLowWord) return digitOfBits(bits.x, shift);
  if (DIGIT_WORD == kDigitHighWord) return digitOfBits(bits.y, shift - 32u);
#endif
  return digitOfBits(bits, shift);
}
// The digit at `shift` of a stored key.
uint digitOf(KeyT key, uint shift) { return orderedDigitOf(orderedBits(key), shift); }

#endif  // VKSORT_COMMON_GLSL
