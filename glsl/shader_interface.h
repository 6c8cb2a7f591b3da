// The one place that defines what host code and shaders both know: the radix, the scratch
// header layout, the look-back status word, and the push constants. Included by C++
// (src/) and by GLSL (glsl/common.glsl).
#ifndef VKSORT_SHADER_INTERFACE_H
#define VKSORT_SHADER_INTERFACE_H

#ifdef __cplusplus
#include <cstdint>
#include <vulkan/vulkan_core.h>
namespace vksort::detail {
#define VKSORT_CONST constexpr uint32_t
#define VKSORT_REF(glsl_type) VkDeviceAddress
using uint = uint32_t;
#else
#define VKSORT_CONST const uint
#define VKSORT_REF(glsl_type) glsl_type
#endif

VKSORT_CONST kRadixBits = 8u;
VKSORT_CONST kRadix = 1u << kRadixBits;
// Passes of a 64-bit key; 32-bit keys use the first four rows.
VKSORT_CONST kMaxPasses = 8u;

// Scratch header, in 32-bit words, written by the init kernel before each sort.
//   [kHeaderHist, +kMaxPasses*kRadix):   per pass, the digit histogram; the scan kernel turns
//                                        each row into the digits' exclusive bin starts
//   [kHeaderPortionStarts, +2*kRadix):   sorts in portions (below): the bin starts of the next
//                                        portion, two rows used in turn
//   kHeaderCount:                        the count of this sort (indirect sorts: read, clamped)
//   [kHeaderDispatch, +20):              indirect sorts: VkDispatchIndirectCommand x, y, z (+pad)
//                                        of the dispatches whose grids depend on the count
//   [kHeaderPassClasses, +kMaxPasses):   per pass, as the scan classed it: its most frequent
//                                        digit (bits 0-7), the pass's class (kPass*, bits 8-15)
//                                        and that digit's share of the keys (bits 16-31, of
//                                        kTopShareOne)
//   kHeaderMovingPasses:                 bit p set where pass p's digit differs between keys
//                                        (zeroed by init, set by the scan: pass_route.glsl)
//   kHeaderPassWork:                     the chained sort: the moving passes, those that run
//                                        << 8, and kPassWorkKnown (zeroed by init, written by
//                                        the last histogram workgroup: chained.glsl)
//   kHeaderFallbacks:                    look-backs that counted a predecessor's tile themselves
//                                        (lookback.glsl; zeroed by init; read by the tests)
//   [kHeaderPassGrids, +6*kMaxChoosingPasses): sorts whose passes choose between two binning
//                                        kernels: per pass, the VkDispatchIndirectCommand of its
//                                        plain kernel, then of its skewed one; the scan gives the
//                                        pass's tiles to one and none to the other
VKSORT_CONST kHeaderHist = 0u;
VKSORT_CONST kHeaderPortionStarts = kMaxPasses * kRadix;
VKSORT_CONST kHeaderCount = kHeaderPortionStarts + 2u * kRadix;
VKSORT_CONST kHeaderDispatch = kHeaderCount + 4u;  // 16-byte aligned
VKSORT_CONST kDispatchHistogram = 0u;                // index of a dispatch's x, y, z, pad
VKSORT_CONST kDispatchBinning = 1u;                  // Onesweep: a portion's tiles at most
VKSORT_CONST kDispatchCopyBack = 2u;
VKSORT_CONST kDispatchTiles = 3u;                    // reduce-then-scan: every tile
VKSORT_CONST kDispatchSmall = 4u;                    // the one-workgroup sort: 1 or 0 workgroups
VKSORT_CONST kHeaderPassClasses = kHeaderDispatch + 20u;
VKSORT_CONST kPassClassShift = 8u;
VKSORT_CONST kTopShareShift = 16u;
VKSORT_CONST kTopShareOne = 0xFFFFu;  // a share of all keys (percent * kTopShareOne fits 32 bits)
VKSORT_CONST kHeaderMovingPasses = kHeaderPassClasses + kMaxPasses;
VKSORT_CONST kHeaderPassWork = kHeaderMovingPasses + 1u;
VKSORT_CONST kPassWorkKnown = 1u << 16u;
VKSORT_CONST kHeaderFallbacks = kHeaderPassWork + 1u;
// The look-back's wait (VKSORT_SPEC_LOOKBACK_WAIT) that never ends in a fallback: none compiled.
VKSORT_CONST kLookbackNeverFallsBack = 0xFFFFFFFFu;
// Passes that may choose their kernel: the room left in the header (whose size every offset of
// the scratch after it follows).
VKSORT_CONST kMaxChoosingPasses = 4u;
VKSORT_CONST kHeaderPassGrids = kHeaderCount + 40u;  // pass p: + 6p plain, + 6p + 3 skewed
VKSORT_CONST kHeaderWords = kHeaderCount + 64u;  // padded to 256 bytes
// A chained sort (every pass in one dispatch: chained.glsl) keeps its counters where the tile
// tickets are (zeroed by init): the next ticket, histogram workgroups done, and per pass p the
// count that opens it (pass 0: 1, from the scan; pass p: pass p - 1's tiles done).
VKSORT_CONST kChainTicket = 0u;
VKSORT_CONST kChainHistogramDone = 1u;
VKSORT_CONST kChainPassOpen = 2u;  // + pass
VKSORT_CONST kChainCounters = kChainPassOpen + kMaxPasses;
#ifdef __cplusplus
static_assert(kHeaderFallbacks < kHeaderPassGrids && kHeaderPassGrids + 6u * kMaxChoosingPasses <= kHeaderWords,
              "the header's words overlap");
#endif
// Grids the GPU writes (dispatch_grid.glsl) take at most this many workgroups in x: every device's
// maxComputeWorkGroupCount[0] is at least that (the Vulkan spec's minimum).
VKSORT_CONST kGridMaxX = 65535u;
VKSORT_CONST kCopyBackWorkgroup = 256u;             // copy_back.comp's invocations per workgroup
// Depth keys (depth_keys.glsl): invocations per workgroup, and the most workgroups (each one's
// range is a pair of words in the caller's scratch, which every workgroup of the second kernel reads).
VKSORT_CONST kDepthKeysWorkgroup = 256u;
VKSORT_CONST kDepthKeysMaxGroups = 1024u;

// A pass's class: what the binning kernel that runs it does with its most frequent digit. The
// scan classes every pass once by that digit's share of the keys, against the percents the
// recorder gives it (SortPush::passShares, bit offsets kShare*); no kernel after it compares
// shares. Onesweep counts a digit that holds many keys a subgroup step at a time: atomics of
// many lanes on one word serialize (binning_count.glsl).
VKSORT_CONST kPassSpread = 0u;      // no digit holds a hot share (or the sort names no hot digit)
VKSORT_CONST kPassHotCounted = 1u;  // the digit holds hot-from to hot-to percent: counted a step at a time
VKSORT_CONST kPassHotRanked = 2u;   // ... and at most ranked-to percent: ranked a step at a time too
VKSORT_CONST kPassCrowded = 3u;     // more than hot-to percent: counted with its tests (kCrowdedPass)
VKSORT_CONST kShareHotFrom = 0u;    // 0: no hot digit
VKSORT_CONST kShareHotTo = 8u;
VKSORT_CONST kShareRankedTo = 16u;  // of the plain kernel (the skewed one ranks to hot-to)
VKSORT_CONST kShareSkewedFrom = 24u;  // passes from it run the skewed kernel (0: one kernel per pass)

// Look-back status word, one per (tile, digit):
//   31 30 | 29 ............................ 0
//   flag  | value
// flag kStatusEmpty:     nothing published yet (all-zero, as cleared)
// flag kStatusAggregate: value = this tile's count of the digit
// flag kStatusPrefix:    value = count of the digit in the portion's tiles up to and including
//                        this one (the inclusive prefix; the bin start is added after)
// 30 value bits bound one binning dispatch to kMaxPortionKeys keys. Larger sorts go in portions
// of at most that many keys, one dispatch each per pass (as in the Onesweep paper and CUB): the
// last tile of a portion writes the next portion's bin starts.
VKSORT_CONST kStatusValueBits = 30u;
VKSORT_CONST kStatusValueMask = (1u << kStatusValueBits) - 1u;
VKSORT_CONST kStatusEmpty = 0u;
VKSORT_CONST kStatusAggregate = 1u;
VKSORT_CONST kStatusPrefix = 2u;
VKSORT_CONST kMaxPortionKeys = kStatusValueMask;

// Push constants shared by every kernel (all 128 bytes every device offers). Byte offsets
// from a reference stay below 2^31 (addressing.glsl): the recorder moves keysIn/valsIn to each
// portion's start, kernels rebase per workgroup or tile, and scatters past 2^31 bytes compute
// 64-bit addresses (kFlagWideAddresses).
struct SortPush {
  VKSORT_REF(KeysIn) keysIn;      // this pass's input keys (binning: of this portion)
  VKSORT_REF(KeysOut) keysOut;    // this pass's output keys (all of them)
  VKSORT_REF(ValsIn) valsIn;      // input values (pairs only)
  VKSORT_REF(ValsOut) valsOut;    // output values (pairs only)
  VKSORT_REF(Words) header;       // scratch header (above)
  VKSORT_REF(Status) status;      // look-back words of this dispatch: [tile][kRadix];
                                  // reduce-then-scan: the tile table [digit][tile]
  VKSORT_REF(Status) statusNext;  // look-back words of the next dispatch, cleared by this one
  VKSORT_REF(CountIn) countIn;    // indirect sorts: the caller's u32 count
  VKSORT_REF(Words) tickets;      // per binning dispatch, its next tile ticket (zeroed by init:
                                  // one counter reset by a dispatch for the next one was seen
                                  // stale on lavapipe)
  uint count;                     // number of keys
  uint shift;                     // lowest key bit of this pass's digit (histogram: of pass 0)
  uint rangeMaskLo;               // ones below the bit range's end, 64-bit: higher bits do not
  uint rangeMaskHi;               //   order (32-bit keys use Lo)
  uint maxCount;                  // init: the clamp of an indirect count; sizes the tickets
  uint passShares;                // scan: the percents that class a pass (kShare*: bit offsets
                                  // of four bytes)
  uint histogramGroupKeys;        // keys one histogram workgroup covers (whole tiles)
  uint tileKeys;                  // init, histogram, tile scan: keys of one binning tile
  uint pass;                      // this binning pass's index; init, indirect sorts: counts up
                                  // to it run as the one-workgroup sort (0: none)
  uint passCount;                 // passes of the whole sort
  uint flags;                     // kFlag* bits
  uint portionStart;              // binning: index of this portion's first key
  uint portionKeys;               // keys of a full portion (a multiple of the tile)
  uint ticketCounter;             // binning, downsweep: which of `tickets` its tiles are taken by
};

// Binning pass: clear statusNext for the next dispatch (not set on the last one). Histogram:
// clear the first binning dispatch's status words (Onesweep only).
VKSORT_CONST kFlagClearNext = 1u;
// Copy-back: values too.
VKSORT_CONST kFlagCopyValues = 2u;
// Every kernel: the count is header[kHeaderCount] (an indirect sort), not `count`.
VKSORT_CONST kFlagIndirectCount = 4u;
// Keyed kernels: descending order (the ordered bits are inverted).
VKSORT_CONST kFlagDescending = 8u;
// Binning: output byte offsets may pass 2^31; scatter addresses are computed in 64 bits.
VKSORT_CONST kFlagWideAddresses = 16u;
// Copy-back: keys are 64-bit / values are 64-bit.
VKSORT_CONST kFlagKeys64 = 32u;
VKSORT_CONST kFlagValues64 = 64u;
// Scan, chained sort: mark the passes whose digit is the same for every key as not moving, so
// that they are skipped (without it every pass moves the keys: Tuning::skipConstantPasses).
VKSORT_CONST kFlagSkipConstantPasses = 128u;
// Keyed kernels: the values are each key's index in the input (ValueType::index), generated by
// the pass that first moves keys, never read (pass_route.glsl).
VKSORT_CONST kFlagIndexValues = 256u;
// Keyed kernels: the sorted keys are not wanted (SortConfig::discardKeys): the last pass that
// moves keys writes only their values, and later copies copy only values.
VKSORT_CONST kFlagDiscardKeys = 512u;

// Key types (specialization constant KEY_TYPE), as vksort::KeyType numbers them. Keys are stored
// as given; every kernel orders them by their type's map (include/vksort/keys.glsl), inverted for
// descending order. 64-bit types run the kernels compiled with KEY_WORDS 2.
VKSORT_CONST kKeyU32 = 0u;
VKSORT_CONST kKeyI32 = 1u;
VKSORT_CONST kKeyF32 = 2u;
VKSORT_CONST kKeyU64 = 3u;
VKSORT_CONST kKeyI64 = 4u;
VKSORT_CONST kKeyF64 = 5u;
VKSORT_CONST kKeyTypes = 6u;

// Which word of a 64-bit key holds a pass's digit (specialization constant DIGIT_WORD of the
// binning, upsweep and downsweep kernels, one pipeline per word a sort's passes use). Known when
// the pipeline is built, it spares every key's digit a run-time choice of word and a funnel
// shift. Any: chosen at run time, for a digit across both words, 32-bit keys, chained sorts.
VKSORT_CONST kDigitAnyWord = 0u;
VKSORT_CONST kDigitLowWord = 1u;
VKSORT_CONST kDigitHighWord = 2u;
VKSORT_CONST kDigitWords = 3u;

// A binning kernel's switches that name a form (specialization constants RANKING, VALUE_HANDLING,
// LOOKBACK_LOADS / LOOKBACK_STORES), by the host's names (src/variant.hpp's Ranking,
// ValueHandling, Access take these values). decideVariant() chooses; the kernels take the choice.
// How a key is ranked among its subgroup's keys of its digit (glsl/binning_rank.glsl):
VKSORT_CONST kRankingBallots = 0u;           // eight ballots per key: any device
VKSORT_CONST kRankingPartitioned = 1u;       // subgroupPartitionNV (its own module)
VKSORT_CONST kRankingAtomics = 2u;           // one shared atomic per key, after the count
VKSORT_CONST kRankingAtomicsRankFirst = 3u;  // one shared atomic per key that counts it too
// How values travel with their keys (glsl/binning_scatter.glsl):
VKSORT_CONST kValuesNone = 0u;               // keys alone
VKSORT_CONST kValuesAtScatter = 1u;          // loaded at the value scatter
VKSORT_CONST kValuesRiding = 2u;             // loaded with the keys, waiting in registers
VKSORT_CONST kValuesHeldEarly = 3u;          // several rounds: loaded before the key scatter
// How the look-back's status words are read or published (glsl/lookback.glsl):
VKSORT_CONST kAccessAtomics = 0u;
VKSORT_CONST kAccessPlain = 1u;

// Specialization constants: every constant_id, registered once. Kernels declare them as
// `layout(constant_id = VKSORT_SPEC_X)`; the host fills them by name from a pipeline's variant
// (src/variant.cpp). A preprocessor number, so that GLSL layout qualifiers can take it.
#define VKSORT_SPEC_WORKGROUP_SIZE 0         // local_size_x_id
#define VKSORT_SPEC_KEYS_PER_INVOCATION 1
#define VKSORT_SPEC_MIN_SUBGROUP_SIZE 2      // the smallest subgroup the device may run
#define VKSORT_SPEC_VALUE_WORDS 4            // 0: keys alone; 1, 2: 32/64-bit values
#define VKSORT_SPEC_LOOKBACK_LOADS 6          // kAccess*
#define VKSORT_SPEC_BALLOT_WORDS 7
#define VKSORT_SPEC_HISTOGRAM_COPIES 8
#define VKSORT_SPEC_KEY_TYPE 10
#define VKSORT_SPEC_LOOKBACK_WINDOW 13
#define VKSORT_SPEC_PERSISTENT_TILES 14
#define VKSORT_SPEC_REORDER_ROUNDS 15
#define VKSORT_SPEC_PREFETCH_PAIRS 16
#define VKSORT_SPEC_RIDERS_ALONGSIDE 17
#define VKSORT_SPEC_HOT_DIGITS 18           // a pass's hot digit counted a step at a time (kPassHot*)
#define VKSORT_SPEC_LOOKBACK_STORES 20        // kAccess*
#define VKSORT_SPEC_PATIENT_WAITS 23
#define VKSORT_SPEC_DIGIT_WORD 26
#define VKSORT_SPEC_LOOKBACK_WAIT 27         // spin turns before a look-back falls back; 0: at once
#define VKSORT_SPEC_HOT_RANKING 28           // and ranked a step at a time (kPassHotRanked)
#define VKSORT_SPEC_RANKING 29               // kRanking*
#define VKSORT_SPEC_VALUE_HANDLING 30        // kValues*
#define VKSORT_SPEC_PERMUTATION 31           // kFlagIndexValues | kFlagDiscardKeys: what a kernel compiles in
#define VKSORT_SPEC_LOOKBACK_WITHHELD 32     // one tile in N publishes no look-back status (torture); 0: none

#ifdef __cplusplus
}  // namespace vksort::detail
#endif
#undef VKSORT_CONST
#undef VKSORT_REF
#endif
