// LiteralCheck: a cheap test that a line may match a pattern, from the
// literals every match must contain.
//
// The prefilter finds a line through ONE literal of a pattern (its factor).
// Most corpus patterns need more than that: `session.*fixation` is found
// through "session" but also needs "fixation", and `(cache.*full|eviction.*
// behind)` needs both words of one branch. Checking those with a substring
// search costs tens of nanoseconds; running the regex costs about a
// microsecond. On ordinary log noise this check turns away about 99% of
// candidates before PCRE2 sees them.
//
// Sound by construction: it only rejects a line that lacks a literal the
// regex analysis proved every match contains (see regex::PatternInfo::
// literal_factors and literal_choices), so it never loses a match.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "regex/python_regex.h"

namespace kedb::match {

// Numbers for distinct literals, so that a line searched for "session" on
// behalf of eight patterns is searched once. Thread-safe.
class LiteralIds {
 public:
  uint32_t Intern(const std::string& literal);

 private:
  std::mutex mu_;
  std::unordered_map<std::string, uint32_t> ids_;
};

// The literals found in one line so far, remembered by id. One per scanning
// thread; Reset() for each line. A bitmap of the line's byte pairs, built
// once a line is asked about several literals, answers most "absent"
// questions without a substring search.
class LineLiterals {
 public:
  // `folded_line` is regex::FoldLiteralCase() of the line and must outlive the
  // following Has() calls.
  void Reset(std::string_view folded_line);
  bool Has(uint32_t id, std::string_view literal);

 private:
  static constexpr std::size_t kPairBits = 4096;
  static constexpr std::size_t kSearchesBeforePairs = 6;
  static std::size_t PairHash(unsigned char a, unsigned char b) { return (a * 263u + b) & (kPairBits - 1); }
  void BuildPairs();
  bool MayContain(std::string_view literal) const;

  std::string_view line_;
  std::size_t searches_ = 0;  // distinct literals looked for in this line
  bool pairs_built_ = false;
  uint64_t pairs_[kPairBits / 64] = {};
  uint32_t epoch_ = 0;
  // By literal id: whether the line has it, known when `epoch` is epoch_.
  struct Seen {
    uint32_t epoch = 0;
    bool found = false;
  };
  std::vector<Seen> seen_;
};

class LiteralCheck {
 public:
  LiteralCheck() = default;
  LiteralCheck(const regex::PatternInfo& info, LiteralIds* ids);

  // Whether the line held by `line` contains the literals some match would
  // need. Cost: at most one substring search per distinct literal a line.
  bool MayMatch(LineLiterals* line) const;

  // Whether the check can ever say no.
  bool empty() const { return all_.empty() && choices_.empty(); }
  // The literals every matching line holds (sets of one), most selective
  // first.
  std::vector<std::string_view> Required() const;

  // The check in a few bytes, kept in the pattern cache so that a
  // candidate is checked without parsing its regex; "" when empty. Counts
  // and lengths take a byte each: a literal is cut to 255 bytes (a line
  // holding a literal holds its start) and choices past 255 are left out,
  // which weakens the check and never makes it wrong.
  std::string Encode() const;
  // Decode(Encode()), literals numbered in `ids`; an empty check when
  // `bytes` do not parse, which only weakens it.
  static LiteralCheck Decode(std::string_view bytes, LiteralIds* ids);

 private:
  struct Literal {
    uint32_t id;
    std::string text;
  };
  using Set = std::vector<Literal>;  // one of these literals
  using Branch = std::vector<Set>;   // every set satisfied
  static bool Holds(const Set& set, LineLiterals* line);
  static bool Holds(const Branch& branch, LineLiterals* line);
  static void EncodeBranch(const Branch& branch, std::string* out);

  Branch all_;                                // every set, always
  std::vector<std::vector<Branch>> choices_;  // for each, some branch
};

// regex::FoldLiteralCase() of a line, with a fast path for ASCII.
void FoldLine(std::string_view line, std::string* out);

}  // namespace kedb::match
