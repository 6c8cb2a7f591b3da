// The binning tile's count phase: each subgroup's digit counts into its counter row (shared
// atomics), then the rows summed into each subgroup's first place per digit and the tile's digit
// counts, starts and uniformity.
#ifndef VKSORT_BINNING_COUNT_GLSL
#define VKSORT_BINNING_COUNT_GLSL
#include "binning_load.glsl"

// Before countTile/countDigits, behind a barrier (the caller's, to share it).
void clearTileCounts() {
  for (uint i = gl_LocalInvocationIndex; i < COUNTER_WORDS; i += WG) counterStore(i, 0u);
  if (KNOWN_ROWS) {
    [[unroll]] for (uint k = 0u; k < KNOWN_ROW_REGS; ++k) t_rowsAfter[k] = 0u;
  }
  if (gl_LocalInvocationIndex == 0u) s_uniformDigit = kRadix;
}

uint counterPairs() { return divideUp(gl_NumSubgroups, 2u); }

// Digit `digit`'s counters in the pair rows from `begin` to `end` become their exclusive sums;
// returns their sum (below 2^16 before the last row: a subgroup holds fewer keys than that; the
// whole tile up to 2^16).
void sumRow(uint at, inout uint sum) {
  uint w = counterLoad(at), low = w & 0xFFFFu;
  counterStore(at, sum | ((sum + low) << 16u));
  sum += low + (w >> 16u);
}
// Loops over at most MAX_ROWS rows unrolled where that is few (kUnrolledRows), so that their
// loads need not wait on each other; a plain loop where subgroups are small.
uint sumRows(uint digit, uint begin, uint end, const uint MAX_ROWS) {
  uint sum = 0u;
  if (MAX_ROWS <= kUnrolledRows) {
    [[unroll]] for (uint k = 0u; k < MAX_ROWS; ++k)
      if (begin + k < end) sumRow((begin + k) * kRadix + digit, sum);
  } else {
    for (uint p = begin; p < end; ++p) sumRow(p * kRadix + digit, sum);
  }
  return sum;
}

// Adds `add` to both halves of digit `digit`'s counters in the pair rows from `begin` to `end`.
void addToRows(uint digit, uint begin, uint end, uint add, const uint MAX_ROWS) {
  if (MAX_ROWS <= kUnrolledRows) {
    [[unroll]] for (uint k = 0u; k < MAX_ROWS; ++k) {
      uint at = (begin + k) * kRadix + digit;
      if (begin + k < end) counterStore(at, counterLoad(at) + add * 0x10001u);
    }
  } else {
    for (uint p = begin; p < end; ++p) {
      uint at = p * kRadix + digit;
      counterStore(at, counterLoad(at) + add * 0x10001u);
    }
  }
}

