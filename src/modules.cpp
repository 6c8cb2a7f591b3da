// The kernels' SPIR-V, compiled by glslc at build time and embedded (cmake/VksortShaders.cmake).
#include "modules.hpp"

#include <algorithm>
#include <array>

namespace vksort::detail {
namespace {

const uint32_t kInitSpirv[] = {
#include "init.comp.spv.inc"
};
const uint32_t kHistogramSpirv[] = {
#include "histogram.comp.spv.inc"
};
const uint32_t kScanSpirv[] = {
#include "scan.comp.spv.inc"
};
const uint32_t kHistogram64Spirv[] = {
#include "histogram64.comp.spv.inc"
};
const uint32_t kOnesweepSpirv[] = {
#include "onesweep.comp.spv.inc"
};
const uint32_t kOnesweep64Spirv[] = {
#include "onesweep64.comp.spv.inc"
};
const uint32_t kOnesweepPartitionedSpirv[] = {
#include "onesweep_partitioned.comp.spv.inc"
};
const uint32_t kOnesweepPartitioned64Spirv[] = {
#include "onesweep_partitioned64.comp.spv.inc"
};
const uint32_t kOnesweepFittedSpirv[] = {
#include "onesweep_fitted.comp.spv.inc"
};
const uint32_t kOnesweepFitted64Spirv[] = {
#include "onesweep_fitted64.comp.spv.inc"
};
const uint32_t kCopyBackSpirv[] = {
#include "copy_back.comp.spv.inc"
};
const uint32_t kTileScanSpirv[] = {
#include "tile_scan.comp.spv.inc"
};
const uint32_t kUpsweepSpirv[] = {
#include "upsweep.comp.spv.inc"
};
const uint32_t kUpsweep64Spirv[] = {
#include "upsweep64.comp.spv.inc"
};
const uint32_t kDownsweepSpirv[] = {
#include "downsweep.comp.spv.inc"
};
const uint32_t kDownsweep64Spirv[] = {
#include "downsweep64.comp.spv.inc"
};
const uint32_t kSmallSortSpirv[] = {
#include "small_sort.comp.spv.inc"
};
const uint32_t kSmallSort64Spirv[] = {
#include "small_sort64.comp.spv.inc"
};
const uint32_t kSmallBitonicSpirv[] = {
#include "small_bitonic.comp.spv.inc"
};
const uint32_t kSmallBitonic64Spirv[] = {
#include "small_bitonic64.comp.spv.inc"
};
const uint32_t kChainedSpirv[] = {
#include "chained.comp.spv.inc"
};
const uint32_t kChained64Spirv[] = {
#include "chained64.comp.spv.inc"
};
const uint32_t kDepthRangeSpirv[] = {
#include "depth_range.comp.spv.inc"
};
const uint32_t kDepthKeysSpirv[] = {
#include "depth_keys.comp.spv.inc"
};

template <size_t N>
constexpr ModuleCode codeOf(const uint32_t (&words)[N]) {
  return {words, sizeof words};
}
const ModuleCode kModules[uint32_t(Module::count)] = {codeOf(kInitSpirv),
                                                      codeOf(kHistogramSpirv),
                                                      codeOf(kHistogram64Spirv),
                                                      codeOf(kScanSpirv),
                                                      codeOf(kOnesweepSpirv),
                                                      codeOf(kOnesweep64Spirv),
                                                      codeOf(kOnesweepPartitionedSpirv),
                                                      codeOf(kOnesweepPartitioned64Spirv),
                                                      codeOf(kOnesweepFittedSpirv),
                                                      codeOf(kOnesweepFitted64Spirv),
                                                      codeOf(kCopyBackSpirv),
                                                      codeOf(kTileScanSpirv),
                                                      codeOf(kUpsweepSpirv),
                                                      codeOf(kUpsweep64Spirv),
                                                      codeOf(kDownsweepSpirv),
                                                      codeOf(kDownsweep64Spirv),
                                                      codeOf(kSmallSortSpirv),
                                                      codeOf(kSmallSort64Spirv),
                                                      codeOf(kSmallBitonicSpirv),
                                                      codeOf(kSmallBitonic64Spirv),
                                                      codeOf(kChainedSpirv),
                                                      codeOf(kChained64Spirv),
                                                      codeOf(kDepthRangeSpirv),
                                                      codeOf(kDepthKeysSpirv)};

}  // namespace

const char* moduleName(Module m) {
  static const char* const kNames[uint32_t(Module::count)] = {"init",
                                                              "histogram",
                                                              "histogram64",
                                                              "scan",
                                                              "onesweep",
                                                              "onesweep64",
                                                              "onesweep_partitioned",
                                                              "onesweep_partitioned64",
                                                              "onesweep_fitted",
                                                              "onesweep_fitted64",
                                                              "copy_back",
                                                              "tile_scan",
                                                              "upsweep",
                                                              "upsweep64",
                                                              "downsweep",
                                                              "downsweep64",
                                                              "small_sort",
                                                              "small_sort64",
                                                              "small_bitonic",
                                                              "small_bitonic64",
                                                              "chained",
                                                              "chained64",
                                                              "depth_range",
                                                              "depth_keys"};
  return m < Module::count ? kNames[uint32_t(m)] : "?";
}

ModuleCode moduleCode(Module m) { return kModules[uint32_t(m)]; }

// Read once per module: every description and signature asks again.
const std::vector<uint32_t>& specIdsOf(Module module) {
  static const auto kDeclared = [] {
    std::array<std::vector<uint32_t>, size_t(Module::count)> declared;
    for (uint32_t index = 0; index < uint32_t(Module::count); ++index) {
      const ModuleCode m = moduleCode(Module(index));
      std::vector<uint32_t>& ids = declared[index];
      for (size_t i = 5; i < m.bytes / 4;) {
        const uint32_t count = m.code[i] >> 16, op = m.code[i] & 0xFFFF;
        if (op == 71 /* OpDecorate */ && count >= 4 && m.code[i + 2] == 1 /* SpecId */) ids.push_back(m.code[i + 3]);
        i += count ? count : 1;
      }
      std::sort(ids.begin(), ids.end());
    }
    return declared;
  }();
  return kDeclared[uint32_t(module)];
}

}  // namespace vksort::detail
