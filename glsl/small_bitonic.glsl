// Small sorts in one dispatch by a bitonic sorting network: one workgroup sorts up to
// N = WG * KPI keys (a power of two) as (key, source index) elements, ordered by the key's
// ordered bits within the bit range, then by index (stable; ties in the range keep input order),
// every element at or past the count after all the others. Each invocation holds KPI elements,
// subgroup-striped like binning.glsl's tiles (position s*SG*KPI + i*SG + lane), so that a stage
// of distance j exchanges through a subgroup shuffle (j < SG), within the invocation's registers
// (j < SG * KPI), or through shared memory (larger j, one barrier a stage). For up to 512 keys
// its log2(N) (log2(N) + 1) / 2 stages beat four radix passes over one tile (small_sort.glsl,
// which the larger small sorts keep) on an H100 with one key per invocation; with more keys per
// invocation it lost (tuning.cpp). Keys are read once and written once, in place; values are
// gathered by source index at the end. Needs full subgroups whose size divides WG. Compiled per key width: small_bitonic.comp, small_bitonic64.comp.
//   reads/writes keys and values [0, count)
#include "common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint KEYS_PER_INVOCATION = 4u;  // a power of two
layout(constant_id = 4) const uint VALUE_WORDS = 0u;          // 0: keys alone; 1, 2: 32/64-bit values
const uint WG = gl_WorkGroupSize.x;
const uint KPI = KEYS_PER_INVOCATION;
const uint N = WG * KPI;  // a power of two (tuning.cpp)

#include "in_place.glsl"

// Shared-memory stages: every element's key words, then its index.
shared uint s_keys[N * kKeyWords];
shared uint s_sources[N];

KeyT t_keys[KPI];
uint t_sources[KPI];  // each element's position in the input; N + position for padding
uint t_count;

uint positionOf(uint i) { return gl_SubgroupID * gl_SubgroupSize * KPI + i * gl_SubgroupSize + gl_SubgroupInvocationID; }

// The bits that order a key: its ordered bits within [beginBit, endBit), shifted down to bit 0.
#if KEY_WORDS == 1
uint rangeBits(uint key) { return orderedBits(key) >> pc.shift; }
bool bitsBelow(uint a, uint b) { return a < b; }
#else
uvec2 rangeBits(uvec2 key) {
  uvec2 b = orderedBits(key);
  uint s = pc.shift;
  if (s >= 32u) return uvec2(b.y >> (s - 32u), 0u);
  return s == 0u ? b : uvec2((b.x >> s) | (b.y << (32u - s)), b.y >> s);
}
bool bitsBelow(uvec2 a, uvec2 b) { return a.y < b.y || (a.y == b.y && a.x < b.x); }
#endif

// Whether element a goes before element b: real elements (source below the count) first, by
// their range bits, then by source.
bool before(KeyT aKey, uint aSource, KeyT bKey, uint bSource) {
  bool aReal = aSource < t_count, bReal = bSource < t_count;
  if (aReal != bReal) return aReal;
  if (!aReal) return aSource < bSource;
  KeyT a = rangeBits(aKey), b = rangeBits(bKey);
  if (a != b) return bitsBelow(a, b);
  return aSource < bSource;
}

void storeShared(uint at, KeyT key, uint source) {
#if KEY_WORDS == 1
  s_keys[at] = key;
#else
  s_keys[at] = key.x;
  s_keys[N + at] = key.y;
#endif
  s_sources[at] = source;
}
KeyT sharedKey(uint at) {
#if KEY_WORDS == 1
  return s_keys[at];
#else
  return uvec2(s_keys[at], s_keys[N + at]);
#endif
}

// One stage of distance j >= SG * KPI in shared memory: the N / 2 pairs over the invocations.
void sharedStage(uint k, uint j) {
  [[unroll]] for (uint m = 0u; m < (KPI + 1u) / 2u; ++m) {
    uint q = m * WG + gl_LocalInvocationIndex;   // the pair
    if (q >= N / 2u) break;
    uint lo = ((q & ~(j - 1u)) << 1u) | (q & (j - 1u)), hi = lo + j;
    KeyT loKey = sharedKey(lo), hiKey = sharedKey(hi);
    uint loSource = s_sources[lo], hiSource = s_sources[hi];
    bool ascending = (lo & k) == 0u;
    if (before(hiKey, hiSource, loKey, loSource) == ascending) {
      storeShared(lo, hiKey, hiSource);
      storeShared(hi, loKey, loSource);
    }
  }
  barrier();
}

