// downsweep for 32-bit keys: see downsweep.glsl.
#version 450
#include "downsweep.glsl"
