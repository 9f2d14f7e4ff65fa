// Reading text already in memory through a std::istream, without copying
// it: for the functions that take a stream (Engine::Scan) when the caller
// holds the whole text.
#ifndef KEDB_UTIL_VIEW_STREAMBUF_H_
#define KEDB_UTIL_VIEW_STREAMBUF_H_

#include <streambuf>
#include <string_view>

namespace kedb::util {

// A read-only stream buffer over `text`, which must outlive it.
class ViewStreambuf : public std::streambuf {
 public:
  explicit ViewStreambuf(std::string_view text) {
    char* p = const_cast<char*>(text.data());  // read-only: nothing writes through the get area
    setg(p, p, p + text.size());
  }
};

}  // namespace kedb::util

#endif  // KEDB_UTIL_VIEW_STREAMBUF_H_
