// Translation and analysis for python_regex.cc: how fragments of a parsed
// pattern are spelled in PCRE2 and how their facts (width, literal text,
// backtracking risk) combine under concatenation, repetition and
// alternation.

#include <algorithm>
#include <cstdio>
#include <utility>

#include "regex/python_regex.h"

namespace kedb::regex {
namespace internal {
namespace {


std::size_t Add(std::size_t a, std::size_t b) { return a > kInf - b ? kInf : a + b; }
std::size_t Mul(std::size_t a, std::size_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kInf / b ? kInf : a * b;
}


std::string Hex(char32_t c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\x{%x}", static_cast<unsigned>(c));
  return buf;
}

bool IsAsciiAlnum(char32_t c) {
  return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

Lit Concat(Lit a, const Lit& b) {
  const bool merge = a.open_back && b.open_front && !a.runs.empty() && !b.runs.empty();
  a.exact = a.exact && b.exact;
  auto from = b.runs.begin();
  if (merge) a.runs.back() += *from++;
  a.runs.insert(a.runs.end(), from, b.runs.end());
  a.open_back = !b.runs.empty() && b.open_back;
  return a;
}

Lit RepeatLit(const Lit& x, std::size_t min, std::size_t max) {
  if (min == 0) return Lit::Break();
  // Enough copies to keep the runs meaningful without blowing up on x{9999}.
  const std::size_t copies = std::min<std::size_t>(min, x.exact ? 256 : 4);
  Lit r = x;
  for (std::size_t i = 1; i < copies; ++i) r = Concat(std::move(r), x);
  if (copies != min || max != min) r = Concat(std::move(r), Lit::Break());
  return r;
}

std::string Quantifier(std::size_t min, std::size_t max) {
  if (max == kInf) return min == 0 ? "*" : min == 1 ? "+" : "{" + std::to_string(min) + ",}";
  if (min == 0 && max == 1) return "?";
  if (min == max) return "{" + std::to_string(min) + "}";
  return "{" + std::to_string(min) + "," + std::to_string(max) + "}";
}

// Classes Python and PCRE2 disagree on, as code point ranges.
using Ranges = std::vector<std::pair<char32_t, char32_t>>;

// Python's Unicode \s (str.isspace()): PCRE2's \s lacks U+001C..U+001F and
// adds U+180E, so \s and \S are always spelled out.
const Ranges kPythonSpace = {{0x09, 0x0D}, {0x1C, 0x20}, {0x85, 0x85}, {0xA0, 0xA0},
                             {0x1680, 0x1680}, {0x2000, 0x200A}, {0x2028, 0x2029},
                             {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}};

// The positive set of \d \s \w under (?a), or nullptr when PCRE2's own
// Unicode-aware \d \w agree with Python.
const Ranges* CategorySet(char lower, bool ascii) {
  static const Ranges kDigit = {{'0', '9'}};
  static const Ranges kWord = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
  static const Ranges kAsciiSpace = {{'\t', '\r'}, {' ', ' '}};
  if (lower == 's') return ascii ? &kAsciiSpace : &kPythonSpace;
  if (!ascii) return nullptr;
  return lower == 'd' ? &kDigit : &kWord;
}

Ranges Complement(const Ranges& in) {
  Ranges out;
  char32_t next = 0;
  for (const auto& [lo, hi] : in) {
    if (lo > next) out.emplace_back(next, lo - 1);
    next = hi + 1;
  }
  out.emplace_back(next, 0x10FFFF);
  return out;
}

std::string RangesText(const Ranges& ranges) {
  auto one = [](char32_t c) { return IsAsciiAlnum(c) || c == '_' ? std::string(1, char(c)) : Hex(c); };
  std::string out;
  for (const auto& [lo, hi] : ranges) out += lo == hi ? one(lo) : one(lo) + "-" + one(hi);
  return out;
}

}  // namespace

// Simple case folding for the scripts PCRE2 users meet most, including the
// characters that fold into them (Kelvin sign, long s, final sigma...).
// kNoFold marks a character that may have case partners not handled here.
char32_t Fold(char32_t c) {
  if (c < 0x80) return c >= 'A' && c <= 'Z' ? c + 32 : c;
  switch (c) {
    case 0x00B5: return 0x03BC;  // micro sign
    case 0x0178: return 0x00FF;
    case 0x017F: return 's';     // long s
    case 0x0130: case 0x0131: return kNoFold;  // Turkish i: engines disagree
    case 0x0345: case 0x1FBE: return 0x03B9;
    case 0x0386: return 0x03AC;
    case 0x038C: return 0x03CC;
    case 0x03C2: return 0x03C3;  // final sigma
    case 0x03D0: return 0x03B2;
    case 0x03D1: case 0x03F4: return 0x03B8;
    case 0x03D5: return 0x03C6;
    case 0x03D6: return 0x03C0;
    case 0x03F0: return 0x03BA;
    case 0x03F1: return 0x03C1;
    case 0x03F5: return 0x03B5;
    case 0x1C80: return 0x0432;
    case 0x1C81: return 0x0434;
    case 0x1C82: return 0x043E;
    case 0x1C83: return 0x0441;
    case 0x1C84: case 0x1C85: return 0x0442;
    case 0x1C86: return 0x044A;
    case 0x1E9E: return 0x00DF;  // capital sharp s
    case 0x2126: return 0x03C9;  // ohm sign
    case 0x212A: return 'k';     // Kelvin sign
    case 0x212B: return 0x00E5;  // angstrom sign
    default: break;
  }
  if (c < 0xC0) return c;  // Latin-1 punctuation and symbols
  if (c <= 0xDE) return c == 0xD7 ? c : c + 32;
  if (c < 0x100 || c == 0x138 || c == 0x149) return c;
  if (c < 0x17F) {  // Latin Extended-A: pairs, the capital on even or odd
    const bool odd_capital = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    return (c % 2 == 1) == odd_capital ? c + 1 : c;
  }
  if (c >= 0x388 && c <= 0x38A) return c + 37;
  if (c == 0x38E || c == 0x38F) return c + 63;
  if (c >= 0x391 && c <= 0x3AB && c != 0x3A2) return c + 32;
  if (c >= 0x3AC && c <= 0x3CE && c != 0x3B0) return c;
  if (c >= 0x400 && c <= 0x40F) return c + 80;
  if (c >= 0x410 && c <= 0x42F) return c + 32;
  if (c >= 0x430 && c <= 0x45F) return c;
  if (c >= 0xFF21 && c <= 0xFF3A) return c + 32;
  // Blocks without case: marks, Hebrew to Tibetan, punctuation, symbols,
  // CJK, kana, Hangul, emoji.
  static constexpr std::pair<char32_t, char32_t> kCaseless[] = {
      {0x02B0, 0x0344}, {0x0346, 0x036F}, {0x0591, 0x0FFF}, {0x2000, 0x206F},
      {0x20A0, 0x20CF}, {0x2190, 0x23FF}, {0x2500, 0x27BF}, {0x2E80, 0x2FDF},
      {0x3000, 0x9FFF}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF}, {0xFE30, 0xFE4F},
      {0xFF00, 0xFF20}, {0xFF3B, 0xFF40}, {0xFF41, 0xFFEF}, {0x1F000, 0x1FAFF},
      {0x20000, 0x3FFFF}};
  for (const auto& [lo, hi] : kCaseless) {
    if (c >= lo && c <= hi) return c;
  }
  return kNoFold;
}

std::string Utf8(const std::u32string& s) {
  std::string out;
  for (char32_t c : s) AppendUtf8(&out, c);
  return out;
}

std::string Quote(const std::u32string& name) {
  std::string out = "'";
  for (char c : Utf8(name)) out += c == '\\' ? std::string("\\\\") : std::string(1, c);
  return out + "'";
}

bool IsIdentifier(const std::u32string& s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char32_t c) { return IsAsciiAlnum(c) || c == '_' || c >= 0x80; });
}

