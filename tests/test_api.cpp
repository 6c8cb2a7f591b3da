// The public API's checks: bad input returns an error with a message and records nothing.
#include <cstring>

#include "test_support.hpp"

using namespace vksort_test;

TEST_SUITE("api") {
  TEST_CASE("createSorter rejects missing handles") {
    vksort::Sorter sorter = nullptr;
    vksort::SorterCreateInfo ci;
    vksort::Status s = vksort::createSorter(ci, &sorter);
    CHECK(s.result == vksort::Result::errorInvalidArgument);
    CHECK(!s.message.empty());
    CHECK(sorter == nullptr);
    CHECK(vksort::createSorter(gpu().ctx.sorterCreateInfo(), nullptr).result == vksort::Result::errorInvalidArgument);
    // Without the device's create info vksort cannot know bufferDeviceAddress is enabled: it
    // once assumed so, and a device without it failed later, in validation's shader checks.
    ci = gpu().ctx.sorterCreateInfo();
    ci.pDeviceCreateInfo = nullptr;
    s = vksort::createSorter(ci, &sorter);
    CHECK(s.result == vksort::Result::errorInvalidArgument);
    CHECK(s.message.find("pDeviceCreateInfo is null") != std::string::npos);
    CHECK(sorter == nullptr);
  }

  TEST_CASE("createSorter rejects a device without bufferDeviceAddress enabled") {
    vksort::SorterCreateInfo ci = gpu().ctx.sorterCreateInfo();
    VkPhysicalDeviceVulkan12Features none =
        vkctx::vkStruct<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
    VkDeviceCreateInfo device = vkctx::vkStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &none);
    ci.pDeviceCreateInfo = &device;
    vksort::Sorter sorter = nullptr;
    vksort::Status s = vksort::createSorter(ci, &sorter);
    CHECK(s.result == vksort::Result::errorFeatureNotPresent);
    CHECK(s.message.find("bufferDeviceAddress") != std::string::npos);
    CHECK(sorter == nullptr);
  }

  TEST_CASE("sorter properties and scratch requirements") {
    vksort::Sorter sorter = gpu().sorter;
    vksort::SorterProperties p = vksort::getSorterProperties(sorter);
    CHECK(p.subgroupSize >= 4);
    CHECK(p.maxCount >= (1u << 24));
    CHECK((p.algorithm == vksort::Algorithm::onesweep || p.algorithm == vksort::Algorithm::reduceThenScan));
    CHECK(p.requiredSubgroupSize == testProperties(sorter).requiredSubgroupSize);

    vksort::SortConfig keys, pairs;
    pairs.valueType = vksort::ValueType::u32;
    vksort::ScratchRequirements small{}, large{}, largePairs{};
    REQUIRE(vksort::getScratchRequirements(sorter, keys, 1000, &small));
    REQUIRE(vksort::getScratchRequirements(sorter, keys, 1000000, &large));
    REQUIRE(vksort::getScratchRequirements(sorter, pairs, 1000000, &largePairs));
    CHECK(large.size >= 1000000u * 4);                    // the key ping-pong buffer at least
    CHECK(largePairs.size >= large.size + 1000000u * 4);  // and the value one
    CHECK(small.size < large.size);
    CHECK((large.usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) != 0);
    CHECK(large.alignment >= 4);

    vksort::ScratchRequirements r{};
    if (p.maxCount < 0xFFFFFFFFu)  // else every u32 count is accepted (test_portions.cpp)
      CHECK(vksort::getScratchRequirements(sorter, keys, p.maxCount + 1u, &r).result ==
            vksort::Result::errorInvalidArgument);
    CHECK(vksort::getScratchRequirements(nullptr, keys, 10, &r).result == vksort::Result::errorInvalidArgument);
    vksort::SortConfig bad;
    bad.keyType = vksort::KeyType(99);
    CHECK(vksort::getScratchRequirements(sorter, bad, 10, &r).result == vksort::Result::errorInvalidArgument);
  }

  TEST_CASE("describeSort tells what a sort runs, and rejects bad input") {
    vksort::Sorter sorter = gpu().sorter;
    const bool onesweep = vksort::getSorterProperties(sorter).algorithm == vksort::Algorithm::onesweep;
    auto lines = [](const std::string& text, const std::string& what) {
      size_t n = 0;
      for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
      return n;
    };
    vksort::SortConfig pairs;
    pairs.keyType = vksort::KeyType::f32;
    pairs.valueType = vksort::ValueType::u32;
    pairs.order = vksort::SortOrder::descending;
    std::string text;
    REQUIRE(vksort::describeSort(sorter, pairs, 1u << 20, false, &text));
    CAPTURE(text);
    CHECK(text.find("with u32 values") != std::string::npos);
    CHECK(text.find("descending") != std::string::npos);
    // The device line names the wave size tiles are fitted to, or says there is none (lavapipe,
    // AMD, Intel: no SM count), never "0 SMs".
    const std::string device = text.substr(0, text.find('\n'));
    CHECK(device.find(" 0 ") == std::string::npos);
    CHECK((device.find("workgroups a wave for fitting tiles") != std::string::npos) !=
          (device.find("no multiprocessor count: tiles are not fitted to waves") != std::string::npos));
    // Four passes (an even number: no copy-back), after init, histogram and scan, unless the
    // tuning chains them all into one dispatch.
    if (text.find("chained sort") == std::string::npos) {
      CHECK(lines(text, " init ") == 1);
      CHECK(lines(text, " histogram ") == 1);
      CHECK(lines(text, onesweep ? " binning pass " : " downsweep pass ") == 4);
      CHECK(lines(text, " upsweep pass ") == (onesweep ? 0u : 4u));
    }
    CHECK(lines(text, "copy-back") == 0);
    CHECK(lines(text, "workgroup ") >= 1);
    // Three passes: the result comes back from the scratch copy.
    pairs.endBit = 24;
    REQUIRE(vksort::describeSort(sorter, pairs, 1u << 20, false, &text));
    CHECK(lines(text, "copy-back") == 1);
    // A small sort runs as one workgroup; an indirect one reads its grids from the GPU.
    REQUIRE(vksort::describeSort(sorter, pairs, 100, false, &text));
    CHECK(text.find("in one workgroup") != std::string::npos);
    CHECK(lines(text, "one-workgroup sort") >= 1);
    REQUIRE(vksort::describeSort(sorter, pairs, 1u << 20, true, &text));
    CHECK(text.find("grid from the GPU's count") != std::string::npos);
    // Bad input: an error, and the text as it was.
    const std::string before = text;
    pairs.endBit = 33;
    CHECK(vksort::describeSort(sorter, pairs, 1000, false, &text).result == vksort::Result::errorInvalidArgument);
    pairs.endBit = 32;
    CHECK(vksort::describeSort(nullptr, pairs, 1000, false, &text).result == vksort::Result::errorInvalidArgument);
    CHECK(vksort::describeSort(sorter, pairs, 1000, false, nullptr).result == vksort::Result::errorInvalidArgument);
    const uint32_t maxCount = vksort::getSorterProperties(sorter).maxCount;
    if (maxCount < 0xFFFFFFFFu)
      CHECK(vksort::describeSort(sorter, pairs, maxCount + 1, false, &text).result ==
            vksort::Result::errorInvalidArgument);
    CHECK(text == before);
  }

  TEST_CASE("recordSort rejects bad input and records nothing") {
    Gpu& g = gpu();
    vkctx::Context& ctx = g.ctx;
    const uint32_t n = 1000;
    vksort::SortInfo good;
    good.config.valueType = vksort::ValueType::u32;
    good.count = good.maxCount = n;
    vksort::ScratchRequirements req;
    REQUIRE(vksort::getScratchRequirements(g.sorter, good.config, n, &req));
    vkctx::Buffer keys = ctx.createDeviceBuffer(n * 4 + 64), values = ctx.createDeviceBuffer(n * 4),
                  scratch = ctx.createDeviceBuffer(req.size + 256, req.usage);
    std::vector<uint32_t> input = makeKeys(Dist::uniform, n + 16, 3);
    ctx.upload(keys, input.data(), input.size() * 4);
    // With the usage the buffers were made with: checked, and enough.
    const VkBufferUsageFlags made =
        vksort::kRequiredBufferUsage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    good.keys = {keys.buffer, 0, n * 4, made};
    good.values = values.range();
    good.values.usage = made;
    good.scratch = scratch.range();
    good.scratch.usage = made | req.usage;

    struct Case {
      const char* what;
      vksort::SortInfo info;
    };
    std::vector<Case> cases;
    auto add = [&](const char* what, auto mutate) {
      vksort::SortInfo i = good;
      mutate(i);
      cases.push_back({what, i});
    };
    add("count above maxCount", [](vksort::SortInfo& i) { i.count = i.maxCount + 1; });
    add("misaligned keys offset", [](vksort::SortInfo& i) { i.keys.offset = 2; });
    add("keys range too small", [](vksort::SortInfo& i) { i.keys.size = 4 * 999; });
    add("null keys buffer", [](vksort::SortInfo& i) { i.keys.buffer = VK_NULL_HANDLE; });
    add("null values buffer for pairs", [](vksort::SortInfo& i) { i.values.buffer = VK_NULL_HANDLE; });
    add("values range too small", [](vksort::SortInfo& i) { i.values.size = 8; });
    add("scratch too small", [&](vksort::SortInfo& i) { i.scratch.size = req.size - 4; });
    add("misaligned scratch", [](vksort::SortInfo& i) { i.scratch.offset = 4; });
    add("null scratch", [](vksort::SortInfo& i) { i.scratch.buffer = VK_NULL_HANDLE; });
    add("unsupported key type", [](vksort::SortInfo& i) { i.config.keyType = vksort::KeyType(7); });
    add("unsupported value type", [](vksort::SortInfo& i) { i.config.valueType = vksort::ValueType(7); });
    add("unsupported order", [](vksort::SortInfo& i) { i.config.order = vksort::SortOrder(2); });
    add("empty bit range", [](vksort::SortInfo& i) { i.config.beginBit = i.config.endBit = 8; });
    add("inverted bit range", [](vksort::SortInfo& i) { i.config.beginBit = 20, i.config.endBit = 10; });
    add("bit range past 32 bits", [](vksort::SortInfo& i) { i.config.endBit = 33; });
    add("bit range past 64 bits", [](vksort::SortInfo& i) {
      i.config.keyType = vksort::KeyType::u64;
      i.config.endBit = 65;
      i.count = i.maxCount = 100;
    });
    add("64-bit keys at a 4-byte offset", [](vksort::SortInfo& i) {
      i.config.keyType = vksort::KeyType::f64;
      i.count = i.maxCount = 100;
      i.keys.offset = 4;
    });
    add("64-bit values range too small", [](vksort::SortInfo& i) {
      i.config.valueType = vksort::ValueType::u64;
      i.count = i.maxCount = 600;  // 4800 bytes of values; the range has 4000
    });
    add("keys buffer without device-address usage", [](vksort::SortInfo& i) {
      i.keys.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    });
    add("values buffer without storage usage",
        [](vksort::SortInfo& i) { i.values.usage = VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT; });
    add("scratch without indirect usage", [](vksort::SortInfo& i) { i.scratch.usage = vksort::kRequiredBufferUsage; });
    add("count buffer without device-address usage", [&](vksort::SortInfo& i) {
      i.countBuffer = {keys.buffer, n * 4, 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
    });
    add("overlap: values over the keys in one buffer", [&](vksort::SortInfo& i) {
      i.values = {keys.buffer, 64, n * 4, made};
    });
    add("overlap: count buffer inside the keys", [&](vksort::SortInfo& i) {
      i.countBuffer = {keys.buffer, 16, 4, made};
    });
    if (vksort::getSorterProperties(g.sorter).maxCount < 0xFFFFFFFFu)
      add("maxCount above the sorter's maximum",
          [&](vksort::SortInfo& i) { i.maxCount = vksort::getSorterProperties(g.sorter).maxCount + 1u; });

    VkCommandBuffer cmd = ctx.beginCommands();
    for (const Case& c : cases) {
      CAPTURE(c.what);
      vksort::Status s = vksort::recordSort(g.sorter, cmd, c.info);
      CHECK(s.result == vksort::Result::errorInvalidArgument);
      CHECK(!s.message.empty());
      if (std::string(c.what).rfind("overlap:", 0) == 0)
        CHECK(s.message.find("overlap in one buffer") != std::string::npos);
    }
    CHECK(vksort::recordSort(nullptr, cmd, good).result == vksort::Result::errorInvalidArgument);
    CHECK(vksort::recordSort(g.sorter, VK_NULL_HANDLE, good).result == vksort::Result::errorInvalidArgument);
    vksort::SortInfo empty = good;
    empty.count = 0;
    CHECK(vksort::recordSort(g.sorter, cmd, empty));  // nothing to sort: success, nothing recorded
    empty.keys = empty.values = empty.scratch = {};   // and then no range is needed
    CHECK(vksort::recordSort(g.sorter, cmd, empty));
    ctx.submitAndWait(cmd);
    requireNoValidationMessages();

    std::vector<uint32_t> after(input.size());
    ctx.download(keys, after.data(), after.size() * 4);
    CHECK(after == input);  // nothing ran
    for (vkctx::Buffer* b : {&keys, &values, &scratch}) ctx.destroy(*b);
  }
}
