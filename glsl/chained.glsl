// Every pass of a sort in one dispatch: Onesweep's kernels chained by tickets, for the direct
// sorts of up to the tuning's chainedUpTo keys (64-bit: half; above the one-workgroup sort's),
// where each dispatch boundary of the full sort (histogram, scan, one binning dispatch per pass)
// costs more than the work between two. Workgroups take tickets in order, one each, across phases:
//   [0, H)                   histogram workgroups: every pass's digit counts of
//                            pc.histogramGroupKeys keys into the header (atomic adds), and pass
//                            0's look-back rows of their tiles cleared; the last of them scans
//                            each pass's counts into bin starts (the scan kernel's work) and
//                            opens pass 0;
//   [H + p T, H + (p + 1) T)  pass p's T binning tiles, once pass p is open: count, look-back,
//                            rank, scatter as onesweep.glsl's; each then clears its look-back row
//                            of pass p + 1 and counts itself done, and the last opens pass p + 1.
// A workgroup waits only on tickets taken before its own, held by workgroups that run: the
// forward progress Onesweep's look-back assumes, no more. Passes alternate between the two
// look-back regions (pc.status, pc.statusNext) and between the two key and value buffers (pass
// p reads pc.keysIn where p is even, pc.keysOut where odd; a pass whose digit is the same for
// every key moves nothing, or copies: pass_route.glsl), and read what other workgroups of
// the dispatch wrote: through coherent references, each phase's writes made visible before its
// workgroups count themselves done (memoryBarrierBuffer, then an atomic; the waiting side reads
// the count with atomics).
//   reads:  keys/values (the caller's and the scratch copies), header
//   writes: header histograms and bin starts, the kChain* counters, status words, keys/values
#include "common.glsl"

// The kernel's hooks (binning_switches.glsl, lookback.glsl, lookback_fallback.glsl): coherent
// references (workgroups read what others of the dispatch wrote), and two look-back regions.
DECLARE_ELEMENT_REFERENCES(coherent, ChainedKeysIn, ChainedKeysOut, ChainedValsIn, ChainedValsOut, ChainedValsIn64,
                           ChainedValsOut64)
#define BINNING_KERNEL VKSORT_CHAINED
#define KEYS_IN ChainedKeysIn
#define KEYS_OUT ChainedKeysOut
#define VALS_IN ChainedValsIn
#define VALS_IN64 ChainedValsIn64
#define VALS_OUT ChainedValsOut
#define VALS_OUT64 ChainedValsOut64
bool g_oddPass;  // this pass's look-back words: pc.statusNext where odd
uint g_pass;     // the pass of this workgroup's tile (the look-back's fallback, the pass forms)
#define PASS_INDEX g_pass
shared uint s_passMoving;  // the moving passes, from waitForPass()
#define PASS_MOVING s_passMoving
#define LOOKBACK_STATUS (g_oddPass ? pc.statusNext : pc.status)
uint g_tile;
#define ON_TILE_COUNT(digit, count) publishCount(g_tile, digit, count)
#define BEFORE_COUNT_BARRIER()
#include "binning_switches.glsl"
#include "lookback.glsl"
#include "binning_next_tile.glsl"
#define FALLBACK_KEYS (g_oddPass ? uvec2(pc.keysOut) : uvec2(pc.keysIn))
#define FALLBACK_TILE_KEYS TILE
#define FALLBACK_KEY_COUNT pc.count
#define FALLBACK_SHIFT (pc.shift + g_pass * kRadixBits)
#include "lookback_fallback.glsl"

shared uint s_chainTicket;
shared bool s_lastHistogram;
shared uint s_moving;  // the last histogram workgroup's: the passes that move keys

// The workgroup waits until pass `pass` opens (thread 0 spins: with every invocation spinning
// the producers' increments queue behind the reads), then reads what the workgroups counted
// there wrote. Until it knows what every pass does (kHeaderPassWork, written before pass 0
// opens), each turn also reads that, in flight beside the count, so that the turn that sees the
// pass open seldom waits for it. Returns what pass `pass` does (kPass*).
shared uint s_passWork;
uint waitForPass(uint pass, uint tiles) {
  uint target = pass == 0u ? 1u : tiles;
  if (gl_LocalInvocationIndex == 0u) {
    uint work = 0u;
    for (uint seen = 0u; seen < target;) {
      seen = atomicOr(pc.tickets.v[kChainPassOpen + pass], 0u);
      if ((work & kPassWorkKnown) == 0u) work = atomicOr(pc.header.v[kHeaderPassWork], 0u);
      PATIENT_TURN(seen, atomicOr(pc.tickets.v[kChainPassOpen + pass], 0u), seen < target)
    }
    memoryBarrierBuffer();
    if ((work & kPassWorkKnown) == 0u) work = atomicOr(pc.header.v[kHeaderPassWork], 0u);  // read too early
    s_passWork = passWork(pass, work & 0xFFu, work >> 8u);
    s_passMoving = work & 0xFFu;
  }
  barrier();
  memoryBarrierBuffer();
  return s_passWork;
}

