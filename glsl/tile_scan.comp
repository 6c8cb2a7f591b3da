// Reduce-then-scan, middle kernel of a pass: one workgroup per digit turns its row of the tile
// table (pc.status: table[digit * tiles + tile], the tiles' counts) into global positions: the
// digit's bin start (scanned histogram) plus its count in the tiles before.
// Each invocation takes ITEMS consecutive tiles, summed in registers: one workgroup scan per
// WG * ITEMS tiles, not per WG (a workgroup scan's barriers per 256 tiles dominated this kernel).
//   reads the header's bin starts of the pass; reads/writes the table's row of the digit
#version 450
#include "common.glsl"
#include "pass_route.glsl"

layout(local_size_x_id = VKSORT_SPEC_WORKGROUP_SIZE) in;
layout(constant_id = VKSORT_SPEC_MIN_SUBGROUP_SIZE) const uint MIN_SUBGROUP_SIZE = 4u;
const uint MAX_SUBGROUPS = gl_WorkGroupSize.x / MIN_SUBGROUP_SIZE;
#define DIGIT_SCAN_WORDS kRadix
#include "workgroup_scan.glsl"
const uint ITEMS = 8u;

void main() {
  if (!passMoves(pc.pass)) return;  // no table: the pass moves nothing
  uint digit = gl_WorkGroupID.x;
  uint tiles = divideUp(sortCount(), pc.tileKeys);
  uint running = pc.header.v[kHeaderHist + pc.pass * kRadix + digit];
  for (uint first = 0u; first < tiles; first += gl_WorkGroupSize.x * ITEMS) {
    uint t0 = first + gl_LocalInvocationIndex * ITEMS;
    uint before[ITEMS];
    uint sum = 0u;
    [[unroll]] for (uint i = 0u; i < ITEMS; ++i) {
      uint count = t0 + i < tiles ? pc.status.v[digit * tiles + t0 + i] : 0u;
      before[i] = sum;
      sum += count;
    }
    uint total;
    uint start = running + workgroupExclusiveAdd(sum, total);
    [[unroll]] for (uint i = 0u; i < ITEMS; ++i)
      if (t0 + i < tiles) pc.status.v[digit * tiles + t0 + i] = start + before[i];
    running += total;
  }
}
