// small_sort for 32-bit keys: see small_sort.glsl.
#version 450
#include "small_sort.glsl"
