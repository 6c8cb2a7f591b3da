// Every switch of the binning kernels in one list: the kernel's hooks, the specialization
// constants the host gives (src/variant.cpp's decideVariant() sets them, shader_interface.h
// registers them), and what follows from them here, each with why. The kernels include this
// first, after common.glsl and their hooks; the phases (binning_*.glsl, lookback.glsl) only read
// these names. A kernel that misses a hook does not build.
// Derived switches combine constants in products and sums of uint(...), not && and ||: glslang
// makes those of specialization constants run-time values, which cannot size an array.
#ifndef VKSORT_BINNING_SWITCHES_GLSL
#define VKSORT_BINNING_SWITCHES_GLSL
#define PERMUTATION_FORMS  // pass_route.glsl: the pipeline says which it compiles in
#ifndef VKSORT_COMMON_GLSL
#error "binning_switches.glsl: include common.glsl first"
#endif

// ---- The kernel's hooks.
// BINNING_KERNEL: which kernel this is; it decides which constants below it declares.
#define VKSORT_ONESWEEP_PASS 1  // onesweep.glsl: tickets, look-back, hot digits, prefetches
#define VKSORT_DOWNSWEEP 2      // downsweep.glsl: tickets
#define VKSORT_CHAINED 3        // chained.glsl: look-back, one tile per workgroup
#define VKSORT_SMALL_SORT 4     // small_sort.glsl: one workgroup, every pass
#if !defined(BINNING_KERNEL)
#error "binning: the kernel defines BINNING_KERNEL (VKSORT_ONESWEEP_PASS, VKSORT_DOWNSWEEP, VKSORT_CHAINED or VKSORT_SMALL_SORT)"
#endif
// KEYS_IN, KEYS_OUT, VALS_IN, VALS_IN64, VALS_OUT, VALS_OUT64: the reference types keys and
// values go through (common.glsl's KeysIn..., or the kernel's own: coherent, read-write).
#if !defined(KEYS_IN) || !defined(KEYS_OUT) || !defined(VALS_IN) || !defined(VALS_IN64) || !defined(VALS_OUT) || \
    !defined(VALS_OUT64)
#error "binning: the kernel defines KEYS_IN, KEYS_OUT, VALS_IN, VALS_IN64, VALS_OUT and VALS_OUT64"
#endif
// ON_TILE_COUNT(digit, count): what the kernel does with a digit's count in the tile as soon as
// the row sums know it (the look-back kernels publish it); BEFORE_COUNT_BARRIER(): what the
// count's barrier should publish besides. Either may be empty.
#if !defined(ON_TILE_COUNT) || !defined(BEFORE_COUNT_BARRIER)
#error "binning: the kernel defines ON_TILE_COUNT(digit, count) and BEFORE_COUNT_BARRIER() (empty where it has none)"
#endif
// PASS_INDEX, PASS_MOVING: the kernel's pass and the passes that move keys (a shared word or a
// constant), for the permutation forms (pass_route.glsl's passIndexValues(), passWritesKeys()).
#if !defined(PASS_INDEX) || !defined(PASS_MOVING)
#error "binning: the kernel defines PASS_INDEX and PASS_MOVING (its pass; the passes that move keys)"
#endif
#define TAKES_TICKETS (BINNING_KERNEL == VKSORT_ONESWEEP_PASS || BINNING_KERNEL == VKSORT_DOWNSWEEP)
#define LOOKS_BACK (BINNING_KERNEL == VKSORT_ONESWEEP_PASS || BINNING_KERNEL == VKSORT_CHAINED)

// ---- Given: every binning kernel.
layout(local_size_x_id = VKSORT_SPEC_WORKGROUP_SIZE) in;
// The tile: WG invocations x KEYS_PER_INVOCATION keys.
layout(constant_id = VKSORT_SPEC_KEYS_PER_INVOCATION) const uint KEYS_PER_INVOCATION = 16u;
// The smallest subgroup the device may run: sizes the per-subgroup counter rows.
layout(constant_id = VKSORT_SPEC_MIN_SUBGROUP_SIZE) const uint MIN_SUBGROUP_SIZE = 4u;
// 32-bit words of a ballot the largest subgroup needs (subgroup_rank.glsl's masks).
layout(constant_id = VKSORT_SPEC_BALLOT_WORDS) const uint BALLOT_WORDS = 4u;
// Values: 0 (keys alone), 1 or 2 words; the reorder area's width.
layout(constant_id = VKSORT_SPEC_VALUE_WORDS) const uint VALUE_WORDS = 0u;
// Parts the tile goes through shared memory in (> 1: larger than it holds); divides KEYS_PER_INVOCATION.
layout(constant_id = VKSORT_SPEC_REORDER_ROUNDS) const uint REORDER_ROUNDS = 1u;
// kRanking*: how a key finds its place among its subgroup's keys of its digit (binning_rank.glsl).
layout(constant_id = VKSORT_SPEC_RANKING) const uint RANKING = kRankingBallots;
// kValues*: when values load and where they wait (binning_scatter.glsl).
layout(constant_id = VKSORT_SPEC_VALUE_HANDLING) const uint VALUE_HANDLING = kValuesNone;

