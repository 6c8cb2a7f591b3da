#include "splat_window.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "splat_frame.hpp"
#include "splat_glfw.hpp"

namespace splats {
namespace {

struct Glfw {
  Glfw() {
    glfw().glfwSetErrorCallback([](int, const char* text) { std::fprintf(stderr, "GLFW: %s\n", text); });
    if (!glfw().glfwInit()) throw std::runtime_error("--window: GLFW found no display (X11 or Wayland)");
    if (!glfw().glfwVulkanSupported()) {
      glfw().glfwTerminate();
      throw std::runtime_error("--window: GLFW finds no Vulkan loader with window-system support");
    }
  }
  ~Glfw() { glfw().glfwTerminate(); }
};

// The orbit the mouse drives.
struct Orbit {
  float angle = 0, elevation = 0.35f, zoom = 1;
  bool dragging = false;
  double x = 0, y = 0;
};

void onButton(GLFWwindow* w, int button, int action, int) {
  auto* o = static_cast<Orbit*>(glfw().glfwGetWindowUserPointer(w));
  if (button != GLFW_MOUSE_BUTTON_LEFT) return;
  o->dragging = action == GLFW_PRESS;
  glfw().glfwGetCursorPos(w, &o->x, &o->y);
}

void onCursor(GLFWwindow* w, double x, double y) {
  auto* o = static_cast<Orbit*>(glfw().glfwGetWindowUserPointer(w));
  if (!o->dragging) return;
  o->angle -= float(x - o->x) * 0.01f;
  o->elevation = std::clamp(o->elevation + float(y - o->y) * 0.01f, -1.5f, 1.5f);
  o->x = x, o->y = y;
}

void onScroll(GLFWwindow* w, double, double dy) {
  auto* o = static_cast<Orbit*>(glfw().glfwGetWindowUserPointer(w));
  o->zoom = std::clamp(o->zoom * std::pow(0.9f, float(dy)), 0.05f, 20.0f);
}

class Swapchain {
 public:
  Swapchain(vkctx::Context& ctx, VkSurfaceKHR surface, GLFWwindow* window)
      : ctx_(ctx), surface_(surface), window_(window) {
    VkBool32 present = VK_FALSE;
    vkGetPhysicalDeviceSurfaceSupportKHR(ctx.physicalDevice, ctx.queueFamily, surface, &present);
    if (!present) throw std::runtime_error("--window: the device's queue cannot present to this window");
    uint32_t n = 0;
    vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physicalDevice, surface, &n, nullptr);
    std::vector<VkSurfaceFormatKHR> formats(n);
    vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physicalDevice, surface, &n, formats.data());
    if (formats.empty()) throw std::runtime_error("--window: the surface offers no format");
    // The frame's values are written as they are (as in the PNGs): a UNORM format where offered.
    format_ = formats[0];
    for (const VkSurfaceFormatKHR& f : formats)
      if (f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_R8G8B8A8_UNORM) format_ = f;
    create();
  }
  ~Swapchain() { destroy(); }

  // (Re)creates it at the window's size; false while the window has no area (minimized).
  bool create() {
    vkDeviceWaitIdle(ctx_.device);
    destroy();
    VkSurfaceCapabilitiesKHR caps;
    vkctx::check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx_.physicalDevice, surface_, &caps),
                 "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
    if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT))
      throw std::runtime_error("--window: the swapchain's images cannot be blitted to");
    extent_ = caps.currentExtent;
    if (extent_.width == 0xFFFFFFFFu) {
      int w = 0, h = 0;
      glfw().glfwGetFramebufferSize(window_, &w, &h);
      extent_ = {std::clamp(uint32_t(w), caps.minImageExtent.width, caps.maxImageExtent.width),
                 std::clamp(uint32_t(h), caps.minImageExtent.height, caps.maxImageExtent.height)};
    }
    if (extent_.width == 0 || extent_.height == 0) return false;
    auto si = vkctx::vkStruct<VkSwapchainCreateInfoKHR>(VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR);
    si.surface = surface_;
    si.minImageCount =
        caps.maxImageCount ? std::min(caps.minImageCount + 1, caps.maxImageCount) : caps.minImageCount + 1;
    si.imageFormat = format_.format;
    si.imageColorSpace = format_.colorSpace;
    si.imageExtent = extent_;
    si.imageArrayLayers = 1;
    si.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    si.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    si.preTransform = caps.currentTransform;
    si.compositeAlpha = (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR)
                            ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                            : VkCompositeAlphaFlagBitsKHR(caps.supportedCompositeAlpha & -caps.supportedCompositeAlpha);
    si.presentMode = VK_PRESENT_MODE_FIFO_KHR;  // always there; paced by the display
    si.clipped = VK_TRUE;
    vkctx::check(vkCreateSwapchainKHR(ctx_.device, &si, nullptr, &handle_), "vkCreateSwapchainKHR");
    uint32_t n = 0;
    vkGetSwapchainImagesKHR(ctx_.device, handle_, &n, nullptr);
    images_.resize(n);
    vkGetSwapchainImagesKHR(ctx_.device, handle_, &n, images_.data());
    // One "rendered" semaphore per image: an image comes back from acquire only after its
    // present has waited on its semaphore.
    auto semi = vkctx::vkStruct<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
    rendered_.resize(n);
    for (VkSemaphore& s : rendered_)
      vkctx::check(vkCreateSemaphore(ctx_.device, &semi, nullptr, &s), "vkCreateSemaphore");
    return true;
  }

  VkSwapchainKHR handle() const { return handle_; }
  VkImage image(uint32_t i) const { return images_[i]; }
  VkSemaphore rendered(uint32_t i) const { return rendered_[i]; }
  VkExtent2D extent() const { return extent_; }
  VkFormat format() const { return format_.format; }

 private:
  void destroy() {
    for (VkSemaphore s : rendered_) vkDestroySemaphore(ctx_.device, s, nullptr);
    rendered_.clear();
    if (handle_) vkDestroySwapchainKHR(ctx_.device, handle_, nullptr);
    handle_ = VK_NULL_HANDLE;
  }

  vkctx::Context& ctx_;
  VkSurfaceKHR surface_;
  GLFWwindow* window_;
  VkSurfaceFormatKHR format_{};
  VkSwapchainKHR handle_ = VK_NULL_HANDLE;
  VkExtent2D extent_{};
  std::vector<VkImage> images_;
  std::vector<VkSemaphore> rendered_;
};

