// GLFW, loaded when --window opens a window (dlopen of libglfw.so.3), not linked: the headless
// sample then starts where no window system is installed (a GPU server without X libraries).
// The GLFW headers give the functions' types; each call goes through glfw().<name>.
#pragma once
#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>
#include <dlfcn.h>

#include <stdexcept>
#include <string>

namespace splats {

// One function list, wrapped by hand.
// clang-format off
#define SPLATS_GLFW_FUNCTIONS(X)                                                                       \
  X(glfwInit) X(glfwTerminate) X(glfwSetErrorCallback) X(glfwVulkanSupported) X(glfwWindowHint)        \
  X(glfwCreateWindow) X(glfwDestroyWindow) X(glfwCreateWindowSurface) X(glfwGetRequiredInstanceExtensions) \
  X(glfwWindowShouldClose) X(glfwPollEvents) X(glfwWaitEvents) X(glfwGetTime) X(glfwSetWindowTitle)    \
  X(glfwGetFramebufferSize) X(glfwGetCursorPos) X(glfwSetWindowUserPointer) X(glfwGetWindowUserPointer) \
  X(glfwSetMouseButtonCallback) X(glfwSetCursorPosCallback) X(glfwSetScrollCallback)
// clang-format on

struct GlfwFunctions {
#define SPLATS_GLFW_MEMBER(name) decltype(&::name) name = nullptr;
  SPLATS_GLFW_FUNCTIONS(SPLATS_GLFW_MEMBER)
#undef SPLATS_GLFW_MEMBER
};

// The functions, loaded on the first call; throws std::runtime_error naming what is missing.
inline const GlfwFunctions& glfw() {
  static const GlfwFunctions functions = [] {
    void* library = dlopen("libglfw.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) throw std::runtime_error(std::string("--window needs GLFW 3 (Debian: libglfw3): ") + dlerror());
    GlfwFunctions f;
#define SPLATS_GLFW_LOAD(name)                                         \
  f.name = reinterpret_cast<decltype(&::name)>(dlsym(library, #name)); \
  if (!f.name) throw std::runtime_error("--window: libglfw.so.3 has no " #name " (GLFW 3.3 or later)");
    SPLATS_GLFW_FUNCTIONS(SPLATS_GLFW_LOAD)
#undef SPLATS_GLFW_LOAD
    return f;  // the library stays loaded for the process
  }();
  return functions;
}

}  // namespace splats
