// Clustering unknown errors into templates: the start of a new record.
//
// The decisive lines no known error matched are masked (numbers, hex,
// UUIDs, IP addresses, paths, quoted names become placeholders) and grouped
// Drain-style: lines with the same number of tokens and the same first
// token join the template they agree with on at least half of the other
// positions; positions where members differ become wildcards. Each
// template proposes a Python `re` pattern, and the proposal is checked
// against every member kept (the first 1,000) before it is offered.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kedb::logs {

struct Template {
  std::string text;                  // tokens with <NUM> <HEX> <UUID> <IP> <PATH> <STR> <*>
  std::string example;               // the first member, as written
  std::size_t count = 0;             // lines in the template (repeats included)
  std::vector<std::string> members;  // distinct members kept for checking, at most 1,000
  std::string regex;                 // proposed pattern (Python `re`)
  std::size_t verified = 0;          // members the pattern matches
};

// Masks one line: "CUDA error at 0x7f3a in /src/k.cu:12" ->
// "CUDA error at <HEX> in <PATH>".
std::string MaskLine(std::string_view line);

class Clusterer {
 public:
  // A decisive line that matched nothing, seen `count` times.
  void Add(std::string_view line, std::size_t count = 1);
  // Templates with their proposed and checked patterns, most frequent first.
  std::vector<Template> Finish();

 private:
  struct Group {
    std::vector<std::string> tokens;  // the template's tokens
    Template t;
  };
  std::vector<Group> groups_;
};

}  // namespace kedb::logs
