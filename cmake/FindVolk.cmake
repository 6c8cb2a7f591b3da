# Debian's libvulkan-volk-dev ships only /usr/include/volk.h and volk.c, no CMake package.
# vksort uses volk.h for the VolkDeviceTable type alone; it never compiles volk.c, whose
# global function pointers would clash with the host application's Vulkan symbols.
find_path(Volk_INCLUDE_DIR volk.h)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Volk REQUIRED_VARS Volk_INCLUDE_DIR)
if(Volk_FOUND AND NOT TARGET vksort_volk_headers)
  add_library(vksort_volk_headers INTERFACE)
  target_include_directories(vksort_volk_headers SYSTEM INTERFACE ${Volk_INCLUDE_DIR})
endif()
