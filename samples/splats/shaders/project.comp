// Tile renderer, pass 1: per splat, its projection (projection.glsl), colour and the rectangle
// of 16x16 tiles its 3-sigma circle touches. With 64-bit keys it reserves one key slot per tile
// touched; two-phase, it appends its depth (key) and itself to the visible splats, which the
// depth sort orders before any copy is made (sorted_copies.glsl).
#version 450
layout(local_size_x = 256) in;
#include "projection.glsl"
#include "tiles.glsl"
#include "vksort/keys.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= frame.count) return;
  Splat s = frame.splats.v[i];
  Projection p = project(s);
  float depth;
  uvec2 lo = uvec2(0), hi = uvec2(0);  // culled: no tiles
  if (p.valid && inView(s, depth)) {
    vec2 grid = vec2(frame.tilesX, frame.tilesY);
    lo = uvec2(clamp(floor((p.center - p.radius) / float(kTileSize)), vec2(0), grid));
    hi = uvec2(clamp(ceil((p.center + p.radius) / float(kTileSize)), vec2(0), grid));
  }
  uint tiles = (hi.x - lo.x) * (hi.y - lo.y);
  uint first = 0;
  if (tiles != 0u) {
    uint visible = atomicAdd(frame.counts.v[kCountVisible], 1u);
    if (frame.twoPhase != 0u) {  // nearest first: recordDepthKeys's depths, or f32 order keys
      frame.depthKeys.v[visible] = frame.depthBits != 0u ? floatBitsToUint(p.depth) : vksortFloatKey(p.depth);
      frame.visible.v[visible] = uvec4(i, lo.x | lo.y << 16, hi.x | hi.y << 16, tiles);
    } else {
      first = atomicAdd(frame.counts.v[kCountCopies], tiles);
    }
    frame.screen.v[i] = ScreenSplat(vec4(p.conic, s.opacity), vec4(colorSeen(s, i), p.depth), p.center,
                                    lo.x | lo.y << 16, hi.x | hi.y << 16);
  } else {
    frame.screen.v[i].tileMin = frame.screen.v[i].tileMax = 0u;
  }
  frame.firsts.v[i] = first;
}
