// Onesweep binning pass (Adinets & Merrill 2022): one sweep moves every key (and value) of a
// portion to its place for this pass's digit. This body is compiled per ranking and key width:
// onesweep.comp ranks with ballots (any device), onesweep_partitioned.comp with
// subgroupPartitionNV; the *64.comp forms take 64-bit keys. Per tile of TILE keys:
//   1. take a tile ticket (tiles are numbered in the order workgroups start, never by
//      gl_WorkGroupID, so the look-back only ever waits on running workgroups);
//   2. load the tile, subgroup-striped: subgroup s holds keys [s*SG*KPI, (s+1)*SG*KPI), lane l
//      key i at s*SG*KPI + i*SG + l, so loads coalesce and rank order is input order (stable);
//   3. count each subgroup's digits (shared atomics: the "early counts" of CUB's ranking);
//   4. sum them into the tile's digit counts and publish those at once; scan them;
//   5. rank each key among its subgroup's keys of the same digit (ballot multisplit) and write
//      it to its place in shared memory, in digit order (skipped when one digit holds every
//      key: a uniform tile keeps input order);
//   6. look back for the global digit offsets;
//   7. write keys out from shared memory: consecutive invocations write consecutive addresses
//      of the same bin;
//   8. values follow with the same permutation, never held during ranking.
// Reads keysIn/valsIn [tile range], header bin starts and ticket, status of predecessors.
// Writes keysOut/valsOut, this tile's status words, statusNext rows (cleared), and, from the
// portion's last tile, the next portion's bin starts.
// Shared memory: s_tile[TILE * TILE_WORDS] (keys, then values, in digit order; a 64-bit word
// pair as low words then high words), s_subgroupCounts
// [MAX_SUBGROUPS][kRadix], s_digitScan/s_digitCount/s_digitDest [kRadix] and a few words
// (tuning.cpp's binningSharedBytes() mirrors this).
#include "common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint KEYS_PER_INVOCATION = 16u;
layout(constant_id = 2) const uint MIN_SUBGROUP_SIZE = 4u;  // the smallest size the device may run
layout(constant_id = 4) const uint VALUE_WORDS = 0u;        // 0: keys alone; 1, 2: 32/64-bit values
const uint WG = gl_WorkGroupSize.x;
const uint KPI = KEYS_PER_INVOCATION;
const uint TILE = WG * KPI;
const uint MAX_SUBGROUPS = WG / MIN_SUBGROUP_SIZE;
const uint TILE_WORDS = VALUE_WORDS > kKeyWords ? VALUE_WORDS : kKeyWords;

#include "workgroup_scan.glsl"
#include "subgroup_rank.glsl"
#include "lookback.glsl"

shared uint s_tile[TILE * TILE_WORDS];
shared uint s_subgroupCounts[MAX_SUBGROUPS * kRadix];
shared uint s_digitCount[kRadix];
shared uint s_digitDest[kRadix];  // global position of the tile's j-th key = s_digitDest[d] + j
shared uint s_ticket;
shared uint s_uniformDigit;  // the digit every key of the tile has, else kRadix

void tileStoreKey(uint at, KeyT key) {
#if KEY_WORDS == 1
  s_tile[at] = key;
#else
  s_tile[at] = key.x;
  s_tile[TILE + at] = key.y;
#endif
}
KeyT tileLoadKey(uint at) {
#if KEY_WORDS == 1
  return s_tile[at];
#else
  return uvec2(s_tile[at], s_tile[TILE + at]);
#endif
}
// Values travel as uvec2; the high word is dropped for 32-bit ones.
void tileStoreValue(uint at, uvec2 value) {
  s_tile[at] = value.x;
  if (VALUE_WORDS == 2u) s_tile[TILE + at] = value.y;
}
uvec2 tileLoadValue(uint at) { return uvec2(s_tile[at], VALUE_WORDS == 2u ? s_tile[TILE + at] : 0u); }

bool wideAddresses() { return (pc.flags & kFlagWideAddresses) != 0u; }

