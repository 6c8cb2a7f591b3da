// Histogram kernel for 32-bit keys: see histogram.glsl.
#version 450
#include "histogram.glsl"
