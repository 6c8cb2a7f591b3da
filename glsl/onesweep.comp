// Onesweep binning pass, ranking with ballots: see onesweep.glsl.
#version 450
#include "onesweep.glsl"
