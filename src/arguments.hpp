// Checks of the caller's buffer ranges, shared by the recording entry points (sorter.cpp,
// depth_keys.cpp).
#pragma once
#include "sorter_state.hpp"
#include "status.hpp"

namespace vksort::detail {

// A range must exist, be aligned to `alignment`, hold at least `bytes`, and, where the caller
// says how the buffer was created, have `usage`.
Status checkRange(const BufferRange& r, const char* name, VkDeviceSize bytes, VkDeviceSize alignment,
                  VkBufferUsageFlags usage = kRequiredBufferUsage);
// The device address of the range's first byte.
VkDeviceAddress addressOf(const Sorter_T& s, const BufferRange& r);

}  // namespace vksort::detail
