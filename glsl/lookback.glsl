// Decoupled look-back (Merrill & Garland 2016) over the status words of shader_interface.h.
// A tile publishes its own digit count as an aggregate as soon as it knows it, then walks back
// over its predecessors, adding aggregates until it meets an inclusive prefix, and publishes its
// own inclusive prefix. Tiles are numbered in the order workgroups took their tickets, so every
// predecessor has started.
// With fallback (the Gridwise WebGPU sort's way; Smith, Levien & Owens, "Decoupled Fallback"):
// no device promises that a started workgroup keeps running while another spins. A predecessor
// that has published nothing after LOOKBACK_WAIT turns is not waited for any longer: the walk
// counts the digit in that tile's keys itself (fallbackTileCount(), the kernel's), publishes
// the count where the predecessor's word is still empty, so that later tiles take it, and goes
// on. Each invocation falls back alone, for its own digit: no workgroup-wide agreement, no
// barrier in the walk. Progress then depends on no other workgroup.
// Status words are `coherent`, written with atomics or, where LOOKBACK_STORES is kAccessPlain,
// plain stores (as CUB's tile status is; "The look-back and its publication" in the log: a
// 32-bit aligned store is never seen torn, and the words carry their values, so no other write
// needs ordering before them). They are read with plain volatile loads where LOOKBACK_LOADS is
// kAccessPlain (NVIDIA's choice: cheaper than atomic reads), else with atomics: on lavapipe a
// volatile load in the spin returned stale words, atomic reads never did (likely llvmpipe's loop
// limiter: a faster turn spends its 65535 turns sooner; patient_wait.glsl). The
// Vulkan-memory-model form (acquire/release atomics) produced garbage there (docs/ARCHITECTURE.md,
// "The look-back"). LOOKBACK_WAIT kLookbackNeverFallsBack compiles no fallback (NVIDIA's tuning:
// there its registers push the largest tiles past the register file, tuning_tables.cpp).
// Switches: binning_switches.glsl. The kernel's hook: LOOKBACK_STATUS, the words of this
// dispatch's tiles (pc.status; chained.glsl's passes alternate between two regions).
#ifndef VKSORT_LOOKBACK_GLSL
#define VKSORT_LOOKBACK_GLSL
#if !LOOKS_BACK
#error "lookback.glsl: for the kernels binning_switches.glsl gives the look-back's switches"
#endif
#ifndef LOOKBACK_STATUS
#error "lookback.glsl: the kernel defines LOOKBACK_STATUS"
#endif
#include "patient_wait.glsl"

uint statusWord(uint flag, uint value) { return (flag << kStatusValueBits) | value; }

// Forward progress, tortured (the developer option withhold_posts=N, LOOKBACK_WITHHELD): one tile
// in N, picked by a hash of its number, publishes neither its count nor its prefix, as a
// workgroup the device parked for good would not, so that its successors must fall back on it
// (they publish its count for the tiles after). Only where the fallback is compiled in: without
// it they would wait for ever. N = 1: no tile publishes, every look-back counts its way back.
bool withholdsPosts(uint tile) {
  if (LOOKBACK_WITHHELD == 0u || !LOOKBACK_FALLS_BACK) return false;
  uint h = tile * 0x9E3779B9u;
  h ^= h >> 15;
  return h % LOOKBACK_WITHHELD == 0u;
}

void publishStatus(uint tile, uint digit, uint flag, uint value) {
  if (withholdsPosts(tile)) return;
  if (LOOKBACK_STORES == kAccessPlain) LOOKBACK_STATUS.v[tile * kRadix + digit] = statusWord(flag, value);
  else atomicExchange(LOOKBACK_STATUS.v[tile * kRadix + digit], statusWord(flag, value));
}

// First publication of a tile's count of `digit`, before its look-back: tile 0 knows its
// inclusive prefix at once; the others publish an aggregate.
void publishCount(uint tile, uint digit, uint count) {
  publishStatus(tile, digit, tile == 0u ? kStatusPrefix : kStatusAggregate, count);
}

