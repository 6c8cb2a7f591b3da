// Constant passes skipped on the GPU. A pass whose digit is the same for every key (a depth's
// constant top byte, 16-bit keys sorted over 32 bits) would scatter every key to where it already
// is. The scan kernel knows from the histogram which passes move keys and sets their bits in
// header[kHeaderMovingPasses]; every kernel of a pass asks here what its pass does.
// The recording, fixed before the GPU counts anything, alternates the buffers: pass p reads the
// caller's where p is even and the scratch copies where odd, and a copy-back follows an odd number
// of passes. Skipping two passes in a row keeps that alternation, so no kernel needs to find its
// buffers at run time (choosing them at each use adds work to every tile's hot path of every
// sort: PERFORMANCE-LOG.md, session 42). So in each run of consecutive constant passes all are
// skipped where the run's length is even; where it is odd, its first pass copies its input to its
// output instead (a tile load and store, in the pass's own dispatch) and the others are skipped.
// Every pass constant: nothing runs, and the copy-back copies nothing.
#ifndef VKSORT_PASS_ROUTE_GLSL
#define VKSORT_PASS_ROUTE_GLSL

const uint kPassSkips = 0u;   // reads and writes nothing
const uint kPassCopies = 1u;  // copies its input to its output, element for element
const uint kPassBins = 2u;    // sorts by its digit

// The passes that run (read their input, write their output), from the moving ones: each
// constant pass that starts a run of odd length copies. Independent turns, no loop-carried
// chain: it sits on a chained sort's critical path.
uint runningPasses(uint moving) {
  if (moving == 0u) return 0u;
  uint running = moving;
  [[unroll]] for (uint p = 0u; p < kMaxPasses; ++p) {
    uint after = moving >> p;  // bit 0: pass p
    bool runStarts = p < pc.passCount && (after & 1u) == 0u && (p == 0u || ((moving >> (p - 1u)) & 1u) != 0u);
    uint length = after != 0u ? uint(findLSB(after)) : pc.passCount - p;
    if (runStarts && (length & 1u) != 0u) running |= 1u << p;
  }
  return running;
}

// The flags a pipeline compiles in (the binning kernels': a specialization constant, so that a
// sort of given values and kept keys runs exactly the code it ran before these forms existed;
// kernels without it take the flags alone).
#ifdef PERMUTATION_FORMS
layout(constant_id = VKSORT_SPEC_PERMUTATION) const uint PERMUTATION = 0u;
#else
const uint PERMUTATION = kFlagIndexValues | kFlagDiscardKeys;
#endif
// The passes that move keys, from the header's word: with index values (kFlagIndexValues) a sort
// none of whose passes moves still has its values to write, so its first pass moves (a constant
// digit keeps every key in place).
// (The constant's test first, where it folds: a pipeline without the form is then the one before it.)
uint movingPasses(uint headerWord) {
  return (PERMUTATION & pc.flags & kFlagIndexValues) != 0u && headerWord == 0u ? 1u : headerWord;
}

// Whether pass `pass` sorts by its digit (else it skips or copies).
bool passMoves(uint pass) { return ((movingPasses(pc.header.v[kHeaderMovingPasses]) >> pass) & 1u) != 0u; }

// What pass `pass` does (kPass*), from the passes that move and those that run.
uint passWork(uint pass, uint moving, uint running) {
  return ((moving >> pass) & 1u) != 0u ? kPassBins : ((running >> pass) & 1u) != 0u ? kPassCopies : kPassSkips;
}
// The same from the moving passes alone; the passes that run are found only for a pass that
// does not move (on every tile of a binning kernel, this costs a test and a branch).
uint passWork(uint pass, uint moving) {
  return ((moving >> pass) & 1u) != 0u ? kPassBins : passWork(pass, moving, runningPasses(moving));
}

// Thread 0 reads the moving passes into s_movingPasses, with the kernel's first loads (the
// ticket), behind the barrier that follows them: the tile's loads wait on one round trip, not
// two. (Thread 0 working out what the pass does there, for the others to read, would delay the
// barrier every tile waits at: PERFORMANCE-LOG.md, session 42.)
shared uint s_movingPasses;
void readMovingPasses() {
  if (gl_LocalInvocationIndex == 0u) s_movingPasses = movingPasses(pc.header.v[kHeaderMovingPasses]);
}

// What a pass writes and reads besides keys, from the passes that move: with index values
// (kFlagIndexValues) the first that moves generates each key's index as its value rather than
// reading one; with kFlagDiscardKeys the last writes values alone. A pass that copies copies what
// it finds: keys unless none are wanted any more, values once there are some.
bool indexValuesIn(uint pass, uint moving) {
  return (PERMUTATION & pc.flags & kFlagIndexValues) != 0u && (moving & ((1u << pass) - 1u)) == 0u;  // no moving pass before
}
bool writesKeys(uint pass, uint moving) {
  return (PERMUTATION & pc.flags & kFlagDiscardKeys) == 0u || (moving >> pass) > 1u;  // a moving pass after this one
}
// The same for the tile machinery (binning_*.glsl), from the kernel's hooks PASS_INDEX and
// PASS_MOVING (its pass, and the passes that move: in shared memory or a constant), read at each
// use: nothing more lives in registers through a tile's work, which on NVIDIA sits at the
// register cap (PERFORMANCE-LOG.md, s53).
#ifdef PASS_INDEX
bool passIndexValues() { return indexValuesIn(PASS_INDEX, PASS_MOVING); }
bool passWritesKeys() { return writesKeys(PASS_INDEX, PASS_MOVING); }
#endif

// Keys mapped once. A sort that discards its keys (kFlagDiscardKeys) never writes them back, so
// its keys need not keep their stored bits between passes: the first pass that moves them maps
// the caller's keys to their ordered bits (orderedBits(): the key type's map, descending, the bit
// range) as they enter its tiles and moves those; later passes take digits straight from them, as
// from u32 keys, where an f32 pass would map at each of a key's three or four digit reads
// (PERFORMANCE-LOG.md, s53 and s55). A pass that copies copies what it finds, so
// keys stay unmapped up to the first pass that moves. The kernel opts in with KEYS_MAPPED_ONCE
// where every pass of a sort is its own (Onesweep's binning: reduce-then-scan's upsweep, the
// chained sort and the small sorts read keys as stored).
#if defined(KEYS_MAPPED_ONCE) && defined(PERMUTATION_FORMS)
const bool MAPS_ONCE = (PERMUTATION & kFlagDiscardKeys) != 0u;
#else
const bool MAPS_ONCE = false;
#endif
#ifdef PASS_INDEX
// Whether this pass is the first that moves keys (then it maps them, with MAPS_ONCE).
bool passMapsIn() { return (PASS_MOVING & ((2u << PASS_INDEX) - 1u)) == (1u << PASS_INDEX); }
// The digit at `shift` of a key in a tile (mapped, where the pass maps once).
uint tileDigitOf(KeyT key, uint shift) { return MAPS_ONCE ? orderedDigitOf(key, shift) : digitOf(key, shift); }
// The digit at `shift` of a key as the pass's input holds it.
uint inputDigitOf(KeyT key, uint shift) { return MAPS_ONCE && !passMapsIn() ? orderedDigitOf(key, shift) : digitOf(key, shift); }
#endif

#endif  // VKSORT_PASS_ROUTE_GLSL
