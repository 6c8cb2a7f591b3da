// Test work before an indirect sort: a shader writes the count (as a culling pass would).
#version 450
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 1) in;
layout(buffer_reference, std430) buffer Word { uint v; };
layout(push_constant) uniform Push { Word target; uint value; } pc;
void main() { pc.target.v = pc.value; }
