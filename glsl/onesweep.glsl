// Onesweep binning pass (Adinets & Merrill 2022): one sweep moves every key (and value) of a
// portion to its place for this pass's digit. With PERSISTENT_TILES a workgroup works on tiles
// while tickets last, and loads its next tile while it scatters the current one
// (tile_tickets.glsl). Compiled per
// ranking and key width: onesweep.comp ranks with ballots (any device),
// onesweep_partitioned.comp with subgroupPartitionNV; the *64.comp forms take 64-bit keys.
// Per tile (the binning_*.glsl phases do the tile's work):
//   1. a tile ticket (tiles are numbered in the order workgroups ask, never by gl_WorkGroupID,
//      so the look-back only ever waits on running workgroups); the first tickets also clear a
//      share of the next dispatch's look-back words;
//   2. load the tile (with RIDING_VALUES its values too) and count its digits (the pass's hot
//      digit a subgroup at a time); publish the counts at once; ask for the next ticket
//      (PERSISTENT_TILES; with PREFETCH_PAIRS before the count, and the tile's values, unless
//      they ride, and the next tile's keys touched into L2);
//   3. look back for the global digit offsets (lookback.glsl), while subgroups that do not look
//      back rank the keys into shared memory; then the others rank theirs;
//   4. load the next ticket's tile (keys alone: before the scatter, to overlap it); scatter keys,
//      then values.
// Reads keysIn/valsIn [tile range], header bin starts and ticket, status of predecessors.
// Writes keysOut/valsOut, this tile's status words, statusNext rows (cleared), and, from the
// portion's last tile, the next portion's bin starts.
#include "common.glsl"

layout(local_size_x_id = VKSORT_SPEC_WORKGROUP_SIZE) in;
// Tile after tile while tickets last (PERSISTENT_TILES: the tuning's choice; measured on NVIDIA
// only). On lavapipe the loop hung at 300k keys and more with 2 threads (one thread spinning, the
// other idle; with the next ticket taken after the look-back it did not): where it is off, a
// workgroup sorts one tile, as before.
#include "lookback.glsl"
#include "tile_tickets.glsl"
uint g_tile;            // the tile this workgroup works on
// Pairs (the tuning's choice per tier; NVIDIA's 512 x 18 tiles): each tile's values (unless they
// ride with the keys: RIDING_VALUES, binning_tile.glsl), and the next tile's keys, are touched into L2
// while the tile is counted, looked back and ranked (one load per 32-byte sector): their loads
// then hit L2. The next ticket is taken before the count to know that tile in time.
layout(constant_id = VKSORT_SPEC_PREFETCH_PAIRS) const bool PREFETCH_PAIRS = false;
// A pass's most frequent digit, where it holds HOT_DIGIT_FROM to HOT_DIGIT_TO percent of the keys
// (the tuning's, per tile shape; HOT_DIGIT_FROM 0: never), is counted a subgroup at a time
// (countDigits()): one atomic per subgroup step rather than one per lane on one word. Above
// HOT_DIGIT_TO: kCrowdedPass (binning_count.glsl's countIntoRows()).
layout(constant_id = VKSORT_SPEC_HOT_DIGIT_FROM) const uint HOT_DIGIT_FROM = 0u;
layout(constant_id = VKSORT_SPEC_HOT_DIGIT_TO) const uint HOT_DIGIT_TO = 100u;
// A hot digit of up to HOT_RANK_TO percent of the keys (the tuning's hotRankTo; 0: never) is
// ranked by one atomic per step of its lanes (binning_tile.glsl's HOT_RANKING): where nearly every
// key has the digit, a subgroup's atomics on one word cost about one.
layout(constant_id = VKSORT_SPEC_HOT_RANK_TO) const uint HOT_RANK_TO = 0u;
#define VKSORT_KERNEL_NAMES_HOT_DIGITS
#define EARLY_TICKET (PERSISTENT_TILES && PREFETCH_PAIRS && VALUE_WORDS != 0u)  // binning_tile.glsl has VALUE_WORDS
uint g_pendingTicket;      // thread 0's next ticket (EARLY_TICKET), in flight during the count
const uint kLimitedTiles = 8u;  // tiles per workgroup at most where loops are limited (main())
shared uint s_nextTicket;  // that ticket, out behind countTile's barrier
#define ON_TILE_COUNT(digit, count) publishCount(g_tile, digit, count)
#define BEFORE_COUNT_BARRIER() if (EARLY_TICKET && gl_LocalInvocationIndex == 0u) s_nextTicket = g_pendingTicket
#include "binning_next_tile.glsl"
// The keys of this dispatch's portion, for the look-back's fallback (main() computes its own from
// the count it has: recomputed here only on the fallback's path).
uint portionKeyCount() {
  uint keyCount = sortCount();
  return keyCount > pc.portionStart ? min(keyCount - pc.portionStart, pc.portionKeys) : 0u;
}
#define FALLBACK_KEYS uvec2(pc.keysIn)
#define FALLBACK_TILE_KEYS tileKeys()
#define FALLBACK_KEY_COUNT portionKeyCount()
#define FALLBACK_SHIFT pc.shift
#include "lookback_fallback.glsl"

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer TouchWords { uint v[]; };
// One word of every 32-byte sector of `bytes` at `at` (at most a tile of 64-bit elements), xor-ed;
// the result goes to sinkTouched() (a load whose value is unused would be dropped), late: the
// loads are not waited for before. A fixed number of steps, unrolled: as a loop to `bytes` the
// driver made it spill registers at the large tiles' register cap.
const uint TOUCH_STEPS = (TILE * 8u / 32u + WG - 1u) / WG;
uint touchRange(uvec2 at, uint bytes) {
  uint acc = 0u;
  [[unroll]] for (uint k = 0u; k < TOUCH_STEPS; ++k) {
    uint b = (gl_LocalInvocationIndex + k * WG) * 32u;
    if (b < bytes) acc ^= TouchWords(at).v[b / 4u];
  }
  return acc;
}
void sinkTouched(uint acc) {
  if (acc == 0x9E3779B9u) atomicOr(pc.tickets.v[pc.dispatchIndex], 0u);  // changes nothing
}

