// small_bitonic for 64-bit keys: see small_bitonic.glsl.
#version 450
#define KEY_WORDS 2
#include "small_bitonic.glsl"
