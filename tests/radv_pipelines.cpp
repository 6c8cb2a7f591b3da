// Every pipeline vksort builds for an AMD family, compiled by RADV's null device (no GPU needed:
// RADV_FORCE_FAMILY makes Mesa's radeon driver offer a device of that family that compiles but
// never runs), with ACO's statistics for each: registers, spills, LDS, waves per SIMD.
//   vksort_radv_pipelines --family navi21 [--icd radeon_icd.json] [--tuning overrides] [--keys u32,f64]
//                         [--verbose]
// GCN (polaris10, vega10) runs 64-wide subgroups only, which vksort refuses at run time: compile
// it with `--tuning subgroup=64` to see where its kernels stand.
// Builds every sort class (each key type, alone and with u32, u64 and index values, keys kept and
// discarded) for counts up to 2^32 - 1, direct and indirect, with both algorithms: every tile tier
// of the device's table. Prints one line per kernel (the worst of its pipelines) and exits 1 when
// a pipeline fails to compile, spills or needs more LDS than the device has. The table in
// docs/DEVICES.md is this program's output.
//
// The statistics come from the sorter's developer option pipelineStatistics, which prints each
// pipeline's to stderr as it is built: stderr goes to a file meanwhile and is read back.
// Mesa 22.3's null device crashes in vkDestroyDevice, so the program never destroys it.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "vk_context.hpp"

namespace {

struct Figures {
  uint64_t pipelines = 0, vgprs = 0, sgprs = 0, spilledVgprs = 0, spilledSgprs = 0, scratch = 0, lds = 0;
  uint64_t wavesPerSimd = ~0ull;  // the fewest of the kernel's pipelines
};

// "vksort pipeline NAME: stat=value; stat=value; ..." -> (NAME, stats).
bool parseLine(const std::string& line, std::string* name, std::map<std::string, uint64_t>* stats) {
  const std::string prefix = "vksort pipeline ";
  if (line.compare(0, prefix.size(), prefix) != 0) return false;
  const size_t colon = line.find(':', prefix.size());
  if (colon == std::string::npos) return false;
  *name = line.substr(prefix.size(), colon - prefix.size());
  std::istringstream rest(line.substr(colon + 1));
  std::string item;
  while (std::getline(rest, item, ';')) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos) continue;
    std::string key = item.substr(0, eq);
    key.erase(0, key.find_first_not_of(' '));
    (*stats)[key] = std::strtoull(item.c_str() + eq + 1, nullptr, 10);
  }
  return true;
}

uint64_t stat(const std::map<std::string, uint64_t>& s, const char* name) {
  auto it = s.find(name);
  return it == s.end() ? 0 : it->second;
}

}  // namespace

const char kUsage[] =
    "usage: vksort_radv_pipelines --family NAME [--icd FILE] [--tuning OVERRIDES] [--keys LIST] [--verbose]\n"
    "  NAME: a RADV_FORCE_FAMILY value (polaris10, vega10, navi10, navi21, gfx1100, ...)\n"
    "  LIST: the key types whose sorts are built (default u32,i32,f32,u64,i64,f64)\n";

