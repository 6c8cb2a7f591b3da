// What the core gives the tuner's wing (src/tuner/) beyond the public API: exported from a shared
// core for the wing alone (everything else internal stays hidden), nothing in a static one.
#pragma once
#include "vksort/vksort_export.h"

#define VKSORT_FOR_TUNER VKSORT_EXPORT
