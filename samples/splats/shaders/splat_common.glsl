// What the splats sample's shaders share: the splat layout (splat_renderer.hpp: Splat) and the
// per-frame push constants.
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

layout(push_constant) uniform Frame {
  mat4 view;      // world -> camera (the camera looks down -z)
  Splats splats;
  Words keys;     // cull: one depth key per visible splat
  Words indices;  // cull: the splat index of each; draw: in back-to-front order
  Words draw;     // VkDrawIndirectCommand: [1] is the visible count
  Floats sh;      // spherical harmonics (sh.glsl), where shDegree > 0
  uint count;     // splats in the scene
  float focalX;   // pixels
  float focalY;
  float width;    // viewport, pixels
  float height;
  uint shDegree;  // 0: the splats' own colours
} frame;

const float kNear = 0.2;
