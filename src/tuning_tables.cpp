// The vendors' tuning tables: per vendor, device-wide choices and, per algorithm and tile class,
// the binning tile of each count range. Literal data: a row says everything its tiles run with;
// chooseTuning() only fits the rows to the device's limits. Each row's comment gives the
// mechanism that made it win and the PERFORMANCE-LOG.md entry that measured it
// (docs/PERFORMANCE-LOG.md; "session N" is its entry sN). How to add a vendor:
// docs/ARCHITECTURE.md, "Tuning tables".
#include "tuning.hpp"

namespace vksort::detail {
namespace {

// A row's fields wrap as one paragraph (one field per line would make the tables four times as
// long).
// clang-format off

constexpr uint32_t kVendorAmd = 0x1002;
constexpr uint32_t kVendorNvidia = 0x10DE;
constexpr uint32_t kVendorIntel = 0x8086;

// ---- NVIDIA (tuned on an H100, driver 580) ----------------------------------------------------
// The driver gives compute 48 KiB of shared memory per SM in all, so large tiles run one
// workgroup per SM; small ones keep every SM busy on small sorts. Plain look-back loads and
// stores, atomic ranking and persistent tiles lean on NVIDIA's behaviour (binning_rank_atomics.glsl,
// lookback.glsl).

// Pairs that rank first rank a pass's hot digit (hotDigitFrom to hotRankTo of its keys) a step at a
// time: a step's lanes of it take their places by one atomic of the lowest, not one each on one
// word. Where that range starts and ends, and why there: log, "Pairs rank their hot digit a step
// at a time" (session 45).

// 32-bit keys with 32-bit values.
constexpr TileRow kNvidiaPairs32[] = {
    {0, {.workgroupSize = 256, .keysPerInvocation = 4, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 55,
         .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 3, .lookbackPlainLoads = true, .rankFirst = true,
         .persistentTiles = true, .prefetchPairs = false, .ridingValues = true, .skewedFrom = 0},
     "Small tiles keep every SM busy on small sorts (log: \"512 x 4 tiles from 80k keys\")."},
    {80u << 10, {.workgroupSize = 512, .keysPerInvocation = 4, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 55,
                 .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 3, .lookbackPlainLoads = true, .rankFirst = true,
                 .persistentTiles = true, .prefetchPairs = false, .ridingValues = true, .skewedFrom = 0},
     "Twice the workgroup once a sort has a tile for every SM (log: \"512 x 4 tiles from 80k keys\")."},
    {3u << 17, {.workgroupSize = 512, .keysPerInvocation = 8, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 55,
                .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 3, .lookbackPlainLoads = true, .rankFirst = true,
                .persistentTiles = true, .prefetchPairs = false, .ridingValues = true, .skewedFrom = 0},
     "Twice the keys per tile: half the tiles' look-back and scatter runs; vksort_tune found it on the H100 and the H200 (log: \"Tuned on the device\")."},
    {5u << 17, {.workgroupSize = 512, .keysPerInvocation = 18, .reorderRounds = 1, .fitPercent = 100,
                .hotDigitFrom = 55, .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 3, .lookbackPlainLoads = true,
                .rankFirst = true, .persistentTiles = true, .prefetchPairs = true, .ridingValues = true, .skewedFrom = 0},
     "The whole 48 KiB per SM as one tile, cut to fill whole waves; values ride in registers, the next tile touched into L2 (log: \"Tiles fitted to whole waves\", \"Riding values\")."},
    {1u << 23, {.workgroupSize = 512, .keysPerInvocation = 18, .reorderRounds = 1, .fitPercent = 0,
                .hotDigitFrom = 55, .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 3, .lookbackPlainLoads = true,
                .rankFirst = true, .persistentTiles = true, .prefetchPairs = true, .ridingValues = true, .skewedFrom = 0},
     "Enough waves that a partial last one costs little: whole tiles (log: session 31)."},
    {5u << 21, {.workgroupSize = 896, .keysPerInvocation = 14, .reorderRounds = 2, .fitPercent = 0,
                .hotDigitFrom = 55, .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 3, .lookbackPlainLoads = true,
                .rankFirst = true, .persistentTiles = false, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "12,544 keys through shared memory in 2 rounds, ranked first; a workgroup sorts one tile, the next starts in its place (log: sessions 32, 38)."},
    {1u << 27, {.workgroupSize = 896, .keysPerInvocation = 14, .reorderRounds = 2, .fitPercent = 0,
                .hotDigitFrom = 55, .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 3, .lookbackPlainLoads = false,
                .rankFirst = true, .persistentTiles = false, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "Atomic look-back loads: past 2^27 keys plain loads re-read stale words more often (log: sessions 35-36)."},
};

// Pairs with 64-bit keys or values.
constexpr TileRow kNvidiaPairsWide[] = {
    {0, {.workgroupSize = 256, .keysPerInvocation = 4, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 0,
         .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 4, .lookbackPlainLoads = true, .rankFirst = false,
         .persistentTiles = true, .prefetchPairs = false, .ridingValues = true, .skewedFrom = 0},
     "Half the keys of a 32-bit tile per invocation: the same shared memory (log: \"512 x 4 tiles from 80k keys\")."},
    {80u << 10, {.workgroupSize = 512, .keysPerInvocation = 4, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 0,
                 .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 4, .lookbackPlainLoads = true, .rankFirst = false,
                 .persistentTiles = true, .prefetchPairs = false, .ridingValues = true, .skewedFrom = 0},
     "Twice the workgroup once a sort has a tile for every SM (log: \"512 x 4 tiles from 80k keys\")."},
    {3u << 17, {.workgroupSize = 512, .keysPerInvocation = 9, .reorderRounds = 1, .fitPercent = 0,
                .hotDigitFrom = 0, .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 4, .lookbackPlainLoads = true,
                .rankFirst = false, .persistentTiles = true, .prefetchPairs = true, .ridingValues = true, .skewedFrom = 0},
     "The whole 48 KiB per SM; values touched into L2 while the tile is counted (log: \"Values and next keys touched into L2\")."},
    {5u << 17, {.workgroupSize = 768, .keysPerInvocation = 12, .reorderRounds = 2, .fitPercent = 0,
                .hotDigitFrom = 55, .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 4, .lookbackPlainLoads = true,
                .rankFirst = true, .persistentTiles = false, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "2 rounds, ranked first; a workgroup sorts one tile, the next starts in its place (log: sessions 29-31, 38)."},
    {5u << 21, {.workgroupSize = 896, .keysPerInvocation = 10, .reorderRounds = 2, .fitPercent = 0,
                .hotDigitFrom = 55, .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 2, .lookbackPlainLoads = true,
                .rankFirst = true, .persistentTiles = false, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "896 invocations leave the registers 10 keys need; 2 predecessors read at once (log: sessions 31-32)."},
};

// 32-bit keys alone. Their hot digits are counted a subgroup at a time, but not where one digit
// holds nearly every key: a subgroup's one atomic then costs as much as its lanes' ("Low-entropy
// keys: the hot digit"). Not ranked so (hotRankTo 0): the 896 x 20 tiles spill with that code
// (session 45).
constexpr TileRow kNvidiaAlone32[] = {
    {0, {.workgroupSize = 256, .keysPerInvocation = 4, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 25,
         .hotDigitTo = 98, .hotRankTo = 0, .lookbackWindow = 3, .lookbackPlainLoads = true, .rankFirst = false,
         .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "Small tiles keep every SM busy on small sorts (log: \"512 x 4 tiles from 80k keys\")."},
    {80u << 10, {.workgroupSize = 512, .keysPerInvocation = 4, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 25,
                 .hotDigitTo = 98, .hotRankTo = 0, .lookbackWindow = 3, .lookbackPlainLoads = true, .rankFirst = false,
                 .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "Twice the workgroup once a sort has a tile for every SM (log: \"512 x 4 tiles from 80k keys\")."},
    {3u << 17, {.workgroupSize = 512, .keysPerInvocation = 8, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 25,
                .hotDigitTo = 98, .hotRankTo = 0, .lookbackWindow = 3, .lookbackPlainLoads = true, .rankFirst = false,
                .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "Twice the keys per tile, as the pairs' row from here; vksort_tune found it on the H100 (log: \"Tuned on the device\")."},
    {5u << 17, {.workgroupSize = 512, .keysPerInvocation = 18, .reorderRounds = 1, .fitPercent = 78,
                .hotDigitFrom = 25, .hotDigitTo = 98, .hotRankTo = 0, .lookbackWindow = 3, .lookbackPlainLoads = true,
                .rankFirst = false, .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "The whole 48 KiB per SM, cut to whole waves only where that cuts little (log: \"Tiles fitted to whole waves\")."},
    {7u << 19, {.workgroupSize = 896, .keysPerInvocation = 20, .reorderRounds = 2, .fitPercent = 0,
                .hotDigitFrom = 25, .hotDigitTo = 98, .hotRankTo = 0, .lookbackWindow = 3, .lookbackPlainLoads = true,
                .rankFirst = false, .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "17,920 keys in 2 rounds: 896 invocations leave 72 registers, which 20 keys fit unspilled (log: session 32)."},
    {1u << 24, {.workgroupSize = 896, .keysPerInvocation = 20, .reorderRounds = 2, .fitPercent = 0,
                .hotDigitFrom = 25, .hotDigitTo = 98, .hotRankTo = 0, .lookbackWindow = 3, .lookbackPlainLoads = true,
                .rankFirst = false, .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 25},
     "A pass whose top digit holds a quarter of its keys runs the tile ranked first, the scan choosing: skewed sorts 1.3-1.5x faster; uniform ones pay the empty dispatch, within 1% from here (log: session 52)."},
};

// 64-bit keys alone.
constexpr TileRow kNvidiaAloneWide[] = {
    {0, {.workgroupSize = 256, .keysPerInvocation = 4, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 25,
         .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 4, .lookbackPlainLoads = true, .rankFirst = false,
         .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "Small tiles keep every SM busy on small sorts (log: \"512 x 4 tiles from 80k keys\")."},
    {80u << 10, {.workgroupSize = 512, .keysPerInvocation = 4, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 25,
                 .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 4, .lookbackPlainLoads = true, .rankFirst = false,
                 .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "Twice the workgroup once a sort has a tile for every SM (log: \"512 x 4 tiles from 80k keys\")."},
    {3u << 17, {.workgroupSize = 512, .keysPerInvocation = 9, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 25,
                .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 4, .lookbackPlainLoads = true, .rankFirst = false,
                .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "The whole 48 KiB per SM (log: \"512 x 4 tiles from 80k keys\")."},
    {5u << 17, {.workgroupSize = 512, .keysPerInvocation = 9, .reorderRounds = 1, .fitPercent = 78,
                .hotDigitFrom = 25, .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 4, .lookbackPlainLoads = true,
                .rankFirst = false, .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "Cut to whole waves where that cuts little (log: \"Tiles fitted to whole waves\")."},
    {1u << 21, {.workgroupSize = 768, .keysPerInvocation = 14, .reorderRounds = 2, .fitPercent = 0,
                .hotDigitFrom = 25, .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 2, .lookbackPlainLoads = true,
                .rankFirst = false, .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "2 rounds, whole: fitting would cut it to a slow 768 x 10; 2 predecessors read at once (log: sessions 29-31)."},
    {1u << 23, {.workgroupSize = 896, .keysPerInvocation = 12, .reorderRounds = 2, .fitPercent = 0,
                .hotDigitFrom = 25, .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 2, .lookbackPlainLoads = true,
                .rankFirst = true, .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "As many keys as 768 x 14 over more invocations, fewer registers each (log: session 31); ranked first, skewed passes lose their count's colliding atomic: skewed sorts 1.09-1.18x faster, uniform ones 0.1-0.7% faster (log: session 52)."},
};

// Reduce-then-scan's downsweep: no look-back, no fitting, no ranking first, no hot digits; its
// one-round tiles won where Onesweep's 2-round ones lost for it ("Reduce-then-scan's persistent
// downsweep", session 32), and it takes 512 x 4 tiles from 2^17 ("512 x 4 tiles from 80k keys").
constexpr TileRow kNvidiaScanPairs32[] = {
    {0, {.workgroupSize = 256, .keysPerInvocation = 4, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 0,
         .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 3, .lookbackPlainLoads = true, .rankFirst = false,
         .persistentTiles = true, .prefetchPairs = false, .ridingValues = true, .skewedFrom = 0},
     "Small tiles keep every SM busy on small sorts (log: \"512 x 4 tiles from 80k keys\")."},
    {1u << 17, {.workgroupSize = 512, .keysPerInvocation = 4, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 0,
                .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 3, .lookbackPlainLoads = true, .rankFirst = false,
                .persistentTiles = true, .prefetchPairs = false, .ridingValues = true, .skewedFrom = 0},
     "Reduce-then-scan's larger tiles start at 2^17: its three kernels per pass cost more per tile (log: \"512 x 4 tiles from 80k keys\")."},
    {5u << 17, {.workgroupSize = 512, .keysPerInvocation = 18, .reorderRounds = 1, .fitPercent = 0,
                .hotDigitFrom = 0, .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 3, .lookbackPlainLoads = true,
                .rankFirst = false, .persistentTiles = true, .prefetchPairs = true, .ridingValues = true, .skewedFrom = 0},
     "One round: the downsweep lost in Onesweep's 2-round tiles; values ride (log: session 32, \"Riding values\")."},
};
constexpr TileRow kNvidiaScanPairsWide[] = {
    {0, {.workgroupSize = 256, .keysPerInvocation = 4, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 0,
         .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 4, .lookbackPlainLoads = true, .rankFirst = false,
         .persistentTiles = true, .prefetchPairs = false, .ridingValues = true, .skewedFrom = 0},
     "Small tiles keep every SM busy on small sorts (log: \"512 x 4 tiles from 80k keys\")."},
    {1u << 17, {.workgroupSize = 512, .keysPerInvocation = 4, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 0,
                .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 4, .lookbackPlainLoads = true, .rankFirst = false,
                .persistentTiles = true, .prefetchPairs = false, .ridingValues = true, .skewedFrom = 0},
     "Reduce-then-scan's larger tiles start at 2^17 (log: \"512 x 4 tiles from 80k keys\")."},
    {3u << 17, {.workgroupSize = 512, .keysPerInvocation = 9, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 0,
                .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 4, .lookbackPlainLoads = true, .rankFirst = false,
                .persistentTiles = true, .prefetchPairs = true, .ridingValues = true, .skewedFrom = 0},
     "The whole 48 KiB per SM; values touched into L2 early (log: \"Values and next keys touched into L2\")."},
    {5u << 17, {.workgroupSize = 768, .keysPerInvocation = 12, .reorderRounds = 2, .fitPercent = 0,
                .hotDigitFrom = 0, .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 4, .lookbackPlainLoads = true,
                .rankFirst = false, .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "2 rounds, as Onesweep's (log: session 23)."},
    {5u << 21, {.workgroupSize = 896, .keysPerInvocation = 10, .reorderRounds = 2, .fitPercent = 0,
                .hotDigitFrom = 0, .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 2, .lookbackPlainLoads = true,
                .rankFirst = false, .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "896 x 10 in 2 rounds, as Onesweep's (log: sessions 31-32)."},
};
constexpr TileRow kNvidiaScanAlone32[] = {
    {0, {.workgroupSize = 256, .keysPerInvocation = 4, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 25,
         .hotDigitTo = 98, .hotRankTo = 0, .lookbackWindow = 3, .lookbackPlainLoads = true, .rankFirst = false,
         .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "Small tiles keep every SM busy on small sorts (log: \"512 x 4 tiles from 80k keys\")."},
    {1u << 17, {.workgroupSize = 512, .keysPerInvocation = 4, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 25,
                .hotDigitTo = 98, .hotRankTo = 0, .lookbackWindow = 3, .lookbackPlainLoads = true, .rankFirst = false,
                .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "Reduce-then-scan's larger tiles start at 2^17 (log: \"512 x 4 tiles from 80k keys\")."},
    {5u << 17, {.workgroupSize = 512, .keysPerInvocation = 18, .reorderRounds = 1, .fitPercent = 0,
                .hotDigitFrom = 25, .hotDigitTo = 98, .hotRankTo = 0, .lookbackWindow = 3, .lookbackPlainLoads = true,
                .rankFirst = false, .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "One round: the downsweep lost in Onesweep's 896 x 20 (log: session 32)."},
    {1u << 23, {.workgroupSize = 512, .keysPerInvocation = 19, .reorderRounds = 1, .fitPercent = 0,
                .hotDigitFrom = 25, .hotDigitTo = 98, .hotRankTo = 0, .lookbackWindow = 3, .lookbackPlainLoads = true,
                .rankFirst = false, .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "Digit counts in registers free 2 KiB for a 19th key per invocation (log: session 21)."},
};
constexpr TileRow kNvidiaScanAloneWide[] = {
    {0, {.workgroupSize = 256, .keysPerInvocation = 4, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 25,
         .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 4, .lookbackPlainLoads = true, .rankFirst = false,
         .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "Small tiles keep every SM busy on small sorts (log: \"512 x 4 tiles from 80k keys\")."},
    {1u << 17, {.workgroupSize = 512, .keysPerInvocation = 4, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 25,
                .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 4, .lookbackPlainLoads = true, .rankFirst = false,
                .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "Reduce-then-scan's larger tiles start at 2^17 (log: \"512 x 4 tiles from 80k keys\")."},
    {3u << 17, {.workgroupSize = 512, .keysPerInvocation = 9, .reorderRounds = 1, .fitPercent = 0, .hotDigitFrom = 25,
                .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 4, .lookbackPlainLoads = true, .rankFirst = false,
                .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "The whole 48 KiB per SM (log: \"512 x 4 tiles from 80k keys\")."},
    {1u << 21, {.workgroupSize = 768, .keysPerInvocation = 14, .reorderRounds = 2, .fitPercent = 0,
                .hotDigitFrom = 25, .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 2, .lookbackPlainLoads = true,
                .rankFirst = false, .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "2 rounds, as Onesweep's (log: sessions 29-31)."},
    {1u << 23, {.workgroupSize = 896, .keysPerInvocation = 12, .reorderRounds = 2, .fitPercent = 0,
                .hotDigitFrom = 25, .hotDigitTo = 100, .hotRankTo = 0, .lookbackWindow = 2, .lookbackPlainLoads = true,
                .rankFirst = false, .persistentTiles = true, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0},
     "As many keys as 768 x 14 over more invocations, fewer registers each (log: session 31)."},
};

constexpr VendorTuning kNvidia = {
    .name = "NVIDIA",
    .subgroupSize = 32,
    .histogramWorkgroupSize = 512,
    .histogramTilesPerWorkgroup = 8,
    .histogramMinWorkgroups = 1024,  // a full wave of workgroups from 2^23 keys (session 22)
    .histogramCopies = 1,
    .ranking = Ranking::atomics,     // session 28; ballots beat subgroupPartitionNV ("Measured and lost: ...")
    .lookbackPlainStores = true,     // "The look-back and its publication"
    .patientWaits = std::nullopt,
    // No fallback compiled: its registers push the keys-alone tiles at the register cap into
    // spills and the smallest tiles to fewer workgroups per SM; NVIDIA keeps started workgroups
    // running ("Look-back with fallback").
    .lookbackWait = kLookbackNeverFallsBack,
    // Reduce-then-scan measured slower beside it on the H100 (docs/PERFORMANCE.md, "Reduce-then-scan
    // (the portable algorithm)"); below chainedUpTo Onesweep sorts in one dispatch.
    .onesweepMeasured = true,
    .chainedUpTo = 1u << 20,         // each dispatch boundary weighs most below ("Every pass in one dispatch")
    .smallSortKeys = 8192,
    .smallKeysPerInvocation = 4,
    .smallTiles = 3,
    .smallWorkgroupSize = 512,
    .bitonicKeysPerPass = 256,       // "Bitonic networks for the smallest sorts"
    .bitonicKeysPerInvocation = 1,
    .bitonicWorkgroupSize = 256,
    .onesweep = {tableOf(kNvidiaPairs32), tableOf(kNvidiaPairsWide), tableOf(kNvidiaAlone32), tableOf(kNvidiaAloneWide)},
    .reduceThenScan = {tableOf(kNvidiaScanPairs32), tableOf(kNvidiaScanPairsWide), tableOf(kNvidiaScanAlone32),
                       tableOf(kNvidiaScanAloneWide)},
};

// ---- Devices never measured -------------------------------------------------------------------
// One tile per class, fitted to the device's shared memory, and only what the Vulkan specification
// promises: atomic look-back, ballot ranking, one tile per workgroup.
constexpr TileShape untuned(uint32_t keysPerInvocation) {
  return {.workgroupSize = 256, .keysPerInvocation = keysPerInvocation, .reorderRounds = 1, .fitPercent = 0,
          .hotDigitFrom = 25, .hotDigitTo = 100, .hotRankTo = 98, .lookbackWindow = 4, .lookbackPlainLoads = false,
          .rankFirst = false,
          .persistentTiles = false, .prefetchPairs = false, .ridingValues = false, .skewedFrom = 0};
}
constexpr TileRow kAmd32[] = {{0, untuned(8), "Never measured: a starting point for wave32, fitted to the device's shared memory."}};
constexpr TileRow kAmdWide[] = {{0, untuned(4), "Never measured: half the 32-bit tile's keys, the same shared memory."}};
constexpr TileRow kIntel32[] = {{0, untuned(8), "Never measured: a starting point, fitted to the device's shared memory."}};
constexpr TileRow kIntelWide[] = {{0, untuned(4), "Never measured: half the 32-bit tile's keys, the same shared memory."}};
constexpr TileRow kOther32[] = {{0, untuned(8), "Never measured: a starting point, fitted to the device's shared memory."}};
constexpr TileRow kOtherWide[] = {{0, untuned(4), "Never measured: half the 32-bit tile's keys, the same shared memory."}};

constexpr VendorTuning untunedVendor(const char* name, std::optional<uint32_t> subgroupSize, uint32_t lookbackWait,
                                     TileTable narrow, TileTable wide) {
  return {.name = name,
          .subgroupSize = subgroupSize,
          .histogramWorkgroupSize = 0,
          .histogramTilesPerWorkgroup = 8,
          .histogramMinWorkgroups = 256,
          .histogramCopies = 1,
          .ranking = Ranking::ballots,
          .lookbackPlainStores = false,
          .patientWaits = std::nullopt,
          .lookbackWait = lookbackWait,
          .onesweepMeasured = false,
          .chainedUpTo = 0,
          .smallSortKeys = 2048,
          .smallKeysPerInvocation = 4,
          .smallTiles = 2,
          .smallWorkgroupSize = 0,
          .bitonicKeysPerPass = 128,
          .bitonicKeysPerInvocation = 1,
          .bitonicWorkgroupSize = 256,
          .onesweep = {narrow, wide, narrow, wide},
          .reduceThenScan = {narrow, wide, narrow, wide}};
}
// Look-back waits (never measured here): long on AMD and Intel, whose drivers are believed to keep
// a spinning workgroup's predecessors running; sooner on other devices (lavapipe: each turn
// re-reads 32 times, patient_wait.glsl).
// AMD: wave32, RDNA's smaller size and the largest one proven (device_caps.hpp); GCN's wave64 is
// refused.
constexpr VendorTuning kAmd = untunedVendor("AMD", 32, 2048, tableOf(kAmd32), tableOf(kAmdWide));
constexpr VendorTuning kIntel = untunedVendor("Intel", 16, 2048, tableOf(kIntel32), tableOf(kIntelWide));
constexpr VendorTuning kOther = untunedVendor("other", std::nullopt, 256, tableOf(kOther32), tableOf(kOtherWide));

// clang-format on
}  // namespace

const VendorTuning& vendorTuning(const DeviceCaps& caps) {
  switch (caps.vendorId) {
    case kVendorNvidia: return kNvidia;
    case kVendorAmd: return kAmd;
    case kVendorIntel: return kIntel;
    default: return kOther;
  }
}

const VendorTuning& untunedTuning() { return kOther; }

}  // namespace vksort::detail
