// Setting vksort up as a renderer does: the device requirements before vkCreateDevice, the whole
// VkDeviceCreateInfo at createSorter, pipelines prepared ahead of recording, developer options as
// data, the default bit range, and a scratch range sub-allocated inside a larger buffer.
#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <vector>

#include "test_support.hpp"

using namespace vksort_test;
using vkctx::vkStruct;

namespace {

// The device's own answer to whether it has subgroup size control for compute.
bool deviceOffersSizeControl(const vkctx::Context& ctx) {
  if (ctx.properties.apiVersion < VK_API_VERSION_1_3) return false;
  auto has13 = vkStruct<VkPhysicalDeviceVulkan13Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  auto has = vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &has13);
  vkGetPhysicalDeviceFeatures2(ctx.physicalDevice, &has);
  return has13.subgroupSizeControl && has13.computeFullSubgroups;
}

const uint32_t kSubgroupProbeSpirv[] = {
#include "subgroup_probe.comp.spv.inc"
};

// Sorts a few thousand u32 pairs with `sorter` and checks them.
void sortsCorrectly(vksort::Sorter sorter) {
  Gpu& g = gpu();
  const vksort::Sorter saved = g.sorter;
  g.sorter = sorter;
  vksort::SortConfig config;
  config.valueType = vksort::ValueType::u32;
  sortAndCheck(makeKeys(Dist::uniform, 5000, 17), config);
  g.sorter = saved;
}

// Records sorts of up to maxCount keys of the given configs into one command buffer that is
// never submitted: recording is where pipelines would be built.
class ScratchRecorder {
 public:
  ScratchRecorder(vkctx::Context& ctx, vksort::Sorter sorter, uint32_t maxCount,
                  std::initializer_list<vksort::SortConfig> configs)
      : ctx_(ctx), maxCount_(maxCount) {
    VkDeviceSize scratchBytes = 0;
    for (const vksort::SortConfig& c : configs) {
      vksort::ScratchRequirements req;
      vkctx::check(vksort::getScratchRequirements(sorter, c, maxCount, &req), "getScratchRequirements");
      scratchBytes = std::max(scratchBytes, req.size);
    }
    keys_ = ctx.createDeviceBuffer(VkDeviceSize(maxCount) * 8);
    values_ = ctx.createDeviceBuffer(VkDeviceSize(maxCount) * 8);
    count_ = ctx.createDeviceBuffer(4);
    scratch_ = ctx.createDeviceBuffer(scratchBytes, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    cmd_ = ctx.beginCommands();
  }
  vksort::Status record(vksort::Sorter sorter, const vksort::SortConfig& config, uint32_t count, bool indirect) {
    vksort::SortInfo info;
    info.config = config;
    info.count = count;
    info.maxCount = maxCount_;
    info.keys = keys_.range();
    info.values = values_.range();
    info.scratch = scratch_.range();
    if (indirect) info.countBuffer = count_.range();
    return vksort::recordSort(sorter, cmd_, info);
  }
  ~ScratchRecorder() {
    vkEndCommandBuffer(cmd_);
    vkFreeCommandBuffers(ctx_.device, ctx_.commandPool, 1, &cmd_);
    for (vkctx::Buffer* b : {&keys_, &values_, &count_, &scratch_}) ctx_.destroy(*b);
  }

 private:
  vkctx::Context& ctx_;
  uint32_t maxCount_;
  vkctx::Buffer keys_, values_, count_, scratch_;
  VkCommandBuffer cmd_;
};

// A device-local buffer bound `memoryOffset` bytes (rounded up to what the buffer needs) into a
// larger memory block, as a sub-allocator binds one.
struct SubAllocated {
  SubAllocated(vkctx::Context& context, VkDeviceSize size, VkBufferUsageFlags usage, VkDeviceSize memoryOffset)
      : ctx(context) {
    auto bci = vkStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    bci.size = size;
    bci.usage = usage | vksort::kRequiredBufferUsage;
    vkctx::check(vkCreateBuffer(ctx.device, &bci, nullptr, &buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(ctx.device, buffer, &req);
    const VkDeviceSize offset = (memoryOffset + req.alignment - 1) / req.alignment * req.alignment;
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(ctx.physicalDevice, &mp);
    uint32_t type = 0;
    while (!((req.memoryTypeBits >> type & 1) &&
             (mp.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)))
      ++type;
    auto flags = vkStruct<VkMemoryAllocateFlagsInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    auto mai = vkStruct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &flags);
    mai.allocationSize = offset + req.size + 4096;
    mai.memoryTypeIndex = type;
    vkctx::check(vkAllocateMemory(ctx.device, &mai, nullptr, &memory), "vkAllocateMemory");
    vkctx::check(vkBindBufferMemory(ctx.device, buffer, memory, offset), "vkBindBufferMemory");
  }
  ~SubAllocated() {
    vkDestroyBuffer(ctx.device, buffer, nullptr);
    vkFreeMemory(ctx.device, memory, nullptr);
  }
  vkctx::Context& ctx;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
};

// Sorts u32 keys with u32 values (makeValues) through `scratch`, between the contract's barriers.
Sorted sortWithScratch(const std::vector<uint32_t>& keys, const vksort::SortConfig& config,
                       const vksort::BufferRange& scratch) {
  Gpu& g = gpu();
  vkctx::Context& ctx = g.ctx;
  const uint32_t n = uint32_t(keys.size());
  const std::vector<uint32_t> values = makeValues(n, config.valueType);
  vkctx::Buffer k = ctx.createDeviceBuffer(n * 4), v = ctx.createDeviceBuffer(n * 4);
  ctx.upload(k, keys.data(), n * 4);
  ctx.upload(v, values.data(), n * 4);
  VkCommandBuffer cmd = ctx.beginCommands();
  vkCmdFillBuffer(cmd, scratch.buffer, scratch.offset, scratch.size, 0xDEADBEEFu);  // garbage to start from
  vkctx::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, vksort::kSortDstStage,
                       vksort::kSortDstAccess);
  vksort::SortInfo info;
  info.config = config;
  info.count = info.maxCount = n;
  info.keys = k.range();
  info.values = v.range();
  info.scratch = scratch;
  vkctx::check(vksort::recordSort(g.sorter, cmd, info), "recordSort");
  vkctx::memoryBarrier(cmd, vksort::kSortSrcStage, vksort::kSortSrcAccess, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_ACCESS_TRANSFER_READ_BIT);
  ctx.submitAndWait(cmd);
  requireNoValidationMessages();
  Sorted out{std::vector<uint32_t>(n), std::vector<uint32_t>(n), {}, {}};
  ctx.download(k, out.keys.data(), n * 4);
  ctx.download(v, out.values.data(), n * 4);
  for (vkctx::Buffer* b : {&k, &v}) ctx.destroy(*b);
  return out;
}

}  // namespace

