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

// The kernel's hooks (binning_switches.glsl, lookback.glsl, lookback_fallback.glsl).
#define BINNING_KERNEL VKSORT_ONESWEEP_PASS
#include "plain_elements.glsl"
#define LOOKBACK_STATUS pc.status
#define PASS_INDEX pc.pass
#define PASS_MOVING s_movingPasses
#define KEYS_MAPPED_ONCE  // every pass of a sort is this kernel's (pass_route.glsl)
uint g_tile;               // the tile this workgroup works on
uint g_pendingTicket;      // thread 0's next ticket (EARLY_TICKET), in flight during the count
shared uint s_nextTicket;  // that ticket, out behind countTile's barrier
#define ON_TILE_COUNT(digit, count) publishCount(g_tile, digit, count)
#define BEFORE_COUNT_BARRIER() if (EARLY_TICKET && gl_LocalInvocationIndex == 0u) s_nextTicket = g_pendingTicket
#include "binning_switches.glsl"
// Persistent tiles: the tuning's choice, measured on NVIDIA only. On lavapipe the loop hung at
// 300k keys and more with 2 threads (one thread spinning, the other idle; with the next ticket
// taken after the look-back it did not): where it is off, a workgroup sorts one tile.
#include "lookback.glsl"
#include "tile_tickets.glsl"
// The hot digit (HOT_DIGITS, HOT_RANKING; the scan's class of the pass): the count takes a
// subgroup's keys of it with one atomic per step rather than one per lane on one word
// (countDigits()); a crowded pass is counted with its tests (countIntoRows()); a pass classed
// kPassHotRanked also has a step's lanes of it take their places by one atomic, not one each,
// whose lanes on one word serialize (binning_rank_atomics.glsl).
// Pairs that prefetch (PREFETCH_PAIRS; NVIDIA's 512 x 18 tiles): each tile's values (unless they
// ride with the keys) and the next tile's keys are touched into L2 while the tile is counted,
// looked back and ranked (one load per 32-byte sector), so that their loads then hit L2.
const uint kLimitedTiles = 8u;  // tiles per workgroup at most where loops are limited (main())
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
  if (acc == 0x9E3779B9u) atomicOr(pc.tickets.v[pc.ticketCounter], 0u);  // changes nothing
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

// The pass's hot digit for the count (kRadix: none; kCrowdedPass: one digit holds nearly every
// key, counted with its tests), and t_hotRankDigit for the ranking: the scan's class of the pass.
uint passHotDigit() {
  uint hotDigit = kRadix;
  if (HOT_DIGITS) {
    uint word = pc.header.v[kHeaderPassClasses + pc.pass], digit = word & 0xFFu;
    uint passClass = (word >> kPassClassShift) & 0xFFu;
    bool hot = passClass == kPassHotCounted || passClass == kPassHotRanked;
    if (HOT_RANKING && passClass == kPassHotRanked) t_hotRankDigit = digit;
    if (COUNT_TAKES_HOT_DIGIT) {
      if (hot) hotDigit = digit;
      else if (passClass == kPassCrowded) hotDigit = kCrowdedPass;
    }
  }
  return hotDigit;
}

// Each digit's global position of the tile's first key of that digit: its bin start (`binRow`)
// plus its count in the portion's earlier tiles, by the look-back. Before the ranking: the
// subgroups that look back rank later, the others rank meanwhile, and the prefix goes out while
// successors still count (their walks stay short). The portion's last tile leaves the next
// portion's bin starts.
void findDestinations(uint binRow, uint portion, uint tileCount) {
  for (uint d = gl_LocalInvocationIndex; d < kRadix; d += WG) {
    uint binStart = pc.header.v[binRow + d];
    uint before = lookBack(g_tile, d, tileDigitCount(d));
    s_digitDest[d] = binStart + before - tileDigitStart(d);
    if (g_tile == tileCount - 1u)
      pc.header.v[kHeaderPortionStarts + ((portion + 1u) % 2u) * kRadix + d] = binStart + before + tileDigitCount(d);
  }
}

