// Reference benchmark: CUB's DeviceRadixSort (Onesweep) on the same GPU, printing the same CSV as
// vksort_bench, with the same modes, sizes and inputs (gen() is gen_keys.comp's hash). Each row
// twice: impl cub-i32 (num_items an int, where n fits) and cub-i64 (int64_t). Float keys, 64-bit
// values and bit ranges as vksort_bench's modes have them.
// Timing: per size, about `--warmup-ms` of back-to-back sorts, then `--iterations` sorts each
// timed with CUDA events (input restored before each, outside the events); median and minimum.
// Usage: vksort_cub_bench --help (kUsage below).
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "../../common/command_line.hpp"
#include "../workloads.hpp"
#include "cuda_common.cuh"

namespace {

const char* const kUsage =
    "usage: vksort_cub_bench [--min-log2 10] [--max-log2 28] [--step-log2 2] [--modes keys32,...]\n"
    "                        [--iterations 20] [--warmup-ms 1000] [--sizes n,...]\n"
    "                        [--dists 2,4,8,16|none] [--dist-log2 26]\n"
    "                        [--workloads room,...] [--workload-log2 20,22,24,26] [--ply-keys F]\n"
    "                        (renderer keys from ../workloads.hpp, as vksort_bench generates them;\n"
    "                         the ply workload reads the keys vksort_bench --save-keys wrote)\n"
    "                        [--permutation 1] (pairs sort a permutation: the fill of indices\n"
    "                         0..n-1 is timed with SortPairs; the mode gets \"-perm\", as\n"
    "                         vksort_bench --permutation 1 names its index-value sorts)\n"
    "modes: keys32, pairs32, keysf32, pairs32b16, pairs32b24, keys64, pairs64v32, pairs64v64\n";

struct Args {
  int minLog2 = 10, maxLog2 = 28, stepLog2 = 2, iterations = 20, warmupMs = 1000, distLog2 = 26;
  std::vector<std::string> modes = {"keys32", "pairs32"};
  std::vector<size_t> sizes;
  std::vector<int> dists = {2, 4, 8, 16};
  std::vector<std::string> workloads;
  std::vector<int> workloadLog2 = {20, 22, 24, 26};
  std::string plyKeys;
  bool permutation = false;  // pairs as renderers draw them: the index fill is part of the sort
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');) out.push_back(item);
  return out;
}

// Sorts n keys of type K (bits generated as Bits, or `host`'s words), with values of type V when
// PAIRS, by bits [beginBit, endBit), descending where `descending`.
template <class K, class Bits, class V, bool PAIRS>
void run(const Args& args, const char* mode, size_t n, int q, int beginBit, int endBit,
         const std::vector<uint32_t>* host = nullptr, bool descending = false) {
  K *k0, *k1, *kp;
  V *v0 = nullptr, *v1 = nullptr;
  CK(cudaMalloc(&k0, n * sizeof(K)));
  CK(cudaMalloc(&k1, n * sizeof(K)));
  CK(cudaMalloc(&kp, n * sizeof(K)));
  if (PAIRS) {
    CK(cudaMalloc(&v0, n * sizeof(V)));
    CK(cudaMalloc(&v1, n * sizeof(V)));
  }
  if (host) CK(cudaMemcpy(kp, host->data(), n * sizeof(K), cudaMemcpyHostToDevice));
  else gen<K, Bits><<<unsigned((n + 255) / 256), 256>>>(kp, n, 12345, q);
  cub::DoubleBuffer<K> kb(k0, k1);
  cub::DoubleBuffer<V> vb(v0, v1);
  // CUB tunes by the type of num_items: int (what renderers pass) and int64_t differ by a few
  // percent either way, so both are timed and the report takes the faster (CUB at its best).
  auto sort = [&](void* dtmp, size_t& tmp, auto count) {
    if (PAIRS && descending) CK(cub::DeviceRadixSort::SortPairsDescending(dtmp, tmp, kb, vb, count, beginBit, endBit));
    else if (PAIRS) CK(cub::DeviceRadixSort::SortPairs(dtmp, tmp, kb, vb, count, beginBit, endBit));
    else if (descending) CK(cub::DeviceRadixSort::SortKeysDescending(dtmp, tmp, kb, count, beginBit, endBit));
    else CK(cub::DeviceRadixSort::SortKeys(dtmp, tmp, kb, count, beginBit, endBit));
  };
  const bool fits32 = n <= size_t(INT32_MAX);
  size_t tmp32 = 0, tmp64 = 0;
  if (fits32) sort(nullptr, tmp32, int32_t(n));  // the size queries
  sort(nullptr, tmp64, int64_t(n));
  size_t tmp = std::max(tmp32, tmp64);
  void* dtmp = nullptr;
  CK(cudaMalloc(&dtmp, tmp + 1));
  // A permutation's values are written by the timed work (as a renderer must), others restored.
  const bool permutation = PAIRS && args.permutation;
  const std::string label = std::string(mode) + (permutation ? "-perm" : "");
  auto timedSort = [&](void* d, size_t& bytes, auto count) {
    if (permutation) iota<V><<<unsigned((n + 255) / 256), 256>>>(v0, n);
    sort(d, bytes, count);
  };
  auto restore = [&] {
    CK(cudaMemcpyAsync(k0, kp, n * sizeof(K), cudaMemcpyDeviceToDevice));
    if (PAIRS && !permutation) iota<V><<<unsigned((n + 255) / 256), 256>>>(v0, n);
    kb = cub::DoubleBuffer<K>(k0, k1);
    vb = cub::DoubleBuffer<V>(v0, v1);
  };
  // The last result is checked ordered within the bit range (unsigned modes; float order is CUB's).
  auto ordered = [&] {
    std::vector<K> h(n);
    CK(cudaMemcpy(h.data(), kb.Current(), n * sizeof(K), cudaMemcpyDeviceToHost));
    bool ok = true;
    if (sizeof(K) == sizeof(Bits) && Bits(-1) > Bits(0) && std::string(mode) != "keysf32" && !descending && !host) {
      Bits mask =
          endBit - beginBit >= int(8 * sizeof(Bits)) ? Bits(~Bits(0)) : Bits((Bits(1) << (endBit - beginBit)) - 1);
      for (size_t i = 0; i + 1 < n && ok; ++i) {
        Bits x = *reinterpret_cast<Bits*>(&h[i]), y = *reinterpret_cast<Bits*>(&h[i + 1]);
        ok = ((x >> beginBit) & mask) <= ((y >> beginBit) & mask);
      }
    }
    return ok;
  };
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  auto measure = [&](auto count, const char* impl) {
    // Warm-up: clocks up, caches and allocator settled.
    auto start = std::chrono::steady_clock::now();
    do {
      restore();
      timedSort(dtmp, tmp, count);
      CK(cudaDeviceSynchronize());
    } while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(args.warmupMs));
    std::vector<float> t;
    for (int it = 0; it < args.iterations; ++it) {
      restore();
      CK(cudaEventRecord(a));
      timedSort(dtmp, tmp, count);
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float ms;
      CK(cudaEventElapsedTime(&ms, a, b));
      t.push_back(ms);
    }
    const bool ok = ordered();
    std::sort(t.begin(), t.end());
    float med = t[t.size() / 2];
    const std::string dist = host ? "scene" : "q" + std::to_string(q);
    std::printf("%s,%s,%s,%zu,%.4f,%.4f,%.2f,%s\n", impl, label.c_str(), dist.c_str(), n, med, t[0], n / (med * 1e6),
                ok ? "ok" : "FAIL");
    std::fflush(stdout);
  };
  if (fits32) measure(int32_t(n), "cub-i32");
  measure(int64_t(n), "cub-i64");
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  cudaFree(k0), cudaFree(k1), cudaFree(kp), cudaFree(dtmp);
  if (PAIRS) cudaFree(v0), cudaFree(v1);
}