// Makes the workgroup's writes visible, then counts it at `counter`; thread 0 gets the count
// before.
uint countDone(uint counter) {
  memoryBarrierBuffer();
  barrier();
  return gl_LocalInvocationIndex == 0u ? atomicAdd(pc.tickets.v[counter], 1u) : 0u;
}

// Header cells (a full key's passes x digits) each invocation of the last histogram workgroup
// scans.
const uint SCANNED_PER_INVOCATION = (kKeyWords * 4u * kRadix + WG - 1u) / WG;

// Histogram workgroup `group` of `groups`: its keys' digit counts of every pass, in s_tile (the
// tuning keeps a tile of at least a full key's passes of counters). Its own loop, not
// histogram.glsl's (eight loads in flight, passes unrolled), which measured slower here
// (PERFORMANCE-LOG.md).
void histogramGroup(uint group, uint groups, uint count, uint tiles) {
  uint tid = gl_LocalInvocationIndex;
  uint counters = pc.passCount * kRadix;
  for (uint i = tid; i < counters; i += WG) s_tile[i] = 0u;
  uint groupTiles = pc.histogramGroupKeys / TILE;
  uint firstTile = group * groupTiles, lastTile = min(firstTile + groupTiles, tiles);
  for (uint i = firstTile * kRadix + tid; i < lastTile * kRadix; i += WG) pc.status.v[i] = 0u;
  barrier();
  uint begin = firstTile * TILE, end = min(count, lastTile * TILE) - begin;
  KEYS_IN keys = KEYS_IN(addressAt(uvec2(pc.keysIn), begin, KEY_LOG2_BYTES));
  for (uint base = tid; base < end; base += WG * KPI) {
    KeyT k[KPI];  // every load in flight before the counts
    [[unroll]] for (uint u = 0u; u < KPI; ++u) k[u] = base + u * WG < end ? keys.v[base + u * WG] : KeyT(0u);
    [[unroll]] for (uint u = 0u; u < KPI; ++u) {
      if (base + u * WG >= end) continue;
      KeyT bits = orderedBits(k[u]);
      for (uint p = 0u; p < pc.passCount; ++p) atomicAdd(s_tile[p * kRadix + digitOfBits(bits, pc.shift + p * kRadixBits)], 1u);
    }
  }
  barrier();
  for (uint i = tid; i < counters; i += WG)
    if (s_tile[i] != 0u) atomicAdd(pc.header.v[kHeaderHist + i], s_tile[i]);
  uint before = countDone(kChainHistogramDone);
  if (tid == 0u) {
    s_lastHistogram = before + 1u == groups;
    s_moving = (1u << pc.passCount) - 1u;
  }
  barrier();
  if (!s_lastHistogram) return;
  memoryBarrierBuffer();
  // The last one: every pass's counts (atomic reads, since others added them; all of an
  // invocation's in flight at once) into bin starts, by one scan over the passes' rows end to end:
  // each row sums to the count, so a row's starts are the running sum less count per row before.
  // (Row by row, each pass costs a read's round trip and a scan's barriers while every tile of
  // pass 0 waits.)
  uint cells = pc.passCount * kRadix;
  uint own[SCANNED_PER_INVOCATION];
  [[unroll]] for (uint e = 0u; e < SCANNED_PER_INVOCATION; ++e) {
    uint at = tid * SCANNED_PER_INVOCATION + e;
    own[e] = at < cells ? atomicOr(pc.header.v[kHeaderHist + at], 0u) : 0u;
  }
  // A pass whose one digit holds every key moves nothing (the scan kernel's test).
  bool skipConstant = (pc.flags & kFlagSkipConstantPasses) != 0u;
  [[unroll]] for (uint e = 0u; e < SCANNED_PER_INVOCATION; ++e) {
    uint at = tid * SCANNED_PER_INVOCATION + e;
    if (skipConstant && at < cells && own[e] == count) atomicAnd(s_moving, ~(1u << (at / kRadix)));
  }
  uint sum = 0u, total;
  [[unroll]] for (uint e = 0u; e < SCANNED_PER_INVOCATION; ++e) sum += own[e];
  uint running = workgroupExclusiveAdd(sum, total);  // (its barrier: s_moving is complete)
  // The moving passes, in the header for the copy-back, and with those that run for every pass's
  // workgroups; made visible with the bin starts, before pass 0 opens.
  if (tid == 0u) {
    uint moving = movingPasses(s_moving);
    pc.header.v[kHeaderMovingPasses] = moving;
    atomicOr(pc.header.v[kHeaderPassWork], moving | (runningPasses(moving) << 8u) | kPassWorkKnown);
  }
  [[unroll]] for (uint e = 0u; e < SCANNED_PER_INVOCATION; ++e) {
    uint at = tid * SCANNED_PER_INVOCATION + e;
    if (at < cells) pc.header.v[kHeaderHist + at] = running - (at / kRadix) * count;
    running += own[e];
  }
  countDone(kChainPassOpen);
}

