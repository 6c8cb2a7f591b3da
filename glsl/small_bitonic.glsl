// Small sorts in one dispatch by a bitonic sorting network: one workgroup sorts up to
// N = WG * KPI keys (a power of two) as (bits, source index) elements, ordered by the key's
// ordered bits within the bit range, then by index (stable; ties in the range keep input order),
// every element at or past the count after all the others. Each invocation holds KPI elements,
// subgroup-striped like the binning tiles (binning_tile.glsl) (position s*SG*KPI + i*SG + lane), so that a stage
// of distance j exchanges through a subgroup shuffle (j < SG), within the invocation's registers
// (j < SG * KPI), or through shared memory (larger j, one barrier a stage). Its
// log2(N) (log2(N) + 1) / 2 stages of one element per invocation beat radix passes over one tile
// (small_sort.glsl, which the larger small sorts keep) for the smallest sorts, whatever their bit
// range (the tuning's bitonicKeysPerPass).
// Keys are read once, then keys and values are gathered by source index at the end, in place;
// integer keys over their whole range come back from their bits instead (no second read).
// Needs full subgroups whose size divides WG. Compiled per key width: small_bitonic.comp,
// small_bitonic64.comp.
//   reads/writes keys and values [0, count)
#include "common.glsl"

layout(local_size_x_id = VKSORT_SPEC_WORKGROUP_SIZE) in;
layout(constant_id = VKSORT_SPEC_KEYS_PER_INVOCATION) const uint KEYS_PER_INVOCATION = 4u;  // a power of two
layout(constant_id = VKSORT_SPEC_VALUE_WORDS) const uint VALUE_WORDS = 0u;          // 0: keys alone; 1, 2: 32/64-bit values
const uint WG = gl_WorkGroupSize.x;
const uint KPI = KEYS_PER_INVOCATION;
const uint N = WG * KPI;  // a power of two (tuning.cpp)

#include "in_place.glsl"

// Elements carry the bits that order them, not their keys: a key's ordered bits within the bit
// range, shifted down to bit 0, computed once on load (per comparison it cost the type's map,
// the descending flip and the range's shifts); padding has every bit set. At the end integer keys
// over their whole range come back from these bits (keyOfBits()); other keys are gathered by
// source index, as values are.
#if KEY_WORDS == 1
#define SortBits uint
const uint kPaddingBits = ~0u;
uint rangeBits(uint key) { return orderedBits(key) >> pc.shift; }
// The key of an integer type's whole-range bits (rangeBits() undone).
uint keyOfBits(uint bits) {
  uint mapped = descending() ? ~bits : bits;
  return KEY_TYPE == kKeyI32 ? mapped ^ 0x80000000u : mapped;
}
bool bitsBelow(uint a, uint b) { return a < b; }
#else
#define SortBits uvec2
const uvec2 kPaddingBits = uvec2(~0u);
uvec2 rangeBits(uvec2 key) {
  uvec2 b = orderedBits(key);
  uint s = pc.shift;
  if (s >= 32u) return uvec2(b.y >> (s - 32u), 0u);
  return s == 0u ? b : uvec2((b.x >> s) | (b.y << (32u - s)), b.y >> s);
}
bool bitsBelow(uvec2 a, uvec2 b) { return a.y < b.y || (a.y == b.y && a.x < b.x); }
uvec2 keyOfBits(uvec2 bits) {
  uvec2 mapped = descending() ? ~bits : bits;
  return KEY_TYPE == kKeyI64 ? uvec2(mapped.x, mapped.y ^ 0x80000000u) : mapped;
}
#endif

// Shared-memory stages: every element's bits, then its source.
shared uint s_bits[N * kKeyWords];
shared uint s_sources[N];

SortBits t_bits[KPI];
uint t_sources[KPI];  // each element's position in the input; padding's is its position, >= count
uint t_count;

uint positionOf(uint i) { return gl_SubgroupID * gl_SubgroupSize * KPI + i * gl_SubgroupSize + gl_SubgroupInvocationID; }

// Whether element a goes before element b: by bits, then by source. Padding goes last: its bits
// are the largest, and its sources larger than any real element's.
bool before(SortBits aBits, uint aSource, SortBits bBits, uint bSource) {
  return aBits != bBits ? bitsBelow(aBits, bBits) : aSource < bSource;
}

void storeShared(uint at, SortBits bits, uint source) {
#if KEY_WORDS == 1
  s_bits[at] = bits;
#else
  s_bits[at] = bits.x;
  s_bits[N + at] = bits.y;
#endif
  s_sources[at] = source;
}
SortBits sharedBits(uint at) {
#if KEY_WORDS == 1
  return s_bits[at];
#else
  return uvec2(s_bits[at], s_bits[N + at]);
#endif
}

