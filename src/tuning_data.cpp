#include "tuning_data.hpp"

#include <cstring>
#include <tuple>

namespace vksort::detail {
namespace {

// Little-endian 32-bit words: a header, then the payload (the algorithm, the classes it was
// compared on, the tile count, and per tile its TunedTile fields and its shape's
// TileShape::fields()).
constexpr uint32_t kMagic = 0x54534B56;  // "VKST"
constexpr uint32_t kFormat = 3;          // bump when the payload's layout changes
constexpr uint32_t kLibraryVersion = VKSORT_VERSION_MAJOR << 16 | VKSORT_VERSION_MINOR << 8 | VKSORT_VERSION_PATCH;
enum DataHeader : uint32_t {
  kDataMagic,
  kDataFormat,
  kDataLibrary,
  kDataVendor,
  kDataDevice,
  kDataDriver,
  kDataUuid,  // 4 words
  kDataPayloadWords = kDataUuid + 4,
  kDataChecksum,
  kDataWords
};
constexpr uint32_t kShapeWords = std::tuple_size_v<decltype(TileShape::fields(std::declval<TileShape&>()))>;
constexpr uint32_t kTileWords = 6 + kShapeWords;

// FNV-1a over every byte but the checksum word's.
uint32_t checksum(const uint8_t* bytes, size_t size) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < size; ++i) {
    if (i / 4 == kDataChecksum) continue;
    h = (h ^ bytes[i]) * 16777619u;
  }
  return h;
}

uint32_t wordAt(const uint8_t* bytes, size_t i) {
  return uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 | uint32_t(bytes[4 * i + 2]) << 16 |
         uint32_t(bytes[4 * i + 3]) << 24;
}

void uuidWords(const DeviceCaps& caps, uint32_t* words) {
  for (uint32_t i = 0; i < 4; ++i)
    words[i] = uint32_t(caps.pipelineCacheUuid[4 * i]) | uint32_t(caps.pipelineCacheUuid[4 * i + 1]) << 8 |
               uint32_t(caps.pipelineCacheUuid[4 * i + 2]) << 16 | uint32_t(caps.pipelineCacheUuid[4 * i + 3]) << 24;
}

template <class... Args>
Status refuse(const char* format, Args... args) {
  return fail(Result::errorIncompatibleTuning, format, args...);
}

}  // namespace

std::vector<uint8_t> encodeTuningData(const DeviceCaps& caps, const TunedTiles& tuned) {
  std::vector<uint32_t> words(kDataWords, 0);
  words[kDataMagic] = kMagic;
  words[kDataFormat] = kFormat;
  words[kDataLibrary] = kLibraryVersion;
  words[kDataVendor] = caps.vendorId;
  words[kDataDevice] = caps.deviceId;
  words[kDataDriver] = caps.driverVersion;
  uuidWords(caps, &words[kDataUuid]);
  words.push_back(uint32_t(tuned.algorithm));
  words.push_back(tuned.algorithmClasses);
  words.push_back(tuned.tileCount);
  for (uint32_t i = 0; i < tuned.tileCount; ++i) {
    const TunedTile& t = tuned.tiles[i];
    words.insert(words.end(), {t.tier, t.tileClass, t.from, t.count, t.builtInNanos, t.tunedNanos});
    std::apply([&](const auto&... f) { (words.push_back(uint32_t(f)), ...); }, TileShape::fields(t.shape));
  }
  words[kDataPayloadWords] = uint32_t(words.size() - kDataWords);
  std::vector<uint8_t> bytes(words.size() * 4);
  for (size_t i = 0; i < words.size(); ++i)
    for (uint32_t b = 0; b < 4; ++b) bytes[4 * i + b] = uint8_t(words[i] >> (8 * b));
  const uint32_t sum = checksum(bytes.data(), bytes.size());
  for (uint32_t b = 0; b < 4; ++b) bytes[4 * kDataChecksum + b] = uint8_t(sum >> (8 * b));
  return bytes;
}