// The next dispatch's look-back words: rows [0, tiles of the largest portion), shared out over
// the first tickets (one per workgroup of the grid: every workgroup takes at least one, so
// all of them are taken), however few tiles this portion has.
void clearNextStatus(uint ticket, uint keyCount) {
  uint workgroups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
  if ((pc.flags & kFlagClearNext) == 0u || ticket >= workgroups) return;
  uint statusTiles = min(divideUp(keyCount, tileKeys()), pc.portionKeys / tileKeys());
  for (uint r = ticket; r < statusTiles; r += workgroups)
    for (uint d = gl_LocalInvocationIndex; d < kRadix; d += WG) pc.statusNext.v[r * kRadix + d] = 0u;
}

void main() {
  uint tid = gl_LocalInvocationIndex;
  takeTicket();
  readMovingPasses();
  clearTileCounts();
  barrier();
  g_tile = s_ticket;
  uint keyCount = sortCount();
  uint portionKeys = keyCount > pc.portionStart ? min(keyCount - pc.portionStart, pc.portionKeys) : 0u;
  uint tile = tileKeys();  // TILE, or with RUNTIME_TILE fitted to whole waves
  uint tileCount = divideUp(portionKeys, tile);
  clearNextStatus(g_tile, keyCount);
  if (g_tile >= tileCount) return;  // a spare workgroup (2D grid, indirect grid, empty portion)
  // A pass whose digit is the same for every key does nothing, or copies its tile (pass_route.glsl;
  // every tile has a workgroup of the grid, each with one ticket).
  uint work = passWork(pc.pass, s_movingPasses);
  if (work != kPassBins) {
    uint first = g_tile * tile, at = pc.portionStart + first;  // in this portion, in all keys
    if (work == kPassCopies)
      copyTile(addressAt(uvec2(pc.keysIn), first, KEY_LOG2_BYTES), addressAt(uvec2(pc.keysOut), at, KEY_LOG2_BYTES),
               addressAt(uvec2(pc.valsIn), first, valueLog2Bytes()), addressAt(uvec2(pc.valsOut), at, valueLog2Bytes()),
               min(tile, portionKeys - first));
    return;
  }
  // Bin starts: the scanned histogram for a pass's first portion, else what the previous
  // portion's last tile wrote.
  uint portion = pc.portionStart / pc.portionKeys;
  uint binRow = portion == 0u ? kHeaderHist + pc.pass * kRadix : kHeaderPortionStarts + (portion % 2u) * kRadix;
  uvec2 keysIn = uvec2(pc.keysIn);
  uint hotDigit = kRadix;
  if (HOT_DIGIT_FROM != 0u) {
    uint top = pc.header.v[kHeaderTopDigits + pc.pass], share = top >> 8u;  // the scan kernel's
    bool hot = share * 100u >= HOT_DIGIT_FROM * kTopShareOne && share * 100u <= HOT_DIGIT_TO * kTopShareOne;
    if (hot && share * 100u <= HOT_RANK_TO * kTopShareOne) t_hotRankDigit = top & 0xFFu;
    // Tiles that rank first with HOT_RANKING count by their ranking: their count takes neither
    // the hot digit nor a crowded pass.
    if (!(RANK_FIRST && HOT_RANKING)) {
      if (hot) hotDigit = top & 0xFFu;
      else if (share * 100u > HOT_DIGIT_TO * kTopShareOne) hotDigit = kCrowdedPass;
    }
  }
  loadTile(addressAt(keysIn, g_tile * tile, KEY_LOG2_BYTES), min(tile, portionKeys - g_tile * tile));
  if (RIDING_VALUES) loadRidingValues(addressAt(uvec2(pc.valsIn), g_tile * tile, 2u), t_count);

  // Tile after tile while tickets last: the next tile's keys load while this one scatters.
  // Where the driver ends an invocation's loops after 65535 turns in all (PATIENT_WAITS:
  // llvmpipe, patient_wait.glsl), a workgroup stops taking tickets after kLimitedTiles tiles:
  // the grid has a workgroup per tile, each takes one ticket at least, so every tile is taken.
  bool counted = false;  // the tile's keys in the counter rows already (EARLY_NEXT_COUNT)
  uint tilesTaken = 0u;
  for (;;) {
    if (PATIENT_WAITS) ++tilesTaken;
    bool lastTile = PATIENT_WAITS && tilesTaken >= kLimitedTiles;  // take no next ticket
    uint tileStart = g_tile * tile;
    uint touched = 0u;
    if (EARLY_TICKET) {
      if (!RIDING_VALUES) touched = touchRange(addressAt(uvec2(pc.valsIn), tileStart, valueLog2Bytes()), t_count << valueLog2Bytes());
      if (tid == 0u) g_pendingTicket = lastTile ? tileCount : ticket();
    }
    countTile(pc.shift, hotDigit, counted);  // publishes the tile's counts (ON_TILE_COUNT)
    // Before our prefix is out: our next tile waits only on others.
    if (PERSISTENT_TILES && !EARLY_TICKET) {
      if (!lastTile) takeTicket();
      else if (tid == 0u) s_ticket = tileCount;
    }
    if (EARLY_TICKET && s_nextTicket < tileCount) {
      uint early = s_nextTicket;
      touched ^= touchRange(addressAt(keysIn, early * tile, KEY_LOG2_BYTES), min(tile, portionKeys - early * tile) << KEY_LOG2_BYTES);
    }

    // The global position of the tile's first key of each digit: its bin start plus its count
    // in the portion's earlier tiles. Before the ranking: the subgroups that look back rank
    // later, the others rank meanwhile, and the prefix goes out while successors still count
    // (their walks stay short). The portion's last tile leaves the next portion's bin starts.
    for (uint d = tid; d < kRadix; d += WG) {
      uint binStart = pc.header.v[binRow + d];
      uint before = lookBack(g_tile, d, tileDigitCount(d));
      s_digitDest[d] = binStart + before - tileDigitStart(d);
      if (g_tile == tileCount - 1u)
        pc.header.v[kHeaderPortionStarts + ((portion + 1u) % 2u) * kRadix + d] = binStart + before + tileDigitCount(d);
    }
    rankTile(pc.shift);
    sinkTouched(touched);
    barrier();
    uint next = !PERSISTENT_TILES ? tileCount : EARLY_TICKET ? s_nextTicket : s_ticket;
    if (PERSISTENT_TILES && !lastTile) clearNextStatus(next, keyCount);  // a ticket this workgroup consumed
    bool more = next < tileCount;
    uvec2 nextAt = addressAt(keysIn, next * tile, KEY_LOG2_BYTES);
    uint nextCount = more ? min(tile, portionKeys - next * tile) : 0u;
    SCATTER_THEN_NEXT_TILE(tileStart, more, next * tile, nextAt, nextCount, hotDigit, counted)
    g_tile = next;
  }
}
