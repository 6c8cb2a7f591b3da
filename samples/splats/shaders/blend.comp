// Tile renderer, pass 5: one workgroup per 16x16 tile, one thread per pixel. The tile's splats
// (nearest first, the sort's order) come in batches of 256 through shared memory, one load per
// thread; each pixel blends them front to back, "under" what it has:
//   C += T * alpha * color,  T *= 1 - alpha,
// and stops before T would fall below 1e-4 (nothing behind could show). The workgroup stops
// when all its pixels have.
#version 450
#include "gaussian.glsl"
#include "tiles.glsl"
layout(local_size_x = SPLATS_TILE_SIZE, local_size_y = SPLATS_TILE_SIZE) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D target;

const uint kBatch = kTileSize * kTileSize;  // one splat per thread
shared vec4 batchConicOpacity[kBatch];
shared vec4 batchColor[kBatch];
shared vec2 batchCenter[kBatch];
shared uint pixelsDone;

void main() {
  uint tile = gl_WorkGroupID.y * frame.tilesX + gl_WorkGroupID.x;
  uvec2 pixel = gl_GlobalInvocationID.xy;
  bool inside = pixel.x < uint(frame.width) && pixel.y < uint(frame.height);
  bool done = !inside;
  vec2 at = vec2(pixel) + 0.5;  // the pixel's center, where the quads' fragments are evaluated
  uint first = frame.ranges.v[2u * tile], end = frame.ranges.v[2u * tile + 1u];
  vec3 C = vec3(0.0);
  float T = 1.0;
  bool counted = false;
  if (gl_LocalInvocationIndex == 0u) pixelsDone = 0u;
  for (uint base = first; base < end; base += kBatch) {
    if (done && !counted) {
      atomicAdd(pixelsDone, 1u);
      counted = true;
    }
    // Every pixel has blended the last batch and counted itself: the count is final until the
    // next barrier, so all threads read the same value and leave together.
    barrier();
    if (pixelsDone == kBatch) break;
    uint k = base + gl_LocalInvocationIndex;
    if (k < end) {
      ScreenSplat s = frame.screen.v[frame.indices.v[k]];
      batchConicOpacity[gl_LocalInvocationIndex] = s.conicOpacity;
      batchColor[gl_LocalInvocationIndex] = s.colorDepth;
      batchCenter[gl_LocalInvocationIndex] = s.center;
    }
    barrier();
    for (uint j = 0u; !done && j < min(kBatch, end - base); ++j) {
      vec4 co = batchConicOpacity[j];
      float alpha = gaussianAlpha(co.xyz, co.w, at - batchCenter[j]);
      if (alpha < kMinAlpha) continue;
      float next = T * (1.0 - alpha);
      if (next < 1e-4) {
        done = true;
        break;
      }
      C += T * alpha * batchColor[j].rgb;
      T = next;
    }
  }
  if (inside) imageStore(target, ivec2(pixel), vec4(C + T * frame.background.rgb, 1.0));
}
