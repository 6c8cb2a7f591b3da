// Onesweep binning pass (Adinets & Merrill 2022): one sweep moves every key (and value) of a
// portion to its place for this pass's digit. Compiled per ranking and key width: onesweep.comp
// ranks with ballots (any device), onesweep_partitioned.comp with subgroupPartitionNV; the
// *64.comp forms take 64-bit keys. Per tile (binning.glsl does the tile's work):
//   1. take a tile ticket (tiles are numbered in the order workgroups start, never by
//      gl_WorkGroupID, so the look-back only ever waits on running workgroups); clear a share of
//      the next dispatch's look-back words;
//   2. load the tile and count its digits; publish the counts at once;
//   3. look back for the global digit offsets (lookback.glsl), while subgroups that do not look
//      back rank the keys into shared memory; then the others rank theirs;
//   4. scatter keys, then values.
// Reads keysIn/valsIn [tile range], header bin starts and ticket, status of predecessors.
// Writes keysOut/valsOut, this tile's status words, statusNext rows (cleared), and, from the
// portion's last tile, the next portion's bin starts.
#include "common.glsl"

layout(local_size_x_id = 0) in;
#include "lookback.glsl"
shared uint s_ticket;
#define ON_TILE_COUNT(digit, count) publishCount(s_ticket, digit, count)
#include "binning.glsl"

void main() {
  uint tid = gl_LocalInvocationIndex;
  if (tid == 0u) {
    s_ticket = atomicAdd(pc.tickets.v[pc.dispatchIndex], 1u);
  }
  clearTileCounts();
  barrier();
  uint tile = s_ticket;
  uint keyCount = sortCount();
  uint portionKeys = keyCount > pc.portionStart ? min(keyCount - pc.portionStart, pc.portionKeys) : 0u;
  uint tileCount = divideUp(portionKeys, TILE);

  // The next dispatch's look-back words: rows [0, tiles of the largest portion), shared out over
  // every workgroup of this one (each took one ticket), however few tiles this portion has.
  if ((pc.flags & kFlagClearNext) != 0u) {
    uint statusTiles = min(divideUp(keyCount, TILE), pc.portionKeys / TILE);
    uint workgroups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    for (uint r = tile; r < statusTiles; r += workgroups)
      for (uint d = tid; d < kRadix; d += WG) pc.statusNext.v[r * kRadix + d] = 0u;
  }
  if (tile >= tileCount) return;  // a spare workgroup (2D grid, indirect grid, empty portion)
  uint tileStart = tile * TILE;
  // Bin starts: the scanned histogram for a pass's first portion, else what the previous
  // portion's last tile wrote.
  uint portion = pc.portionStart / pc.portionKeys;
  uint binRow = portion == 0u ? kHeaderHist + pc.pass * kRadix : kHeaderPortionStarts + (portion % 2u) * kRadix;

  loadTile(addressAt(uvec2(pc.keysIn), tileStart, KEY_LOG2_BYTES), min(TILE, portionKeys - tileStart));
  countTile(pc.shift);  // publishes the tile's counts (ON_TILE_COUNT)

  // The global position of the tile's first key of each digit: its bin start plus its count in
  // the portion's earlier tiles. Before the ranking: the subgroups that look back rank later,
  // the others rank meanwhile, and the prefix goes out while successors still count (their walks
  // stay short). The portion's last tile leaves the next portion's bin starts.
  for (uint d = tid; d < kRadix; d += WG) {
    uint binStart = pc.header.v[binRow + d];
    uint before = lookBack(tile, d, s_digitCount[d]);
    s_digitDest[d] = binStart + before - s_digitScan[d];
    if (tile == tileCount - 1u)
      pc.header.v[kHeaderPortionStarts + ((portion + 1u) % 2u) * kRadix + d] = binStart + before + s_digitCount[d];
  }
  rankTile(pc.shift);
  barrier();

  scatterKeys(uvec2(pc.keysOut), pc.shift);
  if (VALUE_WORDS != 0u)
    scatterValues(addressAt(uvec2(pc.valsIn), tileStart, valueLog2Bytes()), uvec2(pc.valsOut));
}