bool IsPcre2Name(const std::u32string& s) {
  return s.size() <= 32 && std::all_of(s.begin(), s.end(), [](char32_t c) { return c < 0x80; });
}

char32_t ControlEscape(char32_t c, bool in_class) {
  switch (c) {
    case 'a': return 7;
    case 'b': return in_class ? 8 : c;  // outside a class \b is a boundary
    case 'f': return 12;
    case 'n': return 10;
    case 'r': return 13;
    case 't': return 9;
    case 'v': return 11;  // not PCRE2's \v, which is vertical space
    default: return c;
  }
}

std::string ScopedFlags(bool on_i, bool on_m, bool on_s, bool off_i, bool off_m, bool off_s) {
  std::string on, off;
  for (auto [set, letter] : {std::pair{on_i, 'i'}, {on_m, 'm'}, {on_s, 's'}}) {
    if (set) on += letter;
  }
  for (auto [set, letter] : {std::pair{off_i, 'i'}, {off_m, 'm'}, {off_s, 's'}}) {
    if (set) off += letter;
  }
  if (on.empty() && off.empty()) return "(?:";
  return "(?" + on + (off.empty() ? "" : "-" + off) + ":";
}

Fragment BackrefFragment(const std::string& out, std::size_t lo, std::size_t hi) {
  Fragment f;
  f.out = out;
  f.lo = lo;
  f.hi = hi;
  f.lit = Lit::Break();
  f.factors = Factors::Break();
  return f;
}

