// What the splats sample's shaders share: the splat layout (splat_scene.hpp: Splat) and the
// frame's data (splat_frame.hpp: FrameData), which the push constants point to.
#ifndef SPLATS_COMMON_GLSL
#define SPLATS_COMMON_GLSL
#extension GL_EXT_buffer_reference : require

struct Splat {
  vec3 position;
  float opacity;  // 0..1
  vec3 scale;     // the Gaussian's standard deviations along its axes
  float pad0;
  vec4 rotation;  // unit quaternion (w, x, y, z)
  vec3 color;     // linear RGB 0..1
  float pad1;
};
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Splats { Splat v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint v[]; };
#include "sh.glsl"

// A splat as the tile renderer's project pass leaves it for the blend (tiles.glsl).
struct ScreenSplat {
  vec4 conicOpacity;  // inverse 2D covariance (xx, xy, yy) in pixels, then the opacity
  vec4 colorDepth;    // RGB, then the view depth
  vec2 center;        // pixels, y down
  uint tileMin;       // the tiles it touches, [min, max) in x | y << 16
  uint tileMax;
};
layout(buffer_reference, std430, buffer_reference_align = 16) buffer ScreenSplats { ScreenSplat v[]; };
// A visible splat as the two-phase tile renderer's copy passes read it, in one load: its index,
// the tiles it touches ([min, max) in x | y << 16) and their number.
layout(buffer_reference, std430, buffer_reference_align = 16) buffer VisibleSplats { uvec4 v[]; };

layout(buffer_reference, std430, buffer_reference_align = 16) buffer FrameData {
  mat4 view;      // world -> camera (the camera looks down -z)
  Splats splats;
  Floats sh;      // spherical harmonics (sh.glsl), where shDegree > 0
  Words keys;     // quads: a depth key per visible splat; tiles: (tile << 32 | depth) per copy
  Words indices;  // the splat index of each key; quads: in back-to-front order for the draw
  Words counts;   // quads: VkDrawIndirectCommand ([1]: visible); tiles: tiles.glsl's kCount*
  ScreenSplats screen;  // tiles: per splat
  Words firsts;   // tiles: per splat, its first copy's slot
  Words ranges;   // tiles: per tile, [first, end) of its keys after the sort
  Words depthKeys;   // two-phase tiles: a depth key per visible splat (the depth sort's keys)
  VisibleSplats visible;  // two-phase tiles: each one's index and tiles, in the same order
  Words order;       // two-phase tiles: after the depth sort, positions in those nearest first
  Words blockSums;   // two-phase tiles: copies per block of sorted splats, then where each begins
  uint count;     // splats in the scene
  float focalX;   // pixels
  float focalY;
  float width;    // viewport, pixels
  float height;
  uint shDegree;  // 0: the splats' own colours
  uint capacity;  // tiles: key slots
  uint tilesX;    // tiles: the grid
  uint tilesY;
  uint twoPhase;  // tiles: 1: sorted by depth, copied in that order, sorted by tile (u32 keys);
                  // 0: (tile << 32 | depth) u64 keys, sorted once
  uint depthBits;  // quads, two-phase tiles: depths for recordDepthKeys are written; 0: f32 order keys
  vec4 background;  // what shows where nothing is drawn (RGB; alpha 1)
};
layout(push_constant) uniform Push { FrameData frame; };

const float kNear = 0.2;

#endif  // SPLATS_COMMON_GLSL
