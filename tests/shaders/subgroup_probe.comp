// What subgroups the device really runs a compute shader with (no required size): per invocation,
// the size it reports, its lane, its subgroup, and how many invocations a ballot and a sum see.
// llvmpipe at LP_NATIVE_VECTOR_WIDTH 1024 reported 32 and ran 16 (test_setup.cpp).
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 256) in;
layout(buffer_reference, std430) buffer Words { uint w[]; };
layout(push_constant) uniform Push { Words out_; } pc;
void main() {
  const uint at = 5u * gl_LocalInvocationIndex;
  pc.out_.w[at] = gl_SubgroupSize;
  pc.out_.w[at + 1u] = gl_SubgroupInvocationID;
  pc.out_.w[at + 2u] = gl_SubgroupID;
  pc.out_.w[at + 3u] = subgroupBallotBitCount(subgroupBallot(true));
  pc.out_.w[at + 4u] = subgroupAdd(1u);
}
