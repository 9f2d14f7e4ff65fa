// Python `re` parser. The structure mirrors CPython 3.11's re/_parser.py
// (Tokenizer, _parse_sub, _parse, _escape, _class_escape, _parse_flags) so
// that the same inputs are accepted and rejected at the same positions.
// Instead of building a tree, every parse step returns a Fragment that
// already holds its PCRE2 text and the facts the analysis needs; see
// python_regex_analysis.cc for that algebra.

#include "regex/python_regex.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>

namespace kedb::regex {
namespace {

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

unsigned FlagBit(char32_t c) {
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

bool Is(const Tok& t, char32_t c) { return !t.end && !t.esc && t.c == c; }
std::size_t Len(const Tok& t) { return t.esc ? 2 : 1; }
bool IsAsciiDigit(const Tok& t) { return !t.end && !t.esc && t.c >= '0' && t.c <= '9'; }
bool IsOctal(const Tok& t) { return !t.end && !t.esc && t.c >= '0' && t.c <= '7'; }
bool IsHex(const Tok& t) {
  return !t.end && !t.esc &&
         ((t.c >= '0' && t.c <= '9') || ((t.c | 0x20) >= 'a' && (t.c | 0x20) <= 'f'));
}
bool IsAsciiLetter(char32_t c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
bool IsFlag(const Tok& t) { return !t.end && !t.esc && FlagBit(t.c) != 0; }
// str.isalpha(), approximated: non-ASCII characters count as letters.
bool IsAlpha(const Tok& t) { return !t.esc && (IsAsciiLetter(t.c) || t.c >= 0x80); }

std::string Text(const Tok& t) {
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

void Parser::Advance() {
  next_ = Tok{};
  if (index_ >= cps_.size()) return;
  if (cps_[index_] != '\\') {
    next_ = Tok{cps_[index_++], false, false};
  } else if (index_ + 1 < cps_.size()) {
    next_ = Tok{cps_[index_ + 1], true, false};
    index_ += 2;
  } else {
    FailAt(cps_.size() - 1, "bad escape (end of pattern)");
  }
}

bool Parser::FailAt(std::size_t pos, std::string msg) {
  if (!error_) error_ = RegexError{Byte(pos), std::move(msg)};
  return false;
}

void Parser::Unsupported(std::size_t pos, std::string msg) {
  if (!unsupported_) unsupported_ = RegexError{Byte(pos), "unsupported: " + std::move(msg)};
}

bool Parser::GetUntil(char32_t terminator, const char* what, std::u32string* out) {
  out->clear();
  while (true) {
    Tok c = Get();
    if (c.end) {
      if (out->empty()) return Fail(std::string("missing ") + what);
      return Fail("missing " + Utf8(std::u32string(1, terminator)) + ", unterminated name",
                  out->size());
    }
    if (Is(c, terminator)) {
      return !out->empty() || Fail(std::string("missing ") + what, 1);
    }
    if (c.esc) out->push_back('\\');
    out->push_back(c.c);
  }
}

bool Parser::CheckLookbehindGroup(std::size_t gid) {
  if (!lookbehind_groups_) return true;
  if (!CheckGroup(gid)) return Fail("cannot refer to an open group");
  if (gid >= *lookbehind_groups_) {
    return Fail("cannot refer to group defined in the same lookbehind subpattern");
  }
  return true;
}

Item Parser::Literal(char32_t c, std::size_t pos) {
  Item item;
  item.pos = pos;
  item.f = internal::LiteralFragment(c);
  return item;
}

Item Parser::Backref(std::size_t gid) {
  Item item;
  info_.has_backreference = true;
  item.f = internal::BackrefFragment(
      pcre2_names_[gid].empty() ? "\\g{" + std::to_string(gid) + "}" : "\\k<" + pcre2_names_[gid] + ">",
      widths_[gid]->first, widths_[gid]->second);
  return item;
}

// \x \u \U \N, shared by both escape flavours. `start` is the backslash.
bool Parser::ParseCodeEscape(char32_t c, std::size_t start, char32_t* value) {
  if (c == 'N') {
    std::u32string name;
    if (!Match('{')) return Fail("missing {");
    if (!GetUntil('}', "character name", &name)) return false;
    Unsupported(start, "\\N{...} named characters");
    *value = 0xFFFD;
    return true;
  }
  const std::size_t want = c == 'x' ? 2 : c == 'u' ? 4 : 8;
  std::string digits;
  while (digits.size() < want && IsHex(next_)) digits += static_cast<char>(Get().c);
  const std::string escape = "\\" + std::string(1, static_cast<char>(c)) + digits;
  if (digits.size() != want) return FailAt(start, "incomplete escape " + escape);
  const unsigned long v = std::stoul(digits, nullptr, 16);
  if (v > 0x10FFFF) return FailAt(start, "bad escape " + escape);
  *value = static_cast<char32_t>(v);
  if (v >= 0xD800 && v <= 0xDFFF) Unsupported(start, "surrogate code point " + escape);
  return true;
}

bool Parser::ParseEscape(const Tok& t, const Ctx& ctx, Item* item) {
  const std::size_t start = Tell() - 2;
  const char32_t c = t.c;
  item->pos = start;
  if (c < 0x80 && std::string_view("AZbB").find(static_cast<char>(c)) != std::string_view::npos) {
    item->kind = Kind::kAt;
    item->f = internal::AnchorFragment(static_cast<char>(c), ctx.ascii);
    return true;
  }
  if (c < 0x80 && std::string_view("dDsSwW").find(static_cast<char>(c)) != std::string_view::npos) {
    item->f = internal::CategoryFragment(static_cast<char>(c), ctx.ascii);
    return true;
  }
  char32_t value = internal::ControlEscape(c, /*in_class=*/false);
  switch (c) {
    case 'x': case 'u': case 'U': case 'N':
      if (!ParseCodeEscape(c, start, &value)) return false;
      break;
    case '0':
      value = 0;
      for (int i = 0; i < 2 && IsOctal(next_); ++i) value = value * 8 + (Get().c - '0');
      break;
    default:
      if (c >= '1' && c <= '9') {
        std::string digits(1, static_cast<char>(c));
        if (IsAsciiDigit(next_)) {
          digits += static_cast<char>(Get().c);
          if (digits[0] <= '7' && digits[1] <= '7' && IsOctal(next_)) {
            digits += static_cast<char>(Get().c);
            value = static_cast<char32_t>(std::stoul(digits, nullptr, 8));
            if (value > 0377) {
              return FailAt(start, "octal escape value \\" + digits + " outside of range 0-0o377");
            }
            break;
          }
        }
        const std::size_t gid = std::stoul(digits);
        if (gid >= widths_.size()) {
          return FailAt(start + 1, "invalid group reference " + digits);
        }
        if (!CheckGroup(gid)) return FailAt(start, "cannot refer to an open group");
        if (!CheckLookbehindGroup(gid)) return false;
        *item = Backref(gid);
        item->pos = start;
        return true;
      }
      if (IsAsciiLetter(c) && value == c) return FailAt(start, "bad escape " + Text(t));
  }
  *item = Literal(value, start);
  return true;
}

// Python's _class_escape: *category is set for \d and friends.
bool Parser::ParseClassEscape(const Tok& t, const Ctx& ctx, char32_t* value,
                              std::string* category) {
  const std::size_t start = Tell() - 2;
  const char32_t c = t.c;
  *value = internal::ControlEscape(c, /*in_class=*/true);
  if (*value != c) return true;
  switch (c) {
    case 'd': case 'D': case 's': case 'S': case 'w': case 'W':
      *category = internal::CategoryInClass(static_cast<char>(c), ctx.ascii);
      return true;
    case 'x': case 'u': case 'U': case 'N':
      return ParseCodeEscape(c, start, value);
    default:
      break;
  }
  if (c >= '0' && c <= '7') {
    std::string digits(1, static_cast<char>(c));
    for (int i = 0; i < 2 && IsOctal(next_); ++i) digits += static_cast<char>(Get().c);
    *value = static_cast<char32_t>(std::stoul(digits, nullptr, 8));
    if (*value > 0377) {
      return FailAt(start, "octal escape value \\" + digits + " outside of range 0-0o377");
    }
    return true;
  }
  if (c == '8' || c == '9' || IsAsciiLetter(c)) return FailAt(start, "bad escape " + Text(t));
  return true;
}

bool Parser::ParseClass(const Ctx& ctx, Item* item) {
  const std::size_t here = Tell() - 1;
  item->pos = here;
  const bool negated = Match('^');
  std::string body = negated ? "[^" : "[";
  std::size_t members = 0;
  // The members, for the literal factors; a category makes the class too
  // large to count.
  std::vector<std::pair<char32_t, char32_t>> ranges;
  bool has_category = false;
  while (true) {
    const Tok t = Get();
    if (t.end) return FailAt(here, "unterminated character set");
    if (Is(t, ']') && members > 0) break;
    char32_t lo = t.c;
    std::string category;
    if (t.esc && !ParseClassEscape(t, ctx, &lo, &category)) return false;
    ++members;
    has_category = has_category || !category.empty();
    if (Match('-')) {
      const Tok that = Get();
      if (that.end) return FailAt(here, "unterminated character set");
      if (Is(that, ']')) {
        body += category.empty() ? internal::ClassChar(lo) : category;
        body += "\\-";
        if (category.empty()) ranges.emplace_back(lo, lo);
        ranges.emplace_back('-', '-');
        break;
      }
      char32_t hi = that.c;
      std::string category2;
      if (that.esc && !ParseClassEscape(that, ctx, &hi, &category2)) return false;
      if (!category.empty() || !category2.empty() || hi < lo) {
        return Fail("bad character range " + Text(t) + "-" + Text(that), Len(t) + 1 + Len(that));
      }
      body += internal::ClassChar(lo) + "-" + internal::ClassChar(hi);
      ranges.emplace_back(lo, hi);
    } else {
      body += category.empty() ? internal::ClassChar(lo) : category;
      if (category.empty()) ranges.emplace_back(lo, lo);
    }
  }
  item->f.out = body + "]";
  item->f.lo = item->f.hi = 1;
  item->f.lit = Lit::Break();
  item->f.factors = negated || has_category ? internal::Factors::Break()
                                            : internal::ClassFactors(ranges);
  return true;
}

bool Parser::ParseRepeat(const Tok& t, std::vector<Item>* items, Item* literal,
                         bool* has_item) {
  const std::size_t here = Tell();
  std::size_t min = 0, max = internal::kInf;
  if (t.c == '?') {
    max = 1;
  } else if (t.c == '+') {
    min = 1;
  } else if (t.c == '{') {
    if (Is(next_, '}')) {
      *literal = Literal('{', here - 1);
      return true;
    }
    std::string lo, hi;
    while (IsAsciiDigit(next_)) lo += static_cast<char>(Get().c);
    if (Match(',')) {
      while (IsAsciiDigit(next_)) hi += static_cast<char>(Get().c);
    } else {
      hi = lo;
    }
    if (!Match('}')) {  // not a quantifier: a literal "{"
      *literal = Literal('{', here - 1);
      Seek(here);
      return true;
    }
    auto number = [](const std::string& s) {
      return s.size() > 12 ? kPythonMaxRepeat : std::stoull(s);
    };
    if ((!lo.empty() && number(lo) >= kPythonMaxRepeat) ||
        (!hi.empty() && number(hi) >= kPythonMaxRepeat)) {
      return FailAt(here - 1, "the repetition number is too large");
    }
    if (!lo.empty()) min = number(lo);
    if (!hi.empty()) max = number(hi);
    if (max < min) return FailAt(here, "min repeat greater than max repeat");
    if (min > kPcre2MaxRepeat || (max != internal::kInf && max > kPcre2MaxRepeat)) {
      Unsupported(here - 1, "repeat count above 65535");
    }
  }
  *has_item = false;
  if (items->empty() || items->back().kind == Kind::kAt) {
    return FailAt(here - 1, "nothing to repeat");
  }
  Item& last = items->back();
  if (last.kind == Kind::kRepeat) return FailAt(here - 1, "multiple repeat");
  const char mode = Match('?') ? '?' : Match('+') ? '+' : 0;
  if (last.kind == Kind::kGroup && mode != '+' && last.f.unbounded &&
      (max == internal::kInf || max > 1) && !info_.nested_quantifier) {
    info_.nested_quantifier = true;
    info_.nested_quantifier_offset = Byte(last.pos);
  }
  internal::Repeat(&last.f, min, max, mode);
  last.kind = Kind::kRepeat;
  return true;
}

// Python's _parse_flags; `c` is the first flag letter or "-".
bool Parser::ParseFlags(Tok c, unsigned* add_out, unsigned* del_out, bool* global) {
  unsigned add = 0, del = 0;
  if (!Is(c, '-')) {
    while (true) {
      const unsigned flag = FlagBit(c.c);
      if (flag == kFlagL) return Fail("bad inline flags: cannot use 'L' flag with a str pattern");
      add |= flag;
      if ((flag & kTypeFlags) && (add & kTypeFlags) != flag) {
        return Fail("bad inline flags: flags 'a', 'u' and 'L' are incompatible");
      }
      c = Get();
      if (c.end) return Fail("missing -, : or )");
      if (Is(c, ')') || Is(c, '-') || Is(c, ':')) break;
      if (!IsFlag(c)) return Fail(IsAlpha(c) ? "unknown flag" : "missing -, : or )", Len(c));
    }
  }
  *add_out = add;
  *global = Is(c, ')');
  if (*global) return true;
  if (add & kFlagT) return Fail("bad inline flags: cannot turn on global flag", 1);
  if (Is(c, '-')) {
    c = Get();
    if (c.end) return Fail("missing flag");
    if (!IsFlag(c)) return Fail(IsAlpha(c) ? "unknown flag" : "missing flag", Len(c));
    while (true) {
      const unsigned flag = FlagBit(c.c);
      if (flag & kTypeFlags) {
        return Fail("bad inline flags: cannot turn off flags 'a', 'u' and 'L'");
      }
      del |= flag;
      c = Get();
      if (c.end) return Fail("missing :");
      if (Is(c, ':')) break;
      if (!IsFlag(c)) return Fail(IsAlpha(c) ? "unknown flag" : "missing :", Len(c));
    }
  }
  if (del & kFlagT) return Fail("bad inline flags: cannot turn off global flag", 1);
  if (add & del) return Fail("bad inline flags: flag turned on and off", 1);
  *del_out = del;
  return true;
}

bool Parser::ParseLookaround(const Tok& c, const Ctx& ctx, int nested, std::size_t start,
                             Item* item) {
  const bool behind = Is(c, '<');
  char32_t kind = c.c;
  if (behind) {
    const Tok c2 = Get();
    if (c2.end) return Fail("unexpected end of pattern");
    if (!Is(c2, '=') && !Is(c2, '!')) return Fail("unknown extension ?<" + Text(c2), Len(c2) + 2);
    kind = c2.c;
  }
  const bool outermost = behind && !lookbehind_groups_;
  if (outermost) lookbehind_groups_ = widths_.size();
  Fragment body;
  if (!ParseSub(ctx, nested + 1, &body)) return false;
  if (outermost) lookbehind_groups_.reset();
  if (!Match(')')) return FailAt(start, "missing ), unterminated subpattern");
  // Python's compiler raises this after parsing, for the first look-behind
  // in tree order, which is the one that starts first.
  if (behind && body.lo != body.hi && (!late_error_ || late_error_->offset > Byte(start))) {
    late_error_ = RegexError{Byte(start), "look-behind requires fixed-width pattern"};
  }
  info_.has_lookaround = true;
  item->f = internal::LookaroundFragment(behind, kind == '=', body);
  return true;
}

bool Parser::ParseConditional(const Ctx& ctx, int nested, std::size_t start, Item* item) {
  std::u32string cond;
  if (!GetUntil(')', "group name", &cond)) return false;
  std::size_t gid = 0;
  if (IsIdentifier(cond)) {
    auto it = names_.find(cond);
    if (it == names_.end()) return Fail("unknown group name " + Quote(cond), cond.size() + 1);
    gid = it->second;
  } else {
    if (!std::all_of(cond.begin(), cond.end(), [](char32_t d) { return d >= '0' && d <= '9'; })) {
      return Fail("bad character in group name " + Quote(cond), cond.size() + 1);
    }
    gid = cond.size() > 10 ? kMaxGroups : std::stoull(Utf8(cond));
    if (gid == 0) return Fail("bad group number", cond.size() + 1);
    if (gid >= kMaxGroups) return Fail("invalid group reference " + Utf8(cond), cond.size() + 1);
    const bool seen = std::any_of(group_refs_.begin(), group_refs_.end(),
                                  [gid](const auto& ref) { return ref.first == gid; });
    if (!seen) group_refs_.emplace_back(gid, Tell() - cond.size() - 1);
  }
  if (!CheckLookbehindGroup(gid)) return false;
  Fragment yes, no;
  bool has_no = false;
  if (!ParseSeq(ctx, nested + 1, false, &yes)) return false;
  if (Match('|')) {
    has_no = true;
    if (!ParseSeq(ctx, nested + 1, false, &no)) return false;
    if (Is(next_, '|')) return Fail("conditional backref with more than two branches");
  }
  if (!Match(')')) return FailAt(start, "missing ), unterminated subpattern");
  info_.has_backreference = true;
  const std::string ref = gid < pcre2_names_.size() && !pcre2_names_[gid].empty()
                              ? "<" + pcre2_names_[gid] + ">"
                              : std::to_string(gid);
  item->kind = Kind::kGroup;
  item->f = internal::ConditionalFragment(ref, yes, has_no ? &no : nullptr);
  return true;
}

// Everything that starts with "(". *has_item is false for comments and
// global flags, which leave nothing for a quantifier to repeat.
bool Parser::ParseGroup(Ctx* ctx, int nested, bool at_start, Item* item, bool* has_item) {
  const std::size_t start = Tell() - 1;
  bool capture = true, atomic = false, named = false;
  std::u32string name;
  unsigned add = 0, del = 0;
  item->pos = start;
  item->kind = Kind::kGroup;
  if (Match('?')) {
    const Tok c = Get();
    if (c.end) return Fail("unexpected end of pattern");
    if (Is(c, 'P')) {
      if (Match('<')) {
        if (!GetUntil('>', "group name", &name) || !CheckGroupName(name)) return false;
        named = true;
      } else if (Match('=')) {
        if (!GetUntil(')', "group name", &name) || !CheckGroupName(name)) return false;
        auto it = names_.find(name);
        if (it == names_.end()) return Fail("unknown group name " + Quote(name), name.size() + 1);
        if (!CheckGroup(it->second)) return Fail("cannot refer to an open group", name.size() + 1);
        if (!CheckLookbehindGroup(it->second)) return false;
        *item = Backref(it->second);
        item->pos = start;
        return true;
      } else {
        const Tok c2 = Get();
        if (c2.end) return Fail("unexpected end of pattern");
        return Fail("unknown extension ?P" + Text(c2), Len(c2) + 2);
      }
    } else if (Is(c, ':')) {
      capture = false;
    } else if (Is(c, '#')) {
      while (true) {
        if (next_.end) return FailAt(start, "missing ), unterminated comment");
        if (Is(Get(), ')')) break;
      }
      *has_item = false;
      return true;
    } else if (Is(c, '=') || Is(c, '!') || Is(c, '<')) {
      item->kind = Kind::kAtom;
      return ParseLookaround(c, *ctx, nested, start, item);
    } else if (Is(c, '(')) {
      return ParseConditional(*ctx, nested, start, item);
    } else if (Is(c, '>')) {
      capture = false;
      atomic = true;
    } else if (IsFlag(c) || Is(c, '-')) {
      bool global = false;
      if (!ParseFlags(c, &add, &del, &global)) return false;
      if (global) {
        if (!at_start) return FailAt(start, "global flags not at the start of the expression");
        if (add & kFlagT) Unsupported(start, "the (?t) template flag");
        flags_ |= add;
        ctx->verbose = flags_ & kFlagX;
        ctx->ascii = flags_ & kFlagA;
        *has_item = false;
        return true;
      }
      capture = false;
    } else {
      return Fail("unknown extension ?" + Text(c), Len(c) + 1);
    }
  }
  std::size_t gid = 0;
  if (capture) {
    gid = widths_.size();
    widths_.emplace_back();
    pcre2_names_.emplace_back(named && internal::IsPcre2Name(name) ? Utf8(name) : "");
    if (named) {
      auto [it, fresh] = names_.emplace(name, gid);
      if (!fresh) {
        return Fail("redefinition of group name " + Quote(name) + " as group " +
                        std::to_string(gid) + "; was group " + std::to_string(it->second),
                    name.size() + 1);
      }
    }
  }
  const Ctx sub{(ctx->verbose || (add & kFlagX)) && !(del & kFlagX),
                ctx->ascii || (add & kFlagA)};
  Fragment body;
  if (!ParseSub(sub, nested + 1, &body)) return false;
  if (!Match(')')) return FailAt(start, "missing ), unterminated subpattern");
  std::string open = atomic ? "(?>" : "(?:";
  if (capture) {
    widths_[gid] = std::make_pair(body.lo, body.hi);
    open = pcre2_names_[gid].empty() ? "(" : "(?<" + pcre2_names_[gid] + ">";
  } else if (!atomic) {
    // (?a) (?u) (?x) have no PCRE2 counterpart: they are applied here.
    open = internal::ScopedFlags(add & kFlagI, add & kFlagM, add & kFlagS, del & kFlagI,
                                 del & kFlagM, del & kFlagS);
  }
  item->f = internal::GroupFragment(open, body, atomic);
  return true;
}

bool Parser::ParseSeq(Ctx ctx, int nested, bool first, Fragment* out) {
  std::vector<Item> items;
  while (!error_) {
    if (next_.end || Is(next_, '|') || Is(next_, ')')) break;
    const Tok t = Get();
    if (ctx.verbose && !t.esc) {
      if (t.c == ' ' || (t.c >= '\t' && t.c <= '\r')) continue;
      if (t.c == '#') {
        while (true) {
          const Tok c = Get();
          if (c.end || Is(c, '\n')) break;
        }
        continue;
      }
    }
    Item item;
    item.pos = Tell() - Len(t);
    bool ok = true, has_item = true;
    if (t.esc) {
      ok = ParseEscape(t, ctx, &item);
    } else if (std::u32string_view(U".[{()*+?^$|").find(t.c) == std::u32string_view::npos) {
      item = Literal(t.c, item.pos);
    } else if (t.c == '[') {
      ok = ParseClass(ctx, &item);
    } else if (t.c == '*' || t.c == '+' || t.c == '?' || t.c == '{') {
      ok = ParseRepeat(t, &items, &item, &has_item);
    } else if (t.c == '(') {
      ok = ParseGroup(&ctx, nested, first && items.empty(), &item, &has_item);
    } else if (t.c == '.') {
      item.f = internal::AnyFragment();
    } else {  // ^ $
      item.kind = Kind::kAt;
      item.f = internal::AnchorFragment(static_cast<char>(t.c), ctx.ascii);
    }
    if (!ok) return false;
    if (has_item) items.push_back(std::move(item));
  }
  if (error_) return false;
  *out = Fragment();
  for (const Item& item : items) internal::Append(out, item.f);
  return true;
}

bool Parser::ParseSub(Ctx ctx, int nested, Fragment* out) {
  std::vector<Fragment> branches;
  std::vector<std::size_t> starts;
  while (true) {
    starts.push_back(Tell());
    branches.emplace_back();
    if (!ParseSeq(ctx, nested + 1, nested == 0 && branches.size() == 1, &branches.back())) {
      return false;
    }
    if (!Match('|')) break;
    if (nested == 0) ctx = Ctx{(flags_ & kFlagX) != 0, (flags_ & kFlagA) != 0};
  }
  starts.push_back(Tell() + 1);  // as if another "|" followed
  if (branches.size() > 1) {
    for (std::size_t i = 0; i < branches.size(); ++i) {
      if (!internal::IsShortBranch(branches[i])) continue;
      const std::size_t begin = Byte(starts[i]), end = Byte(starts[i + 1] - 1);
      info_.short_branches.push_back(
          ShortBranch{begin, std::string(pattern_.substr(begin, end - begin))});
    }
  }
  *out = internal::Alternation(branches);
  return true;
}

Result<PatternInfo> Parser::Run() {
  Advance();
  Fragment body;
  ParseSub(Ctx{}, 0, &body);
  if (!error_ && !next_.end) Fail("unbalanced parenthesis");
  for (const auto& [gid, pos] : group_refs_) {
    if (!error_ && gid >= widths_.size()) FailAt(pos, "invalid group reference " + std::to_string(gid));
  }
  // fix_flags(): a ValueError in Python, without a position.
  if ((flags_ & kFlagA) && (flags_ & kFlagU)) FailAt(0, "ASCII and UNICODE flags are incompatible");
  for (const auto* failure : {&error_, &late_error_, &unsupported_}) {
    if (*failure) return Status::InvalidArgument((*failure)->message).At((*failure)->offset);
  }

  PatternInfo& info = info_;
  info.ignorecase_flag = flags_ & kFlagI;
  info.multiline_flag = flags_ & kFlagM;
  info.dotall_flag = flags_ & kFlagS;
  info.verbose_flag = flags_ & kFlagX;
  info.ascii_flag = flags_ & kFlagA;
  std::string prefix;
  if (info.ignorecase_flag) prefix += 'i';
  if (info.multiline_flag) prefix += 'm';
  if (info.dotall_flag) prefix += 's';
  info.pcre2 = (prefix.empty() ? "" : "(?" + prefix + ")") + body.out;
  info.min_length = body.lo;
  info.max_length = body.hi;
  info.literal_chars = body.lit_chars;
  for (const std::string& run : body.lit.runs) {
    if (!run.empty()) info.required_literals.push_back(run);
  }
  info.literal_factors = internal::FinalFactors(body.factors);
  info.literal_choices = internal::FinalChoices(body.factors);
  info.capture_count = widths_.size() - 1;
  std::stable_sort(info.short_branches.begin(), info.short_branches.end(),
                   [](const ShortBranch& a, const ShortBranch& b) { return a.offset < b.offset; });
  return std::move(info);
}

}  // namespace

Result<PatternInfo> ParsePythonRegex(std::string_view pattern) {
  std::vector<char32_t> cps;
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < pattern.size();) {
    char32_t c = 0;
    const std::size_t n = internal::DecodeUtf8(pattern, i, &c);
    if (n == 0) return Status::InvalidArgument("pattern is not valid UTF-8").At(i);
    cps.push_back(c);
    offsets.push_back(i);
    i += n;
  }
  offsets.push_back(pattern.size());
  return Parser(std::move(cps), std::move(offsets), pattern).Run();
}

}  // namespace kedb::regex
