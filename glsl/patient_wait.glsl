// Spin-waits that outlast llvmpipe's loop limiter. llvmpipe (lavapipe) ends a loop once the
// shader invocation has run 65535 loop turns, all its loops counted together
// (LP_MAX_TGSI_LOOP_ITERATIONS in gallivm), and from then on every loop after one turn: silently,
// with no error. A workgroup that spins longer than that on another one (a look-back, a chained
// pass waiting for the pass before) goes on with what it has, and later loops of the same
// invocation (row sums, walks) are cut short too. That was every wrong Onesweep sort seen on
// lavapipe (PERFORMANCE-LOG.md, "Spins that outlast llvmpipe's loop limiter").
// Where PATIENT_WAITS (tuning.cpp: llvmpipe; binning_switches.glsl), each turn of a spin re-reads
// in straight-line code until what it waits for arrives, PATIENT_READS reads long, so that the
// limiter's turns last PATIENT_READS times as long. Elsewhere the re-reads compile away (a
// specialization constant).

#define PATIENT_REPEAT4(x) x x x x
#define PATIENT_REPEAT32(x) PATIENT_REPEAT4(PATIENT_REPEAT4(x x))
const uint PATIENT_READS = 32u;

// In a spin's turn: while `waiting` holds, `value` = `reread`, up to PATIENT_READS times.
#define PATIENT_TURN(value, reread, waiting)        \
  if (PATIENT_WAITS) {                              \
    PATIENT_REPEAT32(if (waiting) value = reread;)  \
  }
