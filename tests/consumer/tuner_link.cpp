// A program that tunes links the tuner's wing (vksort::tuner) as a user does: both entry points
// resolve. Built by the consumer tests, not run (frame.cpp links vksort::vksort alone).
#include <vksort/vksort.h>
#include <vksort/vksort.hpp>

int main() {
  auto cpp = &vksort::tuneSorts;
  auto c = &vksortTuneSorts;
  return cpp != nullptr && c != nullptr ? 0 : 1;
}
