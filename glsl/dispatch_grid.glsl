// Indirect dispatch arguments the GPU writes into the scratch header: the init kernel those of
// an indirect sort's count, the scan each pass's choice of binning kernel.
#ifndef VKSORT_DISPATCH_GRID_GLSL
#define VKSORT_DISPATCH_GRID_GLSL

// x, y, z of `groups` workgroups at header word `at`: rows of at most kGridMaxX, as even as they
// go (at most y - 1 workgroups spare; kernels flatten the id with flatWorkGroupId(), or take
// tickets).
void writeGrid(uint at, uint groups) {
  uint rows = max(divideUp(groups, kGridMaxX), 1u);
  pc.header.v[at] = divideUp(groups, rows);
  pc.header.v[at + 1u] = rows;
  pc.header.v[at + 2u] = 1u;
}
// The same at dispatch slot `which` (kDispatch*).
void writeDispatch(uint which, uint groups) { writeGrid(kHeaderDispatch + which * 4u, groups); }

// The workgroups of every portion's binning dispatch for `keys` keys: the tiles of the largest
// portion. Workgroups past a smaller portion's tiles only clear look-back words and leave.
uint binningGroups(uint keys) { return min(divideUp(keys, pc.tileKeys), pc.portionKeys / pc.tileKeys); }

#endif  // VKSORT_DISPATCH_GRID_GLSL