// The next ticket of a persistent workgroup, taken before this tile's prefix is out (the next
// tile then waits only on others): after the count, or with EARLY_TICKET before it (thread 0's,
// in flight during the count), the next tile's keys then touched into L2 (into `touched`, for
// sinkTouched()). `lastTile`: take none (PATIENT_WAITS' limit).
void takeNextTicket(bool lastTile, uint tileCount, uint portionKeys, uint tile, inout uint touched) {
  if (PERSISTENT_TILES && !EARLY_TICKET) {
    if (!lastTile) takeTicket();
    else if (gl_LocalInvocationIndex == 0u) s_ticket = tileCount;
  }
  if (EARLY_TICKET && s_nextTicket < tileCount) {
    uint early = s_nextTicket;
    touched ^= touchRange(addressAt(uvec2(pc.keysIn), early * tile, KEY_LOG2_BYTES), min(tile, portionKeys - early * tile) << KEY_LOG2_BYTES);
  }
}

// A pass whose digit is the same for every key does nothing, or copies the tile (pass_route.glsl;
// every tile has a workgroup of the grid, each with one ticket).
void passWithoutBins(uint work, uint tile, uint portionKeys) {
  uint first = g_tile * tile, at = pc.portionStart + first;  // in this portion, in all keys
  if (work == kPassCopies)
    copyTile(addressAt(uvec2(pc.keysIn), first, KEY_LOG2_BYTES), addressAt(uvec2(pc.keysOut), at, KEY_LOG2_BYTES),
             addressAt(uvec2(pc.valsIn), first, valueLog2Bytes()), addressAt(uvec2(pc.valsOut), at, valueLog2Bytes()),
             min(tile, portionKeys - first));
}

// The pass, per tile: ticket, load, count (publishing the counts), next ticket, look-back,
// rank, scatter while the next tile loads. Where the driver ends an invocation's loops after
// 65535 turns in all (PATIENT_WAITS: llvmpipe, patient_wait.glsl), a workgroup stops taking
// tickets after kLimitedTiles tiles: the grid has a workgroup per tile, each takes one ticket at
// least, so every tile is taken.
void main() {
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
  uint work = passWork(pc.pass, s_movingPasses);
  if (work != kPassBins) {
    passWithoutBins(work, tile, portionKeys);
    return;
  }
  // Bin starts: the scanned histogram for a pass's first portion, else what the previous
  // portion's last tile wrote.
  uint portion = pc.portionStart / pc.portionKeys;
  uint binRow = portion == 0u ? kHeaderHist + pc.pass * kRadix : kHeaderPortionStarts + (portion % 2u) * kRadix;
  uvec2 keysIn = uvec2(pc.keysIn);
  uint hotDigit = passHotDigit();
  loadTile(addressAt(keysIn, g_tile * tile, KEY_LOG2_BYTES), min(tile, portionKeys - g_tile * tile));
  if (RIDING_VALUES) loadRidingValues(addressAt(uvec2(pc.valsIn), g_tile * tile, 2u), pc.portionStart + g_tile * tile, t_count);

  bool counted = false;  // the tile's keys in the counter rows already (EARLY_NEXT_COUNT)
  uint tilesTaken = 0u;
  for (;;) {
    if (PATIENT_WAITS) ++tilesTaken;
    bool lastTile = PATIENT_WAITS && tilesTaken >= kLimitedTiles;  // take no next ticket
    uint tileStart = g_tile * tile;
    g_tileFirstIndex = pc.portionStart + tileStart;
    uint touched = 0u;
    if (EARLY_TICKET) {
      if (!RIDING_VALUES && !passIndexValues()) touched = touchRange(addressAt(uvec2(pc.valsIn), tileStart, valueLog2Bytes()), t_count << valueLog2Bytes());
      if (gl_LocalInvocationIndex == 0u) g_pendingTicket = lastTile ? tileCount : ticket();
    }
    countTile(pc.shift, hotDigit, counted);  // publishes the tile's counts (ON_TILE_COUNT)
    takeNextTicket(lastTile, tileCount, portionKeys, tile, touched);
    findDestinations(binRow, portion, tileCount);
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
