// Checks of the caller's buffer ranges, shared by the recording entry points (sorter.cpp,
// depth_keys.cpp).
#pragma once
#include <initializer_list>

#include "sorter_state.hpp"
#include "status.hpp"

namespace vksort::detail {

// A range must exist, be aligned to `alignment`, hold at least `bytes`, and, where the caller
// says how the buffer was created, have `usage`.
Status checkRange(const BufferRange& r, const char* name, VkDeviceSize bytes, VkDeviceSize alignment,
                  VkBufferUsageFlags usage = kRequiredBufferUsage);
// The device address of the range's first byte.
VkDeviceAddress addressOf(const Sorter_T& s, const BufferRange& r);

// A range and the bytes from its offset that a recording reads or writes, by name.
struct UsedRange {
  const char* name;
  const BufferRange* range;  // null: not used
  VkDeviceSize bytes;
};
// Refuses two used ranges of one buffer that share a byte: a sort that wrote its keys over its
// own scratch or count would read garbage. (Two VkBuffers bound to the same memory look apart
// here: the API documents that they must not overlap.)
Status checkDisjoint(std::initializer_list<UsedRange> ranges);

}  // namespace vksort::detail