// The count of `digit` among the keys of tile `tile` of this dispatch's portion, from its keys:
// what that tile publishes as its aggregate (defined by the kernel, after its loads).
uint fallbackTileCount(uint tile, uint digit);

uint loadStatus(uint at) {
  return LOOKBACK_LOADS == kAccessPlain ? StatusLoads(LOOKBACK_STATUS).v[at] : atomicOr(LOOKBACK_STATUS.v[at], 0u);
}

// Falls back on predecessor t - 1 (the nearest not yet added): adds its count of `digit` from
// its keys to `exclusive`, publishes it where its word is still empty (tile 0's count is its
// prefix), counts the fallback in the header. Returns the new nearest-not-added: t - 1.
uint fallBack(uint t, uint digit, inout uint exclusive) {
  uint c = fallbackTileCount(t - 1u, digit);
  atomicCompSwap(LOOKBACK_STATUS.v[(t - 1u) * kRadix + digit], statusWord(kStatusEmpty, 0u),
                 statusWord(t == 1u ? kStatusPrefix : kStatusAggregate, c));
  atomicAdd(pc.header.v[kHeaderFallbacks], 1u);
  exclusive += c;
  return t - 1u;
}

// The digit's count in this portion's tiles [0, tile). Publishes this tile's inclusive prefix
// (that + count). Reads LOOKBACK_WINDOW predecessors at once: a walk over aggregates to the
// nearest prefix spans several tiles, each step a full round trip to L2. Tiles before the first
// read as a prefix of 0. LOOKBACK_WAIT 0 (the tests' forced fallback) counts the nearest
// predecessor from its keys whatever it has published, so that every tile but the first falls
// back on every device, and waits on no other.
uint lookBack(uint tile, uint digit, uint count) {
  if (tile == 0u) return 0u;
  uint exclusive = 0u;
  uint waited = 0u;  // turns predecessor t - 1 has shown nothing (with fallback)
  // t: the nearest predecessor not yet added is t - 1 (forced fallback: tile - 1 is added).
  for (uint t = LOOKBACK_WAIT == 0u ? fallBack(tile, digit, exclusive) : tile; ;) {
    uint words[LOOKBACK_WINDOW];
    [[unroll]] for (uint k = 0u; k < LOOKBACK_WINDOW; ++k)
      words[k] = t > k ? loadStatus((t - 1u - k) * kRadix + digit) : statusWord(kStatusPrefix, 0u);
    uint taken = 0u;  // window entries added, nearest first, up to an empty one or a prefix
    bool done = false, blocked = false;
    [[unroll]] for (uint k = 0u; k < LOOKBACK_WINDOW; ++k) {
      uint flag = words[k] >> kStatusValueBits;
      if (done || blocked || flag == kStatusEmpty) {
        blocked = blocked || (!done && flag == kStatusEmpty);  // not published yet: read again
        continue;
      }
      exclusive += words[k] & kStatusValueMask;
      ++taken;
      done = flag == kStatusPrefix;
    }
    if (done) break;
    t -= taken;
    if (blocked) {  // the nearest predecessor not added has published nothing yet
      if (LOOKBACK_FALLS_BACK) {
        waited = taken != 0u ? 0u : waited + 1u;
        if (waited > LOOKBACK_WAIT) {
          t = fallBack(t, digit, exclusive);  // tiles before the first then read as a prefix of 0
          waited = 0u;
          continue;
        }
      }
      uint word = statusWord(kStatusEmpty, 0u);
      PATIENT_TURN(word, loadStatus((t - 1u) * kRadix + digit), word >> kStatusValueBits == kStatusEmpty)
    }
  }
  publishStatus(tile, digit, kStatusPrefix, exclusive + count);
  return exclusive;
}

#endif  // VKSORT_LOOKBACK_GLSL
