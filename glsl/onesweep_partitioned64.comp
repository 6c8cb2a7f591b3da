// Onesweep binning pass for 64-bit keys, ranking with subgroupPartitionNV: see onesweep.glsl.
#version 450
#extension GL_NV_shader_subgroup_partitioned : require
#define VKSORT_RANK_PARTITIONED 1
#define KEY_WORDS 2
#include "onesweep.glsl"
