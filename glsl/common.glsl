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

#include "shader_interface.h"

layout(push_constant) uniform PushConstants { SortPush pc; };

// Workgroups beyond gl_NumWorkGroups.x go into y (lavapipe caps x at 65535).
uint flatWorkGroupId() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

#include "vksort/keys.glsl"

// The bits that order a stored key: its type's order-preserving map, inverted when descending.
uint orderedBits(uint key) {
  uint type = pc.keyFlags & kKeyTypeMask;
  uint bits = type == kKeyF32 ? vksortFloatBitsKey(key) : type == kKeyI32 ? vksortIntBitsKey(key) : key;
  return (pc.keyFlags & kKeyDescending) != 0u ? ~bits : bits;
}

// The digit of `key` at `shift`: up to kRadixBits bits, fewer where the bit range ends sooner.
uint digitOf(uint key, uint shift) {
  return bitfieldExtract(orderedBits(key), int(shift), int(min(kRadixBits, pc.endBit - shift)));
}