// Behind a barrier after the subgroup rows were counted: the rows become each subgroup's first
// place in the tile's digit order among the keys of the digit (the digit's start in the tile plus
// the keys of that digit in earlier subgroups: the ranking then adds only its peers; every place
// is below the tile's 2^16 keys, so the 16-bit halves do not spill); tileDigitCount() gives the
// tile's counts, tileDigitStart() their exclusive sum over digits, s_uniformDigit the digit of a uniform
// tile. ON_TILE_COUNT(digit, count), the kernel's hook, sees each digit's count as soon as it is
// known. Each invocation owns DIGITS_PER_INVOCATION digits for the digit scan. Every
// invocation must call it; ends behind a barrier.
// CHUNKED_ROWS: each digit's rows are summed by ROW_CHUNKS invocations, a chunk of the pair rows
// each (the serial walk over every row by the digits' owners alone left the rest of the
// workgroup waiting: 16 pair rows in a 1024-invocation tile). KNOWN_ROWS: after a tile's ranking
// each counter word holds what its row-sum invocation can compute (each half: its subgroup's
// first place of the digit plus its count of it), so the next tile's keys are counted on top of
// it without clearing the row (an atomic AND per word and a subgroup barrier), and the sums
// subtract it (t_rowsAfter, one register per row of the chunk).
void sumSubgroupRows() {
  uint tid = gl_LocalInvocationIndex;
  if (CHUNKED_ROWS) {
    // Invocation (chunk c, digit d): the rows of chunk c, then every chunk's sums (chunk 0,
    // invocations 0-255, owns the digits). Each chunk scans the digit totals itself (its
    // subgroups hold consecutive digits: every subgroup size divides kRadix) and chunk 0's
    // subgroups share their sums, so every invocation knows its digit's start behind one barrier.
    uint d = tid % kRadix, c = tid / kRadix;
    uint pairs = divideUp(counterPairs(), ROW_CHUNKS);
    uint begin = min(c * pairs, counterPairs()), end = min(begin + pairs, counterPairs());
    // KNOWN_ROWS: the rows hold this tile's counts on top of what the last tile's ranking left
    // (t_rowsAfter): the counts stay in registers until the starts go in.
    uint counts[KNOWN_ROW_REGS];
    if (KNOWN_ROWS) {
      uint sum = 0u;
      [[unroll]] for (uint k = 0u; k < KNOWN_ROW_REGS; ++k) {
        counts[k] = begin + k < end ? counterLoad((begin + k) * kRadix + d) - t_rowsAfter[k] : 0u;
        sum += (counts[k] & 0xFFFFu) + (counts[k] >> 16u);
      }
      s_tile[CHUNK_SUMS + tid] = sum;
    } else {
      s_tile[CHUNK_SUMS + tid] = sumRows(d, begin, end, CHUNK_PAIRS);
    }
    barrier();
    uint before = 0u;  // the digit's keys in earlier chunks
    uint total = 0u;
    [[unroll]] for (uint k = 0u; k < ROW_CHUNKS; ++k) {
      uint chunk = s_tile[CHUNK_SUMS + k * kRadix + d];
      if (k < c) before += chunk;
      total += chunk;
    }
    uint inclusive = subgroupInclusiveAdd(total);
    uint group = d / gl_SubgroupSize;
    if (c == 0u) {
      if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) s_subgroupTotals[group] = inclusive;
      if (total == t_count) s_uniformDigit = d;
      if (DIGITS_IN_REGISTERS == 0u) s_digitCount[d] = total;
      ON_TILE_COUNT(d, total);
    }
    barrier();
    uint start = inclusive - total;
    for (uint g = 0u; g < group; ++g) start += s_subgroupTotals[g];
    if (DIGITS_IN_REGISTERS != 0u) {
      t_digitCount = total;
      t_digitStart = start;
    } else if (c == 0u) {
      s_digitScan[d] = start;
    }
    if (KNOWN_ROWS) {
      // Each row's first places (a uniform tile, not ranked: what its ranking would leave), and
      // in t_rowsAfter what the ranking leaves.
      bool uniformTile = s_uniformDigit != kRadix;
      uint at = before + start;
      [[unroll]] for (uint k = 0u; k < KNOWN_ROW_REGS; ++k) {
        uint high = at + (counts[k] & 0xFFFFu);
        uint after = high | ((high + (counts[k] >> 16u)) << 16u);
        if (begin + k < end) counterStore((begin + k) * kRadix + d, uniformTile ? after : at | (high << 16u));
        t_rowsAfter[k] = after;
        at = high + (counts[k] >> 16u);
      }
    } else {
      addToRows(d, begin, end, before + start, CHUNK_PAIRS);
    }
    barrier();
    return;
  }
  // Otherwise the owners of the digits walk every row of their digits.
  uint first = tid * DIGITS_PER_INVOCATION;
  uint own[DIGITS_PER_INVOCATION];
  [[unroll]] for (uint i = 0u; i < DIGITS_PER_INVOCATION; ++i) own[i] = 0u;
  if (first < kRadix) {
    [[unroll]] for (uint i = 0u; i < DIGITS_PER_INVOCATION; ++i) {
      uint d = first + i;
      if (d >= kRadix) continue;
      own[i] = sumRows(d, 0u, counterPairs(), COUNTER_PAIRS);
      if (own[i] == t_count) s_uniformDigit = d;
      s_digitCount[d] = own[i];
      ON_TILE_COUNT(d, own[i]);
    }
  }
  scanOwnDigits(own);
  barrier();
  if (first < kRadix) {  // the digits' starts in the tile into their rows
    [[unroll]] for (uint i = 0u; i < DIGITS_PER_INVOCATION; ++i)
      if (first + i < kRadix) addToRows(first + i, 0u, counterPairs(), s_digitScan[first + i], COUNTER_PAIRS);
  }
  barrier();
}

