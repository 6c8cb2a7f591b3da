// downsweep for 64-bit keys: see downsweep.glsl.
#version 450
#define KEY_WORDS 2
#include "downsweep.glsl"
