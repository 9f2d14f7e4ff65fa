// "The same line up to numbers": repeats of one error differ in counts,
// ids, ranks, addresses and times. Both the block segmenter and the scan's
// hit regions count such repeats instead of keeping them, and must agree
// on what a repeat is.
#pragma once

#include <string>
#include <string_view>

namespace kedb::util {

// Appends `text` to `out` with every run that starts with a digit, and goes
// on over digits, 'x' and a-f (so 42, 0x7f3a9c and 3e8f all count), as one
// '#'. Cost: one pass.
inline void AppendUpToNumbers(std::string_view text, std::string* out) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (std::size_t i = 0; i < text.size();) {
    if (digit(text[i])) {
      *out += '#';
      while (i < text.size() && (digit(text[i]) || text[i] == 'x' || (text[i] >= 'a' && text[i] <= 'f'))) ++i;
    } else {
      *out += text[i++];
    }
  }
}

}  // namespace kedb::util
