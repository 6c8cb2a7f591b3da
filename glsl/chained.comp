// Every pass of a sort of 32-bit keys in one dispatch: see chained.glsl.
#version 450
#include "chained.glsl"
