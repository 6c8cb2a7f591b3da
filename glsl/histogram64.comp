// Histogram kernel for 64-bit keys: see histogram.glsl.
#version 450
#define KEY_WORDS 2
#include "histogram.glsl"
