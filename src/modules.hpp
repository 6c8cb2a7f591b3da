// The embedded SPIR-V of each kernel module, and what it declares.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "variant.hpp"

namespace vksort::detail {

struct ModuleCode {
  const uint32_t* code;
  size_t bytes;
};
ModuleCode moduleCode(Module m);

// The constant_ids of the specialization constants a module declares (its SpecId decorations),
// ascending.
const std::vector<uint32_t>& specIdsOf(Module m);

}  // namespace vksort::detail
