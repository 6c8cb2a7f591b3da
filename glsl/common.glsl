// Declarations every vksort kernel shares: extensions, the buffer-reference types the push
// constants carry, and the push-constant block itself (layout in shader_interface.h).
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(buffer_reference, std430, buffer_reference_align = 4) readonly restrict buffer KeysIn { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly restrict buffer KeysOut { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly restrict buffer ValsIn { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly restrict buffer ValsOut { uint v[]; };
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

// Specialization constants, so that each key type and order compiles to its own code: read from
// push constants, the per-key map cost the histogram 2.7x on an H100.
layout(constant_id = 10) const uint KEY_TYPE = kKeyU32;
layout(constant_id = 11) const bool DESCENDING = false;

// The bits that order a stored key, within the bit range: its type's order-preserving map,
// inverted when descending, bits at or above the range's end cleared.
uint orderedBits(uint key) {
  uint bits = KEY_TYPE == kKeyF32 ? vksortFloatBitsKey(key) : KEY_TYPE == kKeyI32 ? vksortIntBitsKey(key) : key;
  return (DESCENDING ? ~bits : bits) & pc.rangeMask;
}

// A shift, not bitfieldExtract: a last digit may reach past bit 31 (range [28, 32) at shift 28),
// which bitfieldExtract leaves undefined.
uint digitOf(uint key, uint shift) { return (orderedBits(key) >> shift) & (kRadix - 1u); }
