// What the fuzz targets share: a check that stops the run with a message
// (libFuzzer saves the input as a crash), and a UTF-8 validity test.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string_view>

#include "util/utf8.h"

// A broken invariant: say which, then trap so libFuzzer keeps the input.
#define FUZZ_CHECK(cond)                                                              \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      std::fprintf(stderr, "invariant broken at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      __builtin_trap();                                                               \
    }                                                                                 \
  } while (0)

namespace kedb::fuzz {

inline bool ValidUtf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    char32_t c;
    std::size_t n = util::DecodeUtf8(s, i, &c);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

}  // namespace kedb::fuzz
