// Onesweep binning pass for 64-bit keys, ranking with ballots: see onesweep.glsl.
#version 450
#define KEY_WORDS 2
#include "onesweep.glsl"