// The tile's keys counted into their subgroups' rows (per-key shared atomics); countDigits() then
// sums the rows (sumSubgroupRows()) and ends behind a barrier. `hot`: a digit known to hold many
// of the keys (the scan classed the pass kPassHot*), kCrowdedPass where one holds nearly all of
// them (kPassCrowded), else kRadix. A subgroup's keys of that digit are counted by one atomic per
// step: atomics of many lanes on one word serialize. Two loops: one loop with both forms costs
// the common case.
const uint kCrowdedPass = kRadix + 1u;
void rankFirstSteps(uint shift, bool whole, bool hotRanking);
void countIntoRows(uint shift, uint hot) {
  t_rankedFirst = RANK_FIRST && hot == kRadix;
  if (t_rankedFirst) {
    if (HOT_RANKING && t_hotRankDigit < kRadix) rankFirstSteps(shift, false, true);
    else if (t_count == tileKeys()) rankFirstSteps(shift, true, false);
    else rankFirstSteps(shift, false, false);
  } else if (hot < kRadix) {
    [[unroll]] for (uint i = 0u; i < KPI; ++i) {
      uint digit = tileDigitOf(t_keys[i], shift);
      bool held = holdsKey(i), isHot = held && digit == hot;
      uvec4 hotLanes = subgroupBallot(isHot);
      uint add = isHot ? subgroupBallotBitCount(hotLanes) : 1u;
      if (isHot ? gl_SubgroupInvocationID == subgroupBallotFindLSB(hotLanes) : held)
        counterAdd(counterWord(gl_SubgroupID, digit), add << counterShift(gl_SubgroupID));
    }
  } else if (VALUE_WORDS == 0u && hot == kRadix && t_count == tileKeys()) {
    // Keys alone in a whole tile: every slot holds a key, so no test of which ones do (pairs
    // keep the tests, which cost them less than the branch; so does a crowded pass, kCrowdedPass,
    // whose atomics on one word the tests spread out).
    [[unroll]] for (uint i = 0u; i < KPI; ++i) {
      if (!stepInTile(i)) break;
      counterAdd(counterWord(gl_SubgroupID, tileDigitOf(t_keys[i], shift)), 1u << counterShift(gl_SubgroupID));
    }
  } else {
    [[unroll]] for (uint i = 0u; i < KPI; ++i) {
      uint digit = tileDigitOf(t_keys[i], shift);
      if (holdsKey(i)) counterAdd(counterWord(gl_SubgroupID, digit), 1u << counterShift(gl_SubgroupID));
    }
  }
}

// countIntoRows() unless the keys were counted already (`counted`: EARLY_NEXT_COUNT), then the
// row sums.
void countDigits(uint shift, uint hot, bool counted) {
  if (!counted) countIntoRows(shift, hot);
  BEFORE_COUNT_BARRIER();  // the kernel's hook: what the count's barrier should publish besides
  barrier();
  sumSubgroupRows();
}

// countDigits() with the tile's digit order for rankTile(): s_digitScan, t_uniform. Ends behind a
// barrier. `counted`: the keys are in the rows already (EARLY_NEXT_COUNT).
void countTile(uint shift, uint hot, bool counted) {
  countDigits(shift, hot, counted);
  t_uniform = s_uniformDigit != kRadix;
}

#endif  // VKSORT_BINNING_COUNT_GLSL
