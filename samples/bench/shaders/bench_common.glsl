// Shared by the benchmark's helper kernels.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Quads { uvec4 v[]; };
layout(push_constant) uniform Push {
  Words src;     // copy: source
  Words dst;     // gen: pristine keys; copy: destination
  uint count;  // elements (copy: uvec4 elements)
  uint q;      // gen: AND of q samples
  uint hasValues;  // gen: write values (iota) rather than keys
  uint words;      // gen: 32-bit words per element (1 or 2)
} pc;
// Include after the local_size declaration: before it, gl_WorkGroupSize reads as 1.
uint flatId() { return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x; }
// The workgroup's first element of a buffer: drivers may compute index * size in 32 bits, so
// indices stay within the workgroup (an H100 wrapped element 2^30 of u32 data to element 0).
uint64_t workgroupBase(Words data, uint elementBytes) {
  return uint64_t(data) + uint64_t(flatId() - gl_LocalInvocationID.x) * elementBytes;
}
