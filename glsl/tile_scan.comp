// Reduce-then-scan, middle kernel of a pass: one workgroup per digit turns its row of the tile
// table (pc.status: table[digit * tiles + tile], the tiles' counts) into global positions: the
// digit's bin start (scanned histogram) plus its count in the tiles before.
//   reads the header's bin starts of the pass; reads/writes the table's row of the digit
#version 450
#include "common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 2) const uint MIN_SUBGROUP_SIZE = 4u;
const uint MAX_SUBGROUPS = gl_WorkGroupSize.x / MIN_SUBGROUP_SIZE;
#include "workgroup_scan.glsl"

void main() {
  uint digit = gl_WorkGroupID.x;
  uint tiles = divideUp(sortCount(), pc.tileKeys);
  uint running = pc.header.v[kHeaderHist + pc.pass * kRadix + digit];
  for (uint first = 0u; first < tiles; first += gl_WorkGroupSize.x) {
    uint t = first + gl_LocalInvocationIndex;
    uint at = digit * tiles + t;
    uint count = t < tiles ? pc.status.v[at] : 0u;
    uint total;
    uint before = workgroupExclusiveAdd(count, total);
    if (t < tiles) pc.status.v[at] = running + before;
    running += total;
  }
}