// Stages of distance j < SG * KPI, from registers.
void registerStage(uint k, uint j) {
  uint sg = gl_SubgroupSize;
  if (j >= sg) {  // the partner is this invocation's element i ^ (j / SG)
    // Constant register indices (a step known only at run time would index the arrays
    // dynamically, which puts them in local memory).
    [[unroll]] for (uint step = 1u; step < KPI; step <<= 1u) {
      if (j != step * sg) continue;
      [[unroll]] for (uint i = 0u; i < KPI; ++i) {
        if ((i & step) != 0u) continue;
        uint p = i | step;
        bool ascending = (positionOf(i) & k) == 0u;
        if (before(t_keys[p], t_sources[p], t_keys[i], t_sources[i]) == ascending) {
          KeyT key = t_keys[i];
          uint source = t_sources[i];
          t_keys[i] = t_keys[p];
          t_sources[i] = t_sources[p];
          t_keys[p] = key;
          t_sources[p] = source;
        }
      }
    }
    return;
  }
  bool lower = (gl_SubgroupInvocationID & j) == 0u;
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    KeyT otherKey = subgroupShuffleXor(t_keys[i], j);
    uint otherSource = subgroupShuffleXor(t_sources[i], j);
    bool ascending = (positionOf(i) & k) == 0u;
    // The lower position of an ascending pair keeps the first element; the higher the second.
    bool otherFirst = before(otherKey, otherSource, t_keys[i], t_sources[i]);
    if (otherFirst == (lower == ascending)) {
      t_keys[i] = otherKey;
      t_sources[i] = otherSource;
    }
  }
}

void main() {
  t_count = sortCount();  // the recorder and init send at most N keys
  if (t_count == 0u) return;
  uvec2 keys = uvec2(pc.keysIn);
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint at = positionOf(i);
    t_keys[i] = at < t_count ? KeysRW(keys).v[at] : KeyT(0u);
    t_sources[i] = at;
  }
  uint registerSpan = gl_SubgroupSize * KPI;  // distances below it stay in registers
  for (uint k = 2u; k <= N; k <<= 1u) {
    uint j = k >> 1u;
    if (j >= registerSpan) {
      barrier();  // everyone has read the previous shared stages' results
      [[unroll]] for (uint i = 0u; i < KPI; ++i) storeShared(positionOf(i), t_keys[i], t_sources[i]);
      barrier();
      for (; j >= registerSpan; j >>= 1u) sharedStage(k, j);
      [[unroll]] for (uint i = 0u; i < KPI; ++i) {
        t_keys[i] = sharedKey(positionOf(i));
        t_sources[i] = s_sources[positionOf(i)];
      }
    }
    for (; j > 0u; j >>= 1u) registerStage(k, j);
  }
  // Every key was read above, before any barrier; values are read below before any is written.
  barrier();
  [[unroll]] for (uint i = 0u; i < KPI; ++i)
    if (positionOf(i) < t_count) KeysRW(keys).v[positionOf(i)] = t_keys[i];
  if (VALUE_WORDS == 0u) return;
  uvec2 values = uvec2(pc.valsIn);
  uvec2 gathered[KPI];
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    bool real = positionOf(i) < t_count;
    uint from = t_sources[i];
    gathered[i] = !real ? uvec2(0u) : VALUE_WORDS == 2u ? ValsRW64(values).v[from] : uvec2(ValsRW(values).v[from], 0u);
  }
  memoryBarrierBuffer();
  barrier();
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint at = positionOf(i);
    if (at >= t_count) continue;
    if (VALUE_WORDS == 2u) ValsRW64(values).v[at] = gathered[i];
    else ValsRW(values).v[at] = gathered[i].x;
  }
}