void Append(Fragment* seq, const Fragment& item) {
  seq->out += item.out;
  seq->lo = Add(seq->lo, item.lo);
  seq->hi = Add(seq->hi, item.hi);
  seq->lit_chars = Add(seq->lit_chars, item.lit_chars);
  seq->lit = Concat(std::move(seq->lit), item.lit);
  seq->factors = ConcatFactors(std::move(seq->factors), item.factors);
  seq->unbounded = seq->unbounded || item.unbounded;
  seq->boundary = seq->boundary || item.boundary;
  seq->anchor = seq->anchor || item.anchor;
}

void Repeat(Fragment* f, std::size_t min, std::size_t max, char mode) {
  if (f->hi == 0 && max > 0) {
    // Something that only matches "" gains nothing from a second round,
    // and an optional one is an alternation with "": spelled that way,
    // PCRE2 sees the fixed width (0) Python sees inside a look-behind.
    if (min > 0) {
      f->out += "{1}";
    } else {
      f->out = (mode == '+' ? "(?>" : "(?:") + (mode == '?' ? "|" + f->out : f->out + "|") + ")";
    }
  } else {
    f->out += Quantifier(min, max);
    if (mode != 0) f->out += mode;
  }
  f->hi = max == kInf && f->hi != 0 ? kInf : Mul(f->hi, max);
  f->lo = Mul(f->lo, min);
  f->lit_chars = Mul(f->lit_chars, min);
  f->lit = RepeatLit(f->lit, min, max);
  f->factors = RepeatFactors(f->factors, min, max);
  f->unbounded = mode != '+' && (f->unbounded || max == kInf);
  if (min == 0) f->boundary = f->anchor = false;
}

Fragment Alternation(const std::vector<Fragment>& branches) {
  Fragment f = branches.front();
  if (branches.size() == 1) return f;
  for (std::size_t i = 1; i < branches.size(); ++i) {
    const Fragment& b = branches[i];
    f.out += "|" + b.out;
    f.lo = std::min(f.lo, b.lo);
    f.hi = std::max(f.hi, b.hi);
    f.lit_chars = std::min(f.lit_chars, b.lit_chars);
    f.unbounded = f.unbounded || b.unbounded;
    f.boundary = f.boundary && b.boundary;
    f.anchor = f.anchor && b.anchor;
  }
  f.lit = Lit::Break();  // literals inside alternations are not required
  f.factors = AlternationFactors(branches);
  return f;
}

bool IsShortBranch(const Fragment& branch) {
  return branch.lo < 4 && !branch.boundary && !branch.anchor;
}

std::string ClassChar(char32_t c) {
  if (IsAsciiAlnum(c) || c == ' ') return std::string(1, static_cast<char>(c));
  // PCRE2 reads a backslash before ASCII punctuation as a literal, in and
  // out of classes, which keeps [ ] { } # and friends from meaning anything.
  if (c > 0x20 && c < 0x7F) return std::string{'\\', static_cast<char>(c)};
  if (c < 0xA0) return Hex(c);
  std::string out;
  AppendUtf8(&out, c);
  return out;
}

