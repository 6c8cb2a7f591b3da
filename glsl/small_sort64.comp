// small_sort for 64-bit keys: see small_sort.glsl.
#version 450
#define KEY_WORDS 2
#include "small_sort.glsl"