// The one frame in flight's semaphore (image acquired) and fence (frame done); destroyed once the
// device is idle, however the loop ends.
struct FrameSync {
  explicit FrameSync(VkDevice d) : device(d) {
    auto semi = vkctx::vkStruct<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
    vkctx::check(vkCreateSemaphore(device, &semi, nullptr, &acquired), "vkCreateSemaphore");
    auto fi = vkctx::vkStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    vkctx::check(vkCreateFence(device, &fi, nullptr, &done), "vkCreateFence");
  }
  ~FrameSync() {
    vkDeviceWaitIdle(device);
    vkDestroyFence(device, done, nullptr);
    vkDestroySemaphore(device, acquired, nullptr);
  }
  VkDevice device;
  VkSemaphore acquired = VK_NULL_HANDLE;
  VkFence done = VK_NULL_HANDLE;
};

// Copies the frame into the swapchain image, scaled to its size, and makes it presentable.
void recordBlit(VkCommandBuffer cmd, VkImage frame, uint32_t width, uint32_t height, VkImage target,
                VkExtent2D extent) {
  imageBarrier(cmd, target, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_PIPELINE_STAGE_TRANSFER_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  VkImageBlit blit{};
  blit.srcSubresource = blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  blit.srcOffsets[1] = {int32_t(width), int32_t(height), 1};
  blit.dstOffsets[1] = {int32_t(extent.width), int32_t(extent.height), 1};
  vkCmdBlitImage(cmd, frame, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                 &blit, VK_FILTER_LINEAR);
  imageBarrier(cmd, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
               VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0);
}

}  // namespace

