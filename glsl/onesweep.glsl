// Onesweep binning pass (Adinets & Merrill 2022): one sweep moves every key (and value) to its
// place for this pass's digit. Per tile of TILE keys:
//   1. take a tile ticket (tiles are numbered in the order workgroups start, never by
//      gl_WorkGroupID, so the look-back only ever waits on running workgroups);
//   2. load the tile, subgroup-striped: subgroup s holds keys [s*SG*KPT, (s+1)*SG*KPT), lane l
//      key i at s*SG*KPT + i*SG + l, so loads coalesce and rank order is input order (stable);
//   3. rank each key among its subgroup's keys of the same digit (ballot multisplit);
//   4. sum per-subgroup counts into the tile's digit counts, publish them, scan them;
//   5. place keys in shared memory in digit order (skipped when one digit holds every key: a
//      uniform tile keeps input order); look back for the global digit offsets;
//   6. write keys out from shared memory: consecutive invocations write consecutive addresses
//      of the same bin. Values follow with the same permutation, never held during ranking.
// Reads keysIn/valsIn [tile range], header bin starts and ticket, status of predecessors.
// Writes keysOut/valsOut, this tile's status words, statusNext of this tile (cleared).
// Shared memory: s_tile[TILE] (keys, then values, in digit order), s_subgroupCounts
// [MAX_SUBGROUPS][kRadix], s_digitScan/s_digitCount/s_digitDest [kRadix] and a few words.
// The kernel body, compiled twice: onesweep.comp ranks with ballots (any device),
// onesweep_partitioned.comp with subgroupPartitionNV (VK_NV_shader_subgroup_partitioned).
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
  uint tileCount = (pc.count + TILE - 1u) / TILE;
  if (tile >= tileCount) return;  // a spare workgroup of a 2D grid
  uint tileStart = tile * TILE;
  uint tileKeys = min(TILE, pc.count - tileStart);

  if ((pc.flags & kFlagClearNext) != 0u)
    for (uint d = tid; d < kRadix; d += WG) pc.statusNext.v[tile * kRadix + d] = 0u;

  // 2. Load, subgroup-striped.
  uint SG = gl_SubgroupSize;
  uint lane = gl_SubgroupInvocationID;
  uint subgroupFirst = gl_SubgroupID * SG * KPI;
  uint keys[KPI];
  for (uint i = 0u; i < KPI; ++i) {
    uint idx = subgroupFirst + i * SG + lane;
    keys[i] = idx < tileKeys ? pc.keysIn.v[tileStart + idx] : 0u;
  }

  // 3. Rank within the subgroup: rank = keys of the same digit before this one in the subgroup.
  //    Per key, (rank << kRadixBits) | digit.
  uint ranked[KPI];
  uint row = gl_SubgroupID * kRadix;
  for (uint i = 0u; i < KPI; ++i) {
    bool valid = subgroupFirst + i * SG + lane < tileKeys;
    uint digit = digitOf(keys[i], pc.shift);
    uvec4 peers = matchDigit(digit, valid);
    uint leader = highestPeer(peers);
    uint before = peerCount(peers & lanesBelow());
    uint seen = 0u;
    if (valid && lane == leader) {  // the last peer holds the count so far for all of them
      seen = s_subgroupCounts[row + digit];
      s_subgroupCounts[row + digit] = seen + before + 1u;
    }
    seen = subgroupShuffle(seen, valid ? leader : lane);
    ranked[i] = ((seen + before) << kRadixBits) | digit;
    subgroupBarrier();  // this step's counter writes before the next step's reads
  }
  barrier();

  // 4. Digit counts of the tile; subgroup rows become exclusive offsets within the digit. A digit
  //    holding every key makes the tile uniform: its keys keep their order (no reorder needed).
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
  bool uniformTile = s_uniformDigit != kRadix;
  uint uniformDigit = s_uniformDigit;

  // 5. Keys to shared memory in digit order (uniform tiles keep input order in registers).
  if (!uniformTile) {
    for (uint i = 0u; i < KPI; ++i) {
      uint d = ranked[i] & (kRadix - 1u);
      if (subgroupFirst + i * SG + lane < tileKeys)
        s_tile[s_digitScan[d] + s_subgroupCounts[gl_SubgroupID * kRadix + d] + (ranked[i] >> kRadixBits)] = keys[i];
    }
  }
  for (uint d = tid; d < kRadix; d += WG) {
    uint binStart = pc.header.v[kHeaderHist + pc.pass * kRadix + d];
    s_digitDest[d] = lookBack(tile, d, s_digitCount[d], binStart) - s_digitScan[d];
  }
  barrier();

  // 6. Scatter. dest[] keeps each key's global position for its value.
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
    uint d = ranked[i] & (kRadix - 1u);
    if (idx < tileKeys)
      s_tile[s_digitScan[d] + s_subgroupCounts[gl_SubgroupID * kRadix + d] + (ranked[i] >> kRadixBits)] = pc.valsIn.v[tileStart + idx];
  }
  barrier();
  for (uint i = 0u; i < KPI; ++i) {
    uint j = i * WG + tid;
    if (j < tileKeys) pc.valsOut.v[dest[i]] = s_tile[j];
  }
}
