#include "tuning.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "shader_interface.h"

namespace vksort::detail {
namespace {

constexpr uint32_t kVendorAmd = 0x1002;
constexpr uint32_t kVendorNvidia = 0x10DE;
constexpr uint32_t kVendorIntel = 0x8086;

// Vendors' entries set the first five fields by position and the rest by name: a bool inserted
// above another once moved NVIDIA's positional `true` off the look-back's plain loads.
struct Preferred {
  uint32_t subgroupSize;
  uint32_t workgroupSize;          // the first tier's tiles, and the scans'
  uint32_t keysPerInvocation;      // 32-bit keys and values
  uint32_t wideKeysPerInvocation;  // 64-bit keys or values: the same shared memory per tile
  uint32_t histogramTilesPerWorkgroup;
  bool partitionedRanking = false; // where the device has it
  bool atomicRanking = false;      // measured on NVIDIA and llvmpipe only (binning.glsl)
  bool lookbackPlainLoads = false; // measured on NVIDIA only; atomics are the safe default
  bool lookbackPlainStores = false; // the same
  int patientWaits = -1;            // -1: where the driver limits loop turns (llvmpipe)
  uint32_t lookbackWindow[kTileClasses] = {4, 4, 4, 4};  // per tile class: predecessors read at once
  bool persistentTiles = false;     // measured on NVIDIA only (it hung lavapipe: onesweep.glsl)
  uint32_t histogramCopies = 1;
  uint32_t histogramWorkgroupSize = 0;    // 0: the binning workgroup's
  uint32_t portionTiles = 0;
  uint32_t wideAddressesFrom = ~0u;
  uint32_t smallSortKeys = 2048;          // the one-workgroup sort up to this count
  uint32_t smallKeysPerInvocation = 4;    // its first tile: few keys per invocation, short rank loops
  uint32_t smallTiles = 2;                // its tiles: small tile i has smallKeysPerInvocation << i
  uint32_t smallWorkgroupSize = 0;        // 0: the binning workgroup's
  uint32_t bitonicKeysPerPass = 128;     // one-workgroup sorts of up to this many keys per pass
                                          // their bit range needs: a bitonic network
  uint32_t bitonicKeysPerInvocation = 1;  // its tiles: this many keys per invocation, workgroups
  uint32_t bitonicWorkgroupSize = 256;    // doubling from this one
  Algorithm algorithm = Algorithm::automatic;  // the environment's override of the caller's
  uint32_t reorderRounds = 1;             // binning tiles go through shared memory in this many parts
  uint32_t wideReorderRounds = 1;         // the same for 64-bit keys or values
  // Tiers 1.. of binning tiles (tier 0: the fields above); a shape of 0s takes tier 0's.
  uint32_t tierCount = 1;
  struct Tier {
    uint32_t from;
    TileShape tile = {0, 0, 1};       // 32-bit keys with 32-bit values
    TileShape wideTile = {0, 0, 1};   // 64-bit keys or values
    TileShape keysAlone = {0, 0, 1};  // 32-bit keys without values (0s: the tier's `tile`)
    TileShape wideKeysAlone = {0, 0, 1};  // 64-bit keys without values (0s: the tier's `wideTile`)
    // Reduce-then-scan's own shapes per tile class (0s: the class's above): its downsweep lost in
    // some of Onesweep's 2-round tiles.
    TileShape reduceThenScan[kTileClasses] = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    const TileShape& shapeOf(uint32_t cls) const { return cls == 0 ? tile : cls == 1 ? wideTile : cls == 2 ? keysAlone : wideKeysAlone; }
    TileShape& shapeOf(uint32_t cls) { return const_cast<TileShape&>(std::as_const(*this).shapeOf(cls)); }
    // Whether a shape above gives a tile (a workgroup or keys per invocation), not its 0s.
    static bool gives(const TileShape& s) { return s.workgroupSize != 0 || s.keysPerInvocation != 0; }
    bool fitWaves = false;            // its shapes' tiles fitted to whole waves (TileShape)
    uint32_t reduceThenScanFrom = 0;  // where reduce-then-scan starts the tier (0: `from`)
    uint32_t lookbackWindow[kTileClasses] = {};  // per tile class; 0: the class's, below
    int plainLoads[kTileClasses] = {-1, -1, -1, -1};  // per tile class; -1: lookbackPlainLoads
    int fitPercent[kTileClasses] = {-1, -1, -1, -1};  // per tile class, where fitWaves; -1: the class's
    int rankFirst[kTileClasses] = {-1, -1, -1, -1};   // per tile class; -1: the class's
    int persistent[kTileClasses] = {-1, -1, -1, -1};  // per tile class, Onesweep; -1: persistentTiles
  } tiers[kMaxTileTiers] = {};
  uint32_t waveWorkgroups = ~0u;      // ~0: the device's SM count where it reports one
  // Tile classes' (BinningTier::shape) TileShape::fitPercent, where a tier fits its tiles.
  uint32_t fitPercent[kTileClasses] = {100, 78, 78, 78};
  // Tile classes' TileShape::rankFirst (0 or 1), where the device ranks by atomics.
  uint32_t rankFirst[kTileClasses] = {};
  // Tile classes' TileShape::hotDigitFrom / hotDigitTo (Onesweep), in every tier.
  uint32_t hotDigitFrom[kTileClasses] = {25, 25, 25, 25};
  uint32_t hotDigitTo[kTileClasses] = {100, 100, 100, 100};
  bool hotDigitWithValues = true;
  uint32_t histogramMinWorkgroups = 256;  // small sorts: fewer tiles per histogram workgroup
  bool ridingValues = false;  // measured on NVIDIA only (TileShape::ridingValues)
  uint32_t chainedUpTo = 0;   // measured on NVIDIA only (Tuning::chainedUpTo)
};

// Starting points per vendor. NVIDIA, measured on an H100 (driver 580): the driver gives compute
// 48 KiB of shared memory per SM in all, whatever the workgroup's size and registers (workgroups
// declaring 4 / 8 / 12 / 16 / 20-24 / 25-48 KiB ran 12 / 6 / 4 / 3 / 2 / 1 per SM; the log).
// Binning tiles in tiers by count, so that a sort has about as many tiles as the GPU has SMs or
// more, each as large as that allows (a pass over fewer tiles than SMs costs one tile's latency
// on most of the GPU idle). Up to 80k keys 256 x 4 (1024 keys; keys32 at 100k 0.042 ms against
// 0.060 with 9216-key tiles, pairs32 0.045 vs 0.071, keys64 0.078 vs 0.092, before the chained
// sorts); then 512 x 4 (from 2^17 until the chained sorts; since them from 80k, same command twice,
// ms: keys32 100k 0.0388 -> 0.0373, 112k 0.0406 -> 0.0379; pairs32 100k 0.0409 -> 0.0394; keys64
// 100k 0.0725 -> 0.0693; pairs64v32 100k 0.0808 -> 0.0748, 80k 0.0765 -> 0.0730; at 64k 512 x 4
// was no better: keys32 0.0361 against 0.0355; reduce-then-scan keeps 2^17: from 80k its keys32
// 80k 0.0565 -> 0.0592, 100k 0.0571 -> 0.0594, pairs32 0.0581 -> 0.0616), to
// 3 x 2^17 keys for 64-bit ones (keys64 at 262144 0.088 vs 0.098 with 512 x 9; at 393216 0.124
// vs 0.103) and to 5 x 2^17 for 32-bit ones (keys32 at 524288 0.056 vs 0.064, at 786432 0.075 vs
// 0.066 with 512 x 18; 256 x 2, 128 x 4 and 128 x 8 lost to 256 x 4 from 32k keys); above those
// the whole 48 KiB as one tile: 512 x 18 keys (9216;
// 16-bit subgroup counters leave room for it) beat 512 x 14 by 6% and 384 x 20-24 by 8-13% for
// u32 keys and pairs at 2^26; 64-bit keys or values: 512 x 9 (7.62 ms for keys64 at 2^26; 512 x 7
// 8.51). From 2^23 larger tiles, through shared memory in 2 rounds (binning.glsl); at 2^26,
// 1024 x 16 keys (keys32 2.35 ms vs 2.46, pairs32 3.59 vs 3.67; 1024 x 12, 18, 20 and 512 x 32-36
// lost, 3 rounds lost by 30%), 64-bit 768 x 12 (keys64 7.08 vs 7.62, pairs64v32 9.12 vs 10.75;
// 512 x 16 and 1024 x 8-12 lost one or the other; rechecked after the chunked row sums: 512 x 18,
// 1024 x 14/18 and 768 x 20 lost, 896 x 16 was 1.5% faster for keys32 and 1.3% slower for
// pairs32, 64-bit 1024 x 8 and 512 x 12 lost). Below 2^23 they lose or tie (keys32 at 2^20
// 0.13 ms vs 0.09; keys64 at 2^22 9% slower). 32-bit keys alone keep 512 x 18 there: since the
// one-round tiles rank with takeRowPlaces() it beats 1024 x 16 (keys32 2^24 0.625 -> 0.603 ms,
// 2^26 2.354 -> 2.296, 2^28 9.248 -> 9.070; keysf32 3-5%; keys32 q16 2.7% slower); pairs32 and
// 64-bit elements lost 2-10% in it (with their values touched early too, pairs32 2^26 3.26 -> 3.44
// ms). Reduce-then-scan's keys32 lost in it too (2^26 2.936 -> 3.177 ms) until its downsweep
// took tiles while tickets last (persistentTiles): then 512 x 18 won (2^24 0.823 -> 0.774 ms,
// 2^26 2.938 -> 2.897; 1024 x 16 persistent 0.814 / 2.951). Since their values ride with their
// keys (ridingValues), 32-bit pairs take 512 x 18 there too: pairs32 8M 0.4554 -> 0.4338 ms, 2^24
// 0.8659 -> 0.8298, 2^26 3.138 -> 3.087, 2^28 12.374 -> 12.271, q4 at 2^26 3.486 -> 3.308 (without
// the touch of the next tile's keys 3.10, but 2^28 12.77); reduce-then-scan's pairs32 2^24 0.973
// -> 0.909, 2^26 3.500 -> 3.428. 64-bit pairs in 512 x 9 there: 1-2% faster at 8-12M, 1-2% slower
// from 2^24, so 768 x 12 stays. Their hot digits counted a subgroup at a time in it: q4 4% faster,
// q1 0.5-1% slower (not taken).
// (Onesweep's 32-bit keys alone and pairs have left these one-round tiles for 2-round ones of 896
// invocations from 7 x 2^19 / 5 x 2^21 keys: tiers 5 and 7 below; reduce-then-scan keeps them.)
// From 2^23, 32-bit keys alone take 512 x 19: their digit counts and starts stay in registers
// (binning.glsl's DIGITS_IN_REGISTERS), which frees 2 KiB (same command twice against 0c9d169,
// ms: keys32 2^26 1.868 -> 1.837, 2^28 7.318 -> 7.180, 2^24 and 4M alike; pairs32 lost 2% at 4M
// with them in registers, and 512 x 22 with the counters in the reorder area lost 7-8% at
// 2^24-2^26 without the early count of the next tile: PERFORMANCE-LOG.md, session 21).
// The histogram takes at least 1024 workgroups where a sort has the tiles (histogramMinWorkgroups;
// was 256): at 2^23-2^25 keys its 512-invocation workgroups, 4 per SM, had filled under one wave
// of 528 (two commands, 3 reps each, alternated, ms: keys32 8M 0.2676 -> 0.2650, 2^24 0.5001 ->
// 0.4949, 2^25 0.9504 -> 0.9434; keys64 8M 0.788 -> 0.781; pairs64v32 8M 1.204 -> 1.195; but
// pairs32 2^24 0.7687 -> 0.7743, 0.7% slower in both commands; 2-4M and from 2^26 alike).
// Pairs with 64-bit keys or values in 2 rounds load their values ahead of the key scatter
// (binning.glsl's EARLY_HELD_VALUES): 3 reps alternated, ms, pairs64v32 8M 1.2005 -> 1.0608,
// 2^24 2.2395 -> 2.1315 (2.1305 again), 2^26 8.614 -> 8.035; pairs64v64 8M 1.377 -> 1.298, 2^26
// 10.05 -> 9.87. 64-bit keys alone have a tile class of their own since: from 2^23 768 x 14 in
// 2 rounds, where pairs keep 768 x 12. Same command, 2 reps, keys64 ms: 8M 0.7840 (768 x 12)
// -> 0.7756 (768 x 14); at 2^24 / 2^26 768 x 14 1.4570 / 5.4338, 1024 x 10 1.4739 / 5.5440,
// 640 x 18 1.7136 / 6.6529 (768 x 12 in an earlier command 1.4829 / 5.5553). Pairs in 1024 x
// 10 (session 22's candidate for both): pairs64v32 2^24 1.9998 -> 2.1305, 2^26 7.622 -> 8.020
// once their values loaded early, so 768 x 12 stays; their values' early touch (wide_prefetch)
// 13-16% slower; 32-bit pairs in 1024 x 16 or 18, 2 rounds, 8-22% slower than 512 x 18 with
// riding values.
// Two workgroups per SM did not happen: smaller
// workgroups take more registers (256 x 24 keys: 154), and every such shape lost (256-512
// invocations, 12-40 keys, 2 or 4 rounds: keys32 at 2^26 2.84-3.71 ms against 2.35).
// Pairs in the 512 x 18 and 512 x 9 tiles touch their values and the next tile's keys into L2
// early (prefetchPairs): pairs32 / pairs64v32 5-7% faster from 2M to 8M keys (3M: 0.218 -> 0.204
// ms, 0.544 -> 0.511), 3% at 400k-524k for 64-bit; it lost 1-1.5% in the 512 x 4 tiles and
// 1.5-8% in the large ones (which sit at the register cap), and keys alone gain nothing from it.
// Touched later, before the key scatter: pairs32 1-4% slower in every tier, pairs64v32 in the
// large tiles 2.6% faster at 2^24 and 0.4% slower at 2^26. Since then 32-bit values in one-round
// tiles load with their keys and wait in registers (ridingValues; only the next tile's keys are
// touched): never slower from 100k to 6M, pairs32 2M 0.1280 -> 0.1237 ms, 6M 0.3595 -> 0.3505,
// 100k 0.0425 -> 0.0415; pairs64v32 1M 0.1890 -> 0.1835, 2M 0.3583 -> 0.3452, 6M 0.963 -> 0.930.
// Without the touch of the next keys as well: pairs32 2M 1% faster, 4M 1% slower. In
// reduce-then-scan's downsweep: pairs32 1M 0.1036 -> 0.0998, 4M 0.3076 -> 0.2840, pairs64v32 4M
// 0.8008 -> 0.7212.
// Direct sorts of up to 2^20 32-bit keys (2^19 64-bit ones) run histogram, scan and every pass
// in one dispatch (chainedUpTo, chained.glsl), where each dispatch boundary (~4 us) weighed most.
// Same command twice, chained off -> on, ms: keys32 16k 0.0379 -> 0.0310, 100k 0.0402 -> 0.0368,
// 512k 0.0555 -> 0.0507, 1M 0.0632 -> 0.0589; pairs32 16k 0.0399 -> 0.0335, 100k 0.0418 ->
// 0.0402, 1M 0.0747 -> 0.0690; keys64 16k 0.0647 -> 0.0553, 512k 0.1023 -> 0.0924; pairs64v32
// 16k 0.0674 -> 0.0616, 512k 0.1143 -> 0.1044 (100k 0.0769 -> 0.0789, the one loss below the
// cut). Past it chaining lost: keys32 2M 0.0990 -> 0.1079, 4M 0.168 -> 0.200; keys64 1M 0.1565 ->
// 0.1683; pairs64v32 1M 0.1849 -> 0.1906. Its workgroups made persistent narrowed that (keys32 2M
// 0.1075, 4M 0.195) but cost 1-5% below the cut; its tiles are not fitted to waves and do not
// count their next tile early, as the dispatched passes' do (PERFORMANCE-LOG.md).
// Direct sorts in the 512 x 18 / 512 x 9 tier fit their tiles to whole waves of one workgroup per
// SM (fitWaves, fitPercent): keys32 1.31M 0.0967 -> 0.0887 ms, pairs32 0.1214 -> 0.1071, 655360
// keys 0.0610 -> 0.0570 / 0.0713 -> 0.0655. 32-bit pairs take any cut (pairs32 3M 0.1947 ->
// 0.1886, 4M 0.264 -> 0.2553, 5M 0.3187 -> 0.3085 with 16 or 17 of 18); keys alone and 64-bit
// elements only to at most 78% (smaller cuts lost 1-5%: keys32 6.3M 0.2538 -> 0.2629, keys64 2M
// 0.2790 -> 0.2893). samples/bench/PERFORMANCE-LOG.md.
// Plain look-back loads beat atomic ones by 1-2%; plain stores of the status words beat atomic
// exchanges by 2-9% (keys32 2^26 2.317 -> 2.118 ms, 2^24 0.605 -> 0.562, 100k 0.0417 -> 0.0396;
// keys64 2^26 6.78 -> 6.29; pairs32 2^26 3.27 -> 3.13, 4M 0.256 -> 0.250, keys alone at q16 5-7%
// slower); ballots beat subgroupPartitionNV by 1.3x;
// histogram counter copies cost 45%; 16 or 32 histogram tiles per workgroup were slower; look-back
// windows of 1, 8, 12, 16 lost to 4 (rechecked with the tiers from 2^14 to 2^24 keys: 8 and 16
// lost at every size, 16 by 5-9%); since the plain stores 32-bit keys alone take 3 (keys32 3M
// 0.1368 -> 0.1342 ms, 2^26 2.102 -> 2.079, twice; 2 alike; pairs32 alike, keys64 0.5% slower),
// and since their values ride 32-bit pairs too (pairs32 1M 0.0745 -> 0.0737, 3M 0.1783 -> 0.1749,
// 100k-256k and 2^24-2^26 alike; 8M 0.5%, 12M 0.1% faster).
// The one-workgroup sort keeps one tile in shared memory
// through every pass (small_sort.glsl), in 512 x 4, x 8 or x 16 keys (its cost grows with the
// keys per invocation: keys32 0.015 ms at 2048 keys in 512 x 4, 0.019 in 512 x 8, 0.027 in
// 512 x 16; 256 x 8 and 1024 x 4 were no better); up to 8192 keys it beats the multi-dispatch
// sort (0.029 ms against 0.038 at 8192). Smaller sorts run as a bitonic network
// (small_bitonic.glsl) of one element per invocation, the workgroup doubling from 256: up to 256
// keys per pass (1024 keys of 32 bits, 2048 of 64 bits in 1024 x 2; a network costs the same
// for any bit range: pairs32 with bits [0,16) at 1024 keys 0.0114 ms in the radix tile, 0.0138
// as a network; [0,24) 0.0135 / 0.0138). Its elements carry their ordered bits,
// not the keys (which each comparison mapped and shifted again): keys32 at 256 / 512 keys 0.0097
// -> 0.0084 / 0.0119 -> 0.0098 ms, keys64 0.0116 -> 0.0097 / 0.0153 -> 0.0114; then against the
// radix tiles: keys32 at 1024 0.0131 against 0.0145, pairs32 0.0135 / 0.0161, keys64 0.0154 /
// 0.0247, pairs64v32 0.0159 / 0.0268; keys64 at 2048 0.0234 / 0.0259, pairs64v32 0.0247 / 0.0289
// (keys32 at 2048 lost, 0.0189 / 0.0150). 2 elements per invocation: keys32 at 1024 0.0127, but
// keys64 0.0162 and slower below; 4: slower everywhere (0.0164 at 1024). Radix tiles of 256 x 4
// (1024 keys: 0.0124, as fast as the network) and 256 x 8-16 or 1024 x 4-16 (2048-8192 keys:
// 10-20% slower) lost to 512 x 4-16. A pass's hot digit (hotDigitFrom: 25% of its keys or
// more) counted a subgroup at a time, at 2^26: keys32 q4 2.684 -> 2.463 ms, q8 2.546 -> 2.475,
// keys64 q4 7.58 -> 6.64, q8 7.24 -> 6.56, q16 7.10 -> 6.59 (q1 6.96 -> 6.77: the code alone);
// keys32 q1 1% slower from 2^24 (the code alone) when it came, 1-2% faster with it than without
// it in session 26 (2^28 7.287 -> 7.149), unchanged at 1-4M; keys32 q16 (a digit on
// ~100% of the keys) 7% slower with it, hence hotDigitTo 98: one atomic of 32 lanes on one word
// costs about one. Pairs lost with the code compiled in (pairs32 q1 3.27 -> 3.51 ms, 2^28 12.57
// -> 13.19; pairs64v32 q1 9.03 -> 9.25), hence keys alone. Others: untested shapes sized for
// their shared memory (AMD/Intel 64 KiB), wave64 on AMD.

Preferred preferredFor(const DeviceCaps& caps) {
  switch (caps.vendorId) {
    case kVendorNvidia: {
      Preferred p{32, 256, 4, 4, 8};
      p.lookbackPlainLoads = true;
      p.histogramWorkgroupSize = 512;
      p.histogramMinWorkgroups = 1024;
      p.smallWorkgroupSize = 512;
      p.smallTiles = 3;
      p.smallSortKeys = 8192;
      p.bitonicKeysPerPass = 256;
      p.persistentTiles = true;
      p.lookbackPlainStores = true;
      p.atomicRanking = true;
      p.tiers[1] = {80u << 10, {512, 4, 1}, {512, 4, 1}};
      p.tiers[1].reduceThenScanFrom = 1u << 17;
      p.tiers[2] = {3u << 17, {512, 4, 1}, {512, 9, 1, true}};
      // Pairs with 64-bit elements take tier 5's 768 x 12 (2 rounds) from 5 x 2^17 keys, ranked
      // first (RANK_FIRST) and whole: in 512 x 9 fitted to waves, counted first, they had lost 4-7%
      // to 768 x 12 counted first with ballots (session 29); ranked first, 2 reps, ms, pairs64v32
      // 700k / 1M / 1.5M / 2M / 2.5M / 3M / 4M / 6M / 8M 0.1491 / 0.1642 / 0.2280 / 0.3043 /
      // 0.3830 / 0.4284 / 0.5702 / 0.8337 / 1.1031 -> 0.1353 / 0.1439 / 0.2283 / 0.2550 / 0.3617
      // / 0.3871 / 0.5138 / 0.6916 / 0.9290, pairs64v64 700k / 1M / 2M / 3M 0.1619 / 0.1885 /
      // 0.3807 / 0.5238 -> 0.1516 / 0.1612 / 0.3164 / 0.4771 (fitted to waves: alike, 700k 2%
      // slower; session 31).
      p.tiers[3] = {5u << 17, {512, 18, 1, true}, {768, 12, 2}, {0, 0, 1}, {512, 9, 1}};
      p.tiers[3].fitWaves = true;
      p.tiers[3].fitPercent[1] = 0;
      // Pairs in tiles of 2 rounds are not persistent: a workgroup sorts one tile, and the next
      // one starts in its place. Same binary, persistent=1 against 0, 2 reps, ms: pairs64v32 1M /
      // 3M / 6M / 12M / 2^24 / 2^26 / 2^28 0.1382 / 0.3672 / 0.6699 / 1.2938 / 1.7553 / 6.8862 /
      // 27.150 -> 0.1331 / 0.3496 / 0.6159 / 1.1635 / 1.5917 / 6.2019 / 24.335 (4-12% faster);
      // pairs32 (896 x 14, tiers 7 and 8) 12M / 2^24 / 2^25 / 2^26 / 2^27 / 2^28 0.4943 / 0.6550 /
      // 1.2488 / 2.3923 / 4.7756 / 9.3375 -> 0.4567 / 0.6118 / 1.1545 / 2.2388 / 4.4207 / 8.7091
      // (7-8%). Their passes at 2^26: 0.563-0.571 -> 0.522-0.530 ms. Pairs32's one-round tiles
      // (3-6M: 2-3% slower) and keys alone (keys32 4-9% slower, keys64 2-8% from 3M) stay
      // persistent. Two 448 x 14 tiles per SM, persistent, had lost 2.2x at 2^28 (session 33);
      // not persistent 4% (session 38, PERFORMANCE-LOG.md).
      p.tiers[3].persistent[1] = 0;
      // 64-bit keys alone take 768 x 14 (2 rounds) from 2^21 keys (tier 4: tier 3 but for them),
      // against 512 x 9 fitted to waves: keys64 2M / 2.5M / 3M / 4M / 6M 0.2192 / 0.2597 / 0.3096
      // / 0.4374 / 0.6241 -> 0.2061 / 0.2144 / 0.2990 / 0.3256 / 0.5127 ms (session 29). Not
      // fitted to waves: the fitting would cut 768 x 14 to 768 x 10 from 2.85M to 3.04M keys (keys64
      // 2.9M / 3M / 3.04M 0.2931 / 0.2984 / 0.3008 ms fitted, 0.2784 / 0.2838 / 0.2861 whole;
      // 2.8M alike; session 30).
      p.tiers[4] = p.tiers[3];
      p.tiers[4].from = 1u << 21;
      p.tiers[4].wideKeysAlone = {768, 14, 2};
      p.tiers[4].fitPercent[3] = 0;
      // 64-bit keys alone in 2-round tiles read 2 predecessors: 0.5-1.1% faster than 4 from 2^23 in
      // 768 x 14 (and 1-1.7% slower than 4 in 512 x 9 at 1M-4M); not remeasured in 896 x 12.
      p.tiers[4].lookbackWindow[3] = 2;
      // Pairs with 64-bit elements rank first (by atomics, RANK_FIRST) in 768 x 12, 2 reps against
      // counting first and ranking by ballots, ms: pairs64v32 8M / 2^24 / 24M / 2^25 1.0638 /
      // 1.9809 / 2.8933 / 3.8136 -> 0.9653 / 1.9059 / 2.8250 / 3.7472, 2^24 q16 1.9229 -> 1.7770
      // (session 30, look-back read by atomics, which ran 2^26 / 2^28 5-9% slower ranked first).
      // With plain loads, against counting first with atomic loads: pairs64v32 2^24 / 2^26 /
      // 2^28 1.9045 / 7.4977 / 29.887 -> 1.8498 / 7.4366 / 29.749, pairs64v64 2^24 / 2^26 2.3639 /
      // 9.9536 -> 2.3340 / 9.3967 (session 31); in tiers 5 to 7 too.
      p.tiers[3].rankFirst[1] = p.tiers[4].rankFirst[1] = 1;
      // Tier 5 is tier 4 but for 32-bit keys alone, which take 896 x 20 (2 rounds, 17,920 keys) from
      // 7 x 2^19 keys, whole (the fitting of a 2-round tile cut it to a slow one: keys32 3M 0.1018
      // -> 0.1451 ms). 896 invocations leave 72 registers each, and 20 keys fit them unspilled;
      // 1024 and 768 invocations spilled or lost (chunked row sums, digits in registers: 1024 x 16
      // / 18 / 20, 768 x 20 / 24 5-49% slower than 512 x 19), as did 896 x 18 and 22 (spilled) and
      // 832 x 20, 960 x 20, 640 x 24. 2 reps against 512 x 18 (fitted) / 512 x 19, ms: keys32
      // 3.5M / 4M / 5M / 6M 0.1323 / 0.1255 / 0.1547 / 0.1850 -> 0.1140 / 0.1152 / 0.1532 /
      // 0.1577, 8M / 2^24 / 2^26 / 2^28 0.2268 / 0.4415 / 1.6311 / 6.3146 -> 0.2097 / 0.3862 /
      // 1.3613 / 5.2425; below 3.5M it lost (2.5M / 3M 4% / 9% slower); at 2^26 q2 / q4 4% / 3%
      // faster, q16 9% slower (6% slower still with its digit counted as hot; session 32).
      // Reduce-then-scan's downsweep keeps one round (keys32 2^24 / 2^26 25% / 26% slower in 896 x
      // 20, pairs32 38% / 43% in 896 x 14).
      p.tiers[5] = p.tiers[4];
      p.tiers[5].from = 7u << 19;
      p.tiers[5].keysAlone = {896, 20, 2};
      p.tiers[5].fitPercent[2] = 0;
      p.tiers[5].reduceThenScan[2] = {512, 18, 1};
      // From 2^23 64-bit keys alone take 896 x 12 (2 rounds, as many keys as 768 x 14), 2 reps, ms:
      // keys64 8M / 2^24 / 2^26 / 2^28 0.6577 / 1.2695 / 4.7796 / 18.350 -> 0.6422 / 1.2133 / 4.4949 /
      // 17.339; in tier 4 alike (2.5M 1.2% slower, 6M 1% faster; session 31). Tier 6 is tier 5 but
      // for that, tiles not fitted to waves, and reduce-then-scan's 32-bit keys alone in 512 x 19.
      p.tiers[6] = p.tiers[5];
      p.tiers[6].from = 1u << 23;
      p.tiers[6].fitWaves = false;
      p.tiers[6].wideKeysAlone = {896, 12, 2};
      p.tiers[6].reduceThenScan[2] = {512, 19, 1};
      // Hot digits: keys alone, 32-bit ones not where nearly every key holds the digit.
      p.hotDigitWithValues = false;
      p.hotDigitTo[2] = 98;
      p.lookbackWindow[0] = 3;
      p.lookbackWindow[2] = 3;
      p.ridingValues = true;
      // 32-bit pairs rank before their row sums (RANK_FIRST), 2 reps against counting first, ms:
      // pairs32 4M / 2^24 / 2^26 / 2^28 0.2087 / 0.7162 / 2.575 / 10.303 -> 0.2039 / 0.7026 /
      // 2.556 / 10.130; at 2^24 q1 / q4 / q16 0.7100 / 0.8487 / 0.7747 -> 0.6964 / 0.8012 /
      // 0.6779 (pairs count no hot digit: their count's atomics on one word serialized). Keys
      // alone lost (keys32 4M-2^28 2.5-4% slower: their early count of the next tile becomes an
      // early ranking, and their rows are cleared again), pairs64v32 alike (session 30).
      p.rankFirst[0] = 1;
      // Tier 7 is tier 6 but for pairs, from 5 x 2^21 keys. Those with 64-bit elements take 896 x 10
      // (2 rounds, ranked first). 2 reps against 768 x 12, ms: pairs64v32 8M / 2^24 / 2^26 / 2^28
      // 0.9488 / 1.8560 / 7.4647 / 29.825 -> 0.9625 / 1.8087 / 7.1401 / 28.206, pairs64v64 8M /
      // 2^24 / 2^26 1.1800 / 2.3343 / 9.3704 -> 1.1590 / 2.1977 / 8.6828 (896 x 11 does not fit
      // the shared memory); 832 x 12 pairs64v32 2^26 / 2^28 7.0560 / 27.914 but pairs64v64 7%
      // slower; 1024 x 10 2% faster from 2^26 but 6% slower for pairs64v64; in tiers 3 and 4 896 x
      // 10 lost (6M 5.5% slower; session 31); from 5 x 2^21 rather than 2^24, pairs64v32 10M / 12M /
      // 14M 1.2386 / 1.4217 / 1.6437 -> 1.2036 / 1.3723 / 1.5908 (session 32). They read 2
      // predecessors at once: pairs64v32 2^24 / 2^26 / 2^28 0.1% / 0.5% / 0.8% faster than 4 (and
      // 0.8% / 0.9% at 2^26 / 2^28 twice before).
      p.tiers[7] = p.tiers[6];
      p.tiers[7].from = 5u << 21;
      p.tiers[7].wideTile = {896, 10, 2};
      p.tiers[7].lookbackWindow[1] = 2;
      // 32-bit pairs take 896 x 14 there (2 rounds, ranked first, 12,544 keys; their values touched
      // early as in 512 x 18): 2 reps against 512 x 18 with riding values, ms: pairs32 2^24 / 2^26
      // / 2^28 0.6930 / 2.5441 / 10.098 -> 0.6779 / 2.4291 / 9.4025, 12M 0.5468 -> 0.5228 (8M 3%
      // slower; 896 x 12, 832 x 14, 960 x 12, 1024 x 12 0-5% faster; 896 x 16 / 20, 768 x 14 / 20
      // and 1024 x 16 slower; without the touch 2-12% slower; windows of 2 or 4 and plain loads
      // alike or slower; session 32). Since then they are not persistent (tier 3's comment), and
      // so not touched early: that needs a workgroup that knows its next tile.
      p.tiers[7].tile = {896, 14, 2};
      p.tiers[7].persistent[0] = 0;
      p.tiers[7].reduceThenScan[0] = {512, 18, 1, true};
      // Tier 8 is tier 7 but for 32-bit pairs reading the look-back with atomics, from 2^27 keys:
      // 3 reps against plain loads, ms, pairs32 2^27 / 2^28 4.8320 / 9.2743 -> 4.7686 / 9.1933;
      // below, plain loads won: 8M 0.3670 -> 0.3537, 12M 0.5164 -> 0.5032, 2^24 0.6725 ->
      // 0.6558, 2^25 / 2^26 0.4% (session 35). Atomics had won from 2^23 while the tier-7 kernel
      // spilled (plain loads 3-4% slower at 2^26 / 2^28, sessions 29 and 31). Pairs with 64-bit
      // elements read with plain loads everywhere.
      p.tierCount = 9;
      p.tiers[8] = p.tiers[7];
      p.tiers[8].from = 1u << 27;
      p.tiers[8].plainLoads[0] = 0;
      p.chainedUpTo = 1u << 20;
      return p;
    }
    case kVendorAmd: return {64, 256, 16, 8, 8};
    case kVendorIntel: return {16, 256, 8, 4, 8};
    default: return {caps.subgroupSize, 256, 8, 4, 8};
  }
}

// A tier's own value for a tile class (Preferred::Tier's per-class ints), or `fallback` where
// the tier gives none (-1).
uint32_t tierOr(int tierValue, uint32_t fallback) { return tierValue >= 0 ? uint32_t(tierValue) : fallback; }

// The tile class that `name` names as `stem` and a class's suffix (tileClass()'s order: _pairs,
// _wide, _alone, _wide_alone), or kTileClasses where it names none.
uint32_t classNamed(std::string_view name, std::string_view stem) {
  static const char* const kSuffixes[kTileClasses] = {"_pairs", "_wide", "_alone", "_wide_alone"};
  if (name.substr(0, stem.size()) != stem) return kTileClasses;
  uint32_t cls = 0;
  while (cls < kTileClasses && name.substr(stem.size()) != kSuffixes[cls]) ++cls;
  return cls;
}

// A tier's [rts_][wide_|alone_|wide_alone_]{workgroup,keys,rounds}: a tile class's shape (rts_:
// reduce-then-scan's own), by tileClass()'s order. False where `field` names none.
bool setShapeField(Preferred::Tier* t, std::string_view field, uint32_t value) {
  static const char* const kPrefixes[kTileClasses] = {"", "wide_", "alone_", "wide_alone_"};
  const bool rts = field.substr(0, 4) == "rts_";
  if (rts) field.remove_prefix(4);
  for (uint32_t cls = kTileClasses; cls-- > 0;) {  // longest prefix first
    const std::string_view prefix = kPrefixes[cls];
    if (field.substr(0, prefix.size()) != prefix) continue;
    TileShape& shape = rts ? t->reduceThenScan[cls] : t->shapeOf(cls);
    const std::string_view name = field.substr(prefix.size());
    if (name == "workgroup") shape.workgroupSize = value;
    else if (name == "keys") shape.keysPerInvocation = value;
    else if (name == "rounds") shape.reorderRounds = value;
    else continue;
    return true;
  }
  return false;
}

// tierN_field=value of VKSORT_TUNING; naming a tier past the count adds it. A tier's look-back
// window for a class (tierN_lookback_window_*) wins over the class's (lookback_window_*).
void setTierField(Preferred* want, uint32_t tier, const std::string& field, uint32_t value) {
  Preferred::Tier& t = want->tiers[tier];
  want->tierCount = std::max(want->tierCount, tier + 1);
  if (field == "from") {
    t.from = value;
    t.reduceThenScanFrom = 0;  // for either algorithm
  } else if (setShapeField(&t, field, value)) {
    // a class's workgroup, keys or rounds
  } else if (field == "prefetch") t.tile.prefetchPairs = value != 0;
  else if (field == "wide_prefetch") t.wideTile.prefetchPairs = value != 0;
  else if (field == "fit") t.fitWaves = value != 0;
  else if (const uint32_t cls = classNamed(field, "lookback_window"); cls < kTileClasses) t.lookbackWindow[cls] = value;
  else if (const uint32_t c = classNamed(field, "plain_loads"); c < kTileClasses) t.plainLoads[c] = value != 0;
  else if (const uint32_t k = classNamed(field, "fit_percent"); k < kTileClasses) t.fitPercent[k] = int(std::min(value, 100u));
  else if (const uint32_t r = classNamed(field, "rank_first"); r < kTileClasses) t.rankFirst[r] = value != 0;
  else if (const uint32_t q = classNamed(field, "persistent"); q < kTileClasses) t.persistent[q] = value != 0;
}

// VKSORT_TUNING=name=value,...: a developer's override of `want`, for measuring shapes.
void applyOverride(Preferred* want) {
  const char* env = std::getenv("VKSORT_TUNING");
  for (const char* p = env; p && *p;) {
    const char* eq = std::strchr(p, '=');
    if (!eq) break;
    uint32_t value = uint32_t(std::strtoul(eq + 1, nullptr, 10));
    const std::string_view name(p, size_t(eq - p));
    auto is = [&](const char* n) { return name == n; };
    // stem=value sets every tile class's field, stem_pairs=value (_wide, _alone, _wide_alone) one.
    auto perClass = [&](const char* stem, uint32_t (&field)[kTileClasses]) {
      if (is(stem)) std::fill(std::begin(field), std::end(field), value);
      else if (const uint32_t cls = classNamed(name, stem); cls < kTileClasses) field[cls] = value;
      else return false;
      return true;
    };
    if (perClass("fit_percent", want->fitPercent) || perClass("hot_digit_from", want->hotDigitFrom) ||
        perClass("hot_digit_to", want->hotDigitTo) || perClass("lookback_window", want->lookbackWindow) ||
        perClass("rank_first", want->rankFirst)) {
      // set by perClass()
    } else if (is("workgroup")) want->workgroupSize = value;
    else if (is("keys")) want->keysPerInvocation = value;
    else if (is("wide_keys")) want->wideKeysPerInvocation = value;
    else if (is("rounds")) want->reorderRounds = value;
    else if (is("wide_rounds")) want->wideReorderRounds = value;
    else if (is("tiers")) want->tierCount = std::clamp(value, 1u, kMaxTileTiers);
    else if (size_t(eq - p) > 6 && std::strncmp(p, "tier", 4) == 0 && p[4] >= '1' && p[4] < char('0' + kMaxTileTiers) && p[5] == '_')
      setTierField(want, uint32_t(p[4] - '0'), std::string(p + 6, eq), value);
    else if (is("portion_tiles")) want->portionTiles = value;
    else if (is("wide_from")) want->wideAddressesFrom = value;
    else if (is("wave_workgroups")) want->waveWorkgroups = value;
    else if (is("hot_digit_pairs")) want->hotDigitWithValues = value != 0;
    else if (is("small_keys")) want->smallSortKeys = value;
    else if (is("small_kpi")) want->smallKeysPerInvocation = value;
    else if (is("small_tiles")) want->smallTiles = std::clamp(value, 1u, kMaxSmallTiles / 2);
    else if (is("small_workgroup")) want->smallWorkgroupSize = value;
    else if (is("bitonic_keys_per_pass")) want->bitonicKeysPerPass = value;
    else if (is("bitonic_kpi")) want->bitonicKeysPerInvocation = value;
    else if (is("bitonic_workgroup")) want->bitonicWorkgroupSize = value;
    else if (is("algorithm") && value <= uint32_t(Algorithm::reduceThenScan)) want->algorithm = Algorithm(value);
    else if (is("histogram_tiles")) want->histogramTilesPerWorkgroup = value;
    else if (is("histogram_min_groups")) want->histogramMinWorkgroups = value;
    else if (is("partitioned")) want->partitionedRanking = value != 0;
    else if (is("atomic_ranking")) want->atomicRanking = value != 0;
    else if (is("plain_loads")) want->lookbackPlainLoads = value != 0;
    else if (is("plain_stores")) want->lookbackPlainStores = value != 0;
    else if (is("patient_waits")) want->patientWaits = value != 0;
    else if (is("persistent")) want->persistentTiles = value != 0;
    else if (is("riding_values")) want->ridingValues = value != 0;
    else if (is("chained_up_to")) want->chainedUpTo = value;
    else if (is("histogram_copies")) want->histogramCopies = value;
    else if (is("histogram_workgroup")) want->histogramWorkgroupSize = value;
    else if (is("subgroup")) want->subgroupSize = value;
    const char* comma = std::strchr(eq, ',');
    p = comma ? comma + 1 : nullptr;
  }
}

}  // namespace

// Drivers trusted with forward progress between workgroups, by VkDriverId (Vulkan 1.2), else by
// vendor. Every other device (MoltenVK, Qualcomm, ARM, Imagination, Broadcom, Turnip, PanVK,
// unknown ones) runs reduce-then-scan. Not lavapipe: Onesweep there sorted 4M keys wrongly in
// about half the runs on a loaded 2-core machine (and ~1 in 10 unloaded at subgroup size 4),
// while reduce-then-scan never did. The likely cause, found since: llvmpipe's loop limiter ends
// a long look-back spin early (patient_wait.glsl, which patientWaits now works around there);
// not run long enough since to trust lavapipe with Onesweep (README, "Supported devices").
bool trustsForwardProgress(const DeviceCaps& caps) {
  if (caps.driverId == VkDriverId(0))  // a Vulkan 1.1 device: by vendor
    return caps.vendorId == kVendorNvidia || caps.vendorId == kVendorAmd;
  switch (caps.driverId) {
    case VK_DRIVER_ID_NVIDIA_PROPRIETARY:
    case VK_DRIVER_ID_AMD_PROPRIETARY:
    case VK_DRIVER_ID_AMD_OPEN_SOURCE:
    case VK_DRIVER_ID_MESA_RADV:
    case VK_DRIVER_ID_INTEL_PROPRIETARY_WINDOWS:
    case VK_DRIVER_ID_INTEL_OPEN_SOURCE_MESA:
      return true;
    default:
      return false;
  }
}

uint32_t Tuning::portionKeys(uint32_t tileKeys) const {
  uint32_t tiles = kMaxPortionKeys / tileKeys;
  if (portionTiles != 0 && portionTiles < tiles) tiles = portionTiles;
  return tiles * tileKeys;
}

uint32_t Tuning::fittedTileKeys(const TileShape& shape, uint32_t count) const {
  if (!fitsWaves(shape) || count == 0) return shape.keys();
  const uint64_t tiles = (uint64_t(count) + shape.keys() - 1) / shape.keys();
  const uint64_t waves = (tiles + waveWorkgroups - 1) / waveWorkgroups;
  const uint64_t wave = uint64_t(shape.workgroupSize) * waveWorkgroups * waves;  // keys of one key per invocation
  const uint32_t kpi = std::max(uint32_t((count + wave - 1) / wave), 1u);
  return kpi * 100 <= uint64_t(shape.keysPerInvocation) * shape.fitPercent ? shape.workgroupSize * kpi : shape.keys();
}

bool Tuning::chains(const SortConfig& config, uint32_t count) const {
  const TileShape& tile = tileFor(tileClass(config), count);
  const uint32_t upTo = keyBytes(config.keyType) == 8 ? chainedUpTo / 2 : chainedUpTo;
  return algorithm == Algorithm::onesweep && count <= upTo && count <= portionKeys(tile.keys()) &&
         tile.reorderRounds == 1 && tile.keys() * elementWords(config) >= keyBytes(config.keyType) * kRadix;
}

uint32_t binningSharedBytes(const Tuning& t, const TileShape& shape, uint32_t elementWords, bool keysAlone) {
  uint32_t maxSubgroups = shape.workgroupSize / t.minSubgroupSize;
  uint32_t rounds = shape.reorderRounds;
  uint32_t reorder = shape.keys() / rounds * elementWords;  // the reorder area
  uint32_t counters = (maxSubgroups + 1) / 2 * kRadix;  // 16-bit subgroup counters, a word per pair
  // s_tile and s_subgroupCounts: with several rounds the counters are in s_tile's words (and
  // s_subgroupCounts is one word).
  const uint32_t tileWords = rounds > 1 ? std::max(reorder, counters) : reorder;  // SHARED_TILE_WORDS
  // Keys alone with chunked row sums keep the digits' counts and starts in registers
  // (binning.glsl's DIGITS_IN_REGISTERS).
  const uint32_t chunkSums = rounds > 1 ? counters : 0;
  const bool chunked = shape.workgroupSize % kRadix == 0 && shape.workgroupSize / kRadix >= 2 &&
                       chunkSums + shape.workgroupSize <= tileWords;
  const bool digitsInRegisters = keysAlone && chunked;
  uint32_t words = (rounds > 1 ? tileWords + 1 : reorder + counters)
                   + kRadix                     // s_digitDest
                   + (digitsInRegisters ? 2 : 2 * kRadix)  // s_digitCount, s_digitScan
                   + maxSubgroups               // s_subgroupTotals
                   + 2;                         // s_ticket, s_uniformDigit
  return words * 4;
}

Tuning chooseTuning(const DeviceCaps& caps, Algorithm requested) {
  Preferred want = preferredFor(caps);
  applyOverride(&want);
  Tuning t{};
  if (caps.canRequireSubgroupSize) {
    t.subgroupSize = std::clamp(want.subgroupSize, caps.minSubgroupSize, caps.maxSubgroupSize);
    t.requireSubgroupSize = true;
    t.minSubgroupSize = t.subgroupSize;
  } else {
    // Without size control, SPIR-V 1.5 compute shaders run at the device's subgroupSize.
    t.subgroupSize = caps.subgroupSize;
    t.requireSubgroupSize = false;
    t.minSubgroupSize = std::min(caps.subgroupSize, caps.minSubgroupSize);
  }
  t.workgroupSize = std::max(want.workgroupSize, t.subgroupSize);
  TileShape* base = t.tiers[0].shape;
  base[0] = {t.workgroupSize, std::max(want.keysPerInvocation, 1u), want.reorderRounds};
  base[1] = {t.workgroupSize, std::max(want.wideKeysPerInvocation, 1u), want.wideReorderRounds};
  t.histogramTilesPerWorkgroup = std::max(want.histogramTilesPerWorkgroup, 1u);
  t.histogramMinWorkgroups = std::max(want.histogramMinWorkgroups, 1u);
  t.partitionedRanking = want.partitionedRanking && caps.partitionedSubgroups;
  t.atomicRanking = want.atomicRanking && !t.partitionedRanking;
  t.lookbackPlainStores = want.lookbackPlainStores;
  t.patientWaits = want.patientWaits >= 0 ? want.patientWaits != 0 : caps.driverId == VK_DRIVER_ID_MESA_LLVMPIPE;
  t.persistentTiles = want.persistentTiles;
  // Without a required size the device may run any size up to its maximum.
  t.ballotWords = ((t.requireSubgroupSize ? t.subgroupSize : caps.maxSubgroupSize) + 31) / 32;
  t.histogramCopies = std::clamp(want.histogramCopies, 1u, 8u);
  t.hotDigitWithValues = want.hotDigitWithValues;
  t.portionTiles = want.portionTiles;
  t.wideAddressesFrom = want.wideAddressesFrom;
  t.waveWorkgroups = want.waveWorkgroups != ~0u ? want.waveWorkgroups : caps.multiprocessors;
  t.chainedUpTo = want.chainedUpTo;
  if (want.algorithm != Algorithm::automatic) requested = want.algorithm;
  t.algorithm = requested != Algorithm::automatic ? requested
                : trustsForwardProgress(caps)     ? Algorithm::onesweep
                                                  : Algorithm::reduceThenScan;

  // Shapes fitted to the device, halving what takes more shared memory: the workgroup where the
  // subgroup counters do (their rows grow with workgroupSize / minSubgroupSize, which small
  // subgroups, lavapipe's 4, make large), else the keys per invocation, in whole rounds. Tiles
  // below 2^16 keys: binning.glsl packs places in 16 bits.
  auto fits = [&](const TileShape& c, uint32_t words, bool keysAlone) {
    return c.workgroupSize <= caps.maxWorkgroupInvocations && binningSharedBytes(t, c, words, keysAlone) <= caps.maxSharedMemory &&
           c.keys() <= 0x10000u &&
           (!t.requireSubgroupSize || c.workgroupSize / t.subgroupSize <= caps.maxWorkgroupSubgroups);
  };
  auto fit = [&](TileShape* c, uint32_t words, bool shrinkWorkgroup, bool keysAlone = false) {
    auto wholeRounds = [&] {
      c->reorderRounds = std::clamp(c->reorderRounds, 1u, std::min(c->keysPerInvocation, 8u));
      c->keysPerInvocation -= c->keysPerInvocation % c->reorderRounds;
    };
    wholeRounds();
    while (!fits(*c, words, keysAlone)) {
      const bool countersLarger = kRadix / 2 / t.minSubgroupSize >= c->keysPerInvocation / c->reorderRounds * words;
      const bool canShrinkWorkgroup = shrinkWorkgroup && c->workgroupSize > t.subgroupSize;
      if (canShrinkWorkgroup && (countersLarger || c->keysPerInvocation == 1)) {
        c->workgroupSize /= 2;
      } else if (c->keysPerInvocation > 1) {
        c->keysPerInvocation /= 2;
        wholeRounds();
      } else {
        break;
      }
    }
  };
  // One workgroup size for both widths (the scan's too), fitted to the 32-bit tile; keys alone
  // take it too.
  fit(&base[0], 1, true);
  t.workgroupSize = base[1].workgroupSize = base[0].workgroupSize;
  fit(&base[1], 2, false);
  base[2] = base[0];
  base[3] = base[1];
  // Further tiers, in ascending counts (one out of order ends the list); a shape not given is
  // the first tier's (keys alone: the tier's own pairs' shape of their width).
  t.tierCount = 1;
  for (uint32_t i = 1; i < want.tierCount && want.tiers[i].from > t.tiers[t.tierCount - 1].from; ++i, ++t.tierCount) {
    const Preferred::Tier& w = want.tiers[i];
    t.tiers[i].from = t.algorithm == Algorithm::reduceThenScan && w.reduceThenScanFrom != 0 ? w.reduceThenScanFrom : w.from;
    const bool fitted = w.fitWaves && t.waveWorkgroups != 0 && t.algorithm == Algorithm::onesweep && !t.partitionedRanking;
    for (uint32_t cls = 0; cls < kTileClasses; ++cls) {
      const bool ownScan = t.algorithm == Algorithm::reduceThenScan && Preferred::Tier::gives(w.reduceThenScan[cls]);
      const TileShape& given = ownScan ? w.reduceThenScan[cls] : w.shapeOf(cls);
      TileShape& shape = t.tiers[i].shape[cls];
      shape = classKeysAlone(cls) ? t.tiers[i].shape[cls - 2] : base[cls];  // keys alone: the tier's pairs' shape
      if (given.workgroupSize != 0) shape.workgroupSize = std::max(given.workgroupSize, t.subgroupSize);
      if (given.keysPerInvocation != 0) shape.keysPerInvocation = given.keysPerInvocation;
      if (Preferred::Tier::gives(given)) shape.reorderRounds = given.reorderRounds;
      shape.prefetchPairs = !classKeysAlone(cls) && given.prefetchPairs;  // pairs alone; persistent ones (below)
      shape.fitPercent = fitted ? std::min(tierOr(w.fitPercent[cls], want.fitPercent[cls]), 100u) : 0;
      fit(&shape, classWords(cls), true, classKeysAlone(cls));
    }
  }
  const Preferred::Tier noTierChoices{};  // tier 0 takes the device's and the classes' choices
  for (uint32_t i = 0; i < t.tierCount; ++i)
    for (uint32_t cls = 0; cls < kTileClasses; ++cls) {
      TileShape& shape = t.tiers[i].shape[cls];
      shape.hotDigitFrom = t.algorithm == Algorithm::onesweep ? std::min(want.hotDigitFrom[cls], 100u) : 0;
      shape.hotDigitTo = std::min(want.hotDigitTo[cls], 100u);
      const Preferred::Tier& w = i == 0 ? noTierChoices : want.tiers[i];
      shape.lookbackWindow = std::clamp(w.lookbackWindow[cls] != 0 ? w.lookbackWindow[cls] : want.lookbackWindow[cls], 1u, 16u);
      shape.lookbackPlainLoads = tierOr(w.plainLoads[cls], want.lookbackPlainLoads) != 0;
      shape.ridingValues = want.ridingValues && !classKeysAlone(cls) && shape.reorderRounds == 1;
      shape.rankFirst = tierOr(w.rankFirst[cls], want.rankFirst[cls]) != 0 && t.atomicRanking &&
                        t.algorithm == Algorithm::onesweep;  // Onesweep's binning alone
      // Persistent tiles: the device's choice, unless an Onesweep tier turns it off (reduce-then-
      // scan's downsweep keeps the device's). Only they touch their next tile early.
      shape.persistentTiles = t.persistentTiles && (t.algorithm != Algorithm::onesweep || tierOr(w.persistent[cls], 1) != 0);
      shape.prefetchPairs = shape.prefetchPairs && shape.persistentTiles;
    }
  // The one-workgroup sort's tiles, ascending: first bitonic networks (small_bitonic.glsl) of
  // powers of two up to bitonicKeysPerPass times a full key's passes (smallTileOf() gives a sort
  // of fewer passes those up to that many keys per pass), the workgroup doubling (where the device
  // allows no larger one, the keys per invocation), as far as shared memory allows; then radix tiles
  // (small_sort.glsl, binning.glsl's shared memory) of one round, their own workgroup, keys per
  // invocation doubling, those the fitting leaves larger than the tile before. It sorts up to
  // the largest (and smallSortKeys).
  auto bitonicFits = [&](const TileShape& c, uint32_t words) {
    const uint32_t sharedBytes = c.keys() * (words + 1) * 4;  // key words and a source index
    return c.workgroupSize <= caps.maxWorkgroupInvocations && sharedBytes <= caps.maxSharedMemory &&
           c.workgroupSize / t.subgroupSize <= caps.maxWorkgroupSubgroups;
  };
  t.bitonicKeysPerPass = want.bitonicKeysPerPass;
  auto powerOfTwo = [](uint32_t v) { return v != 0 && (v & (v - 1)) == 0; };
  const uint32_t smallWorkgroup = want.smallWorkgroupSize == 0 ? t.workgroupSize : std::max(want.smallWorkgroupSize, t.subgroupSize);
  uint32_t radixWorkgroup = smallWorkgroup;  // the 32-bit radix tiles' (64-bit ones take it)
  for (uint32_t words : {1u, 2u}) {
    uint32_t& count = t.smallTileCount[words - 1];
    count = 0;
    const uint32_t bitonicKpi = want.bitonicKeysPerInvocation;
    if (powerOfTwo(bitonicKpi) && powerOfTwo(want.bitonicWorkgroupSize)) {
      TileShape shape{std::max(want.bitonicWorkgroupSize, t.subgroupSize), bitonicKpi, 1};
      shape.bitonic = true;
      const uint64_t most = uint64_t(t.bitonicKeysPerPass) * (32 * words / kRadixBits);
      while (count < kMaxSmallTiles / 2 && shape.keys() <= most && bitonicFits(shape, words)) {
        t.smallTiles[count++][words - 1] = shape;
        TileShape wider = shape;
        wider.workgroupSize *= 2;
        if (bitonicFits(wider, words)) shape = wider;
        else shape.keysPerInvocation *= 2;
      }
    }
    for (uint32_t i = 0; i < std::clamp(want.smallTiles, 1u, kMaxSmallTiles / 2); ++i) {
      TileShape shape{words == 1 ? smallWorkgroup : radixWorkgroup, std::max(want.smallKeysPerInvocation, 1u) << i, 1};
      fit(&shape, words, words == 1);
      shape.ridersAlongside = binningSharedBytes(t, shape, words, false) + shape.keys() * 4 <= caps.maxSharedMemory;
      if (words == 1 && i == 0) radixWorkgroup = shape.workgroupSize;
      if (count == 0 || shape.keys() > t.smallTiles[count - 1][words - 1].keys()) t.smallTiles[count++][words - 1] = shape;
    }
    t.smallSortKeys[words - 1] = std::min(want.smallSortKeys, t.smallTiles[count - 1][words - 1].keys());
  }
  t.histogramWorkgroupSize = want.histogramWorkgroupSize == 0 ? t.workgroupSize
                             : std::clamp(want.histogramWorkgroupSize, t.subgroupSize, caps.maxWorkgroupInvocations);
  while (t.histogramCopies > 1 && t.histogramCopies * kMaxPasses * kRadix * 4 > caps.maxSharedMemory)
    t.histogramCopies /= 2;
  return t;
}

}  // namespace vksort::detail