TEST_SUITE("setup") {
  TEST_CASE("the device runs subgroups as large as it reports") {
    // Every kernel sizes its ballots, shuffles and per-subgroup rows by gl_SubgroupSize: a device
    // whose subgroups are smaller than it reports sorts wrongly or crashes (llvmpipe at
    // LP_NATIVE_VECTOR_WIDTH 1024 reports 32 and runs 16: docs/DEVICES.md). The probe runs at the
    // device's default size, as the kernels do without size control.
    vkctx::Context& ctx = gpu().ctx;
    auto subgroup = vkStruct<VkPhysicalDeviceSubgroupProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
    auto props = vkStruct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup);
    vkGetPhysicalDeviceProperties2(ctx.physicalDevice, &props);
    const uint32_t size = subgroup.subgroupSize, invocations = 256;
    REQUIRE(invocations % size == 0);
    vkctx::ComputePipeline probe(ctx, kSubgroupProbeSpirv, sizeof kSubgroupProbeSpirv, 8);
    vkctx::Buffer out = ctx.createDeviceBuffer(5 * invocations * 4);
    const VkDeviceAddress address = ctx.address(out);
    VkCommandBuffer cmd = ctx.beginCommands();
    probe.dispatch(cmd, &address, 1);
    ctx.submitAndWait(cmd);
    std::vector<uint32_t> w(5 * invocations);
    ctx.download(out, w.data(), w.size() * 4);
    ctx.destroy(out);
    // Which invocation runs which lane of which subgroup is the device's choice: each pair once.
    std::vector<uint8_t> seen(invocations);
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < invocations; ++i) {
      const uint32_t* r = &w[5 * i];
      const bool inRange = r[1] < size && r[2] < invocations / size;
      const bool right = r[0] == size && inRange && !seen[r[2] * size + r[1]]++ && r[3] == size && r[4] == size;
      if (!right && wrong++ == 0)
        FAIL_CHECK("invocation " << i << " of a subgroup of " << size << " reports size " << r[0] << ", lane " << r[1]
                                 << ", subgroup " << r[2] << "; its ballot counts " << r[3] << " and its sum " << r[4]);
    }
    CHECK(wrong == 0);
    requireNoValidationMessages();
  }

  TEST_CASE("getDeviceRequirements sets features in any chain and lists extensions") {
    vkctx::Context& ctx = gpu().ctx;
    const bool sizeControl = deviceOffersSizeControl(ctx);
    // Core structs, in the order a renderer chains them, with an unrelated struct in between.
    auto f13 = vkStruct<VkPhysicalDeviceVulkan13Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
    auto f12 = vkStruct<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &f13);
    auto f11 = vkStruct<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12);
    auto f2 = vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f11);
    f2.features.independentBlend = VK_TRUE;
    f12.descriptorIndexing = VK_TRUE;
    vksort::DeviceRequirements req;
    REQUIRE(vksort::getDeviceRequirements(ctx.instance, vkGetInstanceProcAddr, ctx.physicalDevice, &f2, &req));
    CHECK(f12.bufferDeviceAddress == VK_TRUE);
    CHECK(f13.subgroupSizeControl == VkBool32(sizeControl));
    CHECK(f13.computeFullSubgroups == VkBool32(sizeControl));
    CHECK(f2.features.independentBlend == VK_TRUE);  // the caller's own stay
    CHECK(f12.descriptorIndexing == VK_TRUE);
    CHECK(f11.storageBuffer16BitAccess == VK_FALSE);  // nothing else is set
    CHECK(req.extensionCount <= vksort::kMaxRequiredExtensions);
    for (uint32_t i = 0; i < req.extensionCount; ++i) CHECK(req.extensionNames[i] != nullptr);

    // The extensions' structs, in the other order.
    auto bda = vkStruct<VkPhysicalDeviceBufferDeviceAddressFeatures>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES);
    auto ssc = vkStruct<VkPhysicalDeviceSubgroupSizeControlFeatures>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES, &bda);
    auto head = vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &ssc);
    REQUIRE(vksort::getDeviceRequirements(ctx.instance, vkGetInstanceProcAddr, ctx.physicalDevice, &head, &req));
    CHECK(bda.bufferDeviceAddress == VK_TRUE);
    CHECK(ssc.subgroupSizeControl == VkBool32(sizeControl));

    // No struct for bufferDeviceAddress: an error that names one, and nothing changed.
    auto only13 = vkStruct<VkPhysicalDeviceVulkan13Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
    auto head13 = vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &only13);
    vksort::DeviceRequirements untouched;
    untouched.extensionCount = 99;
    vksort::Status s =
        vksort::getDeviceRequirements(ctx.instance, vkGetInstanceProcAddr, ctx.physicalDevice, &head13, &untouched);
    CHECK(s.result == vksort::Result::errorInvalidArgument);
    CHECK(s.message.find("VkPhysicalDeviceVulkan12Features") != std::string::npos);
    CHECK(only13.subgroupSizeControl == VK_FALSE);
    CHECK(untouched.extensionCount == 99);
    CHECK(
        vksort::getDeviceRequirements(ctx.instance, vkGetInstanceProcAddr, ctx.physicalDevice, nullptr, &req).result ==
        vksort::Result::errorInvalidArgument);
    CHECK(vksort::getDeviceRequirements(ctx.instance, vkGetInstanceProcAddr, VK_NULL_HANDLE, &f2, &req).result ==
          vksort::Result::errorInvalidArgument);
  }

  TEST_CASE("a VkPhysicalDeviceFeatures in place of a chain is refused, not followed") {
    // What pEnabledFeatures takes, cast (C lets it through with a warning): VkBool32s where sType
    // and pNext belong. It once sent getDeviceRequirements down a garbage pNext (a crash).
    vkctx::Context& ctx = gpu().ctx;
    VkPhysicalDeviceFeatures f10;
    std::memset(&f10, 0xFF, sizeof f10);  // pNext would point nowhere
    f10.robustBufferAccess = VK_TRUE;
    vksort::DeviceRequirements req;
    vksort::Status s = vksort::getDeviceRequirements(ctx.instance, vkGetInstanceProcAddr, ctx.physicalDevice,
                                                     reinterpret_cast<VkPhysicalDeviceFeatures2*>(&f10), &req);
    CHECK(s.result == vksort::Result::errorInvalidArgument);
    CHECK(s.message.find("sType 1, not VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2") != std::string::npos);
    // The same struct further down a chain: its sType stops the walk there.
    auto f12 = vkStruct<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &f10);
    auto f2 = vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f12);
    s = vksort::getDeviceRequirements(ctx.instance, vkGetInstanceProcAddr, ctx.physicalDevice, &f2, &req);
    CHECK(s.result == vksort::Result::errorInvalidArgument);
    CHECK(s.message.find("link 3 of pFeatures's pNext chain") != std::string::npos);
    CHECK(f12.bufferDeviceAddress == VK_FALSE);  // nothing set
    // And in the create info createSorter reads.
    VkDeviceCreateInfo info = *ctx.sorterCreateInfo().pDeviceCreateInfo;
    info.pNext = &f10;
    vksort::SorterCreateInfo ci = ctx.sorterCreateInfo();
    ci.pDeviceCreateInfo = &info;
    vksort::Sorter sorter = nullptr;
    s = vksort::createSorter(ci, &sorter);
    CHECK(s.result == vksort::Result::errorInvalidArgument);
    CHECK(s.message.find("link 1 of pDeviceCreateInfo's pNext chain") != std::string::npos);
    CHECK(sorter == nullptr);
    requireNoValidationMessages();
  }

  TEST_CASE("a pNext chain that loops is refused, not walked forever") {
    // A struct chained twice (a renderer appending its feature struct again) makes a loop.
    vkctx::Context& ctx = gpu().ctx;
    auto f12 = vkStruct<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
    auto f11 = vkStruct<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12);
    auto f2 = vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f11);
    vksort::DeviceRequirements req;
    for (void* back : {static_cast<void*>(&f12), static_cast<void*>(&f11), static_cast<void*>(&f2)}) {
      f12.pNext = back;
      vksort::Status s =
          vksort::getDeviceRequirements(ctx.instance, vkGetInstanceProcAddr, ctx.physicalDevice, &f2, &req);
      CHECK(s.result == vksort::Result::errorInvalidArgument);
      CHECK(s.message.find("pFeatures's pNext chain loops") != std::string::npos);
      CHECK(f12.bufferDeviceAddress == VK_FALSE);  // nothing set
    }
    // A chain longer than any Vulkan has: taken for a loop too.
    std::vector<VkPhysicalDeviceVulkan11Features> many(2000, f11);
    for (size_t i = 0; i + 1 < many.size(); ++i) many[i].pNext = &many[i + 1];
    many.back().pNext = nullptr;
    f2.pNext = many.data();
    vksort::Status s =
        vksort::getDeviceRequirements(ctx.instance, vkGetInstanceProcAddr, ctx.physicalDevice, &f2, &req);
    CHECK(s.message.find("passes 1024 links") != std::string::npos);
    // And in the create info createSorter reads.
    f12.pNext = &f11;
    VkDeviceCreateInfo info = *ctx.sorterCreateInfo().pDeviceCreateInfo;
    info.pNext = &f11;
    vksort::SorterCreateInfo ci = ctx.sorterCreateInfo();
    ci.pDeviceCreateInfo = &info;
    vksort::Sorter sorter = nullptr;
    s = vksort::createSorter(ci, &sorter);
    CHECK(s.result == vksort::Result::errorInvalidArgument);
    CHECK(s.message.find("pDeviceCreateInfo's pNext chain loops") != std::string::npos);
    CHECK(sorter == nullptr);
    requireNoValidationMessages();
  }

  TEST_CASE("createSorter takes realistic VkDeviceCreateInfos") {
    // The test's device was created from getDeviceRequirements (vk_context.cpp). Here the same
    // device is described the ways renderers build their create infos: 1.0 features set in
    // pEnabledFeatures (the mistake the old field invited), 1.1/1.2/1.3 chains, extension structs
    // in any order, a non-feature struct in the chain. Each makes a working sorter.
    vkctx::Context& ctx = gpu().ctx;
    const bool sizeControl = deviceOffersSizeControl(ctx);
    VkPhysicalDeviceFeatures plain{};
    plain.imageCubeArray = plain.independentBlend = plain.geometryShader = plain.shaderInt64 = VK_TRUE;
    auto f13 = vkStruct<VkPhysicalDeviceVulkan13Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
    f13.subgroupSizeControl = f13.computeFullSubgroups = VkBool32(sizeControl);
    auto f12 = vkStruct<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &f13);
    f12.bufferDeviceAddress = VK_TRUE;
    auto f11 = vkStruct<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12);
    auto group = vkStruct<VkDeviceGroupDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_GROUP_DEVICE_CREATE_INFO, &f11);
    group.physicalDeviceCount = 1;
    group.pPhysicalDevices = &ctx.physicalDevice;

    auto ssc = vkStruct<VkPhysicalDeviceSubgroupSizeControlFeatures>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES);
    ssc.subgroupSizeControl = ssc.computeFullSubgroups = VkBool32(sizeControl);
    auto f2 = vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &ssc);
    f2.features = plain;
    auto bda = vkStruct<VkPhysicalDeviceBufferDeviceAddressFeatures>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES, &f2);
    bda.bufferDeviceAddress = VK_TRUE;

    struct Form {
      const char* what;
      const void* chain;
      const VkPhysicalDeviceFeatures* features;
      bool sizeControlled;
    } forms[] = {{"pEnabledFeatures set, 1.1 -> 1.2 -> 1.3 after a device-group struct", &group, &plain, sizeControl},
                 {"1.2 -> 1.3 alone", &f12, nullptr, sizeControl},
                 {"extension structs, features2 last", &bda, nullptr, sizeControl}};
    for (const Form& form : forms) {
      CAPTURE(form.what);
      auto dci = vkStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, form.chain);
      dci.pEnabledFeatures = form.features;
      const char* extension = VK_KHR_SWAPCHAIN_EXTENSION_NAME;  // listed, not used by vksort
      dci.enabledExtensionCount = 1;
      dci.ppEnabledExtensionNames = &extension;
      vksort::SorterCreateInfo ci = ctx.sorterCreateInfo();
      ci.pDeviceCreateInfo = &dci;
      vksort::Sorter sorter = nullptr;
      vksort::Status s = vksort::createSorter(ci, &sorter);
      REQUIRE_MESSAGE(s, s.message);
      CHECK(vksort::getSorterProperties(sorter).requiredSubgroupSize == form.sizeControlled);
      sortsCorrectly(sorter);
      vksort::destroySorter(sorter);
    }
    // Not a VkDeviceCreateInfo (the old field's mistake: a features struct): a clear error.
    vksort::SorterCreateInfo wrong = ctx.sorterCreateInfo();
    wrong.pDeviceCreateInfo = reinterpret_cast<const VkDeviceCreateInfo*>(&f12);
    vksort::Sorter sorter = nullptr;
    vksort::Status s = vksort::createSorter(wrong, &sorter);
    CHECK(s.result == vksort::Result::errorInvalidArgument);
    CHECK(s.message.find("VkDeviceCreateInfo") != std::string::npos);
    CHECK(sorter == nullptr);
    requireNoValidationMessages();
  }

  TEST_CASE("prepared sorts record without building a pipeline") {
    vkctx::Context& ctx = gpu().ctx;
    vksort::SortConfig f32pairs, u64alone, i32wide;
    f32pairs.keyType = vksort::KeyType::f32;
    f32pairs.valueType = vksort::ValueType::u32;
    f32pairs.order = vksort::SortOrder::descending;
    u64alone.keyType = vksort::KeyType::u64;
    u64alone.beginBit = 8;
    u64alone.endBit = 48;
    i32wide.keyType = vksort::KeyType::i32;
    i32wide.valueType = vksort::ValueType::u64;
    const uint32_t maxCount = 300000;
    const vksort::PreparedSort prepared[] = {{f32pairs, maxCount}, {u64alone, maxCount}};
    vksort::SorterCreateInfo ci = ctx.sorterCreateInfo();
    {  // With nothing prepared, createSorter builds nothing: a sorter costs no compiling up front.
      vksort::Sorter bare = nullptr;
      REQUIRE(vksort::createSorter(ci, &bare));
      CHECK(testProperties(bare).pipelinesBuilt == 0);
      vksort::destroySorter(bare);
    }
    ci.preparedSortCount = 2;
    ci.pPreparedSorts = prepared;
    vksort::Sorter sorter = nullptr;
    REQUIRE(vksort::createSorter(ci, &sorter));
    REQUIRE(vksort::prepareSorts(sorter, 1, &prepared[0]));  // built already: builds nothing
    const uint32_t built = testProperties(sorter).pipelinesBuilt;

    // Recording every path up to maxCount: direct and indirect, small and large counts.
    std::optional<ScratchRecorder> recorder(std::in_place, ctx, sorter, maxCount,
                                            std::initializer_list<vksort::SortConfig>{f32pairs, u64alone, i32wide});
    const uint32_t counts[] = {1, 2, 100, 1000, 3000, 5000, 20000, 65536, 80000, 100001, 150000, 299999, maxCount};
    for (const vksort::SortConfig& config : {f32pairs, u64alone})
      for (uint32_t count : counts)
        for (bool indirect : {false, true}) {
          CAPTURE(count);
          CAPTURE(indirect);
          REQUIRE(recorder->record(sorter, config, count, indirect));
          CHECK(testProperties(sorter).pipelinesBuilt == built);
        }
    // A kind not prepared builds on first use: the count above can see a build.
    REQUIRE(recorder->record(sorter, i32wide, 5000, false));
    CHECK(testProperties(sorter).pipelinesBuilt > built);
    recorder.reset();

    // Bad input: an error, nothing built.
    const uint32_t before = testProperties(sorter).pipelinesBuilt;
    vksort::PreparedSort bad[] = {{i32wide, maxCount}, {u64alone, maxCount}};
    bad[1].config.endBit = 65;
    CHECK(vksort::prepareSorts(sorter, 2, bad).result == vksort::Result::errorInvalidArgument);
    bad[1].config.endBit = 64;
    bad[1].maxCount = 0xFFFFFFFFu;
    if (vksort::getSorterProperties(sorter).maxCount < 0xFFFFFFFFu)
      CHECK(vksort::prepareSorts(sorter, 2, bad).result == vksort::Result::errorInvalidArgument);
    CHECK(vksort::prepareSorts(sorter, 2, nullptr).result == vksort::Result::errorInvalidArgument);
    CHECK(testProperties(sorter).pipelinesBuilt == before);
    vksort::destroySorter(sorter);
    requireNoValidationMessages();
  }

  TEST_CASE("developer options are data, checked") {
    vkctx::Context& ctx = gpu().ctx;
    for (const char* bad : {"tiers", "tiers=x", "no_such_knob=1", "keys=-1", "keys=99999999999", "tier10_keys=1"}) {
      CAPTURE(bad);
      vksort::SorterDeveloperOptions developer;
      developer.tuning = bad;
      vksort::SorterCreateInfo ci = ctx.sorterCreateInfo(&developer);
      vksort::Sorter sorter = nullptr;
      vksort::Status s = vksort::createSorter(ci, &sorter);
      CHECK(s.result == vksort::Result::errorInvalidArgument);
      CHECK(s.message.find("tuning override") != std::string::npos);
      CHECK(sorter == nullptr);
    }
    // A valid override takes effect; statistics without the extension enabled are ignored.
    vksort::SorterDeveloperOptions developer;
    developer.tuning = "algorithm=2,tiers=1";
    developer.pipelineStatistics = true;
    vksort::Sorter sorter = nullptr;
    REQUIRE(vksort::createSorter(ctx.sorterCreateInfo(&developer), &sorter));
    CHECK(testProperties(sorter).algorithm == vksort::Algorithm::reduceThenScan);
    CHECK(testProperties(sorter).tileTierCount == 1);
    sortsCorrectly(sorter);
    vksort::destroySorter(sorter);
  }

  TEST_CASE("ranking by subgroupPartitionNV runs where the device can, and is an error elsewhere") {
    // The override once fell back to ballots without a word where the device had not enabled
    // VK_NV_shader_subgroup_partitioned (the test context enables it wherever it is listed).
    vkctx::Context& ctx = gpu().ctx;
    auto subgroup =
        vkctx::vkStruct<VkPhysicalDeviceSubgroupProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
    auto props =
        vkctx::vkStruct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup);
    vkGetPhysicalDeviceProperties2(ctx.physicalDevice, &props);
    const bool can = (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV) != 0;
    vksort::SorterDeveloperOptions developer;
    developer.tuning = "partitioned=1";
    vksort::Sorter sorter = nullptr;
    const vksort::Status s = vksort::createSorter(ctx.sorterCreateInfo(&developer), &sorter);
    if (!can) {
      CHECK(s.result == vksort::Result::errorFeatureNotPresent);
      CHECK(s.message.find(VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME) != std::string::npos);
      CHECK(sorter == nullptr);
      developer.tuning = "partitioned=1,partitioned=0";  // the last item is the one that applies
      const vksort::Status off = vksort::createSorter(ctx.sorterCreateInfo(&developer), &sorter);
      CHECK_MESSAGE(off, off.message);
      vksort::destroySorter(sorter);
      return;
    }
    REQUIRE_MESSAGE(s, s.message);
    std::string description;
    vksort::SortConfig pairs;
    pairs.valueType = vksort::ValueType::u32;
    REQUIRE(vksort::describeSort(sorter, pairs, 1500000, false, &description));  // past the chained sort
    CHECK_MESSAGE(description.find("ranking partitioned") != std::string::npos, description);
    vksort::destroySorter(sorter);
    {
      TunedSorter tuned("partitioned=1");  // the binning kernels: past the chained sort
      for (Dist d : {Dist::uniform, Dist::q8})
        for (vksort::SortConfig c :
             {pairs, configOf(vksort::KeyType::u64, vksort::ValueType::u32, vksort::SortOrder::ascending, 0, 0)}) {
          CAPTURE(name(d));
          sortAndCheck(makeKeysFor(c, d, 1500000, 29), c);
        }
    }
    requireNoValidationMessages();
  }

  TEST_CASE("the bit range defaults to the whole key") {
    // 64-bit keys that differ only in their high words: a default config sorts by them.
    vksort::SortConfig config;
    config.keyType = vksort::KeyType::u64;
    CHECK(vksort::endBitOf(config) == 64);
    CHECK(vksort::getSortTimestampCount(config) == 4 + 8);
    const uint32_t n = 3000;
    std::vector<uint32_t> keys(2 * n);
    const std::vector<uint32_t> high = makeKeys(Dist::uniform, n, 5);
    for (uint32_t i = 0; i < n; ++i) keys[2 * i] = 7, keys[2 * i + 1] = high[i];
    const Sorted out = sortAndCheck(keys, config);
    for (uint32_t i = 1; i < n; ++i) REQUIRE(out.keys[2 * i + 1] >= out.keys[2 * i - 1]);
    vksort::SortConfig f32;
    f32.keyType = vksort::KeyType::f32;
    CHECK(vksort::getSortTimestampCount(f32) == 4 + 4);
  }

  TEST_CASE("a scratch range sub-allocated at 16-byte offsets sorts") {
    // VMA and other sub-allocators bind buffers at offsets of their memory blocks and hand out
    // ranges inside buffers: the scratch's device address is then no multiple of 256.
    Gpu& g = gpu();
    vkctx::Context& ctx = g.ctx;
    const uint32_t n = 40000;
    vksort::SortConfig config;
    config.valueType = vksort::ValueType::u32;
    vksort::ScratchRequirements req;
    REQUIRE(vksort::getScratchRequirements(g.sorter, config, n, &req));
    CHECK(req.alignment == 16);
    SubAllocated block(ctx, req.size + 1024, req.usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, 64);
    for (VkDeviceSize offset : {VkDeviceSize(16), VkDeviceSize(48), VkDeviceSize(64), VkDeviceSize(256 + 80)}) {
      CAPTURE(offset);
      const std::vector<uint32_t> keys = makeKeys(Dist::q4, n, offset);
      const Sorted out = sortWithScratch(keys, config, {block.buffer, offset, req.size, req.usage});
      checkAgainstReference(keys, out, true, config);
    }
    // Below the alignment the query gives: an error that names it.
    VkCommandBuffer cmd = ctx.beginCommands();
    vkctx::Buffer k = ctx.createDeviceBuffer(n * 4), v = ctx.createDeviceBuffer(n * 4);
    vksort::SortInfo info;
    info.config = config;
    info.count = info.maxCount = n;
    info.keys = k.range();
    info.values = v.range();
    info.scratch = {block.buffer, 8, req.size, 0};
    vksort::Status s = vksort::recordSort(g.sorter, cmd, info);
    CHECK(s.result == vksort::Result::errorInvalidArgument);
    CHECK(s.message.find("scratch.offset") != std::string::npos);
    info.scratch.offset = 16;
    info.scratch.size = req.size - 16;
    s = vksort::recordSort(g.sorter, cmd, info);
    CHECK(s.message.find("getScratchRequirements") != std::string::npos);
    ctx.submitAndWait(cmd);
    for (vkctx::Buffer* b : {&k, &v}) ctx.destroy(*b);
    requireNoValidationMessages();
  }
}
