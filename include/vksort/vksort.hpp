// vksort: GPU radix sort for Vulkan. Sorts keys, or key/value pairs, that live in the caller's
// buffers, by recording compute dispatches and their barriers into the caller's command buffer.
// Two algorithms (Algorithm below): Onesweep (Adinets & Merrill 2022), the LSD radix sort behind
// CUB: one histogram of every digit, a scan, then per 8-bit digit one chained-scan pass with
// decoupled look-back; and reduce-then-scan, which reads the keys once more per pass but never has
// one workgroup wait on another, for devices that do not promise what the look-back needs.
//
// Use:
//   0. Before vkCreateDevice: getDeviceRequirements() sets the features and lists the extensions
//      to enable.
//   1. createSorter() once per VkDevice, with the VkDeviceCreateInfo. The sorter is immutable: any
//      thread may record with it. It builds no pipeline itself: prepareSorts() (or the create
//      info's list) builds those of the sorts you name ahead, so that recording never compiles;
//      a sort not prepared builds its own at its first recordSort().
//   2. getScratchRequirements() for the largest count you will sort; create a scratch buffer
//      of that size and usage. No hidden allocations: give each frame in flight its own.
//   3. recordSort() into a command buffer, between the barriers of "Barrier contract" below.
//
// Memory: every buffer is reached through its device address, so keys, values and scratch need
// VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, memory allocated with
// VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT (VMA: VMA_ALLOCATOR_CREATE_BUFFER_DEVICE_ADDRESS_BIT), and
// the device the bufferDeviceAddress feature.
//
// Barrier contract. recordSort() binds its own compute pipelines and push constants (re-bind
// yours afterwards) and records every barrier between its own dispatches, plus one
// compute-to-compute barrier first, so that sorts sharing a scratch buffer may follow each other
// directly. The edges are the caller's:
//   before: make prior writes to keys and values available to
//           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT with VK_ACCESS_SHADER_READ_BIT |
//           VK_ACCESS_SHADER_WRITE_BIT (kSortDstStage, kSortDstAccess);
//   after:  wait on VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT
//           (kSortSrcStage, kSortSrcAccess) before reading the sorted keys and values.
// Synchronization validation cannot check this contract for you: vksort reaches the buffers
// through device addresses, which it does not track, so a missing barrier gives no message. The
// GPU test suite runs a writer and a reader around a sort with and without each edge
// (tests/test_contract.cpp): without "after" the reader saw unsorted keys on an H100.
//
// Errors: every function checks its input; on failure it returns a Status with a message that
// says what to change, and records nothing. No exception leaves vksort.
#ifndef VKSORT_VKSORT_HPP
#define VKSORT_VKSORT_HPP

#include <cstdint>
#include <string>
#include <vector>
#include <vulkan/vulkan_core.h>

#define VKSORT_VERSION_MAJOR 0
#define VKSORT_VERSION_MINOR 3
#define VKSORT_VERSION_PATCH 0

#include "vksort_export.h"
#define VKSORT_API VKSORT_EXPORT

