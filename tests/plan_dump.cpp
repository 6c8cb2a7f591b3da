// Prints, without a device, the pipelines every vendor's tuning builds for a grid of sorts:
// each pipeline's module and the specialization constants it declares.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "fake_devices.hpp"
#include "modules.hpp"
#include "plan.hpp"
#include "tuning.hpp"
#include "tuning_override.hpp"
#include "variant.hpp"

using namespace vksort;
using namespace vksort::detail;

namespace {
// A pipeline's module, its required subgroup size, and the value of each specialization constant
// it declares, by constant_id.
std::string signature(const Tuning& t, const PipelineKey& key) {
  const KernelVariant v = decideVariant(t, normalizedKey(t, key));
  std::string out = moduleName(v.module);
  char item[32];
  if (v.requireSubgroupSize) {
    std::snprintf(item, sizeof item, " subgroup=%u", v.subgroupSize);
    out.append(item);
  }
  for (uint32_t id : specIdsOf(v.module)) {
    std::snprintf(item, sizeof item, " %u=%u", id, specializationValue(v, id));
    out.append(item);
  }
  return out;
}
}  // namespace

int main() {
  const std::vector<vksort_test::FakeDevice> devices = vksort_test::fakeDevices();
  struct Cfg {
    const char* name;
    KeyType key;
    ValueType value;
    uint32_t begin, end;
    bool discardKeys = false;
  };
  const Cfg configs[] = {{"u32", KeyType::u32, ValueType::none, 0, 32},
                         {"f32/u32", KeyType::f32, ValueType::u32, 0, 32},
                         {"u32[0,16)", KeyType::u32, ValueType::none, 0, 16},
                         {"u32/u64", KeyType::u32, ValueType::u64, 0, 32},
                         {"u64", KeyType::u64, ValueType::none, 0, 64},
                         {"u64/u32", KeyType::u64, ValueType::u32, 0, 64},
                         {"u64[0,40)/u32", KeyType::u64, ValueType::u32, 0, 40},
                         {"i64[32,64)", KeyType::i64, ValueType::none, 32, 64},
                         {"f64/u64", KeyType::f64, ValueType::u64, 0, 64},
                         {"f32/index, keys discarded", KeyType::f32, ValueType::index, 0, 32, true},
                         {"u32[0,16)/index, keys discarded", KeyType::u32, ValueType::index, 0, 16, true},
                         {"u64/index", KeyType::u64, ValueType::index, 0, 64}};
  const uint32_t counts[] = {1000,      2048,     8192,     100000,   1u << 20, 3000000, 4u << 20,
                             12u << 20, 1u << 24, 1u << 26, 1u << 27, 1u << 28, 3u << 29};
  for (const vksort_test::FakeDevice& d : devices)
    for (Algorithm a : {Algorithm::onesweep, Algorithm::reduceThenScan}) {
      const Tuning t = chooseTuning(d.caps, a, {});
      for (const Cfg& c : configs)
        for (uint32_t count : counts)
          for (bool indirect : {false, true}) {
            SortConfig config;
            config.keyType = c.key;
            config.valueType = c.value;
            config.beginBit = c.begin;
            config.endBit = c.end;
            config.discardKeys = c.discardKeys;
            const SortPlan plan = planSort(t, config, count, count, indirect);
            std::printf("%s %s %s %u %s: tileKeys=%u smallKeys=%u\n", d.name,
                        a == Algorithm::onesweep ? "onesweep" : "rts", c.name, count, indirect ? "indirect" : "direct",
                        plan.tileKeys, plan.smallKeys);
            // In the order the pipelines are asked for: the fixed ones, each digit word's pass
            // kernels as the passes first use them, then the rest.
            std::vector<uint32_t> roles = {kRoleInit, kRoleHistogram, kRoleScan};
            for (uint32_t pass = 0; pass < plan.passes; ++pass)
              for (uint32_t role : {kRoleBinning + digitWordOf(config, pass), kRoleSkewed + digitWordOf(config, pass),
                                    kRoleUpsweep + digitWordOf(config, pass)})
                if (std::find(roles.begin(), roles.end(), role) == roles.end()) roles.push_back(role);
            for (uint32_t role : {kRoleTileScan, kRoleSmall, kRoleChained, kRoleCopyBack}) roles.push_back(role);
            for (uint32_t role : roles) {
              const PipelineKey& k = plan.pipelines[role];
              if (k.kernel == kKernelCount) continue;
              std::printf("  %s: %s\n", kernelName(k.kernel), signature(t, k).c_str());
            }
          }
    }
}
