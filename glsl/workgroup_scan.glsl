// Workgroup-wide prefix sums, correct for any subgroup size (4..128) and any workgroup size
// that is a multiple of it. The including kernel defines MAX_SUBGROUPS (an upper bound on
// gl_NumSubgroups) before including this file.

shared uint s_subgroupTotals[MAX_SUBGROUPS];  // also binning_count.glsl's row sums, between barriers

// Exclusive prefix sum of one value per invocation, in gl_LocalInvocationIndex order; `total`
// receives the workgroup's sum. Every invocation must call it (it contains a barrier), and a
// barrier must come between it and the next call (s_subgroupTotals is read to the end).
uint workgroupExclusiveAddBeforeBarrier(uint x, out uint total) {
  uint inclusive = subgroupInclusiveAdd(x);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) s_subgroupTotals[gl_SubgroupID] = inclusive;
  barrier();
  uint before = 0u;
  total = 0u;
  for (uint s = 0u; s < gl_NumSubgroups; ++s) {
    uint t = s_subgroupTotals[s];
    if (s < gl_SubgroupID) before += t;
    total += t;
  }
  return before + inclusive - x;
}

// The same, with the barrier after it: s_subgroupTotals may be reused at once.
uint workgroupExclusiveAdd(uint x, out uint total) {
  uint exclusive = workgroupExclusiveAddBeforeBarrier(x, total);
  barrier();
  return exclusive;
}

// The kRadix digits split over the workgroup: invocation i owns the digits
// [i * DIGITS_PER_INVOCATION, +DIGITS_PER_INVOCATION) (none at or past kRadix).
const uint DIGITS_PER_INVOCATION = (kRadix + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;
// The includer's hook, DIGIT_SCAN_WORDS: kRadix, or 1 where the digit starts stay in registers
// and it uses neither scan below (binning_tile.glsl's DIGITS_IN_REGISTERS).
#ifndef DIGIT_SCAN_WORDS
#error "workgroup_scan.glsl: the includer defines DIGIT_SCAN_WORDS"
#endif
shared uint s_digitScan[DIGIT_SCAN_WORDS];

// s_digitScan over this invocation's digits (their counts in `own`, 0 past kRadix) becomes the
// exclusive prefix sum over all digits; returns the sum of all. Every invocation must call it;
// a barrier must follow before s_digitScan is read or the scan runs again.
uint scanOwnDigits(uint own[DIGITS_PER_INVOCATION]) {
  uint first = gl_LocalInvocationIndex * DIGITS_PER_INVOCATION;
  uint sum = 0u;
  [[unroll]] for (uint i = 0u; i < DIGITS_PER_INVOCATION; ++i) sum += own[i];
  uint total;
  // Its barrier orders earlier reads; the caller's barrier (below), what follows.
  uint running = workgroupExclusiveAddBeforeBarrier(sum, total);
  [[unroll]] for (uint i = 0u; i < DIGITS_PER_INVOCATION; ++i) {
    if (first + i < kRadix) s_digitScan[first + i] = running;
    running += own[i];
  }
  return total;
}

// Replaces s_digitScan with its exclusive prefix sum over digits and returns the sum of all.
// Every invocation must call it; s_digitScan must be complete (behind a barrier) on entry.
uint exclusiveScanDigits() {
  uint first = gl_LocalInvocationIndex * DIGITS_PER_INVOCATION;
  uint own[DIGITS_PER_INVOCATION];
  [[unroll]] for (uint i = 0u; i < DIGITS_PER_INVOCATION; ++i) own[i] = first + i < kRadix ? s_digitScan[first + i] : 0u;
  uint total = scanOwnDigits(own);
  barrier();
  return total;
}
