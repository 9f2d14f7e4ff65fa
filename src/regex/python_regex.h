// Python `re` patterns, read the way Python 3.11 reads them.
//
// Known-error records carry a `regex` written for Python's `re` module and
// applied case-insensitively. kedb matches with PCRE2, whose dialect differs
// in small ways that change what a pattern means (`x{,3}`, `\Z`, `\v`,
// `[[:alpha:]]`, unknown escapes, `(?P<name>...)`). ParsePythonRegex() parses
// a pattern with Python's own grammar, rejects what Python rejects (at the
// position Python reports), and produces an equivalent PCRE2 pattern together
// with an analysis used by the linter (how specific the pattern is, and
// whether it can backtrack badly).
//
// Everything here is a pure function of its input: no globals, thread-safe.

#ifndef KEDB_REGEX_PYTHON_REGEX_H_
#define KEDB_REGEX_PYTHON_REGEX_H_

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "kedb/status.h"
#include "util/utf8.h"

namespace kedb::regex {

// Why a pattern was rejected: a Status (InvalidArgument) whose offset() is
// a byte offset into the pattern.
//
// Python's own errors keep Python's wording and position, with one
// exception: "look-behind requires fixed-width pattern" has no position in
// Python (it comes from the compiler), so it points at the look-behind's "(".
// Patterns Python accepts but kedb cannot reproduce with PCRE2 get a message
// starting with "unsupported:" (see ParsePythonRegex).

// An alternation branch short enough to fire inside unrelated words.
struct ShortBranch {
  std::size_t offset = 0;  // byte offset where the branch starts
  std::string text;        // the branch's source text, e.g. "OOM"
};

inline constexpr std::size_t kUnboundedLength =
    std::numeric_limits<std::size_t>::max();

struct PatternInfo {
  // The equivalent PCRE2 pattern. Meant to be compiled with PCRE2_UTF |
  // PCRE2_UCP | PCRE2_CASELESS, newline LF and PCRE2_ALT_CIRCUMFLEX, which is
  // what Pcre2Regex::Compile() does by default. Never uses extended mode:
  // verbose patterns are stripped of their whitespace and comments here.
  std::string pcre2;

  bool has_lookaround = false;     // (?=  (?!  (?<=  (?<!
  bool has_backreference = false;  // \1, (?P=name), (?(1)yes|no)

  // A group repeated by *, +, {n,} or {n,m} (m > 1) whose body holds an
  // unbounded repeat that can backtrack: (a+)+, (\w+\s?)*, (?:\d+,)*.
  // Bounded inner repeats, atomic groups, possessive repeats and
  // look-arounds do not count. The offset is the repeated group's "(".
  bool nested_quantifier = false;
  std::size_t nested_quantifier_offset = 0;

  // For every alternation at any depth, each branch whose shortest match is
  // under 4 characters and which holds no \b and no anchor (^ $ \A \Z).
  // Empty branches count. In pattern order. `OOM|out of memory` -> "OOM".
  std::vector<ShortBranch> short_branches;

  // Fewest / most characters (code points) a match can span; max_length is
  // kUnboundedLength when unbounded. Look-arounds count 0.
  std::size_t min_length = 0;
  std::size_t max_length = 0;

  // Literal characters every match must contain: sequences add, an
  // alternation takes its smallest branch, x{n,} counts x n times, optional
  // parts, classes, wildcards and back-references count 0.
  std::size_t literal_chars = 0;

  // Maximal runs of literal text every match contains, in order, folded
  // with FoldLiteralCase(). Classes, wildcards, optional parts, alternations
  // and back-references end a run; `x+` contributes one x and ends the run
  // after it. A letter whose case folding FoldLiteralCase() does not know
  // also ends a run (so that a prefilter stays sound), as does anything
  // inside an alternation.
  std::vector<std::string> required_literals;

