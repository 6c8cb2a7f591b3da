// Onesweep binning pass, ranking with subgroupPartitionNV (one match instruction per key on
// NVIDIA instead of eight ballots): see onesweep.glsl.
#version 450
#extension GL_NV_shader_subgroup_partitioned : require
#define VKSORT_RANK_PARTITIONED 1
#include "onesweep.glsl"
