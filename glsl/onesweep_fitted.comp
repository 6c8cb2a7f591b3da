// Onesweep binning pass in tiles of a run-time length (fitted to whole waves), ranking with
// ballots: see onesweep.glsl and binning_tile.glsl's RUNTIME_TILE.
#version 450
#define RUNTIME_TILE 1
#include "onesweep.glsl"