uint32_t runWindow(const Scene& scene, const WindowOptions& options) {
  Glfw session;  // initialized until the window closes
  uint32_t count = 0;
  const char** required = glfw().glfwGetRequiredInstanceExtensions(&count);
  if (!required) throw std::runtime_error("--window: GLFW knows no Vulkan surface for this display");
  vkctx::Options ctxOptions;
  ctxOptions.validation = options.validation;
  ctxOptions.tuningData = options.tuningData;
  ctxOptions.extraInstanceExtensions.assign(required, required + count);
  ctxOptions.extraDeviceExtensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  vkctx::Context ctx(ctxOptions);
  vksort::Sorter sorter = nullptr;
  vkctx::check(vksort::createSorter(ctx.sorterCreateInfo(), &sorter), "createSorter");
  struct SorterGuard {
    vksort::Sorter s;
    ~SorterGuard() { vksort::destroySorter(s); }
  } sorterGuard{sorter};

  glfw().glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  GLFWwindow* window =
      glfw().glfwCreateWindow(int(options.width), int(options.height), "vksort splats", nullptr, nullptr);
  if (!window) throw std::runtime_error("--window: GLFW could not open a window");
  struct WindowGuard {
    GLFWwindow* w;
    ~WindowGuard() { glfw().glfwDestroyWindow(w); }
  } windowGuard{window};
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  vkctx::check(glfw().glfwCreateWindowSurface(ctx.instance, window, nullptr, &surface), "glfwCreateWindowSurface");
  struct SurfaceGuard {
    VkInstance i;
    VkSurfaceKHR s;
    ~SurfaceGuard() { vkDestroySurfaceKHR(i, s, nullptr); }
  } surfaceGuard{ctx.instance, surface};

  Orbit orbit;
  glfw().glfwSetWindowUserPointer(window, &orbit);
  glfw().glfwSetMouseButtonCallback(window, onButton);
  glfw().glfwSetCursorPosCallback(window, onCursor);
  glfw().glfwSetScrollCallback(window, onScroll);

  uint32_t presented = 0;
  {
    Renderer renderer(ctx, sorter, scene, options.width, options.height, options.method, options.depthBits);
    Swapchain swapchain(ctx, surface, window);
    const Framing framing = frameScene(scene.splats);
    FrameSync sync(ctx.device);
    const VkSemaphore acquired = sync.acquired;
    const VkFence done = sync.done;
    bool usable = true;
    double titleAt = -1;
    while (!glfw().glfwWindowShouldClose(window) && (options.frames == 0 || presented < options.frames)) {
      glfw().glfwPollEvents();
      if (!usable) {  // minimized: wait for a size
        glfw().glfwWaitEvents();
        usable = swapchain.create();
        continue;
      }
      uint32_t index = 0;
      VkResult r = vkAcquireNextImageKHR(ctx.device, swapchain.handle(), UINT64_MAX, acquired, VK_NULL_HANDLE, &index);
      if (r == VK_ERROR_OUT_OF_DATE_KHR) {
        usable = swapchain.create();
        continue;
      }
      if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR) vkctx::check(r, "vkAcquireNextImageKHR");

      VkCommandBuffer cmd = ctx.beginCommands();
      const float fovY = 0.9f;
      renderer.record(cmd, orbitCamera(framing, orbit.angle, options.yDown, fovY, orbit.elevation, orbit.zoom,
                                       float(options.width) / float(options.height)));
      recordBlit(cmd, renderer.image(), options.width, options.height, swapchain.image(index), swapchain.extent());
      vkctx::check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
      const VkPipelineStageFlags waitStage = VK_PIPELINE_STAGE_TRANSFER_BIT;
      const VkSemaphore rendered = swapchain.rendered(index);
      auto si = vkctx::vkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
      si.waitSemaphoreCount = 1;
      si.pWaitSemaphores = &acquired;
      si.pWaitDstStageMask = &waitStage;
      si.commandBufferCount = 1;
      si.pCommandBuffers = &cmd;
      si.signalSemaphoreCount = 1;
      si.pSignalSemaphores = &rendered;
      vkctx::check(vkQueueSubmit(ctx.queue, 1, &si, done), "vkQueueSubmit");
      auto pi = vkctx::vkStruct<VkPresentInfoKHR>(VK_STRUCTURE_TYPE_PRESENT_INFO_KHR);
      const VkSwapchainKHR handle = swapchain.handle();
      pi.waitSemaphoreCount = 1;
      pi.pWaitSemaphores = &rendered;
      pi.swapchainCount = 1;
      pi.pSwapchains = &handle;
      pi.pImageIndices = &index;
      r = vkQueuePresentKHR(ctx.queue, &pi);
      // One frame in flight: the next one reuses the renderer's buffers and the semaphore.
      vkctx::check(vkWaitForFences(ctx.device, 1, &done, VK_TRUE, UINT64_MAX), "vkWaitForFences");
      vkctx::check(vkResetFences(ctx.device, 1, &done), "vkResetFences");
      vkFreeCommandBuffers(ctx.device, ctx.commandPool, 1, &cmd);
      if (r == VK_SUCCESS || r == VK_SUBOPTIMAL_KHR) ++presented;
      if (r == VK_SUBOPTIMAL_KHR || r == VK_ERROR_OUT_OF_DATE_KHR) usable = swapchain.create();
      else vkctx::check(r, "vkQueuePresentKHR");

      bool whole = false;
      const FrameStats st = renderer.finish(&whole);
      if (ctx.validationMessages()) throw std::runtime_error("validation: " + ctx.lastValidationMessage());
      if (glfw().glfwGetTime() - titleAt > 0.25) {  // a title the eye can read
        titleAt = glfw().glfwGetTime();
        const std::string title = std::string("vksort splats (") + methodName(options.method) +
                                  "): " + std::to_string(st.visible) + " splats, " + st.summary();
        glfw().glfwSetWindowTitle(window, title.c_str());
      }
      if (options.frames) std::printf("presented frame %u: %s\n", presented, st.summary().c_str());
    }
    std::printf("presented %u frames to a %ux%u window (%s, swapchain format %d)\n", presented,
                swapchain.extent().width, swapchain.extent().height, methodName(options.method),
                int(swapchain.format()));
  }
  return presented;
}

}  // namespace splats
