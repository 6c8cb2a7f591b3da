// Buffer references of the one-workgroup sorts (small_sort.glsl, small_bitonic.glsl), which read
// and write the caller's keys and values in place, values gathered by other invocations: not
// restrict. After common.glsl.
#if KEY_WORDS == 1
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer KeysRW { uint v[]; };
#else
layout(buffer_reference, std430, buffer_reference_align = 8) coherent buffer KeysRW { uvec2 v[]; };
#endif
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer ValsRW { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) coherent buffer ValsRW64 { uvec2 v[]; };