Status decodeTuningData(const DeviceCaps& caps, const void* data, size_t size, TunedTiles* out) {
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  if (!bytes || size < kDataWords * 4 || wordAt(bytes, kDataMagic) != kMagic)
    return refuse("the tuning data is not vksort's (%zu bytes, no vksort header)", size);
  if (wordAt(bytes, kDataFormat) != kFormat)
    return refuse("the tuning data has format %u; this vksort reads format %u: tune again", wordAt(bytes, kDataFormat),
                  kFormat);
  const uint32_t payloadWords = wordAt(bytes, kDataPayloadWords);
  if (size % 4 != 0 || size / 4 != uint64_t(kDataWords) + payloadWords ||
      checksum(bytes, size) != wordAt(bytes, kDataChecksum))
    return refuse("the tuning data is damaged (its length or checksum does not match): tune again");
  const uint32_t library = wordAt(bytes, kDataLibrary);
  if (library != kLibraryVersion)
    return refuse("the tuning data was made by vksort %u.%u.%u; this is %u.%u.%u: tune again", library >> 16,
                  library >> 8 & 0xFF, library & 0xFF, kLibraryVersion >> 16, kLibraryVersion >> 8 & 0xFF,
                  kLibraryVersion & 0xFF);
  if (wordAt(bytes, kDataVendor) != caps.vendorId || wordAt(bytes, kDataDevice) != caps.deviceId)
    return refuse("the tuning data was made on device %04x:%04x; this is %04x:%04x (%s)", wordAt(bytes, kDataVendor),
                  wordAt(bytes, kDataDevice), caps.vendorId, caps.deviceId, caps.deviceName);
  uint32_t uuid[4];
  uuidWords(caps, uuid);
  bool sameUuid = true;
  for (uint32_t i = 0; i < 4; ++i) sameUuid = sameUuid && wordAt(bytes, kDataUuid + i) == uuid[i];
  if (wordAt(bytes, kDataDriver) != caps.driverVersion || !sameUuid)
    return refuse(
        "the tuning data was made with another driver (version 0x%x; this is 0x%x) or pipeline cache "
        "UUID: tune again",
        wordAt(bytes, kDataDriver), caps.driverVersion);

  TunedTiles tuned;
  size_t at = kDataWords;
  const uint32_t algorithm = payloadWords >= 3 ? wordAt(bytes, at++) : ~0u;
  const uint32_t classes = payloadWords >= 3 ? wordAt(bytes, at++) : ~0u;
  const uint32_t tiles = payloadWords >= 3 ? wordAt(bytes, at++) : ~0u;
  if (algorithm > uint32_t(Algorithm::reduceThenScan) || classes >> kTileClasses || tiles > kMaxTunedTiles ||
      payloadWords != 3 + tiles * kTileWords)
    return refuse("the tuning data's contents are malformed (algorithm %u, classes 0x%x, %u tiles in %u words)",
                  algorithm, classes, tiles, payloadWords);
  tuned.algorithm = Algorithm(algorithm);
  tuned.algorithmClasses = classes;
  tuned.tileCount = tiles;
  for (uint32_t i = 0; i < tiles; ++i) {
    TunedTile& t = tuned.tiles[i];
    for (uint32_t* f : {&t.tier, &t.tileClass, &t.from, &t.count, &t.builtInNanos, &t.tunedNanos})
      *f = wordAt(bytes, at++);
    bool bad = t.tier >= kMaxTileTiers || t.tileClass >= kTileClasses;
    std::apply(
        [&](auto&... f) {
          auto read = [&](auto& field) {
            const uint32_t w = wordAt(bytes, at++);
            if constexpr (std::is_same_v<std::remove_reference_t<decltype(field)>, bool>) {
              bad = bad || w > 1;
              field = w != 0;
            } else {
              field = w;
            }
          };
          (read(f), ...);
        },
        TileShape::fields(t.shape));
    const TileShape& s = t.shape;
    bad = bad || s.workgroupSize == 0 || s.workgroupSize > 4096 || s.keysPerInvocation == 0 ||
          s.keysPerInvocation > 256 || s.reorderRounds == 0 || s.reorderRounds > 8;
    if (bad) return refuse("the tuning data's tile %u is malformed (tier %u, class %u)", i, t.tier, t.tileClass);
  }
  *out = tuned;
  return {};
}

}  // namespace vksort::detail