Fragment LiteralFragment(char32_t c) {
  Fragment f;
  f.out = ClassChar(c);
  f.lo = f.hi = f.lit_chars = 1;
  const char32_t folded = Fold(c);
  if (folded == kNoFold) {
    f.lit = Lit::Break();
    f.factors = Factors::Break();
  } else {
    AppendUtf8(&f.lit.runs[0], folded);
    AppendUtf8(&f.factors.front[0], folded);
  }
  return f;
}

Fragment AnyFragment() {
  Fragment f;
  f.out = ".";
  f.lo = f.hi = 1;
  f.lit = Lit::Break();
  f.factors = Factors::Break();
  return f;
}

Fragment AnchorFragment(char c, bool ascii) {
  static const std::string kWord = "(?-i:[0-9A-Z_a-z])";
  Fragment f;
  switch (c) {
    case '^': f.out = "^"; break;
    case '$': f.out = "$"; break;
    case 'A': f.out = "\\A"; break;
    case 'Z': f.out = "\\z"; break;  // Python's \Z is PCRE2's \z
    case 'b':
      f.out = ascii ? "(?:(?<=" + kWord + ")(?!" + kWord + ")|(?<!" + kWord + ")(?=" + kWord + "))"
                    : "\\b";
      f.boundary = true;
      return f;
    default:  // 'B': Python 3.11's \B never matches in an empty string
      f.out = "(?!\\A\\z)" +
              (ascii ? "(?:(?<=" + kWord + ")(?=" + kWord + ")|(?<!" + kWord + ")(?!" + kWord + "))"
                     : std::string("\\B"));
      return f;
  }
  f.anchor = true;
  return f;
}

std::string CategoryInClass(char c, bool ascii) {
  const Ranges* set = CategorySet(static_cast<char>(c | 0x20), ascii);
  if (set == nullptr) return std::string{'\\', c};
  return RangesText(c >= 'A' && c <= 'Z' ? Complement(*set) : *set);
}

Fragment CategoryFragment(char c, bool ascii) {
  Fragment f;
  const char lower = static_cast<char>(c | 0x20);
  const Ranges* set = CategorySet(lower, ascii);
  if (set == nullptr) {
    f.out = std::string{'\\', c};
  } else {
    f.out = (c == lower ? "[" : "[^") + RangesText(*set) + "]";
    // Caseless PCRE2 would let [A-Za-z] match the Kelvin sign and long s.
    if (lower == 'w') f.out = "(?-i:" + f.out + ")";
  }
  f.lo = f.hi = 1;
  f.lit = Lit::Break();
  f.factors = Factors::Break();
  return f;
}

Fragment GroupFragment(const std::string& open, const Fragment& body, bool atomic) {
  Fragment f = body;
  f.out = open + body.out + ")";
  if (atomic) f.unbounded = false;
  return f;
}

Fragment LookaroundFragment(bool behind, bool positive, const Fragment& body) {
  Fragment f;
  f.out = std::string(behind ? "(?<" : "(?") + (positive ? "=" : "!") + body.out + ")";
  return f;
}

Fragment ConditionalFragment(const std::string& ref, const Fragment& yes, const Fragment* no) {
  Fragment f;
  f.out = "(?(" + ref + ")" + yes.out + (no ? "|" + no->out : "") + ")";
  f.lo = no ? std::min(yes.lo, no->lo) : 0;
  f.hi = no ? std::max(yes.hi, no->hi) : yes.hi;
  f.lit_chars = no ? std::min(yes.lit_chars, no->lit_chars) : 0;
  f.lit = Lit::Break();
  f.factors = Factors::Break();
  f.unbounded = yes.unbounded || (no && no->unbounded);
  f.boundary = no && yes.boundary && no->boundary;
  f.anchor = no && yes.anchor && no->anchor;
  return f;
}

}  // namespace internal

std::string FoldLiteralCase(std::string_view utf8) {
  std::string out;
  out.reserve(utf8.size());
  for (std::size_t i = 0; i < utf8.size();) {
    char32_t c = 0;
    const std::size_t n = internal::DecodeUtf8(utf8, i, &c);
    if (n == 0) {
      out.push_back(utf8[i++]);
      continue;
    }
    const char32_t folded = internal::Fold(c);
    internal::AppendUtf8(&out, folded == internal::kNoFold ? c : folded);
    i += n;
  }
  return out;
}

}  // namespace kedb::regex
