// Histogram kernel: one read of the keys counts the digits of every pass at once.
//   reads:  keysIn[0, count)
//   writes: header histograms (atomic adds; zeroed by the recorder before this kernel),
//           status[] words of the binning tiles this workgroup covers (cleared for pass 0)
// Each workgroup covers TILES_PER_WORKGROUP binning tiles of TILE_KEYS keys, so that it can also
// clear exactly those tiles' look-back words, and so that only one global atomic per (digit,
// pass) is spent on that many keys.
// Shared memory: s_hist[pass][digit] counters.
#version 450
#include "common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 5) const uint TILE_KEYS = 4096u;  // keys of one binning tile
layout(constant_id = 3) const uint TILES_PER_WORKGROUP = 8u;
const uint WG = gl_WorkGroupSize.x;

shared uint s_hist[kMaxPasses * kRadix];

void main() {
  uint tid = gl_LocalInvocationIndex;
  uint firstTile = flatWorkGroupId() * TILES_PER_WORKGROUP;
  uint tileCount = (pc.count + TILE_KEYS - 1u) / TILE_KEYS;
  if (firstTile >= tileCount) return;
  uint lastTile = min(firstTile + TILES_PER_WORKGROUP, tileCount);

  uint counters = pc.passCount * kRadix;
  for (uint i = tid; i < counters; i += WG) s_hist[i] = 0u;
  for (uint i = firstTile * kRadix + tid; i < lastTile * kRadix; i += WG) pc.status.v[i] = 0u;
  barrier();

  uint begin = firstTile * TILE_KEYS;
  uint end = min(lastTile * TILE_KEYS, pc.count);
  for (uint i = begin + tid; i < end; i += WG) {
    uint key = pc.keysIn.v[i];
    for (uint p = 0u; p < pc.passCount; ++p)
      atomicAdd(s_hist[p * kRadix + digitOf(key, pc.shift + p * kRadixBits)], 1u);
  }
  barrier();

  for (uint i = tid; i < counters; i += WG) {
    uint c = s_hist[i];
    if (c != 0u) atomicAdd(pc.header.v[kHeaderHist + i], c);
  }
}
