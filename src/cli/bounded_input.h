// Reading standard input in bounded memory, for the commands that take a
// whole text (match) or one text a line (match --batch). `scan` streams and
// needs neither.
#pragma once

#include <cstddef>
#include <istream>
#include <string>

namespace kedb::cli {

// The most `match` reads as one text: the server's default body limit, and
// about two seconds of matching.
inline constexpr std::size_t kMaxMatchBytes = 16u << 20;

// Reads `in` to its end and keeps the last `max_bytes` of it in *text, from
// the first line that starts inside them: the end of a program's output is
// where its error is. Memory stays within about 2 * max_bytes whatever the
// input's size. Returns the number of bytes read.
std::size_t ReadTail(std::istream& in, std::size_t max_bytes, std::string* text);

// Reads one line (without its '\n') into *line. A line over `max_bytes` is
// read to its end but not stored: *too_long is set and *line is empty.
// False at the end of input with nothing read.
bool ReadBoundedLine(std::istream& in, std::size_t max_bytes, std::string* line, bool* too_long);

}  // namespace kedb::cli