// One stage of distance j >= SG * KPI in shared memory: the N / 2 pairs over the invocations.
void sharedStage(uint k, uint j) {
  [[unroll]] for (uint m = 0u; m < (KPI + 1u) / 2u; ++m) {
    uint q = m * WG + gl_LocalInvocationIndex;   // the pair
    if (q >= N / 2u) break;
    uint lo = ((q & ~(j - 1u)) << 1u) | (q & (j - 1u)), hi = lo + j;
    SortBits loBits = sharedBits(lo), hiBits = sharedBits(hi);
    uint loSource = s_sources[lo], hiSource = s_sources[hi];
    bool ascending = (lo & k) == 0u;
    if (before(hiBits, hiSource, loBits, loSource) == ascending) {
      storeShared(lo, hiBits, hiSource);
      storeShared(hi, loBits, loSource);
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
        if (before(t_bits[p], t_sources[p], t_bits[i], t_sources[i]) == ascending) {
          SortBits bits = t_bits[i];
          uint source = t_sources[i];
          t_bits[i] = t_bits[p];
          t_sources[i] = t_sources[p];
          t_bits[p] = bits;
          t_sources[p] = source;
        }
      }
    }
    return;
  }
  bool lower = (gl_SubgroupInvocationID & j) == 0u;
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    SortBits otherBits = subgroupShuffleXor(t_bits[i], j);
    uint otherSource = subgroupShuffleXor(t_sources[i], j);
    bool ascending = (positionOf(i) & k) == 0u;
    // The lower position of an ascending pair keeps the first element; the higher the second.
    bool otherFirst = before(otherBits, otherSource, t_bits[i], t_sources[i]);
    if (otherFirst == (lower == ascending)) {
      t_bits[i] = otherBits;
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
    t_bits[i] = at < t_count ? rangeBits(KeysRW(keys).v[at]) : kPaddingBits;
    t_sources[i] = at;
  }
  uint registerSpan = gl_SubgroupSize * KPI;  // distances below it stay in registers
  for (uint k = 2u; k <= N; k <<= 1u) {
    uint j = k >> 1u;
    if (j >= registerSpan) {
      barrier();  // everyone has read the previous shared stages' results
      [[unroll]] for (uint i = 0u; i < KPI; ++i) storeShared(positionOf(i), t_bits[i], t_sources[i]);
      barrier();
      for (; j >= registerSpan; j >>= 1u) sharedStage(k, j);
      [[unroll]] for (uint i = 0u; i < KPI; ++i) {
        t_bits[i] = sharedBits(positionOf(i));
        t_sources[i] = s_sources[positionOf(i)];
      }
    }
    for (; j > 0u; j >>= 1u) registerStage(k, j);
  }
  // Keys and values gathered by source, every one read before any is written (in place); an
  // integer key over its whole range comes back from its bits instead.
  bool keysFromBits = KEY_TYPE != kKeyF32 && KEY_TYPE != kKeyF64 && pc.shift == 0u && pc.rangeMaskLo == ~0u &&
                      (KEY_WORDS == 1 || pc.rangeMaskHi == ~0u);
  uvec2 values = uvec2(pc.valsIn);
  bool keysOut = (pc.flags & kFlagDiscardKeys) == 0u, indexValues = (pc.flags & kFlagIndexValues) != 0u;
  KeyT sortedKeys[KPI];
  uvec2 sortedValues[KPI];
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    bool real = positionOf(i) < t_count;
    uint from = t_sources[i];
    sortedKeys[i] = !real || !keysOut ? KeyT(0u) : keysFromBits ? keyOfBits(t_bits[i]) : KeysRW(keys).v[from];
    sortedValues[i] = !real || VALUE_WORDS == 0u ? uvec2(0u)
                      : indexValues             ? uvec2(from, 0u)
                      : VALUE_WORDS == 2u       ? ValsRW64(values).v[from]
                                                : uvec2(ValsRW(values).v[from], 0u);
  }
  if ((!keysFromBits && keysOut) || (VALUE_WORDS != 0u && !indexValues)) {  // (uniform: push constants)
    memoryBarrierBuffer();
    barrier();
  }
  [[unroll]] for (uint i = 0u; i < KPI; ++i) {
    uint at = positionOf(i);
    if (at >= t_count) continue;
    if (keysOut) KeysRW(keys).v[at] = sortedKeys[i];
    if (VALUE_WORDS == 2u) ValsRW64(values).v[at] = sortedValues[i];
    else if (VALUE_WORDS == 1u) ValsRW(values).v[at] = sortedValues[i].x;
  }
}