// ---- Given: kernels whose workgroups take tiles by ticket (tile_tickets.glsl).
#if TAKES_TICKETS
// A workgroup takes tiles while tickets last, loading the next while it scatters this one.
layout(constant_id = VKSORT_SPEC_PERSISTENT_TILES) const bool PERSISTENT_TILES = false;
#else
const bool PERSISTENT_TILES = false;  // one tile per workgroup
#endif

// ---- Given: Onesweep's pass (the histogram named each pass's most frequent digit and its share).
#if BINNING_KERNEL == VKSORT_ONESWEEP_PASS
// Pairs touch their values and the next tile's keys into L2 while the tile counts and ranks.
layout(constant_id = VKSORT_SPEC_PREFETCH_PAIRS) const bool PREFETCH_PAIRS = false;
// A pass the scan classed hot has its top digit counted a subgroup step at a time, a crowded one
// is counted with its tests (countIntoRows(); shader_interface.h's kPass*).
layout(constant_id = VKSORT_SPEC_HOT_DIGITS) const bool HOT_DIGITS = false;
// And a pass classed kPassHotRanked has it ranked a step at a time (atomic ranking only).
layout(constant_id = VKSORT_SPEC_HOT_RANKING) const bool HOT_RANKING = false;
#else
const bool PREFETCH_PAIRS = false;
const bool HOT_RANKING = false;  // no hot digit named
#endif

// ---- Given: kernels that look back (lookback.glsl).
#if LOOKS_BACK
// kAccess*: status words read with plain loads or atomics, published with plain stores or atomics.
layout(constant_id = VKSORT_SPEC_LOOKBACK_LOADS) const uint LOOKBACK_LOADS = kAccessAtomics;
layout(constant_id = VKSORT_SPEC_LOOKBACK_STORES) const uint LOOKBACK_STORES = kAccessAtomics;
// Predecessors whose words are read at once.
layout(constant_id = VKSORT_SPEC_LOOKBACK_WINDOW) const uint LOOKBACK_WINDOW = 1u;
// Spin turns on a silent predecessor before counting its tile (0: at once; kLookbackNeverFallsBack: no fallback compiled).
layout(constant_id = VKSORT_SPEC_LOOKBACK_WAIT) const uint LOOKBACK_WAIT = kLookbackNeverFallsBack;
// Spins re-read in straight-line code each turn, to outlast llvmpipe's loop limiter (patient_wait.glsl).
layout(constant_id = VKSORT_SPEC_PATIENT_WAITS) const bool PATIENT_WAITS = false;
// Torture: one tile in LOOKBACK_WITHHELD publishes nothing, as a parked workgroup would not
// (lookback.glsl's withholdsPosts(); the developer option withhold_posts). 0: none.
layout(constant_id = VKSORT_SPEC_LOOKBACK_WITHHELD) const uint LOOKBACK_WITHHELD = 0u;
#endif

// ---- Given: the one-workgroup sort.
#if BINNING_KERNEL == VKSORT_SMALL_SORT
// Pairs, where shared memory has room (the tuning's choice): the riders go to their keys' places
// in an area of their own in the same step, not through s_tile after the keys (two barriers more).
layout(constant_id = VKSORT_SPEC_RIDERS_ALONGSIDE) const bool RIDERS_ALONGSIDE = false;
#endif

// ---- The tile's sizes.
const uint WG = gl_WorkGroupSize.x;
const uint KPI = KEYS_PER_INVOCATION;
const uint TILE = WG * KPI;
const uint ROUND_KPI = KPI / REORDER_ROUNDS;  // an invocation's keys per reorder round
const uint PART = WG * ROUND_KPI;             // elements the reorder area holds
const uint MAX_SUBGROUPS = WG / MIN_SUBGROUP_SIZE;
const uint TILE_WORDS = VALUE_WORDS > kKeyWords ? VALUE_WORDS : kKeyWords;
const uint REORDER_WORDS = PART * TILE_WORDS;
const uint COUNTER_PAIRS = (MAX_SUBGROUPS + 1u) / 2u;  // rows of counter words: subgroup pairs
const uint COUNTER_WORDS = COUNTER_PAIRS * kRadix;