void storeKey(uint dest, KeyT key) {
  if (wideAddresses()) KeysOut(addressAt(uvec2(pc.keysOut), dest, KEY_LOG2_BYTES)).v[0] = key;
  else pc.keysOut.v[dest] = key;
}
// Value i of the tile whose values start at `tile` (a tileValuesAt() address).
uvec2 loadValue(uvec2 tile, uint i) { return VALUE_WORDS == 2u ? ValsIn64(tile).v[i] : uvec2(ValsIn(tile).v[i], 0u); }
uvec2 tileValuesAt(uint tileStart) { return addressAt(uvec2(pc.valsIn), tileStart, VALUE_WORDS == 2u ? 3u : 2u); }
void storeValue(uint dest, uvec2 value) {
  if (VALUE_WORDS == 2u) {
    if (wideAddresses()) ValsOut64(addressAt(uvec2(pc.valsOut), dest, 3u)).v[0] = value;
    else ValsOut64(pc.valsOut).v[dest] = value;
  } else {
    if (wideAddresses()) ValsOut(addressAt(uvec2(pc.valsOut), dest, 2u)).v[0] = value.x;
    else pc.valsOut.v[dest] = value.x;
  }
}

void main() {
  uint tid = gl_LocalInvocationIndex;
  if (tid == 0u) {
    uint ticket = atomicAdd(pc.header.v[kHeaderTickets + pc.dispatchIndex % 2u], 1u);
    // The next dispatch's counter: the dispatch that used it last has finished.
    if (ticket == 0u) pc.header.v[kHeaderTickets + (pc.dispatchIndex + 1u) % 2u] = 0u;
    s_ticket = ticket;
    s_uniformDigit = kRadix;
  }
  for (uint i = tid; i < MAX_SUBGROUPS * kRadix; i += WG) s_subgroupCounts[i] = 0u;
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
  uint tileKeys = min(TILE, portionKeys - tileStart);
  // Bin starts: the scanned histogram for a pass's first portion, else what the previous
  // portion's last tile wrote.
  uint portion = pc.portionStart / pc.portionKeys;
  uint binRow = portion == 0u ? kHeaderHist + pc.pass * kRadix : kHeaderPortionStarts + (portion % 2u) * kRadix;

  // 2. Load, subgroup-striped, from the tile's own base: an index times the element size is
  //    computed in 32 bits by some drivers (on an H100, element 2^30 of u32 data wrapped to 0).
  KeysIn tileIn = KeysIn(addressAt(uvec2(pc.keysIn), tileStart, KEY_LOG2_BYTES));
  uint SG = gl_SubgroupSize;
  uint lane = gl_SubgroupInvocationID;
  uint subgroupFirst = gl_SubgroupID * SG * KPI;
  uint row = gl_SubgroupID * kRadix;
  KeyT keys[KPI];
  for (uint i = 0u; i < KPI; ++i) {
    uint idx = subgroupFirst + i * SG + lane;
    keys[i] = idx < tileKeys ? tileIn.v[idx] : KeyT(0u);
  }

  // 3. Early counts: each subgroup's digit counts, by shared atomics.
  for (uint i = 0u; i < KPI; ++i)
    if (subgroupFirst + i * SG + lane < tileKeys) atomicAdd(s_subgroupCounts[row + digitOf(keys[i], pc.shift)], 1u);
  barrier();

  // 4. The tile's digit counts, published at once so that successors' look-backs overlap our
  //    ranking; subgroup rows become each subgroup's first position for the digit, in the tile's
  //    digit order. A digit holding every key makes the tile uniform: it keeps input order.
  for (uint d = tid; d < kRadix; d += WG) {
    uint count = 0u;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) {
      uint c = s_subgroupCounts[s * kRadix + d];
      s_subgroupCounts[s * kRadix + d] = count;
      count += c;
    }
    if (count == tileKeys) s_uniformDigit = d;
    s_digitCount[d] = count;
    s_digitScan[d] = count;
    publishCount(tile, d, count);
  }
  barrier();
  exclusiveScanDigits();  // s_digitScan[d]: first position of digit d in the tile's sorted order
  for (uint d = tid; d < kRadix; d += WG)
    for (uint s = 0u; s < gl_NumSubgroups; ++s) s_subgroupCounts[s * kRadix + d] += s_digitScan[d];
  barrier();
  bool uniformTile = s_uniformDigit != kRadix;
  uint uniformDigit = s_uniformDigit;

  // 5. Rank each key among its subgroup's keys of the same digit and write it to its place in
  //    shared memory. The row counter of a digit advances by its peers at each step; the last
  //    peer moves it. Uniform tiles skip this: their keys stay in registers, in input order.
  //    place[] keeps each key's position for its value (pairs only).
  uint place[KPI];
  if (!uniformTile) {
    for (uint i = 0u; i < KPI; ++i) {
      bool valid = subgroupFirst + i * SG + lane < tileKeys;
      uint digit = digitOf(keys[i], pc.shift);
      uvec4 peers = matchDigit(digit, valid);
      uint leader = highestPeer(peers);
      uint before = peerCount(peers & lanesBelow());
      uint first = 0u;
      if (valid && lane == leader) {
        first = s_subgroupCounts[row + digit];
        s_subgroupCounts[row + digit] = first + before + 1u;
      }
      place[i] = subgroupShuffle(first, valid ? leader : lane) + before;
      if (valid) tileStoreKey(place[i], keys[i]);
      subgroupBarrier();  // this step's counter writes before the next step's reads
    }
  }

  // 6. Look back for the global position of the tile's first key of each digit: its bin start
  //    plus its count in the portion's earlier tiles. The portion's last tile leaves the bin
  //    starts of the next portion.
  for (uint d = tid; d < kRadix; d += WG) {
    uint binStart = pc.header.v[binRow + d];
    uint before = lookBack(tile, d, s_digitCount[d]);
    s_digitDest[d] = binStart + before - s_digitScan[d];
    if (tile == tileCount - 1u)
      pc.header.v[kHeaderPortionStarts + ((portion + 1u) % 2u) * kRadix + d] = binStart + before + s_digitCount[d];
  }
  barrier();

  // 7. Scatter: key j of the tile's digit order goes to s_digitDest[digit] + j, so consecutive
  //    invocations write consecutive addresses of a bin. dest[] keeps it for the values.
  uint dest[KPI];
  if (uniformTile) {
    for (uint i = 0u; i < KPI; ++i) {
      uint idx = subgroupFirst + i * SG + lane;
      dest[i] = s_digitDest[uniformDigit] + idx;
      if (idx < tileKeys) storeKey(dest[i], keys[i]);
    }
  } else {
    for (uint i = 0u; i < KPI; ++i) {
      uint j = i * WG + tid;
      if (j < tileKeys) {
        KeyT key = tileLoadKey(j);
        dest[i] = s_digitDest[digitOf(key, pc.shift)] + j;
        storeKey(dest[i], key);
      }
    }
  }
  if (VALUE_WORDS == 0u) return;

  // 8. Values, loaded only now, follow their keys through the same places.
  uvec2 tileValues = tileValuesAt(tileStart);
  if (uniformTile) {
    for (uint i = 0u; i < KPI; ++i) {
      uint idx = subgroupFirst + i * SG + lane;
      if (idx < tileKeys) storeValue(dest[i], loadValue(tileValues, idx));
    }
    return;
  }
  barrier();  // every key has left s_tile
  for (uint i = 0u; i < KPI; ++i) {
    uint idx = subgroupFirst + i * SG + lane;
    if (idx < tileKeys) tileStoreValue(place[i], loadValue(tileValues, idx));
  }
  barrier();
  for (uint i = 0u; i < KPI; ++i) {
    uint j = i * WG + tid;
    if (j < tileKeys) storeValue(dest[i], tileLoadValue(j));
  }
}
