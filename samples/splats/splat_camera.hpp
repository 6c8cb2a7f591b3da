// Where the splats sample's camera stands: framing a scene by its bounds, and an orbit around
// them with either convention of "up". 3DGS captures are in COLMAP's camera convention (y down);
// the procedural scene and most other tools are y up.
#pragma once
#include <vector>

#include "splat_scene.hpp"

namespace splats {

struct Camera {
  float eye[3];
  float target[3];
  float fovY;               // radians
  float up[3] = {0, 1, 0};  // the world direction that is up in the picture
};

// A scene's subject without its stray splats: the box of the 1st to 99th percentile of the splat
// positions per axis (captures carry far floaters that would otherwise set the frame), grown to
// every splat within its own size of it, with each splat's 3-sigma extent (splat_camera.cpp).
struct Framing {
  float center[3];
  float half[3];  // the subject box's half extents (each at least 1e-3)
  float radius;   // half its diagonal
};
Framing frameScene(const std::vector<Splat>& scene);

// The camera at `angle` (radians) of an orbit around the framing's center, `elevation` radians
// above the orbit's plane on the side that is up (default 20 degrees), as near as lets every
// corner of the subject box into a frame of `aspect` (width / height) at `fovY`, a tenth inside
// its edges, times `zoom`. yDown: the scene's -y is up.
Camera orbitCamera(const Framing& framing, float angle, bool yDown, float fovY, float elevation = 0.35f,
                   float zoom = 1.0f, float aspect = 1.0f);

}  // namespace splats
