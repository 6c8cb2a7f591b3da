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

// Whether pass `pass` sorts by its digit (else it skips or copies).
bool passMoves(uint pass) { return ((pc.header.v[kHeaderMovingPasses] >> pass) & 1u) != 0u; }

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
  if (gl_LocalInvocationIndex == 0u) s_movingPasses = pc.header.v[kHeaderMovingPasses];
}

#endif  // VKSORT_PASS_ROUTE_GLSL
