#include "cli/bounded_input.h"

#include <algorithm>

namespace kedb::cli {

std::size_t ReadTail(std::istream& in, std::size_t max_bytes, std::string* text) {
  text->clear();
  std::size_t total = 0;
  bool cut = false;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    const auto n = static_cast<std::size_t>(in.gcount());
    total += n;
    text->append(buf, n);
    if (text->size() > 2 * max_bytes) {
      text->erase(0, text->size() - max_bytes);
      cut = true;
    }
  }
  if (text->size() > max_bytes) {
    text->erase(0, text->size() - max_bytes);
    cut = true;
  }
  if (cut) {
    // Start at a whole line, unless the kept part is one line.
    const std::size_t nl = text->find('\n');
    if (nl != std::string::npos && nl + 1 < text->size()) text->erase(0, nl + 1);
  }
  return total;
}

bool ReadBoundedLine(std::istream& in, std::size_t max_bytes, std::string* line, bool* too_long) {
  line->clear();
  *too_long = false;
  bool any = false;
  // The stream buffer's own calls: a byte costs a pointer increment.
  std::streambuf* sb = in.rdbuf();
  for (;;) {
    const int c = sb->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return any;
    }
    any = true;
    if (c == '\n') return true;
    if (*too_long) continue;
    if (line->size() >= max_bytes) {
      *too_long = true;
      line->clear();
      line->shrink_to_fit();
      continue;
    }
    line->push_back(static_cast<char>(c));
  }
}

}  // namespace kedb::cli
