// Every pass of a sort of 64-bit keys in one dispatch: see chained.glsl.
#version 450
#define KEY_WORDS 2
#include "chained.glsl"
