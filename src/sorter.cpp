// The public API: argument checks, sorter creation and destruction, scratch queries, recording.
#include "device_table.hpp"

#include <algorithm>
#include <cstdio>
#include <new>
#include <string_view>
#include <utility>
#include <vector>

#include "arguments.hpp"
#include "introspection.hpp"
#include "recorder.hpp"
#include "scratch_layout.hpp"
#include "shader_interface.h"
#include "sorter_state.hpp"
#include "status.hpp"
#include "tuning_data.hpp"
#include "tuning_override.hpp"

namespace vksort {
using namespace detail;

namespace {

uint32_t maxCountOf(const Sorter_T& s) {
  // A u32 count, and the dispatch grids (x * y workgroups): the binning grid is one portion's
  // tiles at most, the histogram's the largest, at one workgroup per histogram group of the
  // smallest tile.
  const Tuning& t = s.tuning;
  uint64_t groups = uint64_t(s.caps.maxWorkgroupCount[0]) * s.caps.maxWorkgroupCount[1];
  uint32_t smallest = ~0u;
  for (uint32_t i = 0; i < t.tierCount; ++i)
    for (const TileShape& shape : t.tiers[i].shape) smallest = std::min(smallest, shape.keys());
  uint64_t keys = groups * smallest * t.histogramTilesPerWorkgroup;
  return uint32_t(keys < 0xFFFFFFFFull ? keys : 0xFFFFFFFFull);
}

// The config as the library works with it: endBit 0 (the whole key) made explicit.
SortConfig resolved(SortConfig config) {
  if (uint32_t(config.keyType) < kKeyTypes) config.endBit = endBitOf(config);
  return config;
}

// Checks a caller's config and resolves it into *out.
Status checkConfig(const SortConfig& given, SortConfig* out) {
  const SortConfig config = resolved(given);
  if (uint32_t(config.keyType) >= kKeyTypes)
    return fail(Result::errorInvalidArgument, "unsupported key type %u", unsigned(config.keyType));
  if (uint32_t(config.valueType) > uint32_t(ValueType::index))
    return fail(Result::errorInvalidArgument, "unsupported value type %u", unsigned(config.valueType));
  if (config.discardKeys && config.valueType == ValueType::none)
    return fail(Result::errorInvalidArgument,
                "discardKeys without values would sort nothing anyone reads: give a value type "
                "(ValueType::index for the permutation)");
  if (config.order != SortOrder::ascending && config.order != SortOrder::descending)
    return fail(Result::errorInvalidArgument, "unsupported sort order %u", unsigned(config.order));
  const uint32_t keyBits = keyBytes(config.keyType) * 8;
  if (config.beginBit >= config.endBit || config.endBit > keyBits)
    return fail(Result::errorInvalidArgument,
                "bit range [%u, %u) is empty, inverted or beyond %u-bit keys: set beginBit < endBit <= %u, or "
                "endBit = 0 for the whole key",
                config.beginBit, config.endBit, keyBits, keyBits);
  *out = config;
  return {};
}

// The names of usage flags, for messages that say what to add.
std::string usageNames(VkBufferUsageFlags usage) {
  static const std::pair<VkBufferUsageFlags, const char*> kNames[] = {
      {VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, "VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT"},
      {VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "VK_BUFFER_USAGE_STORAGE_BUFFER_BIT"},
      {VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT"}};
  std::string out;
  for (const auto& [bit, name] : kNames)
    if (usage & bit) out += (out.empty() ? "" : " | ") + std::string(name);
  return out;
}

// Indirect sorts read their dispatch arguments from the scratch header.
constexpr VkBufferUsageFlags kScratchUsage = kRequiredBufferUsage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
// What the scratch range's offset and device address must be multiples of. The layout's own
// alignment (kScratchAlignment) is reached inside the range: its size has room to round up to it.
constexpr VkDeviceSize kScratchRangeAlignment = 16;
VkDeviceSize scratchBytes(const Tuning& t, const SortConfig& config, uint32_t maxCount) {
  return scratchLayout(t, config, maxCount).size + kScratchAlignment - kScratchRangeAlignment;
}

}  // namespace

Status detail::checkRange(const BufferRange& r, const char* name, VkDeviceSize bytes, VkDeviceSize alignment,
                          VkBufferUsageFlags usage) {
  if (r.buffer == VK_NULL_HANDLE) return fail(Result::errorInvalidArgument, "%s.buffer is VK_NULL_HANDLE", name);
  if (r.usage != 0 && (r.usage & usage) != usage)
    return fail(Result::errorInvalidArgument, "%s.usage lacks %s: create the buffer with it", name,
                usageNames(usage & ~r.usage).c_str());
  if (r.offset % alignment != 0)
    return fail(Result::errorInvalidArgument, "%s.offset %llu is not a multiple of %llu", name,
                (unsigned long long)r.offset, (unsigned long long)alignment);
  if (r.size < bytes)
    return fail(Result::errorInvalidArgument, "%s.size %llu is below the %llu bytes needed%s", name,
                (unsigned long long)r.size, (unsigned long long)bytes,
                std::string_view(name) == "scratch" ? " (getScratchRequirements with this config and maxCount)" : "");
  return {};
}

Status detail::checkDisjoint(std::initializer_list<UsedRange> ranges) {
  for (auto a = ranges.begin(); a != ranges.end(); ++a)
    for (auto b = a + 1; b != ranges.end(); ++b)
      if (a->range && b->range && a->bytes && b->bytes && a->range->buffer == b->range->buffer &&
          a->range->offset < b->range->offset + b->bytes && b->range->offset < a->range->offset + a->bytes)
        return fail(Result::errorInvalidArgument,
                    "%s [%llu, %llu) and %s [%llu, %llu) overlap in one buffer: give each its own bytes", a->name,
                    (unsigned long long)a->range->offset, (unsigned long long)(a->range->offset + a->bytes), b->name,
                    (unsigned long long)b->range->offset, (unsigned long long)(b->range->offset + b->bytes));
  return {};
}

VkDeviceAddress detail::addressOf(const Sorter_T& s, const BufferRange& r) {
  VkBufferDeviceAddressInfo info = vkStruct<VkBufferDeviceAddressInfo>(VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
  info.buffer = r.buffer;
  return s.vk.vkGetBufferDeviceAddress(s.device, &info) + r.offset;
}

Status createSorter(const SorterCreateInfo& ci, Sorter* pSorter) { return createSorterTuned(ci, nullptr, pSorter); }

Status detail::createSorterTuned(const SorterCreateInfo& ci, const TunedTiles* measured, Sorter* pSorter) {
  if (!pSorter) return fail(Result::errorInvalidArgument, "pSorter is null");
  if (!ci.instance || !ci.vkGetInstanceProcAddr || !ci.physicalDevice || !ci.device)
    return fail(Result::errorInvalidArgument,
                "SorterCreateInfo needs instance, vkGetInstanceProcAddr, physicalDevice and device");
  if (uint32_t(ci.algorithm) > uint32_t(Algorithm::reduceThenScan))
    return fail(Result::errorInvalidArgument, "unknown algorithm %u: use a vksort::Algorithm", unsigned(ci.algorithm));
  // Required: without it vksort could only assume bufferDeviceAddress, and a device created
  // without it would fail later, in the shader modules (validation), not here.
  if (!ci.pDeviceCreateInfo)
    return fail(Result::errorInvalidArgument,
                "pDeviceCreateInfo is null: pass the VkDeviceCreateInfo vkCreateDevice took (vksort reads which "
                "features and extensions it enabled)");
  if (ci.pDeviceCreateInfo->sType != VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO)
    return fail(Result::errorInvalidArgument,
                "pDeviceCreateInfo is not a VkDeviceCreateInfo (sType %d): pass the one vkCreateDevice took",
                int(ci.pDeviceCreateInfo->sType));
  if (Status st = checkChain(static_cast<const VkBaseInStructure*>(ci.pDeviceCreateInfo->pNext), "pDeviceCreateInfo",
                             "struct that extends VkDeviceCreateInfo", "");
      !st)
    return st;
  if (ci.preparedSortCount != 0 && !ci.pPreparedSorts)
    return fail(Result::errorInvalidArgument, "preparedSortCount is %u but pPreparedSorts is null",
                ci.preparedSortCount);
  if (ci.tuningDataSize != 0 && !ci.pTuningData)
    return fail(Result::errorInvalidArgument, "tuningDataSize is %zu but pTuningData is null", ci.tuningDataSize);
  // Required data that is not there is as unusable as data from elsewhere (the tuner's own
  // candidates, `measured`, need none).
  if (ci.requireTuningData && ci.tuningDataSize == 0 && !measured)
    return fail(Result::errorIncompatibleTuning,
                "requireTuningData is set but no tuning data was given (tuningDataSize 0): give the data, or clear it");
  const SorterDeveloperOptions developer = ci.pDeveloperOptions ? *ci.pDeveloperOptions : SorterDeveloperOptions{};
  TuningOverride tuningOverride;
  if (Status st = parseTuningOverride(developer.tuning, &tuningOverride); !st) return st;

  InstanceFunctions ifn;
  if (const char* missing = loadInstanceFunctions(ci.instance, ci.vkGetInstanceProcAddr, &ifn))
    return fail(Result::errorFeatureNotPresent, "the instance does not provide %s", missing);

  Sorter_T* s = new (std::nothrow) Sorter_T;
  if (!s) return fail(Result::errorVulkan, "out of host memory");
  s->device = ci.device;
  if (ci.pAllocationCallbacks) {
    s->allocatorCopy = *ci.pAllocationCallbacks;
    s->allocator = &s->allocatorCopy;
  }
  Status status = queryDeviceCaps(ifn, ci.physicalDevice, ci.pDeviceCreateInfo, developer.pipelineStatistics, &s->caps);
  if (status && !tuningOverride.names("subgroup"))
    status = checkProvenSubgroupSize(s->caps, s->caps.canRequireSubgroupSize);
  // Ranking by subgroupPartitionNV asked for where the device cannot: an error, not ballots in its
  // place (a measurement of "partitioned" that ran ballots misled session 46).
  if (status && tuningOverride.last("partitioned").value_or(0) != 0 && !s->caps.partitionedSubgroups)
    status =
        fail(Result::errorFeatureNotPresent,
             "the tuning override partitioned=1 needs partitioned subgroup operations and %s enabled on the device",
             VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME);
  if (status) {
    PFN_vkGetDeviceProcAddr gdpa = ci.vkGetDeviceProcAddr ? ci.vkGetDeviceProcAddr : ifn.getDeviceProcAddr;
    if (const char* missing = loadDeviceTable(ci.device, gdpa, &s->vk))
      status = fail(Result::errorFeatureNotPresent, "the device does not provide %s", missing);
  }
  // Tuning data: the tuner's candidate, or the caller's bytes where they are this device's.
  TunedTiles tuned;
  bool haveTuned = false;
  if (status && measured) {
    tuned = *measured;
    haveTuned = true;
  } else if (status && (ci.pTuningData || ci.tuningDataSize)) {
    const Status decoded = decodeTuningData(s->caps, ci.pTuningData, ci.tuningDataSize, &tuned);
    if (!decoded && ci.requireTuningData) status = decoded;
    haveTuned = bool(decoded);
  }
  if (status) {
    s->tuning = chooseTuning(s->caps, ci.algorithm, tuningOverride, haveTuned ? &tuned : nullptr);
    // In use where it changed a tile or the algorithm (data whose rows all stayed changes nothing).
    s->tuned = haveTuned && (s->tuning.tunedTiles != 0 || s->tuning.algorithmClasses != 0);
    status =
        s->pipelines.create(s->vk, s->device, s->tuning, ci.pipelineCache, s->allocator, s->caps.pipelineStatistics);
  }
  if (status && ci.preparedSortCount) status = prepareSorts(s, ci.preparedSortCount, ci.pPreparedSorts);
  if (!status) {
    destroySorter(s);
    return status;
  }
  *pSorter = s;
  return {};
}

void destroySorter(Sorter sorter) {
  if (!sorter) return;
  sorter->pipelines.destroy();
  delete sorter;
}

SorterProperties getSorterProperties(Sorter s) {
  if (!s) return {};
  const Tuning& t = s->tuning;
  return {.subgroupSize = t.subgroupSize,
          .requiredSubgroupSize = t.requireSubgroupSize,
          .maxCount = maxCountOf(*s),
          .algorithm = t.algorithm,
          .tuned = s->tuned};
}

Status prepareSorts(Sorter s, uint32_t sortCount, const PreparedSort* sorts) {
  if (!s) return fail(Result::errorInvalidArgument, "sorter is null");
  if (sortCount != 0 && !sorts)
    return fail(Result::errorInvalidArgument, "sortCount is %u but pSorts is null", sortCount);
  // Every kind is checked before anything is built.
  std::vector<SortConfig> configs(sortCount);
  for (uint32_t i = 0; i < sortCount; ++i) {
    if (Status st = checkConfig(sorts[i].config, &configs[i]); !st) return st;
    if (sorts[i].maxCount > maxCountOf(*s))
      return fail(Result::errorInvalidArgument, "pSorts[%u].maxCount %u exceeds the %u keys one sort accepts", i,
                  sorts[i].maxCount, maxCountOf(*s));
  }
  for (uint32_t i = 0; i < sortCount; ++i)
    for (const PipelineKey& k : pipelinesUpTo(s->tuning, configs[i], sorts[i].maxCount)) {
      VkPipeline unused;
      if (Status st = s->pipelines.get(k, &unused); !st) return st;
    }
  return {};
}

Status describeSort(Sorter s, const SortConfig& given, uint32_t count, bool indirect, std::string* out) {
  if (!s) return fail(Result::errorInvalidArgument, "sorter is null");
  if (!out) return fail(Result::errorInvalidArgument, "pDescription is null");
  SortConfig config;
  if (Status st = checkConfig(given, &config); !st) return st;
  if (count > maxCountOf(*s))
    return fail(Result::errorInvalidArgument, "count %u exceeds the %u keys one sort accepts", count, maxCountOf(*s));
  const Tuning& t = s->tuning;
  char line[384];
  // Tiles are fitted to whole waves only where the number of workgroups a wave holds is known
  // (NVIDIA's SM count, or the developer option wave_workgroups).
  char wave[96] = "no multiprocessor count: tiles are not fitted to waves";
  if (t.waveWorkgroups != 0)
    std::snprintf(wave, sizeof wave, "%u workgroups a wave for fitting tiles", t.waveWorkgroups);
  std::snprintf(line, sizeof line, "%s: %s tuning table%s, subgroup %u%s, %s\n", s->caps.deviceName, t.tablesName,
                s->tuned ? " and this device's tuning data" : "", t.subgroupSize,
                t.requireSubgroupSize ? " (required)" : "", wave);
  *out = line;
  if (t.algorithmClasses != 0) {
    *out += "reduce-then-scan: the tuning data measured it faster on every comparison, for";
    for (uint32_t cls = 0; cls < kTileClasses; ++cls)
      if (t.algorithmClasses >> cls & 1) *out += std::string(" ") + className(cls);
    *out += '\n';
  }
  if (count == 0) {
    *out += "0 keys: nothing is recorded\n";
    return {};
  }
  *out += describePlan(t, planSort(t, config, count, count, indirect));
  return {};
}

Status getScratchRequirements(Sorter s, const SortConfig& given, uint32_t maxCount, ScratchRequirements* out) {
  if (!s) return fail(Result::errorInvalidArgument, "sorter is null");
  if (!out) return fail(Result::errorInvalidArgument, "pRequirements is null");
  SortConfig config;
  if (Status st = checkConfig(given, &config); !st) return st;
  if (maxCount > maxCountOf(*s))
    return fail(Result::errorInvalidArgument, "maxCount %u exceeds the %u keys one sort accepts", maxCount,
                maxCountOf(*s));
  out->size = scratchBytes(s->tuning, config, maxCount);
  out->alignment = kScratchRangeAlignment;
  out->usage = kScratchUsage;
  return {};
}

uint32_t getSortTimestampCount(const SortConfig& given) {
  SortConfig config;
  if (!checkConfig(given, &config)) return 0;
  return kFixedDispatches + 1 + binningDispatches(config);
}

Status recordSort(Sorter s, VkCommandBuffer cmd, const SortInfo& given) {
  if (!s) return fail(Result::errorInvalidArgument, "sorter is null");
  if (!cmd) return fail(Result::errorInvalidArgument, "commandBuffer is VK_NULL_HANDLE");
  SortInfo info = given;
  if (Status st = checkConfig(given.config, &info.config); !st) return st;
  const bool indirect = info.countBuffer.buffer != VK_NULL_HANDLE;
  if (indirect)
    if (Status st = checkRange(info.countBuffer, "countBuffer", 4, 4); !st) return st;
  if (!indirect && info.count > info.maxCount)
    return fail(Result::errorInvalidArgument, "count %u exceeds maxCount %u (the count the scratch was sized for)",
                info.count, info.maxCount);
  if (info.maxCount > maxCountOf(*s))
    return fail(Result::errorInvalidArgument, "maxCount %u exceeds the %u keys one sort accepts", info.maxCount,
                maxCountOf(*s));
  if (!indirect && info.count == 0) return {};  // records nothing, so no range need be given
  bool pairs = info.config.valueType != ValueType::none;
  const VkDeviceSize kb = keyBytes(info.config.keyType), vb = valueBytes(info.config.valueType);
  // The keys the sort may touch: an indirect sort up to maxCount.
  const VkDeviceSize span = indirect ? info.maxCount : info.count;
  if (Status st = checkRange(info.keys, "keys", span * kb, kb); !st) return st;
  if (pairs)
    if (Status st = checkRange(info.values, "values", span * vb, vb); !st) return st;
  const VkDeviceSize needed = scratchBytes(s->tuning, info.config, info.maxCount);
  if (Status st = checkRange(info.scratch, "scratch", needed, kScratchRangeAlignment, kScratchUsage); !st) return st;
  if (info.timestampPool) {
    const uint32_t stamps = getSortTimestampCount(info.config);
    const uint64_t last = uint64_t(info.firstTimestamp) + stamps;
    if (last > 0xFFFFFFFFull || (info.timestampPoolQueries != 0 && last > info.timestampPoolQueries))
      return fail(Result::errorInvalidArgument,
                  "the sort writes %u timestamps from firstTimestamp %u, past the %u queries of timestampPool "
                  "(getSortTimestampCount())",
                  stamps, info.firstTimestamp, info.timestampPoolQueries ? info.timestampPoolQueries : 0xFFFFFFFFu);
  }
  if (Status st = checkDisjoint({{"keys", &info.keys, span * kb},
                                 {"values", pairs ? &info.values : nullptr, span * vb},
                                 {"scratch", &info.scratch, needed},
                                 {"countBuffer", indirect ? &info.countBuffer : nullptr, 4}});
      !st)
    return st;
  if (span == 0) return {};

  // The scratch layout starts at the first multiple of kScratchAlignment in the range.
  const VkDeviceAddress scratchStart = addressOf(*s, info.scratch);
  if (scratchStart % kScratchRangeAlignment != 0)
    return fail(Result::errorInvalidArgument,
                "the scratch range's device address 0x%llx is not a multiple of %llu (ScratchRequirements::alignment): "
                "bind the buffer's memory at an offset that is",
                (unsigned long long)scratchStart, (unsigned long long)kScratchRangeAlignment);
  const VkDeviceSize shift = (kScratchAlignment - scratchStart % kScratchAlignment) % kScratchAlignment;
  info.scratch.offset += shift;
  SortAddresses addresses{addressOf(*s, info.keys), pairs ? addressOf(*s, info.values) : 0, scratchStart + shift,
                          indirect ? addressOf(*s, info.countBuffer) : 0};
  if (addresses.keys % kb != 0 || (pairs && addresses.values % vb != 0))
    return fail(Result::errorInvalidArgument,
                "the keys' or values' device address is not a multiple of its element's %llu bytes: bind the "
                "buffer's memory at an aligned offset",
                (unsigned long long)(addresses.keys % kb != 0 ? kb : vb));
  const SortPlan plan = planSort(s->tuning, info.config, info.count, info.maxCount, indirect);
  SortPipelines pipelines;
  if (Status st = getSortPipelines(*s, plan, &pipelines); !st) return st;
  detail::recordSort(*s, cmd, info, addresses, plan, pipelines);
  return {};
}

}  // namespace vksort

namespace vksort::detail {

SortScratch sortScratch(Sorter s, const SortConfig& given, uint32_t count, uint32_t maxCount, bool indirect) {
  const SortConfig config = resolved(given);
  const SortPlan plan = planSort(s->tuning, config, count, maxCount, indirect);
  const ScratchLayout& l = plan.scratch;
  return {{l.status[0], l.status[1]}, l.table,       l.keysAlt,   l.valuesAlt,  plan.tileKeys,
          plan.portionKeys,           plan.portions, plan.passes, plan.chained, plan.skewedFrom};
}

SorterInternals sorterInternals(Sorter s) {
  const Tuning& t = s->tuning;
  SorterInternals p{};
  p.subgroupSize = t.subgroupSize;
  p.requiredSubgroupSize = t.requireSubgroupSize;
  p.workgroupSize = t.workgroupSize;
  p.tileKeys = t.tiers[0].shape[kPairs32].keys();
  p.wideTileKeys = t.tiers[0].shape[kPairsWide].keys();
  p.maxCount = maxCountOf(*s);
  p.algorithm = t.algorithm;
  p.smallSortMaxKeys = t.smallSortKeys[0];
  p.smallSortWideMaxKeys = t.smallSortKeys[1];
  p.tileTierCount = t.tierCount;
  static_assert(std::size(SorterInternals{}.tileTiers) == kMaxTileTiers);
  bool fitted = false;
  for (uint32_t i = 0; i < t.tierCount; ++i) {
    const TileShape* shape = t.tiers[i].shape;
    bool fit = false;
    for (uint32_t cls = 0; cls < kTileClasses; ++cls) fit |= t.fitsWaves(shape[cls]);
    p.tileTiers[i] = {t.tiers[i].from,        shape[kPairs32].keys(),   shape[kPairsWide].keys(),
                      shape[kAlone32].keys(), shape[kAloneWide].keys(), fit};
    fitted |= fit;
  }
  p.waveWorkgroups = fitted ? t.waveWorkgroups : 0;
  p.chainedMaxKeys = t.algorithm == Algorithm::onesweep ? t.chainedUpTo : 0;
  p.atomicRanking = t.ranking == Ranking::atomics;
  p.pipelinesBuilt = s->pipelines.built();
  return p;
}

}  // namespace vksort::detail