namespace vksort {

// ---- Results --------------------------------------------------------------------------------

enum class Result : int32_t {
  success = 0,
  errorInvalidArgument = -1,    // a null handle, a range too small or misaligned, a bad count...
  errorFeatureNotPresent = -2,  // the device lacks a feature or property vksort needs
  errorVulkan = -3,             // a Vulkan call failed: Status::vkResult says how
  errorIncompatibleTuning = -4, // tuning data made elsewhere (another device, driver or vksort
                                // version) or damaged; tuneSorts() again on this device
  errorCancelled = -5,          // tuneSorts(): the progress callback returned false
};

// A result and, unless it is success, a message saying what was wrong.
struct Status {
  Result result = Result::success;
  VkResult vkResult = VK_SUCCESS;  // the failing call's result when result is errorVulkan
  std::string message;
  explicit operator bool() const { return result == Result::success; }
};

// ---- What is sorted -------------------------------------------------------------------------

// Key types. Keys are stored and returned as given; they are ordered as their type orders them:
// i32/i64 as signed integers; f32/f64 by IEEE value with -0.0 == +0.0 (they keep their input
// order), infinities at the ends, denormals in place, and NaNs by bit pattern beyond them:
// positive NaNs after +inf, negative NaNs before -inf (include/vksort/keys.glsl, the same maps
// for shaders). 64-bit keys and values are little-endian, 8-byte aligned.
enum class KeyType : uint32_t { u32 = 0, i32 = 1, f32 = 2, u64 = 3, i64 = 4, f64 = 5 };
enum class ValueType : uint32_t { none = 0, u32 = 1, u64 = 2 };
enum class SortOrder : uint32_t { ascending = 0, descending = 1 };

// What is sorted. Stable in both orders: equal keys keep their input order.
struct SortConfig {
  KeyType keyType = KeyType::u32;
  ValueType valueType = ValueType::none;  // none: keys alone
  SortOrder order = SortOrder::ascending;
  // Only bits [beginBit, endBit) of the ordered form of a key decide the order (for signed and
  // float keys the form of keys.glsl: the top bit is then the sign). Keys equal within the range
  // keep their input order. endBit 0 (the default) means the whole key: 32 or 64 by key type.
  // Otherwise beginBit < endBit <= the key's bits. Costs ceil((endBit - beginBit) / 8) passes,
  // plus a copy into the caller's buffers when that number is odd.
  uint32_t beginBit = 0;
  uint32_t endBit = 0;
};

// Bytes of one key, one value (0 for none) of a config. The one place that gives each key type
// its width: a new type gets its case here (the switch names every type; no default).
constexpr uint32_t keyBytes(KeyType t) {
  switch (t) {
    case KeyType::u32:
    case KeyType::i32:
    case KeyType::f32: return 4;
    case KeyType::u64:
    case KeyType::i64:
    case KeyType::f64: return 8;
  }
  return 0;  // not a KeyType
}
constexpr uint32_t valueBytes(ValueType t) { return t == ValueType::u64 ? 8 : t == ValueType::u32 ? 4 : 0; }
// The end of a config's bit range: endBit, or for 0 the key's bits.
constexpr uint32_t endBitOf(const SortConfig& c) { return c.endBit != 0 ? c.endBit : keyBytes(c.keyType) * 8; }

// ---- Device requirements (before vkCreateDevice) --------------------------------------------

// Device extensions getDeviceRequirements() may ask for, at most.
constexpr uint32_t kMaxRequiredExtensions = 4;

// The device extensions vksort needs or uses on a physical device: add each to your
// VkDeviceCreateInfo's list unless it is there already. Pointers to static strings.
struct DeviceRequirements {
  uint32_t extensionCount = 0;
  const char* extensionNames[kMaxRequiredExtensions] = {};
};

// Before vkCreateDevice: checks that `physicalDevice` can run vksort (Vulkan 1.1, subgroup
// operations in compute, bufferDeviceAddress), fills *pRequirements with the extensions to enable,
// and sets to VK_TRUE, in the feature structs of pFeatures's chain, each feature vksort needs
// (bufferDeviceAddress) or uses where the device has it (subgroupSizeControl and
// computeFullSubgroups). pFeatures heads the pNext chain you will give VkDeviceCreateInfo; after
// it, any of VkPhysicalDeviceVulkan12Features, VkPhysicalDeviceVulkan13Features,
// VkPhysicalDeviceBufferDeviceAddressFeatures, VkPhysicalDeviceSubgroupSizeControlFeatures, in any
// order, other structs among them; it only ever sets features. Every sType is checked before its
// pNext is followed: a struct that cannot extend VkDeviceCreateInfo is an error. Where no struct
// of the chain holds bufferDeviceAddress it fails and names the struct to add; so it does where
// the device needs subgroup size control (docs/DEVICES.md) and no struct holds it; otherwise an
// optional feature with no struct to hold it is left out. Then pass the whole VkDeviceCreateInfo
// to createSorter (SorterCreateInfo::pDeviceCreateInfo).
VKSORT_API Status getDeviceRequirements(VkInstance instance, PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr,
                                        VkPhysicalDevice physicalDevice, VkPhysicalDeviceFeatures2* pFeatures,
                                        DeviceRequirements* pRequirements);

// ---- Sorter ---------------------------------------------------------------------------------

// Handle of a sorter: pipelines and a tuning for one VkDevice.
typedef struct Sorter_T* Sorter;

// The sorting algorithm. Onesweep's look-back has a workgroup wait on others that started before
// it; the wait is bounded (past it the workgroup counts the missing tile's digits itself), so it
// runs on every device. Reduce-then-scan never waits on another workgroup and reads the keys once
// more per pass. automatic: Onesweep on every device (docs/DEVICES.md), unless tuning data
// (SorterCreateInfo::pTuningData) measured reduce-then-scan faster on this one.
enum class Algorithm : uint32_t { automatic = 0, onesweep = 1, reduceThenScan = 2 };

// A kind of sort whose pipelines are built ahead (prepareSorts()): `config`, direct or indirect,
// of any count up to maxCount.
struct PreparedSort {
  SortConfig config;
  uint32_t maxCount = 0;
};

// For developers measuring or testing vksort itself; a shipped renderer passes none.
struct SorterDeveloperOptions {
  // Overrides of the tuning tables, "name=value,..." with unsigned values (the names:
  // docs/TUNING.md). Null or empty: none. An unknown name or a malformed item fails createSorter.
  const char* tuning = nullptr;
  // Print each pipeline's compiler statistics (registers, spills) to stderr when it is built:
  // needs VK_KHR_pipeline_executable_properties and its pipelineExecutableInfo feature enabled.
  bool pipelineStatistics = false;
};

struct SorterCreateInfo {
  // Needed for physical-device queries, which vkGetDeviceProcAddr cannot load. Must not be null.
  VkInstance instance = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  // Must be the physical device `device` was created from.
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  // Optional. Null: loaded through vkGetInstanceProcAddr.
  PFN_vkGetDeviceProcAddr vkGetDeviceProcAddr = nullptr;
  // The VkDeviceCreateInfo `device` was created with (only its pNext chain and extension list
  // are read, during createSorter). vksort learns from it which features and extensions are
  // enabled: bufferDeviceAddress must be; subgroup size control is used where it is (and must be
  // where the device may run subgroups larger than 32, which no kernel is proven at). Required.
  const VkDeviceCreateInfo* pDeviceCreateInfo = nullptr;
  // Optional.
  VkPipelineCache pipelineCache = VK_NULL_HANDLE;
  // Optional: used for every Vulkan object the sorter creates.
  const VkAllocationCallbacks* pAllocationCallbacks = nullptr;
  // Optional: force an algorithm (the scratch layout depends on it).
  Algorithm algorithm = Algorithm::automatic;
  // Optional: sorts whose pipelines createSorter builds (prepareSorts()).
  uint32_t preparedSortCount = 0;
  const PreparedSort* pPreparedSorts = nullptr;
  // Optional: developers' settings (null: none).
  const SorterDeveloperOptions* pDeveloperOptions = nullptr;
  // Optional: tuning data that tuneSorts() made on this device (stored beside your pipeline
  // cache). It changes which tiles and algorithm sorts run with, never their results.
  const void* pTuningData = nullptr;
  size_t tuningDataSize = 0;
  // Tuning data vksort cannot use (made on another device or driver, by another vksort version,
  // or damaged): true fails createSorter with errorIncompatibleTuning; false (the default) uses
  // the built-in tables, and getSorterProperties() says the data was not used.
  bool requireTuningData = false;
};

// Creates a sorter: checks the device's capabilities, chooses a tuning and an algorithm, and
// builds the pipelines every sort shares and those of pPreparedSorts. Any other sort's pipelines
// are built when it is first recorded (see prepareSorts()). On success *pSorter holds the new
// sorter; on failure it is left untouched.
VKSORT_API Status createSorter(const SorterCreateInfo& createInfo, Sorter* pSorter);

// Destroys a sorter. Command buffers recorded with it must have completed. `sorter` may be null.
VKSORT_API void destroySorter(Sorter sorter);

// What a sorter offers its caller. How it sorts (tiles, kernels, their variants) is for
// describeSort() to tell.
struct SorterProperties {
  uint32_t subgroupSize;      // the size the kernels are built for (see requiredSubgroupSize)
  bool requiredSubgroupSize;  // true: the pipelines require it (subgroupSizeControl)
  uint32_t maxCount;          // the largest count one sort accepts (memory allowing)
  Algorithm algorithm;        // onesweep or reduceThenScan, as chosen for the device
  bool tuned;                 // SorterCreateInfo's tuning data is in use (describeSort() says
                              // which tiles it changed and by how much they won)
};
VKSORT_API SorterProperties getSorterProperties(Sorter sorter);

// Builds now the pipelines that sorts of these kinds will record with (each config, direct or
// indirect, any count up to its maxCount), so that recordSort() never compiles on the recording
// thread: call it at load time, or pass the list to createSorter. Building takes seconds per kind
// on a cold driver cache (README, "Startup"), milliseconds with a warm VkPipelineCache
// (SorterCreateInfo::pipelineCache; save it with vkGetPipelineCacheData). Thread-safe; what is built already is
// skipped. On failure what was built stays built.
VKSORT_API Status prepareSorts(Sorter sorter, uint32_t sortCount, const PreparedSort* pSorts);

// ---- Sorting --------------------------------------------------------------------------------

struct ScratchRequirements {
  VkDeviceSize size;         // bytes of scratch for sorts of up to maxCount keys
  VkDeviceSize alignment;    // the scratch range's offset, and its device address, must be
                             // multiples of it (a sub-allocation of a larger buffer is fine)
  VkBufferUsageFlags usage;  // the scratch buffer must have been created with these
};

// Usage every keys and values buffer needs.
constexpr VkBufferUsageFlags kRequiredBufferUsage =
    VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

// Scratch needed to sort up to maxCount keys with `config`. maxCount must not exceed
// getSorterProperties(sorter).maxCount.
VKSORT_API Status getScratchRequirements(Sorter sorter, const SortConfig& config, uint32_t maxCount,
                                         ScratchRequirements* pRequirements);

// A range of a buffer. offset must be a multiple of the element size (4 or 8 bytes).
struct BufferRange {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize size = 0;
  // Optional: the usage the buffer was created with (Vulkan cannot be asked). When given, vksort
  // checks it holds what the buffer needs (kRequiredBufferUsage; scratch: the query's usage).
  VkBufferUsageFlags usage = 0;
};

struct SortInfo {
  SortConfig config;
  // Keys to sort; 0 records nothing. Ignored when countBuffer is given. Counts past 2^30 go in
  // portions of about 2^30 keys (one binning dispatch each per pass).
  uint32_t count = 0;
  uint32_t maxCount = 0;  // the count the scratch was sized for; count must not exceed it
  // Optional, for indirect sorts: the count is the u32 at countBuffer.offset (a multiple of 4,
  // size >= 4), read on the GPU when the sort runs, e.g. written by a culling pass earlier in the
  // same command buffer (make it available like keys, per the barrier contract). It is untrusted:
  // values above maxCount sort maxCount keys; nothing outside the ranges is read or written. The
  // buffer itself is not changed: a later draw whose instanceCount comes from it gets the
  // unclamped value, so clamp there too when the count may exceed maxCount.
  // Workgroup counts come from it (indirect dispatch). The buffer needs kRequiredBufferUsage.
  BufferRange countBuffer;
  BufferRange keys;       // count keys (indirect sorts: maxCount), sorted in place
  BufferRange values;     // as many values, permuted with their keys; ignored for keys alone
  BufferRange scratch;    // getScratchRequirements(config, maxCount).size bytes, aligned
  // Optional profiling: a timestamp query pool with getSortTimestampCount() queries from
  // firstTimestamp on, reset by the caller. The sort writes one before its first dispatch and one
  // after each dispatch (init, histogram, scan, then one per pass), each once all earlier work is
  // done, which serializes the sort a little. It writes every one of them whatever path it takes:
  // where it runs as fewer dispatches (the one-workgroup sort; the chained sort, whose histogram,
  // scan and passes are one dispatch, timed as the histogram's) the rest follow the last.
  VkQueryPool timestampPool = VK_NULL_HANDLE;
  uint32_t firstTimestamp = 0;
};

// Timestamps a profiled sort writes: 4 + the number of binning passes (+ 1 for the copy-back
// when that number is odd); 0 for an invalid config.
VKSORT_API uint32_t getSortTimestampCount(const SortConfig& config);

// What a sort would run, as text (one line per dispatch): the device's tuning table, the tile
// class, tier and tile of a sort of `count` keys with `config` (an indirect sort: of up to
// `count`, its maxCount), then each dispatch in order with its grid and its pipeline's variant:
// workgroup, keys per invocation, rounds through shared memory, ranking, value handling,
// look-back loads and stores, persistence, prefetch, hot digits. Records nothing and creates no
// pipeline; for logs, bug reports, and anyone asking why a sort takes the time it does.
VKSORT_API Status describeSort(Sorter sorter, const SortConfig& config, uint32_t count, bool indirect,
                               std::string* pDescription);

// Records a sort into `commandBuffer`, which must be in the recording state, outside a render
// pass, on a queue family with compute. The sorted keys (and values) land in the caller's ranges.
VKSORT_API Status recordSort(Sorter sorter, VkCommandBuffer commandBuffer, const SortInfo& info);

// ---- Tuning on the device ----------------------------------------------------------------------

// Where tuneSorts() is: `step` of `steps` (measurements; the total is an estimate), and what it
// measures, as text.
struct TuningProgress {
  uint32_t step;
  uint32_t steps;
  const char* what;
};
// Called between measurements, on the thread that called tuneSorts(); returning false cancels.
typedef bool (*PFN_vksortTuningProgress)(const TuningProgress& progress, void* pUserData);

struct TuneInfo {
  // The device, as createSorter takes it (its prepared sorts and tuning data are not used; its
  // algorithm, where it names one, is the only one measured). The data names the algorithm it
  // measured, the faster of the two where none was named (on NVIDIA GPUs Onesweep, which the
  // built-in tables measured faster, without measuring again): sorters given the data and no
  // algorithm of their own run that one. Its pipelineCache, where given, seeds the tuner's own
  // cache and receives what the tuner built, both on the calling thread (do not use that cache
  // elsewhere during the call). For each class it sorts the config of your largest sort of it
  // (key type, order, bit range; with u64 values, u32 ones instead), so that sorts you prepared
  // with that cache need not compile again; with no sorts named, unsigned keys.
  const SorterCreateInfo* pSorterCreateInfo = nullptr;
  // A queue of a family with compute, from the same device; tuneSorts() submits to it and waits.
  // Nothing else may use it meanwhile (Vulkan's rule for queues); keep the GPU otherwise idle.
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamilyIndex = 0;
  // The sorts to tune for: each one's tile class, at the counts of every tier of the tables up to
  // its maxCount, measured with the config of the class's largest. None: the four tile classes
  // (u32 and u64 keys, alone and with u32 values) up to 2^26 keys.
  uint32_t sortCount = 0;
  const PreparedSort* pSorts = nullptr;
  // Seconds the measurements may take, about; past them the best found so far is kept. 0: 60.
  float timeBudgetSeconds = 0;
  // Optional progress callback; returning false cancels (errorCancelled, nothing returned).
  PFN_vksortTuningProgress pfnProgress = nullptr;
  void* pUserData = nullptr;
};

struct TuningResult {
  std::vector<uint8_t> data;  // for SorterCreateInfo::pTuningData; store it beside your pipeline cache
  std::string report;         // per tile class and tier: the built-in row and the tuned tile, timed
  double seconds = 0;         // the time tuneSorts() took
};

// Measures candidate tiles (workgroup, keys per invocation, rounds, ranking, look-back, and the
// other choices of the tables) and, where no algorithm is forced, both algorithms, on the caller's
// device with timestamp queries over keys it generates on the GPU, and returns what beat the
// built-in tables as tuning data. Only shapes the built-in tables' fitting accepts are tried, and
// every tile it keeps has sorted correctly once on the device. It allocates its own buffers (a
// few times the largest sort's keys) and frees them before it returns. Call it where a delay is
// expected (a loading screen, an offline tool); it is never called for you.
VKSORT_API Status tuneSorts(const TuneInfo& tuneInfo, TuningResult* pResult);

// The barrier contract above, as values.
constexpr VkPipelineStageFlags kSortDstStage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
constexpr VkAccessFlags kSortDstAccess = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
constexpr VkPipelineStageFlags kSortSrcStage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
constexpr VkAccessFlags kSortSrcAccess = VK_ACCESS_SHADER_WRITE_BIT;

}  // namespace vksort

#endif
