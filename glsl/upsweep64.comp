// upsweep for 64-bit keys: see upsweep.glsl.
#version 450
#define KEY_WORDS 2
#include "upsweep.glsl"
