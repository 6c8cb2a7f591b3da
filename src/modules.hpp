// The embedded SPIR-V of each kernel module, and what it declares.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace vksort::detail {

// The embedded SPIR-V modules (cmake/VksortShaders.cmake).
enum class Module : uint32_t {
  init,
  histogram,
  histogram64,
  scan,
  onesweep,
  onesweep64,
  onesweepPartitioned,
  onesweepPartitioned64,
  onesweepFitted,
  onesweepFitted64,
  copyBack,
  tileScan,
  upsweep,
  upsweep64,
  downsweep,
  downsweep64,
  smallSort,
  smallSort64,
  smallBitonic,
  smallBitonic64,
  chained,
  chained64,
  depthRange,
  depthKeys,
  count
};
const char* moduleName(Module m);

struct ModuleCode {
  const uint32_t* code;
  size_t bytes;
};
ModuleCode moduleCode(Module m);

// The constant_ids of the specialization constants a module declares (its SpecId decorations),
// ascending.
const std::vector<uint32_t>& specIdsOf(Module m);

}  // namespace vksort::detail
