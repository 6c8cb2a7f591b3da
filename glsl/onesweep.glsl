// Onesweep binning pass (Adinets & Merrill 2022): one sweep moves every key (and value) to its
// place for this pass's digit. This body is compiled twice: onesweep.comp ranks with ballots (any
// device), onesweep_partitioned.comp with subgroupPartitionNV. Per tile of TILE keys:
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
// Writes keysOut/valsOut, this tile's status words, statusNext of this tile (cleared).
// Shared memory: s_tile[TILE] (keys, then values, in digit order), s_subgroupCounts
// [MAX_SUBGROUPS][kRadix], s_digitScan/s_digitCount/s_digitDest [kRadix] and a few words
// (tuning.cpp's binningSharedBytes() mirrors this).
#include "common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint KEYS_PER_INVOCATION = 16u;
layout(constant_id = 2) const uint MIN_SUBGROUP_SIZE = 4u;  // the smallest size the device may run
layout(constant_id = 4) const bool HAS_VALUES = false;
const uint WG = gl_WorkGroupSize.x;
const uint KPI = KEYS_PER_INVOCATION;
const uint TILE = WG * KPI;
const uint MAX_SUBGROUPS = WG / MIN_SUBGROUP_SIZE;

#include "workgroup_scan.glsl"
#include "subgroup_rank.glsl"
#include "lookback.glsl"

shared uint s_tile[TILE];
shared uint s_subgroupCounts[MAX_SUBGROUPS * kRadix];
shared uint s_digitCount[kRadix];
shared uint s_digitDest[kRadix];  // global position of the tile's j-th key = s_digitDest[d] + j
shared uint s_ticket;
shared uint s_uniformDigit;  // the digit every key of the tile has, else kRadix

void main() {
  uint tid = gl_LocalInvocationIndex;
  if (tid == 0u) {
    s_ticket = atomicAdd(pc.header.v[kHeaderTickets + pc.pass], 1u);
    s_uniformDigit = kRadix;
  }
  for (uint i = tid; i < MAX_SUBGROUPS * kRadix; i += WG) s_subgroupCounts[i] = 0u;
  barrier();
  uint tile = s_ticket;
  uint keyCount = sortCount();
  uint tileCount = (keyCount + TILE - 1u) / TILE;
  if (tile >= tileCount) return;  // a spare workgroup of a 2D grid
  uint tileStart = tile * TILE;
  uint tileKeys = min(TILE, keyCount - tileStart);

  if ((pc.flags & kFlagClearNext) != 0u)
    for (uint d = tid; d < kRadix; d += WG) pc.statusNext.v[tile * kRadix + d] = 0u;

  // 2. Load, subgroup-striped.
  uint SG = gl_SubgroupSize;
  uint lane = gl_SubgroupInvocationID;
  uint subgroupFirst = gl_SubgroupID * SG * KPI;
  uint row = gl_SubgroupID * kRadix;
  uint keys[KPI];
  for (uint i = 0u; i < KPI; ++i) {
    uint idx = subgroupFirst + i * SG + lane;
    keys[i] = idx < tileKeys ? pc.keysIn.v[tileStart + idx] : 0u;
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
    publishCount(tile, d, count, pc.header.v[kHeaderHist + pc.pass * kRadix + d]);
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
      if (valid) s_tile[place[i]] = keys[i];
      subgroupBarrier();  // this step's counter writes before the next step's reads
    }
  }

  // 6. Look back for the global position of the tile's first key of each digit.
  for (uint d = tid; d < kRadix; d += WG) {
    uint binStart = pc.header.v[kHeaderHist + pc.pass * kRadix + d];
    s_digitDest[d] = lookBack(tile, d, s_digitCount[d], binStart) - s_digitScan[d];
  }
  barrier();

  // 7. Scatter: key j of the tile's digit order goes to s_digitDest[digit] + j, so consecutive
  //    invocations write consecutive addresses of a bin. dest[] keeps it for the values.
  uint dest[KPI];
  if (uniformTile) {
    for (uint i = 0u; i < KPI; ++i) {
      uint idx = subgroupFirst + i * SG + lane;
      dest[i] = s_digitDest[uniformDigit] + idx;
      if (idx < tileKeys) pc.keysOut.v[dest[i]] = keys[i];
    }
  } else {
    for (uint i = 0u; i < KPI; ++i) {
      uint j = i * WG + tid;
      if (j < tileKeys) {
        uint key = s_tile[j];
        dest[i] = s_digitDest[digitOf(key, pc.shift)] + j;
        pc.keysOut.v[dest[i]] = key;
      }
    }
  }
  if (!HAS_VALUES) return;

  // 8. Values, loaded only now, follow their keys through the same places.
  if (uniformTile) {
    for (uint i = 0u; i < KPI; ++i) {
      uint idx = subgroupFirst + i * SG + lane;
      if (idx < tileKeys) pc.valsOut.v[dest[i]] = pc.valsIn.v[tileStart + idx];
    }
    return;
  }
  barrier();  // every key has left s_tile
  for (uint i = 0u; i < KPI; ++i) {
    uint idx = subgroupFirst + i * SG + lane;
    if (idx < tileKeys) s_tile[place[i]] = pc.valsIn.v[tileStart + idx];
  }
  barrier();
  for (uint i = 0u; i < KPI; ++i) {
    uint j = i * WG + tid;
    if (j < tileKeys) pc.valsOut.v[dest[i]] = s_tile[j];
  }
}
