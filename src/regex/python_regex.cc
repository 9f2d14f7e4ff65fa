// Python `re` parser. The structure mirrors CPython 3.11's re/_parser.py
// (Tokenizer, _parse_sub, _parse, _escape, _class_escape, _parse_flags) so
// that the same inputs are accepted and rejected at the same positions.
// Instead of building a tree, every parse step returns a Fragment that
// already holds its PCRE2 text and the facts the analysis needs; see
// python_regex_analysis.cc for that algebra.

#include "regex/python_regex.h"

#include <algorithm>
#include <utility>

#include "regex/python_regex_parser.h"

namespace kedb::regex {
namespace python_parser {

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

namespace {

// Plain characters in a row (literal characters with a known case folding,
// no quantifier after them) as one item of a sequence. A fragment per
// character, and merging each one's literal runs and factors into the
// sequence, made parsing a 70-character message pattern cost 50 µs, most
// of it allocation; the run gives the fragment that merging would.
class PlainRun {
 public:
  bool empty() const { return chars_ == 0; }
  void Add(char32_t c, std::size_t pos) {
    if (chars_++ == 0) pos_ = pos;
    out_ += internal::ClassChar(c);
    util::AppendUtf8(&folded_, internal::Fold(c));
  }
  // The item, leaving the run empty.
  Item Take() {
    Item item;
    item.pos = pos_;
    item.f.out = std::move(out_);
    item.f.lo = item.f.hi = item.f.lit_chars = chars_;
    item.f.factors.front[0] = folded_;
    item.f.lit.runs[0] = std::move(folded_);
    out_.clear();
    folded_.clear();
    chars_ = 0;
    return item;
  }

 private:
  std::string out_, folded_;
  std::size_t chars_ = 0, pos_ = 0;
};

}  // namespace

Item Parser::Backref(std::size_t gid) {
  Item item;
  info_.has_backreference = true;
  item.f = internal::BackrefFragment(
      pcre2_names_[gid].empty() ? "\\g{" + std::to_string(gid) + "}" : "\\k<" + pcre2_names_[gid] + ">",
      widths_[gid]->first, widths_[gid]->second);
  return item;
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
  PlainRun run;
  while (!error_) {
    if (next_.end || Is(next_, '|') || Is(next_, ')')) break;
    const Tok t = Get();
    // In verbose mode a quantifier may follow after white space.
    const bool repeated = ctx.verbose || Is(next_, '*') || Is(next_, '+') || Is(next_, '?') || Is(next_, '{');
    if (!t.esc && !repeated && std::u32string_view(U".[{()*+?^$|").find(t.c) == std::u32string_view::npos &&
        internal::Fold(t.c) != internal::kNoFold) {
      run.Add(t.c, Tell() - Len(t));
      continue;
    }
    if (!run.empty()) items.push_back(run.Take());
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
  if (!run.empty()) items.push_back(run.Take());
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

}  // namespace python_parser

using python_parser::Parser;

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
