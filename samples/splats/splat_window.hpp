// --window: the splats sample's frames in a GLFW window (X11 or Wayland). Each frame is drawn as
// headless (one command buffer: sort, draw), then blitted into a swapchain image and presented.
// Drag with the left button to orbit, scroll to zoom; the frame's GPU timings are in the title.
#pragma once
#include <string>
#include <cstdint>

#include "splat_renderer.hpp"

namespace splats {

struct WindowOptions {
  uint32_t width = 640, height = 480;  // the window's first size and the frame's size
  uint32_t frames = 0;                 // present this many, then close; 0: until the window closes
  bool yDown = false;
  bool validation = false;  // Khronos validation; a message ends the run with an error
  Method method = Method::quads;
  uint32_t depthBits = kDepthBits;
  std::string tuningData;  // a file of tuning data (vksort_tune); empty: none
};

// Runs the window; returns the frames presented. Throws std::runtime_error when no window can be
// opened (no display, no surface support, a validation message).
uint32_t runWindow(const Scene& scene, const WindowOptions& options);

}  // namespace splats
