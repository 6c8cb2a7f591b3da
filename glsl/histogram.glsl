// Histogram kernel: one read of the keys counts the digits of every pass at once. Compiled per
// key width: histogram.comp (32-bit keys), histogram64.comp.
//   reads:  keysIn[0, count)
//   writes: header histograms (atomic adds; zeroed by the init kernel); with kFlagClearNext
//           (Onesweep), status[] words of the first dispatch's tiles this workgroup covers
//           (cleared)
// Each workgroup covers pc.histogramGroupKeys keys, a whole number of binning tiles of
// pc.tileKeys keys, so that it can also clear exactly those tiles' look-back words; the recorder
// picks how many per sort (fewer for small sorts: a workgroup's loads in sequence are the whole
// kernel's latency; more for large ones: one global atomic per (digit, pass) per group).
// Shared memory: HISTOGRAM_COPIES copies of s_hist[pass][digit] counters; invocations spread over
// the copies so that fewer of them collide on one counter's atomics.
#include "common.glsl"

layout(local_size_x_id = VKSORT_SPEC_WORKGROUP_SIZE) in;
layout(constant_id = VKSORT_SPEC_HISTOGRAM_COPIES) const uint HISTOGRAM_COPIES = 1u;
const uint WG = gl_WorkGroupSize.x;

shared uint s_hist[HISTOGRAM_COPIES * kMaxPasses * kRadix];

layout(buffer_reference, std430, buffer_reference_align = 16) readonly restrict buffer KeyQuads { uvec4 v[]; };
const uint KEYS_PER_QUAD = 4u / kKeyWords;
const uint QUAD_UNROLL = 2u;  // 16-byte loads in flight per invocation: 8 keys (4: alike)

// One key's digit of every pass counted in `copy`. Its ordered bits move down to the first pass's
// digit once, so that each pass's digit sits at a constant place: at pc.shift + p * 8 a 64-bit
// key's digits would take run-time tests of which word.
void countKey(KeyT key, uint copy) {
  KeyT bits = bitsFrom(orderedBits(key), pc.shift);
  // Unrolled over a full key's passes, each guarded: the atomics issue back to back (a loop to
  // pc.passCount serializes them). The literal 1 matters: NVIDIA turns it into an increment that
  // merges the lanes of a word (ATOMS.POPC.INC), which 16-bit counters two to a word, added 1 or
  // 1 << 16, lose (PERFORMANCE-LOG.md, session 26).
  [[unroll]] for (uint p = 0u; p < kKeyWords * 32u / kRadixBits; ++p)
    if (p < pc.passCount) atomicAdd(s_hist[copy + p * kRadix + digitOfBits(bits, p * kRadixBits)], 1u);
}

void main() {
  uint tid = gl_LocalInvocationIndex;
  uint groupTiles = pc.histogramGroupKeys / pc.tileKeys;
  uint firstTile = flatWorkGroupId() * groupTiles;
  uint count = sortCount();
  uint tileCount = divideUp(count, pc.tileKeys);
  if (firstTile >= tileCount) return;
  uint lastTile = min(firstTile + groupTiles, tileCount);

  uint counters = pc.passCount * kRadix;
  for (uint i = tid; i < HISTOGRAM_COPIES * kMaxPasses * kRadix; i += WG) s_hist[i] = 0u;
  uint copy = (tid % HISTOGRAM_COPIES) * kMaxPasses * kRadix;
  // The first binning dispatch uses tiles [0, one portion's tiles).
  uint statusTiles = (pc.flags & kFlagClearNext) != 0u ? min(tileCount, pc.portionKeys / pc.tileKeys) : 0u;
  for (uint i = firstTile * kRadix + tid; i < min(lastTile, statusTiles) * kRadix; i += WG) pc.status.v[i] = 0u;
  barrier();

  // This workgroup's keys, from a base of its own: indices stay small whatever the count.
  uint begin = firstTile * pc.tileKeys;
  uint end = lastTile == tileCount ? count - begin : (lastTile - firstTile) * pc.tileKeys;
  uvec2 at = addressAt(uvec2(pc.keysIn), begin, KEY_LOG2_BYTES);

  // 16 bytes per load where the workgroup's keys start 16-byte aligned (a caller's range may
  // start at any multiple of the key size): fewer load instructions beside the atomics
  // (PERFORMANCE-LOG.md, session 37).
  uint counted = 0u;
  if ((at.x & 15u) == 0u) {
    uint quads = end / KEYS_PER_QUAD;
    KeyQuads keys = KeyQuads(at);
    for (uint base = tid; base < quads; base += WG * QUAD_UNROLL) {
      uvec4 q[QUAD_UNROLL];
      [[unroll]] for (uint u = 0u; u < QUAD_UNROLL; ++u) {
        uint i = base + u * WG;
        q[u] = i < quads ? keys.v[i] : uvec4(0u);
      }
      [[unroll]] for (uint u = 0u; u < QUAD_UNROLL; ++u) {
        if (base + u * WG >= quads) continue;
#if KEY_WORDS == 1
        countKey(q[u].x, copy);
        countKey(q[u].y, copy);
        countKey(q[u].z, copy);
        countKey(q[u].w, copy);
#else
        countKey(q[u].xy, copy);
        countKey(q[u].zw, copy);
#endif
      }
    }
    counted = quads * KEYS_PER_QUAD;
  }

  // The rest one key per load: eight loads in flight per invocation before their counts (one
  // load per iteration left the kernel waiting on memory latency).
  KeysIn keys = KeysIn(at);
  const uint UNROLL = 8u;
  for (uint base = counted + tid; base < end; base += WG * UNROLL) {
    KeyT k[UNROLL];
    [[unroll]] for (uint u = 0u; u < UNROLL; ++u) {
      uint i = base + u * WG;
      k[u] = i < end ? keys.v[i] : KeyT(0u);
    }
    [[unroll]] for (uint u = 0u; u < UNROLL; ++u)
      if (base + u * WG < end) countKey(k[u], copy);
  }
  barrier();

  for (uint i = tid; i < counters; i += WG) {
    uint c = 0u;
    for (uint k = 0u; k < HISTOGRAM_COPIES; ++k) c += s_hist[k * kMaxPasses * kRadix + i];
    if (c != 0u) atomicAdd(pc.header.v[kHeaderHist + i], c);
  }
}
