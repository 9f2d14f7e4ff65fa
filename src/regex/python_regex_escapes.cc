// The Python `re` parser's escapes and character classes: CPython's
// _escape, _class_escape and the "[" branch of _parse, with the same
// acceptance and error positions. The parser's state is in
// python_regex_parser.h.
#include <algorithm>
#include <string>

#include "regex/python_regex_parser.h"

namespace kedb::regex::python_parser {

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

}  // namespace kedb::regex::python_parser
