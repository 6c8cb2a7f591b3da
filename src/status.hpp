// Building the Status values the public functions return.
#pragma once
#include <cstdio>
#include <string>

#include "vksort/vksort.hpp"

namespace vksort::detail {

template <class... Args>
Status fail(Result result, const char* format, Args... args) {
  char message[512];
  std::snprintf(message, sizeof message, format, args...);
  return Status{result, VK_SUCCESS, message};
}

inline Status failVulkan(VkResult vkResult, const char* what) {
  return Status{Result::errorVulkan, vkResult, std::string(what) + " failed with VkResult " + std::to_string(vkResult)};
}

}  // namespace vksort::detail
