/* vksort's export macro, shared by the C and C++ headers. A shared build defines VKSORT_SHARED for
 * its users (CMake does) and VKSORT_BUILDING_SHARED for itself: on Windows the functions are then
 * exported from the DLL and imported by its users; elsewhere they are the only visible symbols
 * (the library is built with hidden visibility). A static build needs neither. */
#ifndef VKSORT_EXPORT_H
#define VKSORT_EXPORT_H

#if defined(VKSORT_SHARED)
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(VKSORT_BUILDING_SHARED)
#define VKSORT_EXPORT __declspec(dllexport)
#else
#define VKSORT_EXPORT __declspec(dllimport)
#endif
#else
#define VKSORT_EXPORT __attribute__((visibility("default")))
#endif
#else
#define VKSORT_EXPORT
#endif

#endif
