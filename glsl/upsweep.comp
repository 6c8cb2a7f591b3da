// upsweep for 32-bit keys: see upsweep.glsl.
#version 450
#include "upsweep.glsl"