// Binning tile `tile` of `tiles` of pass `pass`, once the pass is open.
void passTile(uint pass, uint tile, uint count, uint tiles) {
  uint tid = gl_LocalInvocationIndex;
  uint work = waitForPass(pass, tiles);
  bool odd = (pass & 1u) != 0u;
  uvec2 keysIn = odd ? uvec2(pc.keysOut) : uvec2(pc.keysIn), keysOut = odd ? uvec2(pc.keysIn) : uvec2(pc.keysOut);
  uvec2 valsIn = odd ? uvec2(pc.valsOut) : uvec2(pc.valsIn), valsOut = odd ? uvec2(pc.valsIn) : uvec2(pc.valsOut);
  g_oddPass = odd;
  g_pass = pass;  // (the pass forms' PASS_INDEX)
  {
    Status next = odd ? pc.status : pc.statusNext;
    for (uint d = tid; d < kRadix; d += WG) atomicExchange(next.v[tile * kRadix + d], 0u);
  }
  // A pass whose digit is the same for every key does nothing, or copies its tile; either way
  // it counts itself done, and the next pass opens (pass_route.glsl).
  uint tileStart = tile * TILE;
  if (work != kPassBins) {
    if (work == kPassCopies)
      copyTile(addressAt(keysIn, tileStart, KEY_LOG2_BYTES), addressAt(keysOut, tileStart, KEY_LOG2_BYTES),
               addressAt(valsIn, tileStart, valueLog2Bytes()), addressAt(valsOut, tileStart, valueLog2Bytes()),
               min(TILE, count - tileStart));
    if (pass + 1u < pc.passCount) countDone(kChainPassOpen + pass + 1u);
    return;
  }
  g_tile = tile;
  uint shift = pc.shift + pass * kRadixBits;
  loadTile(addressAt(keysIn, tileStart, KEY_LOG2_BYTES), min(TILE, count - tileStart));
  g_tileFirstIndex = tileStart;
  if (RIDING_VALUES) loadRidingValues(addressAt(valsIn, tileStart, 2u), tileStart, t_count);
  countTile(shift, kRadix, false);  // publishes the tile's counts (ON_TILE_COUNT)
  uint binRow = kHeaderHist + pass * kRadix;
  for (uint d = tid; d < kRadix; d += WG)
    s_digitDest[d] = pc.header.v[binRow + d] + lookBack(tile, d, tileDigitCount(d)) - tileDigitStart(d);
  rankTile(shift);
  barrier();
  scatterKeys(keysOut, shift);
  uvec2 values[KPI];  // loaded by scatterValues() where it takes several rounds
  if (VALUE_WORDS != 0u) scatterValues(addressAt(valsIn, tileStart, valueLog2Bytes()), valsOut, false, values);
  if (pass + 1u == pc.passCount) return;
  countDone(kChainPassOpen + pass + 1u);
}

void main() {
  if (gl_LocalInvocationIndex == 0u) s_chainTicket = atomicAdd(pc.tickets.v[kChainTicket], 1u);
  clearTileCounts();
  barrier();
  uint ticket = s_chainTicket, count = pc.count;
  uint tiles = divideUp(count, TILE);
  uint groups = divideUp(tiles, pc.histogramGroupKeys / TILE);
  if (ticket < groups) {
    histogramGroup(ticket, groups, count, tiles);
  } else if ((ticket - groups) / tiles < pc.passCount) {
    passTile((ticket - groups) / tiles, (ticket - groups) % tiles, count, tiles);
  }
}
