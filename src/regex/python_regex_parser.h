// The Python `re` parser's state and tokens, shared by the files that
// define its steps: python_regex.cc (sequences, groups, flags, the driver)
// and python_regex_escapes.cc (escapes and character classes). Include
// nowhere else: the public entry point is ParsePythonRegex (python_regex.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "regex/python_regex.h"

namespace kedb::regex::python_parser {

using internal::Fragment;
using internal::IsIdentifier;
using internal::Lit;
using internal::Quote;
using internal::Utf8;

constexpr std::uint64_t kPythonMaxRepeat = 4294967295u;  // _sre.MAXREPEAT
constexpr std::uint64_t kPcre2MaxRepeat = 65535;
constexpr std::size_t kMaxGroups = 1u << 30;

// Python's inline flag letters.
enum : unsigned {
  kFlagI = 1, kFlagL = 2, kFlagM = 4, kFlagS = 8, kFlagX = 16, kFlagA = 32,
  kFlagT = 64, kFlagU = 128,
  kTypeFlags = kFlagA | kFlagL | kFlagU,
};

inline unsigned FlagBit(char32_t c) {
  switch (c) {
    case 'i': return kFlagI;  case 'L': return kFlagL;  case 'm': return kFlagM;
    case 's': return kFlagS;  case 'x': return kFlagX;  case 'a': return kFlagA;
    case 't': return kFlagT;  case 'u': return kFlagU;  default: return 0;
  }
}

// A token is one character or a backslash and the character after it.
struct Tok {
  char32_t c = 0;
  bool esc = false;
  bool end = true;
};

inline bool Is(const Tok& t, char32_t c) { return !t.end && !t.esc && t.c == c; }
inline std::size_t Len(const Tok& t) { return t.esc ? 2 : 1; }
inline bool IsAsciiDigit(const Tok& t) { return !t.end && !t.esc && t.c >= '0' && t.c <= '9'; }
inline bool IsOctal(const Tok& t) { return !t.end && !t.esc && t.c >= '0' && t.c <= '7'; }
inline bool IsHex(const Tok& t) {
  return !t.end && !t.esc &&
         ((t.c >= '0' && t.c <= '9') || ((t.c | 0x20) >= 'a' && (t.c | 0x20) <= 'f'));
}
inline bool IsAsciiLetter(char32_t c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
inline bool IsFlag(const Tok& t) { return !t.end && !t.esc && FlagBit(t.c) != 0; }
// str.isalpha(), approximated: non-ASCII characters count as letters.
inline bool IsAlpha(const Tok& t) { return !t.esc && (IsAsciiLetter(t.c) || t.c >= 0x80); }

inline std::string Text(const Tok& t) {
  std::string s = t.esc ? "\\" : "";
  internal::AppendUtf8(&s, t.c);
  return s;
}

enum class Kind { kAtom, kAt, kRepeat, kGroup };

// One element of a sequence: what a following quantifier would repeat.
struct Item {
  Fragment f;
  Kind kind = Kind::kAtom;
  std::size_t pos = 0;  // code point index where the item starts
};

// Parse state shared by nested groups, scoped flags travel separately.
struct Ctx {
  bool verbose = false;
  bool ascii = false;
};

// A rejection the parser holds until it finishes (Python reports the first
// parse error, then compile-time ones, and kedb's "unsupported" last).
struct RegexError {
  std::size_t offset = 0;  // byte offset into the pattern
  std::string message;
};

class Parser {
 public:
  Parser(std::vector<char32_t> cps, std::vector<std::size_t> offsets,
         std::string_view pattern)
      : cps_(std::move(cps)), offs_(std::move(offsets)), pattern_(pattern) {}

  Result<PatternInfo> Run();

 private:
  // Python's Tokenizer.
  void Advance();
  Tok Get() { Tok t = next_; Advance(); return t; }
  bool Match(char32_t c) {
    if (!Is(next_, c)) return false;
    Advance();
    return true;
  }
  std::size_t Tell() const { return index_ - (next_.end ? 0 : Len(next_)); }
  void Seek(std::size_t i) { index_ = i; Advance(); }

  // Records an error at code point `pos`; the first one wins, as Python
  // stops at its first raise. Always returns false.
  bool FailAt(std::size_t pos, std::string msg);
  bool Fail(std::string msg, std::size_t back = 0) { return FailAt(Tell() - back, std::move(msg)); }
  // Python accepts it, we cannot: reported only if Python finds no error.
  void Unsupported(std::size_t pos, std::string msg);
  std::size_t Byte(std::size_t cp_pos) const { return offs_[std::min(cp_pos, cps_.size())]; }

  bool ParseSub(Ctx ctx, int nested, Fragment* out);
  bool ParseSeq(Ctx ctx, int nested, bool first, Fragment* out);
  bool ParseEscape(const Tok& t, const Ctx& ctx, Item* item);
  bool ParseClass(const Ctx& ctx, Item* item);
  bool ParseClassEscape(const Tok& t, const Ctx& ctx, char32_t* value, std::string* category);
  bool ParseCodeEscape(char32_t c, std::size_t start, char32_t* value);
  bool ParseRepeat(const Tok& t, std::vector<Item>* items, Item* literal, bool* has_item);
  bool ParseGroup(Ctx* ctx, int nested, bool at_start, Item* item, bool* has_item);
  bool ParseLookaround(const Tok& c, const Ctx& ctx, int nested, std::size_t start, Item* item);
  bool ParseConditional(const Ctx& ctx, int nested, std::size_t start, Item* item);
  bool ParseFlags(Tok c, unsigned* add, unsigned* del, bool* global);
  bool GetUntil(char32_t terminator, const char* what, std::u32string* out);
  bool CheckGroupName(const std::u32string& name) {
    return IsIdentifier(name) ||
           Fail("bad character in group name " + Quote(name), name.size() + 1);
  }
  bool CheckGroup(std::size_t gid) const { return gid < widths_.size() && widths_[gid].has_value(); }
  bool CheckLookbehindGroup(std::size_t gid);
  Item Backref(std::size_t gid);
  Item Literal(char32_t c, std::size_t pos);

  const std::vector<char32_t> cps_;
  const std::vector<std::size_t> offs_;
  const std::string_view pattern_;
  std::size_t index_ = 0;
  Tok next_;

  unsigned flags_ = 0;  // global flags
  std::vector<std::optional<std::pair<std::size_t, std::size_t>>> widths_{std::nullopt};
  std::vector<std::string> pcre2_names_{""};  // "" when referenced by number
  std::map<std::u32string, std::size_t> names_;
  std::optional<std::size_t> lookbehind_groups_;
  std::vector<std::pair<std::size_t, std::size_t>> group_refs_;  // (gid, pos)

  std::optional<RegexError> error_;        // Python's parse error
  std::optional<RegexError> late_error_;   // Python's compile-time error
  std::optional<RegexError> unsupported_;
  PatternInfo info_;
};

}  // namespace kedb::regex::python_parser