int main(int argc, char** argv) try {
  std::string family, icd = "/usr/share/vulkan/icd.d/radeon_icd.x86_64.json", tuning,
                      keyList = "u32,i32,f32,u64,i64,f64";
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    cli::helpIfAsked(k, kUsage);
    if (k == "--verbose") {
      verbose = true;
      continue;
    }
    const std::string v = cli::valueOf(argc, argv, &i);
    if (k == "--family") family = v;
    else if (k == "--icd") icd = v;
    else if (k == "--tuning") tuning = v;
    else if (k == "--keys") keyList = v;
    else throw std::invalid_argument("unknown option \"" + k + "\"");
  }
  if (family.empty()) throw std::invalid_argument("--family is required (e.g. navi21)");
  std::vector<vksort::KeyType> keys;
  std::istringstream names(keyList);
  for (std::string name; std::getline(names, name, ',');) keys.push_back(cli::keyType(name));
  // Only the radeon driver, offering a null device of this family.
  setenv("RADV_FORCE_FAMILY", family.c_str(), 1);
  setenv("VK_ICD_FILENAMES", icd.c_str(), 1);
  setenv("VK_DRIVER_FILES", icd.c_str(), 1);
  setenv("VKSORT_PIPELINE_STATS", "1", 1);  // vk_context enables pipelineExecutableInfo
  unsetenv("VKSORT_DEVICE");

  vkctx::Options options;
  options.subgroupsBeyondProven = true;  // GCN runs wave64 only: compiled with `--tuning subgroup=64`
  // Never destroyed, not even when an error unwinds: Mesa 22.3's null device crashes in vkDestroyDevice.
  vkctx::Context& ctx = *new vkctx::Context(options);
  VkPhysicalDeviceVulkan13Properties p13 =
      vkctx::vkStruct<VkPhysicalDeviceVulkan13Properties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES);
  VkPhysicalDeviceProperties2 props =
      vkctx::vkStruct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p13);
  vkGetPhysicalDeviceProperties2(ctx.physicalDevice, &props);
  const uint64_t ldsLimit = props.properties.limits.maxComputeSharedMemorySize;

  std::vector<vksort::PreparedSort> sorts;
  for (vksort::KeyType key : keys)
    for (vksort::ValueType value :
         {vksort::ValueType::none, vksort::ValueType::u32, vksort::ValueType::u64, vksort::ValueType::index})
      for (bool discard : {false, true}) {
        if (discard && value == vksort::ValueType::none) continue;
        vksort::PreparedSort s;
        s.config.keyType = key;
        s.config.valueType = value;
        s.config.discardKeys = discard;
        s.maxCount = 0xFFFFFFFFu;
        sorts.push_back(s);
      }

  // stderr to a file while the sorters build their pipelines.
  char path[] = "/tmp/vksort_radv_XXXXXX";
  const int file = mkstemp(path);
  if (file < 0) throw std::runtime_error("mkstemp failed");
  std::fflush(stderr);
  const int saved = dup(2);
  dup2(file, 2);
  std::vector<std::string> failures;
  for (vksort::Algorithm algorithm : {vksort::Algorithm::onesweep, vksort::Algorithm::reduceThenScan}) {
    vksort::SorterDeveloperOptions developer;
    developer.tuning = tuning.c_str();
    developer.pipelineStatistics = true;
    vksort::SorterCreateInfo ci = ctx.sorterCreateInfo(&developer);
    ci.algorithm = algorithm;
    ci.preparedSortCount = uint32_t(sorts.size());
    ci.pPreparedSorts = sorts.data();
    vksort::Sorter sorter = nullptr;
    const vksort::Status st = vksort::createSorter(ci, &sorter);
    if (!st) failures.push_back(std::string("createSorter: ") + st.message);
    // (the sorter stays: destroying it is harmless, but the device that follows it is not)
  }
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);

  std::map<std::string, Figures> kernels;  // by kernel name (the pipeline name's first word)
  std::ifstream in(path);
  std::string line;
  uint64_t pipelines = 0;
  while (std::getline(in, line)) {
    std::string name;
    std::map<std::string, uint64_t> s;
    if (!parseLine(line, &name, &s)) {
      std::fprintf(stderr, "%s\n", line.c_str());  // the driver's or the sorter's own messages
      continue;
    }
    ++pipelines;
    Figures& f = kernels[name.substr(0, name.find(' '))];
    ++f.pipelines;
    f.vgprs = std::max(f.vgprs, stat(s, "VGPRs"));
    f.sgprs = std::max(f.sgprs, stat(s, "SGPRs"));
    f.spilledVgprs = std::max(f.spilledVgprs, stat(s, "Spilled VGPRs"));
    f.spilledSgprs = std::max(f.spilledSgprs, stat(s, "Spilled SGPRs"));
    f.scratch = std::max(f.scratch, stat(s, "Scratch size"));
    f.lds = std::max(f.lds, stat(s, "LDS size"));
    if (s.count("Subgroups per SIMD")) f.wavesPerSimd = std::min(f.wavesPerSimd, stat(s, "Subgroups per SIMD"));
    if (stat(s, "Spilled VGPRs") || stat(s, "Spilled SGPRs") || stat(s, "Scratch size"))
      failures.push_back(name + " spills (" + std::to_string(stat(s, "Spilled VGPRs")) + " VGPRs, " +
                         std::to_string(stat(s, "Spilled SGPRs")) + " SGPRs, " +
                         std::to_string(stat(s, "Scratch size")) + " bytes of scratch)");
    if (stat(s, "LDS size") > ldsLimit)
      failures.push_back(name + " needs " + std::to_string(stat(s, "LDS size")) + " bytes of LDS, more than " +
                         std::to_string(ldsLimit));
    if (verbose) std::printf("%s\n", line.c_str());
  }
  unlink(path);
  if (pipelines == 0) failures.push_back("no pipeline statistics (VK_KHR_pipeline_executable_properties missing?)");

  std::printf("%s (%s, %s), subgroup %u-%u, LDS %llu bytes: %llu pipelines\n", props.properties.deviceName,
              family.c_str(), tuning.empty() ? "its table" : tuning.c_str(), p13.minSubgroupSize, p13.maxSubgroupSize,
              static_cast<unsigned long long>(ldsLimit), static_cast<unsigned long long>(pipelines));
  std::printf("| kernel | pipelines | VGPRs | SGPRs | spilled | LDS bytes | waves per SIMD |\n");
  for (const auto& [name, f] : kernels)
    std::printf(
        "| %s | %llu | %llu | %llu | %llu | %llu | %s |\n", name.c_str(), static_cast<unsigned long long>(f.pipelines),
        static_cast<unsigned long long>(f.vgprs), static_cast<unsigned long long>(f.sgprs),
        static_cast<unsigned long long>(f.spilledVgprs + f.spilledSgprs), static_cast<unsigned long long>(f.lds),
        f.wavesPerSimd == ~0ull ? "-" : std::to_string(f.wavesPerSimd).c_str());
  for (const std::string& failure : failures) std::printf("FAIL: %s\n", failure.c_str());
  return failures.empty() ? 0 : 1;
} catch (const std::exception& e) {
  return cli::report("vksort_radv_pipelines", e, kUsage);
}
