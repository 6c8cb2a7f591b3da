// Reduce-then-scan, last kernel of a pass: each workgroup ranks its tile again and scatters it to
// the positions tile_scan.comp left in the tile table (pc.status): the first key of digit d of
// tile t goes to table[d * tiles + t]. The same tile work as Onesweep's, with a table lookup in
// place of the look-back. With PERSISTENT_TILES a workgroup takes tiles while tickets last and
// loads the next while it scatters (tile_tickets.glsl); it never waits on another workgroup.
//   reads keysIn/valsIn [tile range], the table; writes keysOut/valsOut
#include "common.glsl"

// The kernel's hooks (binning_switches.glsl).
#define BINNING_KERNEL VKSORT_DOWNSWEEP
#include "plain_elements.glsl"
#define PASS_INDEX pc.pass
#define PASS_MOVING s_movingPasses
#define ON_TILE_COUNT(digit, count)
#define BEFORE_COUNT_BARRIER()
#include "binning_switches.glsl"
#include "tile_tickets.glsl"
#include "binning_next_tile.glsl"

void main() {
  uint tid = gl_LocalInvocationIndex;
  uint count = sortCount();
  uint tiles = divideUp(count, TILE);
  if (PERSISTENT_TILES) takeTicket();
  readMovingPasses();
  clearTileCounts();
  barrier();
  uint tile = PERSISTENT_TILES ? s_ticket : flatWorkGroupId();
  if (tile >= tiles) return;
  // A pass whose digit is the same for every key does nothing, or copies its tile (pass_route.glsl;
  // every tile has a workgroup of the grid, each with one ticket).
  uint work = passWork(pc.pass, s_movingPasses);
  if (work != kPassBins) {
    uint first = tile * TILE;
    if (work == kPassCopies)
      copyTile(addressAt(uvec2(pc.keysIn), first, KEY_LOG2_BYTES), addressAt(uvec2(pc.keysOut), first, KEY_LOG2_BYTES),
               addressAt(uvec2(pc.valsIn), first, valueLog2Bytes()), addressAt(uvec2(pc.valsOut), first, valueLog2Bytes()),
               min(TILE, count - first));
    return;
  }
  uvec2 keysIn = uvec2(pc.keysIn);
  loadTile(addressAt(keysIn, tile * TILE, KEY_LOG2_BYTES), min(TILE, count - tile * TILE));
  if (RIDING_VALUES) loadRidingValues(addressAt(uvec2(pc.valsIn), tile * TILE, 2u), tile * TILE, t_count);
  bool counted = false;  // the tile's keys in the counter rows already (EARLY_NEXT_COUNT)
  for (;;) {
    g_tileFirstIndex = tile * TILE;
    countTile(pc.shift, kRadix, counted);  // no histogram before: no hot digit known
    if (PERSISTENT_TILES) takeTicket();
    // The table's positions are asked for before the ranking, used after it.
    uint firstDest = tid < kRadix ? pc.status.v[tid * tiles + tile] : 0u;
    rankTile(pc.shift);
    if (tid < kRadix) s_digitDest[tid] = firstDest - tileDigitStart(tid);
    for (uint d = tid + WG; d < kRadix; d += WG) s_digitDest[d] = pc.status.v[d * tiles + tile] - tileDigitStart(d);
    barrier();
    uint next = PERSISTENT_TILES ? s_ticket : tiles;
    bool more = next < tiles;
    uvec2 nextAt = addressAt(keysIn, next * TILE, KEY_LOG2_BYTES);
    uint nextCount = more ? min(TILE, count - next * TILE) : 0u;
    SCATTER_THEN_NEXT_TILE(tile * TILE, more, next * TILE, nextAt, nextCount, kRadix, counted)
    tile = next;
  }
}