// ---- Derived.
// Several rounds: each key's place waits in registers, the keys go to the area a round at a time,
// and the counters live in the area's words (done with before the first round).
const bool DEFERRED_STORES = REORDER_ROUNDS > 1u;
const uint SHARED_TILE_WORDS = DEFERRED_STORES && COUNTER_WORDS > REORDER_WORDS ? COUNTER_WORDS : REORDER_WORDS;
// Ranking by shared atomics, either form: no ballots, no barrier between ranking steps.
const bool ATOMIC_RANKING = uint(RANKING == kRankingAtomics) + uint(RANKING == kRankingAtomicsRankFirst) != 0u;
// Ranking before the row sums: its atomics count the keys too.
const bool RANK_FIRST = RANKING == kRankingAtomicsRankFirst;
// Tiles that rank first with HOT_RANKING count by their ranking: the count takes no hot digit.
const bool COUNT_TAKES_HOT_DIGIT = !(RANK_FIRST && HOT_RANKING);
// 32-bit values load with their keys and wait in registers (one round).
const bool RIDING_VALUES = VALUE_HANDLING == kValuesRiding;
// Values load before the key scatter, to hide their latency behind it (several rounds).
const bool EARLY_HELD_VALUES = VALUE_HANDLING == kValuesHeldEarly;
// Persistent keys alone in one round: after its ranking a subgroup's counter row is its own, so it
// counts its keys of the next tile right after its scatter, with no workgroup barrier between.
const bool EARLY_NEXT_COUNT = PERSISTENT_TILES && VALUE_WORDS == 0u && !DEFERRED_STORES;
// Whole tiles load without tests of which slots hold keys where that measured faster: pairs and
// 64-bit keys alone.
const bool WHOLE_LOADS = VALUE_WORDS != 0u || kKeyWords == 2u;
// 64-bit keys alone scatter whole tiles without the tests (the others measured slower so).
const bool WHOLE_SCATTER = kKeyWords == 2u && VALUE_WORDS == 0u;
// Each digit's counter rows summed by ROW_CHUNKS invocations, each over a chunk of the subgroup
// pairs, where the workgroup has a whole number (2 or more) of invocations per digit and the area
// room for the chunk sums past the counters.
const uint ROW_CHUNKS = WG / kRadix;
const uint CHUNK_SUMS = DEFERRED_STORES ? COUNTER_WORDS : 0u;  // where in s_tile
const uint CHUNKED = uint(WG % kRadix == 0u) * uint(ROW_CHUNKS >= 2u) * uint(CHUNK_SUMS + WG <= SHARED_TILE_WORDS);
const bool CHUNKED_ROWS = CHUNKED != 0u;
// Pair rows per chunk, at most (the divisor kept from 0: KNOWN_ROW_REGS sizes arrays by it).
const uint CHUNK_PAIRS = (COUNTER_PAIRS + ROW_CHUNKS - 1u) / (ROW_CHUNKS + uint(ROW_CHUNKS == 0u));
// Loops over at most this many counter rows are unrolled (32-lane subgroups; small subgroups
// make up to 64 rows).
const uint kUnrolledRows = 8u;
// Rows left as the ranking leaves them (early next count, chunked sums): the next tile counts on
// top of them, and the row sums subtract what they held (t_rowsAfter).
const bool KNOWN_ROWS = uint(EARLY_NEXT_COUNT) * CHUNKED * uint(CHUNK_PAIRS <= kUnrolledRows) * uint(!RANK_FIRST) != 0u;
const uint KNOWN_ROW_REGS = CHUNK_PAIRS - 1u < kUnrolledRows ? CHUNK_PAIRS : 1u;  // 1 to 8 (an array's size)
// Keys alone with chunked row sums: a digit's count and start stay in its owner's registers.
const uint DIGITS_IN_REGISTERS = CHUNKED * uint(VALUE_WORDS == 0u);
const uint DIGIT_WORDS = kRadix - DIGITS_IN_REGISTERS * (kRadix - 1u);
#if BINNING_KERNEL == VKSORT_ONESWEEP_PASS
// Prefetching pairs take their next ticket before the count, to know that tile in time (the host
// sets PREFETCH_PAIRS only for persistent pairs).
const bool EARLY_TICKET = PREFETCH_PAIRS;
#endif
#if BINNING_KERNEL == VKSORT_SMALL_SORT
// Each key's rider is its value where values are 32-bit, loaded with the keys, so that no gather
// by source waits on global memory after the last pass; else its source index.
const bool RIDE_VALUES = VALUE_WORDS == 1u;
#endif
#if LOOKS_BACK
const bool LOOKBACK_FALLS_BACK = LOOKBACK_WAIT != kLookbackNeverFallsBack;
#endif

#endif  // VKSORT_BINNING_SWITCHES_GLSL