  // Disjunctive literal factors, folded with FoldLiteralCase(): every match
  // contains at least one literal of EACH listed set (each set is a
  // disjunction; the list is a conjunction). Empty list: nothing usable.
  // Sets are deduplicated and sorted; no set contains the empty string.
  //
  // Unlike required_literals, alternations contribute: `OOM.*Redis|OOM
  // command` gives {"oom command", "redis"} and {"oom"}.
  //   - Literal runs, small alternations and classes of at most 4 folded
  //     characters combine into exact strings, up to 16 a set (`[Ee]rror`
  //     -> {"error"}, `(a|b)c` -> {"ac", "bc"}); beyond that what was built
  //     becomes a set and a new run starts.
  //   - An alternation gives one set: the union of each branch's most
  //     selective set (longest shortest literal), or nothing when a branch
  //     has none. The runs its branches start and end with, united, also
  //     extend with its neighbours' (`(a|b.*c)d` -> {"ad", "cd"} and {"a",
  //     "b"}).
  //   - x+ and x{n,m} with n >= 1 give x's sets (x{n} of an exact x stays
  //     exact); optional parts, wildcards, larger classes, back-references
  //     and conditionals give nothing and end runs; zero-width items
  //     (anchors, \b, look-arounds) give nothing and do not end runs; a
  //     character FoldLiteralCase() cannot fold ends a run.
  //   - A literal that contains another of its set is dropped (it filters
  //     nothing more), so is a set implied by another set.
  // The most selective set comes first (longest shortest literal, then
  // fewest literals). Look for them in FoldLiteralCase(text).
  std::vector<std::vector<std::string>> literal_factors;

  // Alternations the factors above had to settle with a fixed pick, kept
  // whole so that a prefilter can choose with its own idea of selectivity.
  // Each choice lists branches; each branch lists sets (as in
  // literal_factors) of which every match of that branch contains one
  // literal each. Picking any one set per branch and uniting the picks
  // gives a valid factor. `(lock.*timeout|write.*lock)` gives one choice
  // with branches [{"lock"}, {"timeout"}] and [{"lock"}, {"write"}].
  std::vector<std::vector<std::vector<std::vector<std::string>>>> literal_choices;

  std::size_t capture_count = 0;