void runMode(const Args& args, const std::string& mode, size_t n, int q) {
  const char* m = mode.c_str();
  if (mode == "keys32") run<uint32_t, uint32_t, uint32_t, false>(args, m, n, q, 0, 32);
  else if (mode == "pairs32") run<uint32_t, uint32_t, uint32_t, true>(args, m, n, q, 0, 32);
  else if (mode == "keysf32") run<float, uint32_t, uint32_t, false>(args, m, n, q, 0, 32);
  else if (mode == "pairs32b16") run<uint32_t, uint32_t, uint32_t, true>(args, m, n, q, 0, 16);
  else if (mode == "pairs32b24") run<uint32_t, uint32_t, uint32_t, true>(args, m, n, q, 0, 24);
  else if (mode == "keys64") run<uint64_t, uint64_t, uint32_t, false>(args, m, n, q, 0, 64);
  else if (mode == "pairs64v32") run<uint64_t, uint64_t, uint32_t, true>(args, m, n, q, 0, 64);
  else if (mode == "pairs64v64") run<uint64_t, uint64_t, uint64_t, true>(args, m, n, q, 0, 64);
  else std::fprintf(stderr, "unknown mode %s\n", m), std::exit(2);
}

// A renderer workload (workloads.hpp) of n keys, as vksort_bench sorts it.
void runWorkload(const Args& args, const std::string& name, size_t n) {
  const bench_workloads::Spec& s = bench_workloads::specOf(name);
  std::vector<uint32_t> keys;
  if (name == "ply") {  // vksort_bench --save-keys: its largest size; smaller ones are prefixes
    std::FILE* f = args.plyKeys.empty() ? nullptr : std::fopen(args.plyKeys.c_str(), "rb");
    if (!f) std::fprintf(stderr, "the ply workload needs --ply-keys FILE\n"), std::exit(2);
    keys.resize(n);
    if (std::fread(keys.data(), 4, n, f) != n)
      std::fprintf(stderr, "%s: fewer than %zu keys\n", args.plyKeys.c_str(), n), std::exit(2);
    std::fclose(f);
  } else {
    keys = bench_workloads::generate(name, n);
  }
  const char* m = name.c_str();
  if (s.keyBits == 64)
    run<uint64_t, uint64_t, uint32_t, true>(args, m, n, 0, s.beginBit, s.endBit, &keys, s.descending);
  else if (s.floatKeys) run<float, uint32_t, uint32_t, true>(args, m, n, 0, s.beginBit, s.endBit, &keys, s.descending);
  else run<uint32_t, uint32_t, uint32_t, true>(args, m, n, 0, s.beginBit, s.endBit, &keys, s.descending);
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    cli::helpIfAsked(k, kUsage);
    if (i + 1 >= argc)
      std::fprintf(stderr, "vksort_cub_bench: %s needs a value (or is unknown)\n%s", k.c_str(), kUsage), std::exit(2);
    const std::string v = argv[++i];
    if (k == "--max-log2") args.maxLog2 = std::stoi(v);
    else if (k == "--min-log2") args.minLog2 = std::stoi(v);
    else if (k == "--step-log2") args.stepLog2 = std::max(1, std::stoi(v));
    else if (k == "--iterations") args.iterations = std::stoi(v);
    else if (k == "--warmup-ms") args.warmupMs = std::stoi(v);
    else if (k == "--dist-log2") args.distLog2 = std::stoi(v);
    else if (k == "--modes") args.modes = split(v);
    else if (k == "--sizes")
      for (auto& s : split(v)) args.sizes.push_back(std::stoull(s));
    else if (k == "--workloads") args.workloads = split(v);
    else if (k == "--workload-log2") {
      args.workloadLog2.clear();
      for (auto& s : split(v)) args.workloadLog2.push_back(std::stoi(s));
    } else if (k == "--ply-keys") args.plyKeys = v;
    else if (k == "--permutation") args.permutation = std::stoi(v) != 0;
    else if (k == "--dists") {
      args.dists.clear();
      if (v != "none")
        for (auto& s : split(v)) args.dists.push_back(std::stoi(s));
    } else std::fprintf(stderr, "vksort_cub_bench: unknown option %s\n%s", k.c_str(), kUsage), std::exit(2);
  }
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("# %s, %d SMs, CUB %d\n# impl,mode,dist,n,median_ms,min_ms,gkeys_per_s,check\n", p.name,
              p.multiProcessorCount, CUB_VERSION);
  for (int lg = args.minLog2; lg <= args.maxLog2; lg += args.stepLog2)
    for (const std::string& mode : args.modes) runMode(args, mode, size_t(1) << lg, 1);
  for (int q : args.dists)
    for (const std::string& mode : args.modes) runMode(args, mode, size_t(1) << args.distLog2, q);
  for (size_t n : args.sizes)
    for (const std::string& mode : args.modes) runMode(args, mode, n, 1);
  for (const std::string& name : args.workloads)
    for (size_t n : bench_workloads::countsOf(bench_workloads::specOf(name), args.workloadLog2))
      runWorkload(args, name, n);
  return 0;
}
