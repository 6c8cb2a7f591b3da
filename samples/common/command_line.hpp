// The samples' command lines, read one way: --help (or -h) prints the usage to stdout and exits 0;
// an unknown or malformed argument throws std::invalid_argument, which each main() reports with
// the usage and exit status 2 (any other failure: exit status 1).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "vksort/vksort.hpp"

namespace cli {

// Prints `usage` and exits 0 where `arg` asks for it.
inline void helpIfAsked(const std::string& arg, const char* usage) {
  if (arg != "--help" && arg != "-h") return;
  std::fputs(usage, stdout);
  std::exit(0);
}

// The value after option argv[*i], which *i then points at.
inline std::string valueOf(int argc, char** argv, int* i) {
  if (*i + 1 >= argc) throw std::invalid_argument(std::string(argv[*i]) + " needs a value (or is unknown)");
  return argv[++*i];
}

// `text` as a whole number in [min, max]; anything else names `option` and the text.
inline uint64_t number(const std::string& option, const std::string& text, uint64_t min, uint64_t max) {
  size_t used = 0;
  unsigned long long n = 0;
  try {
    n = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || text[0] == '-' || n < min || n > max)
    throw std::invalid_argument(option + " takes a whole number from " + std::to_string(min) + " to " +
                                std::to_string(max) + ", not \"" + text + "\"");
  return n;
}

// A key type by its name in vksort's spelling (u32, i32, f32, u64, i64, f64).
inline vksort::KeyType keyType(const std::string& name) {
  static const char* const kNames[] = {"u32", "i32", "f32", "u64", "i64", "f64"};
  for (uint32_t k = 0; k < 6; ++k)
    if (name == kNames[k]) return vksort::KeyType(k);
  throw std::invalid_argument("unknown key type " + name);
}

// main()'s report of a failure: the message; for an argument error the usage too, exit status 2.
inline int report(const char* program, const std::exception& e, const char* usage) {
  const bool argument = dynamic_cast<const std::invalid_argument*>(&e) != nullptr;
  std::fprintf(stderr, "%s: %s\n%s", program, e.what(), argument ? usage : "");
  return argument ? 2 : 1;
}

}  // namespace cli
