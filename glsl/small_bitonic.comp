// small_bitonic for 32-bit keys: see small_bitonic.glsl.
#version 450
#include "small_bitonic.glsl"