  // Global inline flags at the start of the pattern: (?m) (?s) (?x) (?a) (?i).
  bool multiline_flag = false;
  bool dotall_flag = false;
  bool verbose_flag = false;
  bool ascii_flag = false;
  bool ignorecase_flag = false;
};

// Parses `pattern` as Python 3.11's `re` does for a str pattern, then
// analyses it and translates it to PCRE2. Cost: linear in the pattern size.
//
// On failure returns the error Python would raise (same message and
// position; the offset is in bytes). A pattern that is not valid UTF-8 is
// rejected. Python-valid constructs that cannot be translated return an
// "unsupported:" error, reported only when the pattern has no Python error:
//   - \N{NAME} named characters (no Unicode name table here);
//   - surrogate code points (\ud800): PCRE2 in UTF mode refuses them;
//   - repeat counts above 65535 (PCRE2's limit);
//   - the deprecated (?t) template flag.
//
// Where the dialects differ the translation spells Python's meaning out:
// \s and \S become explicit classes (PCRE2's \s lacks U+001C..U+001F and
// has U+180E), \Z becomes \z, \B refuses the empty string as 3.11 does,
// literals are escaped so PCRE2 gives them no meaning, verbose patterns are
// stripped. Known differences that remain, all in rarely used corners:
//   - (?a) is emulated for \d \w \s \b and their negations, but caseless
//     matching stays Unicode-aware under (?a) ("(?a)k" also matches the
//     Kelvin sign, and "\u00e9" still matches "\u00c9").
//   - Group names: Python accepts any identifier; non-ASCII names (and names
//     over 32 characters) become numbered groups in the translation.
//   - str.isidentifier() is approximated: any non-ASCII character may appear
//     in a group name.
Result<PatternInfo> ParsePythonRegex(std::string_view pattern);  // a failure has offset()

// The case folding used for PatternInfo::required_literals: ASCII, Latin-1,
// Latin Extended-A, basic Greek and Cyrillic and full-width Latin letters are
// lower-cased (with the oddities PCRE2's caseless matching honours, such as
// the Kelvin sign and long s); other characters are copied unchanged. Apply
// it to a text before looking for required literals in it. Invalid UTF-8
// bytes are copied unchanged.
std::string FoldLiteralCase(std::string_view utf8);

// ---------------------------------------------------------------------------
// Implementation details shared by python_regex.cc (the parser) and
// python_regex_analysis.cc (translation and analysis). Not part of the API.
namespace internal {

inline constexpr std::size_t kInf = kUnboundedLength;

using util::AppendUtf8;
using util::DecodeUtf8;

// Literal text every match of a fragment contains. When `exact`, the
// fragment always matches exactly runs[0]. Otherwise `runs` are required in
// order, and open_front / open_back say whether the first / last run touches
// the fragment's edge, so that it can merge with a neighbour's run.
struct Lit {
  bool exact = true;
  std::vector<std::string> runs{std::string()};
  bool open_front = true;
  bool open_back = true;
  static Lit Break() { return Lit{false, {}, false, false}; }
};

// Literal factors of a fragment (see PatternInfo::literal_factors), folded.
// When `exact`, every match of the fragment is exactly one of `front` (at
// most kMaxExactStrings of them; `back` is unused). Otherwise every match
// starts with one of `front`, ends with one of `back` (so that runs can merge
// with a neighbour's) and contains a literal of each of `sets`. A set that
// holds "" says nothing: {""} is "unknown".
struct Factors {
  bool exact = true;
  std::vector<std::string> front{std::string()};
  std::vector<std::string> back;
  std::vector<std::vector<std::string>> sets;
  // Alternations whose branches offer a choice of sets: per branch, every
  // set it guarantees. A prefilter that knows which literals are common may
  // pick one set per branch and unite them, instead of the fixed pick in
  // `sets` (see PatternInfo::literal_choices).
  std::vector<std::vector<std::vector<std::vector<std::string>>>> choices;
  static Factors Break() { return Factors{false, {std::string()}, {std::string()}, {}, {}}; }
};

inline constexpr std::size_t kMaxExactStrings = 16;

// A parsed piece of pattern: its PCRE2 text and what the analysis needs.
struct Fragment {
  std::string out;           // PCRE2 text; a single atom for one item
  std::size_t lo = 0;        // min width in code points
  std::size_t hi = 0;        // max width, kInf when unbounded
  std::size_t lit_chars = 0;
  Lit lit;
  Factors factors;
  bool unbounded = false;    // holds an unbounded repeat that can backtrack
  bool boundary = false;     // every match passes a \b
  bool anchor = false;       // every match passes ^ $ \A \Z
};

// Text helpers for names and messages.
std::string Utf8(const std::u32string& s);
std::string Quote(const std::u32string& name);         // Python's repr(), roughly
bool IsIdentifier(const std::u32string& s);            // str.isidentifier(); non-ASCII
                                                       // characters count as letters
bool IsPcre2Name(const std::u32string& s);             // ASCII, at most 32 characters
// The character \a \b \f \n \r \t \v stand for, or `c` itself.
char32_t ControlEscape(char32_t c, bool in_class);
// "(?i-s:" for scoped flags; "(?:" when none of i m s is involved.
std::string ScopedFlags(bool on_i, bool on_m, bool on_s, bool off_i, bool off_m, bool off_s);

void Append(Fragment* seq, const Fragment& item);
// mode: 0 greedy, '?' lazy, '+' possessive.
void Repeat(Fragment* f, std::size_t min, std::size_t max, char mode);
Fragment Alternation(const std::vector<Fragment>& branches);
bool IsShortBranch(const Fragment& branch);

Fragment LiteralFragment(char32_t c);
Fragment AnyFragment();
Fragment AnchorFragment(char c, bool ascii);    // ^ $ A Z b B
Fragment CategoryFragment(char c, bool ascii);  // d D s S w W
std::string CategoryInClass(char c, bool ascii);
std::string ClassChar(char32_t c);
Fragment GroupFragment(const std::string& open, const Fragment& body, bool atomic);
Fragment LookaroundFragment(bool behind, bool positive, const Fragment& body);
Fragment ConditionalFragment(const std::string& ref, const Fragment& yes, const Fragment* no);
Fragment BackrefFragment(const std::string& out, std::size_t lo, std::size_t hi);
// Simple case folding for the scripts PCRE2 users meet most; kNoFold for a
// character that may have case partners not handled here.
inline constexpr char32_t kNoFold = 0xFFFFFFFF;
char32_t Fold(char32_t c);

// The literal-factor algebra (literal_factors.cc): a sequence's factors,
// `x` repeated min..max times, and a choice between branches.
Factors ConcatFactors(Factors a, const Factors& b);
Factors RepeatFactors(const Factors& x, std::size_t min, std::size_t max);
Factors AlternationFactors(const std::vector<Fragment>& branches);
// Factors of a non-negated class without categories made of `ranges`: a set
// of alternatives when it holds at most 4 characters after folding.
Factors ClassFactors(const std::vector<std::pair<char32_t, char32_t>>& ranges);
// PatternInfo::literal_factors for a whole pattern's factors.
std::vector<std::vector<std::string>> FinalFactors(const Factors& f);
// PatternInfo::literal_choices for a whole pattern's factors.
std::vector<std::vector<std::vector<std::vector<std::string>>>> FinalChoices(const Factors& f);

}  // namespace internal
}  // namespace kedb::regex

#endif  // KEDB_REGEX_PYTHON_REGEX_H_
