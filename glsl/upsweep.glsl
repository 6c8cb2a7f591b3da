// Reduce-then-scan, first kernel of a pass: each workgroup counts the digits of its tile into the
// tile table (pc.status): table[digit * tiles + tile]. tile_scan.comp turns the table into global
// positions; downsweep.glsl moves the keys. No workgroup waits on another.
// Counts alone, as the histogram kernel counts: every load of an invocation in flight before its
// shared atomics, one counter per digit. (The binning tile's count, with its subgroup rows and
// their sums for the ranking, made this kernel slower than the histogram of all passes.)
//   reads keysIn [tile range]; writes the tile's column of the table
#include "common.glsl"
#include "pass_route.glsl"

layout(local_size_x_id = VKSORT_SPEC_WORKGROUP_SIZE) in;
layout(constant_id = VKSORT_SPEC_KEYS_PER_INVOCATION) const uint KEYS_PER_INVOCATION = 16u;  // the downsweep's tile
const uint WG = gl_WorkGroupSize.x;
const uint KPI = KEYS_PER_INVOCATION;
const uint TILE = WG * KPI;

shared uint s_count[kRadix];

void main() {
  uint tid = gl_LocalInvocationIndex;
  uint count = sortCount();
  uint tiles = divideUp(count, TILE);
  uint tile = flatWorkGroupId();
  if (tile >= tiles || !passMoves(pc.pass)) return;  // a pass that moves nothing counts nothing
  for (uint d = tid; d < kRadix; d += WG) s_count[d] = 0u;
  uint begin = tile * TILE;
  uint end = min(TILE, count - begin);
  KeysIn keys = KeysIn(addressAt(uvec2(pc.keysIn), begin, KEY_LOG2_BYTES));
  KeyT k[KPI];
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint at = i * WG + tid;
    k[i] = at < end ? keys.v[at] : KeyT(0u);
  }
  barrier();  // the counters are cleared
  [[unroll]] for (uint i = 0u; i < KPI; ++i)
    if (i * WG + tid < end) atomicAdd(s_count[digitOf(k[i], pc.shift)], 1u);
  barrier();
  for (uint d = tid; d < kRadix; d += WG) pc.status.v[d * tiles + tile] = s_count[d];
}
