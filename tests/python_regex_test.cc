// The Python `re` dialect on PCRE2: translation, Python's errors, pattern
// analysis, the PCRE2 wrapper, and the whole deadends corpus.
//
// Expected values were measured with CPython 3.11 (re.compile, re.search
// with re.I, re.error.pos); the tests themselves do not need Python.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "regex/pcre2_regex.h"
#include "regex/python_regex.h"

namespace kedb::regex {
namespace {

PatternInfo Parse(std::string_view pattern) {
  auto parsed = ParsePythonRegex(pattern);
  if (!parsed.ok()) {
    ADD_FAILURE() << "pattern " << pattern << " rejected at " << parsed.status().offset() << ": "
                  << parsed.status().message();
    return {};
  }
  return *parsed;
}

Pcre2Regex CompileOrDie(std::string_view python_pattern, const Pcre2Options& options = {}) {
  auto compiled = CompilePython(python_pattern, options);
  if (!compiled.ok()) {
    ADD_FAILURE() << "pattern " << python_pattern << " does not compile: " << compiled.status().message();
    return std::move(Pcre2Regex::Compile("(*FAIL)")).value();
  }
  return std::move(compiled).value();
}

// ---------------------------------------------------------------------------
// Translation: the PCRE2 text for each dialect difference.

struct Translation {
  const char* python;
  const char* pcre2;
};

constexpr char kSpace[] =
    "[\\x{9}-\\x{d}\\x{1c}-\\x{20}\\x{85}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}-\\x{2029}"
    "\\x{202f}\\x{205f}\\x{3000}]";

TEST(Translate, EachDialectItem) {
  const std::string space = kSpace;
  const std::vector<Translation> cases = {
      {"x{,3}", "x{0,3}"},                  // Python's {,n} is {0,n}
      {"x{,}", "x*"},
      {"x{2,}", "x{2,}"},
      {"x{2}", "x{2}"},
      {"a{", "a\\{"},                       // not a quantifier: literal
      {"{foo}", "\\{foo\\}"},
      {"x{1,a}", "x\\{1\\,a\\}"},
      {"x{}", "x\\{\\}"},
      {"ab\\Z", "ab\\z"},                   // \Z is the absolute end
      {"\\A\\b\\d\\D\\w\\W", "\\A\\b\\d\\D\\w\\W"},
      {"\\B", "(?!\\A\\z)\\B"},             // 3.11's \B fails on ""
      {"\\u00e9\\x41\\U0001F600", "\u00e9A\U0001F600"},
      {"\\x00\\0\\012\\101\\07", "\\x{0}\\x{0}\\x{a}A\\x{7}"},
      {"\\a\\f\\n\\r\\t\\v\\\\", "\\x{7}\\x{c}\\x{a}\\x{d}\\x{9}\\x{b}\\\\"},
      {"\\-\\ \\#\\\"\\'\\/\\:\\<\\%", "\\- \\#\\\"\\'\\/\\:\\<\\%"},
      {"\\\u00e9", "\u00e9"},                 // escaped non-ASCII letter: literal
      {"(?P<name>a)(?P=name)", "(?<name>a)\\k<name>"},
      {"(a)\\1", "(a)\\g{1}"},
      {"(a)\\1[0]", "(a)\\g{1}[0]"},        // \g{} keeps "\1" "0" apart
      {"(?P<\u540d>a)(?P=\u540d)", "(a)\\g{1}"},  // non-ASCII names: by number
      {"(?i)abc", "(?i)abc"},
      {"(?m)^a$", "(?m)^a$"},
      {"(?s).", "(?s)."},
      {"(?ims)x", "(?ims)x"},
      {"(?u)a", "a"},
      {"(?a)\\w\\d", "(?-i:[0-9A-Z_a-z])[0-9]"},
      {"(?x) a b  # comment\n c", "abc"},
      {"(?x)a\\ b[ #]", "a b[ \\#]"},       // escaped and bracketed space stay
      {"(?x)a +", "a+"},
      {"(?i:a)(?-i:b)(?i-s:c)(?m:d)", "(?i:a)(?-i:b)(?i-s:c)(?m:d)"},
      {"(?x:a b)c d", "(?:ab)c d"},
      {"(?a:\\d)", "(?:[0-9])"},
      {"[]a]", "[\\]a]"},
      {"[^]a]", "[^\\]a]"},
      {"[[:alpha:]]", "[\\[\\:alpha\\:]\\]"},  // not a POSIX class in Python
      {"[\\x00-\\x1f]", "[\\x{0}-\\x{1f}]"},
      {"[\\b]", "[\\x{8}]"},                 // backspace inside a class
      {"[a-]", "[a\\-]"},
      {"[\\d\\w.-]", "[\\d\\w\\.\\-]"},
      {"a*+b++c?+", "a*+b++c?+"},
      {"(?>a+)b", "(?>a+)b"},
      {"a*?b+?c??d{1,2}?", "a*?b+?c??d{1,2}?"},
      {"(x)?(?(1)a|b)", "(x)?(?(1)a|b)"},
      {"(?P<n>x)?(?(n)a)", "(?<n>x)?(?(<n>)a)"},
      {"a(?#comment)b", "ab"},
      {"a(?#c)*", "a*"},                    // the comment leaves `a` to repeat
      {"(?=a)(?!b)(?<=c)(?<!d)", "(?=a)(?!b)(?<=c)(?<!d)"},
      {"\u4e2d\u6587\u9519\u8bef", "\u4e2d\u6587\u9519\u8bef"},
      {"a|b|", "a|b|"},
      {"(?<=()+)a(?:\\b){2,}()*(?=x)*?", "(?<=(){1})a(?:\\b){1}(?:()|)(?:|(?=x))"},  // ""+ is "": PCRE2 needs it fixed
  };
  for (const auto& c : cases) {
    EXPECT_EQ(Parse(c.python).pcre2, c.pcre2) << "python: " << c.python;
  }
  EXPECT_EQ(Parse("\\s").pcre2, space);
  EXPECT_EQ(Parse("\\S").pcre2, "[^" + space.substr(1));
}

// The real contract: what the translation matches.
struct Behaviour {
  const char* python;
  std::vector<std::string> matches;
  std::vector<std::string> misses;
};

TEST(Translate, MatchesLikePython) {
  const std::vector<Behaviour> cases = {
      {"^x{,3}y$", {"y", "xxxy", "XY"}, {"xxxxy", "x{,3}y"}},
      {"a{", {"a{"}, {"a"}},
      {"{foo}", {"{foo}"}, {"foo"}},
      {"x{1,a}", {"x{1,a}"}, {"x"}},
      {"ab\\Z", {"xab"}, {"ab\n"}},
      {"ab$", {"ab", "ab\n"}, {"ab\nc", "ab\r", "ab\r\n"}},  // newline is LF only
      {"(?m)^b$", {"a\nb\nc"}, {"ab"}},
      {"\\v", {"\x0b"}, {"\n", "v"}},
      {"[[:alpha:]]", {"a]", ":]", "[]"}, {"a", "b]"}},
      {"[\\b]", {"\b"}, {"b"}},
      {"\\d+", {"7", "\u0661\u0662"}, {"x"}},
      {"\\s", {" ", "\x1c", "\u3000"}, {"\u180e", "x"}},
      {"\\S", {"x", "\u180e"}, {"\x1c", " "}},
      {"^\\w+$", {"\u4e2d\u6587", "\u00e9t\u00e9_1"}, {"a-b"}},
      {"\\bOOM\\b", {"an OOM kill", "oom"}, {"ZOOMING"}},
      {"a.c", {"abc", "a\rc", "a\u2028c"}, {"a\nc"}},
      {"(?s)a.c", {"a\nc"}, {"ac"}},
      {"(?P<word>\\w+) (?P=word)", {"the the", "The the"}, {"the cat"}},
      {"^(a)?(?(1)b|c)$", {"ab", "c"}, {"a", "ac", "b"}},
      {"a*+a", {}, {"aaa"}},
      {"(?>a+)a", {}, {"aaa"}},
      {"(?x) a b c # comment", {"abc"}, {"a b c"}},
      {"(?x)a\\ b", {"a b"}, {"ab"}},
      {"\\x41\\u00e9", {"a\u00c9"}, {"ae"}},
      {"(?-i:A)b", {"AB"}, {"ab"}},
      {"\\B", {"ab"}, {""}},
      {"(?<=foo)bar", {"foobar"}, {"bar"}},
      {"(?<!foo)bar", {"xbar", "bar"}, {"foobar"}},
      {"\u4e2d\u6587.*\u9519\u8bef", {"\u4e2d\u6587 x \u9519\u8bef"}, {"\u4e2d\u6587"}},
      {"npm\\ ERR!\\ \\#1", {"NPM ERR! #1"}, {"npm ERR!#1"}},
      {"(?a)\\w+\\b", {"abc"}, {"\u00e9\u00e9"}},
      {"(?a)\\d", {"1"}, {"\u0661"}},
  };
  for (const auto& c : cases) {
    const Pcre2Regex re = CompileOrDie(c.python);
    for (const auto& s : c.matches) EXPECT_TRUE(re.Search(s)) << c.python << " on " << s;
    for (const auto& s : c.misses) EXPECT_FALSE(re.Search(s)) << c.python << " on " << s;
  }
}

TEST(Translate, AltCircumflexLikePython) {
  // Python's (?m)^ also matches after a final newline.
  const Pcre2Regex re = CompileOrDie("(?m)^$");
  const auto span = re.Find("a\n");
  ASSERT_TRUE(span.has_value());
  EXPECT_EQ(*span, Span(2, 2));
}

// ---------------------------------------------------------------------------
// Errors: Python's message and position (bytes).

struct ErrorCase {
  const char* pattern;
  const char* message;  // a substring of the message
  std::size_t offset;
};

TEST(Errors, LikePython) {
  const std::vector<ErrorCase> cases = {
      {"a**", "multiple repeat", 2},
      {"*a", "nothing to repeat", 0},
      {"a{2}{3}", "multiple repeat", 4},
      {"a*?+", "multiple repeat", 3},
      {"^*", "nothing to repeat", 1},
      {"\\b+", "nothing to repeat", 2},
      {"{3}", "nothing to repeat", 0},
      {"\\p", "bad escape \\p", 0},
      {"ab\\p{L}", "bad escape \\p", 2},
      {"(ab", "missing ), unterminated subpattern", 0},
      {"x(?:ab", "missing ), unterminated subpattern", 1},
      {"a)b", "unbalanced parenthesis", 1},
      {"[z-a]", "bad character range z-a", 1},
      {"[\\d-z]", "bad character range \\d-z", 1},
      {"[\\x41-\\x40]", "bad character range \\x-\\x", 5},
      {"(?<=a|bc)", "look-behind requires fixed-width pattern", 0},
      {"x(?<=a+)", "look-behind requires fixed-width pattern", 1},
      {"x{3,1}", "min repeat greater than max repeat", 2},
      {"(?L)a", "cannot use 'L' flag with a str pattern", 3},
      {"a(?i)", "global flags not at the start of the expression", 1},
      {"a|(?i)b", "global flags not at the start of the expression", 2},
      {"\\1", "invalid group reference 1", 1},
      {"(a)\\2", "invalid group reference 2", 4},
      {"(?P=x)", "unknown group name 'x'", 4},
      {"(?P<x>a)(?P=y)", "unknown group name 'y'", 12},
      {"(a\\1)", "cannot refer to an open group", 2},
      {"(?(2)a|b)", "invalid group reference 2", 3},
      {"(x)(?(1)a|b|c)", "conditional backref with more than two branches", 11},
      {"(?P<1a>x)", "bad character in group name '1a'", 4},
      {"(?P<a>x)(?P<a>y)", "redefinition of group name 'a'", 12},
      {"(?<n>a)", "unknown extension ?<n", 1},
      {"(?z)", "unknown extension ?z", 1},
      {"(?i-i:x)", "flag turned on and off", 5},
      {"(?-a:x)", "cannot turn off flags 'a', 'u' and 'L'", 4},
      {"\\x4", "incomplete escape \\x4", 0},
      {"\\u12", "incomplete escape \\u12", 0},
      {"\\477", "octal escape value \\477 outside of range 0-0o377", 0},
      {"abc\\", "bad escape (end of pattern)", 3},
      {"[abc", "unterminated character set", 0},
      {"[]", "unterminated character set", 0},
      {"(?#abc", "missing ), unterminated comment", 0},
      {"(?<=(a)\\1)", "cannot refer to group defined in the same lookbehind subpattern", 9},
      {"\u4e2d\u6587(", "missing ), unterminated subpattern", 6},  // bytes, not code points
      {"\u4e2d\\p", "bad escape \\p", 3},
      {"\\N{EM DASH}", "unsupported: \\N{...} named characters", 0},
      {"\\ud800", "unsupported: surrogate code point", 0},
      {"a{70000}", "unsupported: repeat count above 65535", 1},
      {"\xff", "not valid UTF-8", 0},
      {"(?<=a+)\\p", "bad escape \\p", 7},  // a parse error beats the compile-time one
  };
  for (const auto& c : cases) {
    auto parsed = ParsePythonRegex(c.pattern);
    ASSERT_FALSE(parsed.ok()) << "accepted: " << c.pattern;
    const Status* error = &parsed.status();
    EXPECT_NE(error->message().find(c.message), std::string::npos)
        << c.pattern << " -> " << error->message();
    EXPECT_EQ(error->offset(), c.offset) << c.pattern << " -> " << error->message();
  }
}

TEST(Errors, UnknownLetterEscapesAreErrorsPunctuationIsLiteral) {
  for (const char* letter : {"p", "h", "R", "K", "e", "G", "Q", "E", "c", "i", "X", "z", "C"}) {
    const std::string pattern = std::string("\\") + letter;
    auto parsed = ParsePythonRegex(pattern);
    ASSERT_TRUE(!parsed.ok()) << pattern;
    EXPECT_EQ(parsed.status().message(), "bad escape " + pattern);
  }
  for (const char* punct : {"-", " ", "#", "\"", "'", "/", ":", "!", "@", "%", "&", "~", "`", ",", "=", "<"}) {
    const std::string pattern = std::string("\\") + punct;
    const Pcre2Regex re = CompileOrDie(pattern);
    EXPECT_TRUE(re.Search(std::string("x") + punct + "y")) << pattern;
    EXPECT_FALSE(re.Search("xy")) << pattern;
  }
}

TEST(Errors, AcceptsWhatPythonAccepts) {
  for (const char* p : {"(?i)(?m)a", "(?#x)(?i)a", "(?i)a|b", "(a)(?<=\\1)", "(?<=\\bx)",
                        "(?<=x{2})", "(?<=ab|cd)", "x{ 2}", "(?x)x{ 2}", "(?a-i:x)", "(?=a)*",
                        "()*", "(|a)+", "\\08", "[\\w-]", "[--a]", "a{0}", "(?P<\u540d>a)"}) {
    auto parsed = ParsePythonRegex(p);
    ASSERT_TRUE(parsed.ok())
        << p << ": " << parsed.status().message();
    EXPECT_TRUE((
        Pcre2Regex::Compile((*parsed).pcre2)).ok())
        << p << " -> " << (*parsed).pcre2;
  }
}

// ---------------------------------------------------------------------------
// Analysis.

TEST(Analysis, NestedQuantifiers) {
  struct Case {
    const char* pattern;
    bool nested;
    std::size_t offset;
  };
  const std::vector<Case> cases = {
      {"(a+)+", true, 0},        {"x(\\w+\\s?)*", true, 1}, {"(.*)+", true, 0},
      {"ab(?:\\d+,)*", true, 2}, {"(?:x*y)+", true, 0},     {"(a+){2}", true, 0},
      {"((a+)b)*", true, 0},     {"(a{1,3})+", false, 0},   {"(?>a+)+", false, 0},
      {"(a++)+", false, 0},      {"(a+)?", false, 0},       {"(a+){1}", false, 0},
      {"a+b+", false, 0},        {"(ab)+", false, 0},       {"(a+)++", false, 0},
      {"(?=a+)+", false, 0},
  };
  for (const auto& c : cases) {
    const PatternInfo info = Parse(c.pattern);
    EXPECT_EQ(info.nested_quantifier, c.nested) << c.pattern;
    if (c.nested) {
      EXPECT_EQ(info.nested_quantifier_offset, c.offset) << c.pattern;
    }
  }
}

std::vector<std::string> Texts(const std::vector<ShortBranch>& branches) {
  std::vector<std::string> out;
  for (const auto& b : branches) out.push_back(b.text);
  return out;
}

TEST(Analysis, ShortBranches) {
  using V = std::vector<std::string>;
  const PatternInfo oom = Parse("OOM|out of memory");
  EXPECT_EQ(Texts(oom.short_branches), V{"OOM"});
  ASSERT_EQ(oom.short_branches.size(), 1u);
  EXPECT_EQ(oom.short_branches[0].offset, 0u);
  EXPECT_EQ(Texts(Parse("\\bOOM\\b|out of memory").short_branches), V{});
  EXPECT_EQ(Texts(Parse("429|Too Many Requests").short_branches), V{"429"});
  EXPECT_EQ(Texts(Parse("OOM").short_branches), V{});  // no alternation
  EXPECT_EQ(Texts(Parse("^ab|cd$|\\Aef|gh\\Z|ijkl").short_branches), V{});
  const PatternInfo empty = Parse("abcd|");
  EXPECT_EQ(Texts(empty.short_branches), V{""});
  ASSERT_EQ(empty.short_branches.size(), 1u);
  EXPECT_EQ(empty.short_branches[0].offset, 5u);
  const PatternInfo nested = Parse("error (x|yy|long enough) here|z");
  EXPECT_EQ(Texts(nested.short_branches), (V{"x", "yy", "z"}));
  ASSERT_EQ(nested.short_branches.size(), 3u);
  EXPECT_EQ(nested.short_branches[0].offset, 7u);
  EXPECT_EQ(nested.short_branches[1].offset, 9u);
  EXPECT_EQ(Texts(Parse("a{4}|b+|c.d.").short_branches), V{"b+"});
  EXPECT_EQ(Texts(Parse("\u4e2d\u6587|\u9519\u8bef\u4fe1\u606f").short_branches), V{"\u4e2d\u6587"});
}

TEST(Analysis, LengthsAndLiterals) {
  using V = std::vector<std::string>;
  const std::string cudnn = "CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon";
  PatternInfo info = Parse(cudnn);
  EXPECT_EQ(info.literal_chars, cudnn.size());
  EXPECT_EQ(info.min_length, cudnn.size());
  EXPECT_EQ(info.required_literals,
            V{"cudnn_status_bad_param when setting batch normalization epsilon"});

  info = Parse("CUDNN_STATUS_NOT_SUPPORTED.*cudnnRNNBackwardData");
  EXPECT_EQ(info.required_literals, (V{"cudnn_status_not_supported", "cudnnrnnbackwarddata"}));
  EXPECT_EQ(info.literal_chars, 46u);
  EXPECT_EQ(info.max_length, kUnboundedLength);

  info = Parse("abc|de");
  EXPECT_EQ(info.literal_chars, 2u);
  EXPECT_EQ(info.min_length, 2u);
  EXPECT_EQ(info.max_length, 3u);
  EXPECT_EQ(info.required_literals, V{});  // nothing from a top-level alternation

  info = Parse("x(abc|de)y");
  EXPECT_EQ(info.literal_chars, 4u);
  EXPECT_EQ(info.required_literals, (V{"x", "y"}));

  EXPECT_EQ(Parse("ab+c").required_literals, (V{"ab", "c"}));
  EXPECT_EQ(Parse("ab+c").literal_chars, 3u);
  EXPECT_EQ(Parse("a?bc*d{0,2}e").required_literals, (V{"b", "e"}));
  EXPECT_EQ(Parse("a?bc*d{0,2}e").literal_chars, 2u);
  EXPECT_EQ(Parse("(ab){3}").required_literals, V{"ababab"});
  EXPECT_EQ(Parse("a[bc]d").required_literals, (V{"a", "d"}));
  EXPECT_EQ(Parse("a[bc]d").literal_chars, 2u);
  EXPECT_EQ(Parse("npm\\ ERR!\\.").required_literals, V{"npm err!."});
  EXPECT_EQ(Parse("^Fatal\\b: (?=x)error$").required_literals, V{"fatal: error"});
  EXPECT_EQ(Parse("(a)\\1b").required_literals, (V{"a", "b"}));
  EXPECT_EQ(Parse("\u00c9COLE \u4e2d\u6587").required_literals, V{"\u00e9cole \u4e2d\u6587"});
  EXPECT_EQ(Parse("\u00c9COLE \u4e2d\u6587").literal_chars, 8u);
  EXPECT_EQ(Parse("\u00c9COLE \u4e2d\u6587").min_length, 8u);
  // An Armenian capital: no folding known here, so it ends the run.
  EXPECT_EQ(Parse("ab\u0531cd").required_literals, (V{"ab", "cd"}));
  EXPECT_EQ(Parse("(?=abc)d").min_length, 1u);
  EXPECT_EQ(Parse("ab{2,3}c?").min_length, 3u);
  EXPECT_EQ(Parse("ab{2,3}c?").max_length, 5u);
}

TEST(Analysis, FoldLiteralCase) {
  EXPECT_EQ(FoldLiteralCase("Hello \u00c9COLE \u0394\u03a3\u03c2 \u041c\u0418\u0420 \u4e2d"),
            "hello \u00e9cole \u03b4\u03c3\u03c3 \u043c\u0438\u0440 \u4e2d");
  EXPECT_EQ(FoldLiteralCase("\u212a\u017f"), "ks");  // Kelvin sign, long s
  EXPECT_EQ(FoldLiteralCase("a\xff" "B"), "a\xff" "b");
}

TEST(Analysis, FlagsAndFeatures) {
  PatternInfo info = Parse("(?imsx)a");
  EXPECT_TRUE(info.ignorecase_flag && info.multiline_flag && info.dotall_flag && info.verbose_flag);
  EXPECT_FALSE(info.ascii_flag);
  EXPECT_TRUE(Parse("(?a)x").ascii_flag);
  EXPECT_FALSE(Parse("(?i:x)").ignorecase_flag);  // scoped, not global

  EXPECT_TRUE(Parse("a(?=b)").has_lookaround);
  EXPECT_TRUE(Parse("(?<!b)a").has_lookaround);
  EXPECT_FALSE(Parse("a(?:b)").has_lookaround);
  EXPECT_TRUE(Parse("(a)\\1").has_backreference);
  EXPECT_TRUE(Parse("(?P<n>a)(?P=n)").has_backreference);
  EXPECT_TRUE(Parse("(a)?(?(1)b|c)").has_backreference);
  EXPECT_FALSE(Parse("(a)b").has_backreference);
  EXPECT_EQ(Parse("(a)(?:b)(?P<c>d)").capture_count, 2u);
}

// ---------------------------------------------------------------------------
// Literal factors.

using Sets = std::vector<std::vector<std::string>>;

std::string Show(const Sets& sets) {
  std::string out;
  for (const auto& set : sets) {
    out += " {";
    for (std::size_t i = 0; i < set.size(); ++i) out += (i ? ", \"" : "\"") + set[i] + "\"";
    out += "}";
  }
  return out.empty() ? " (none)" : out;
}

// Whether `folded`, a text folded with FoldLiteralCase(), holds a literal of
// each set.
bool FactorsHold(const Sets& sets, const std::string& folded) {
  return std::all_of(sets.begin(), sets.end(), [&](const std::vector<std::string>& set) {
    return std::any_of(set.begin(), set.end(), [&](const std::string& lit) {
      return folded.find(lit) != std::string::npos;
    });
  });
}

TEST(LiteralFactors, Table) {
  struct Case {
    const char* pattern;
    Sets factors;
  };
  const std::vector<Case> cases = {
      // Plain literals, folded.
      {"Segmentation fault", {{"segmentation fault"}}},
      {"npm\\ ERR!\\.", {{"npm err!."}}},
      {"\u00c9COLE \u4e2d\u6587", {{"\u00e9cole \u4e2d\u6587"}}},
      {"CUDNN_STATUS_NOT_SUPPORTED.*cudnnRNNBackwardData",
       {{"cudnn_status_not_supported"}, {"cudnnrnnbackwarddata"}}},
      // Top-level alternations: one set from each branch's best, and the
      // branches' first and last runs.
      {"(OOM command not allowed|used memory.*maxmemory|maxmemory.*exceeded|OOM.*Redis)",
       {{"exceeded", "maxmemory", "oom command not allowed", "redis"},
        {"maxmemory", "oom command not allowed", "redis", "used memory"},
        {"maxmemory", "oom", "used memory"}}},
      {"ETag.*mismatch|If-None-Match.*miss|W/",
       {{"etag", "if-none-match", "w/"},
        {"if-none-match", "mismatch", "w/"},
        {"mismatch", "miss", "w/"}}},
      {"OOM.*Redis|OOM command", {{"oom command", "redis"}, {"oom"}}},
      {"(ab|cd)e|f+g", {{"abe", "cde", "fg"}}},
      // Nested alternations extend with their neighbours.
      {"(CALL_AND_RETRY_LAST|Reached heap limit) Allocation failed",
       {{"call_and_retry_last allocation failed", "reached heap limit allocation failed"}}},
      {"x(abc|de)y", {{"xabcy", "xdey"}}},
      {"(a|b)c", {{"ac", "bc"}}},
      {"(?:x|y)+z", {{"xz", "yz"}}},
      {"p(?:[ab]|c.d)q", {{"aq", "bq", "dq"}, {"pa", "pb", "pc"}}},
      {"(abc|d.*e)+f", {{"abcf", "ef"}, {"abc", "d"}}},
      {"(a|b.*c)d", {{"ad", "cd"}, {"a", "b"}}},
      // Small classes are alternatives, larger ones end runs.
      {"[Ee]rror", {{"error"}}},
      {"(?i)[Kk]ill", {{"kill"}}},
      {"[Ee]xceeds.*[0-9]+MB", {{"exceeds"}, {"mb"}}},
      {"[Dd]isk [^ ]+ full", {{" full"}, {"disk "}}},
      {"[0-9a-f]{8} not found", {{" not found"}}},
      {"x[a-]y", {{"x-y", "xay"}}},
      {"x[a-e]y", {{"x"}, {"y"}}},
      // Optional parts contribute nothing and end runs.
      {"colou?r", {{"colo"}, {"r"}}},
      {"(abc)?def", {{"def"}}},
      {"Error(s)?", {{"error"}}},
      {"a?b*c{0,3}", {}},
      {"x{0,2}y", {{"y"}}},
      {"a{0}b", {{"b"}}},
      // Repeats with a minimum: the body's factors, exact only when fixed.
      {"x+", {{"x"}}},
      {"ab+c", {{"ab"}, {"bc"}}},
      {"(?:abc){3}", {{"abcabcabc"}}},
      {"(?:abc){2,4}", {{"abcabc"}}},
      // A branch without a literal: nothing from that alternation.
      {"foo|\\d+", {}},
      {"ab|cd|", {}},
      {"x(foo|\\d+)y", {{"x"}, {"y"}}},
      // Zero-width items neither contribute nor end runs; a look-around's
      // body is not part of the match.
      {"(?<=foo)bar(?!baz)", {{"bar"}}},
      {"a(?=b)c", {{"ac"}}},
      {"^Fatal\\b: error$", {{"fatal: error"}}},
      // Back-references and conditionals contribute nothing.
      {"(\\w+) \\1 done", {{" done"}}},
      {"(a)?(?(1)abc|abd)", {}},
      // A letter without a known folding ends the run.
      {"ab\u0531cd", {{"ab"}, {"cd"}}},
      // The cap: 16 strings, then what was built becomes a factor.
      {"(a|b|c|d)(e|f|g|h)",
       {{"ae", "af", "ag", "ah", "be", "bf", "bg", "bh", "ce", "cf", "cg", "ch", "de", "df", "dg", "dh"}}},
      {"(CALL_AND_RETRY_LAST|Reached heap limit) Allocation failed (1|2|3|4|5|6|7|8|9)",
       {{"call_and_retry_last allocation failed ", "reached heap limit allocation failed "},
        {"1", "2", "3", "4", "5", "6", "7", "8", "9"}}},
  };
  for (const auto& c : cases) {
    const Sets got = Parse(c.pattern).literal_factors;
    EXPECT_EQ(got, c.factors) << c.pattern << " ->" << Show(got);
  }
  // x{1000}: spelled out up to 256 characters.
  EXPECT_EQ(Parse("x{1000}").literal_factors, (Sets{{std::string(256, 'x')}}));
  // Many exact branches are one set, beyond the cap too.
  EXPECT_EQ(Parse("(alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|xi|"
                  "omicron|pi|rho)!")
                .literal_factors.size(),
            2u);
  // required_literals are unchanged by all this.
  EXPECT_EQ(Parse("(CALL_AND_RETRY_LAST|Reached heap limit) Allocation failed").required_literals,
            std::vector<std::string>{" allocation failed"});
}

// Random patterns over a small alphabet, each searched in texts made to
// match it (a sample of each part, letters in random case, Kelvin sign for
// k, long s for s) and in random texts: every PCRE2 match satisfies every
// set, and the sets are well formed.
class RandomPatterns {
 public:
  explicit RandomPatterns(unsigned seed) : rng_(seed) {}

  // A pattern and a function that spells a text it probably matches.
  struct Gen {
    std::string pattern;
    std::function<std::string()> sample;
  };

  Gen Alternation(int depth) {
    std::vector<Gen> branches{Sequence(depth)};
    for (unsigned n = rng_() % 4 == 0 ? 1 + rng_() % 2 : 0; n > 0; --n) {
      branches.push_back(Sequence(depth));
    }
    std::string pattern = branches[0].pattern;
    for (std::size_t i = 1; i < branches.size(); ++i) pattern += "|" + branches[i].pattern;
    return {pattern, [this, branches] { return branches[rng_() % branches.size()].sample(); }};
  }

  std::string Text() {
    static const char* const kLetters[] = {"a", "b", "c", "A", "B", "C", "k", "K", "\u212a",
                                           "s", "S", "\u017f", "-", " ", "x", "1", "\u0531", "\u0561"};
    std::string t;
    for (unsigned n = rng_() % 6; n > 0; --n) t += kLetters[rng_() % std::size(kLetters)];
    return t;
  }

 private:
  std::string Pick(std::initializer_list<const char*> options) {
    return *(options.begin() + rng_() % options.size());
  }
  // A letter as the text may spell it.
  std::string Spell(char c) {
    const unsigned r = rng_() % 8;
    if ((c == 'k' || c == 'K') && r == 0) return "\u212a";
    if ((c == 's' || c == 'S') && r == 0) return "\u017f";
    if (r < 4 && std::isalpha(static_cast<unsigned char>(c))) {
      return std::string(1, static_cast<char>(c ^ 0x20));
    }
    return std::string(1, c);
  }
  Gen Fixed(std::string pattern, std::vector<std::string> samples) {
    return {std::move(pattern), [this, samples] { return samples[rng_() % samples.size()]; }};
  }

  // One item, and whether a quantifier may follow it (Python refuses one
  // after an anchor; a quantified look-around is of little interest).
  Gen Atom(int depth, bool* quantifiable) {
    const unsigned r = rng_() % 100;
    *quantifiable = true;
    if (r < 45) {
      const char c = "abcABks- "[rng_() % 9];
      return {std::string(1, c), [this, c] { return Spell(c); }};
    }
    if (r < 53) {
      switch (rng_() % 9) {
        case 0: return Fixed("[ab]", {"a", "B"});
        case 1: return Fixed("[aB]", {"A", "b"});
        case 2: return Fixed("[^a]", {"b", "-", "K"});
        case 3: return Fixed("[a-c]", {"a", "C"});
        case 4: return Fixed("[a-e]", {"d", "b"});
        case 5: return Fixed("[-b]", {"-", "B"});
        case 6: return Fixed("[\\w]", {"a", "1"});
        case 7: return Fixed("[\u0531b]", {"\u0561", "b"});  // Armenian: no folding known
        default: return Fixed("[sS]", {"s", "\u017f"});
      }
    }
    if (r < 57) {
      switch (rng_() % 4) {
        case 0: return Fixed(".", {"x", "-"});
        case 1: return Fixed("\\w", {"k", "1"});
        case 2: return Fixed("\\s", {" "});
        default: return Fixed("\\W", {"-", " "});
      }
    }
    if (r < 60) {
      switch (rng_() % 3) {
        case 0: return Fixed("\\u212a", {"k", "K", "\u212a"});  // Kelvin sign
        case 1: return Fixed("\\u017f", {"s", "\u017f"});       // long s
        default: return Fixed("\\u0531", {"\u0531", "\u0561"});  // Armenian, no folding known
      }
    }
    if (depth >= 3) return {"a", [this] { return Spell('a'); }};
    if (r < 62) return Fixed("(x)?(?(1)ab|c)", {"xab", "c", "ab"});
    if (r < 75) {
      *quantifiable = false;
      if (r < 67) return Fixed(Pick({"^", "$", "\\b", "\\B", "\\A", "\\Z"}), {""});
      if (r < 72) {
        const Gen body = Alternation(depth + 1);
        return {Pick({"(?=", "(?!"}) + body.pattern + ")", [] { return std::string(); }};
      }
      return Fixed(Pick({"(?<=a)", "(?<=ab)", "(?<![ab])", "(?<=b|c)"}), {""});
    }
    Gen body = Alternation(depth + 1);
    body.pattern = Pick({"(", "(?:", "(?>", "(?i:", "(?-i:"}) + body.pattern + ")";
    return body;
  }

  Gen Sequence(int depth) {
    std::vector<Gen> items;
    for (unsigned n = rng_() % 6; n > 0; --n) {
      bool quantifiable = true;
      Gen item = Atom(depth, &quantifiable);
      if (quantifiable && rng_() % 10 < 3) {
        static const std::pair<const char*, std::pair<unsigned, unsigned>> kQuantifiers[] = {
            {"?", {0, 1}},   {"*", {0, 3}},     {"+", {1, 3}},     {"{2}", {2, 2}},  {"{1,3}", {1, 3}},
            {"{0,2}", {0, 2}}, {"{2,}", {2, 4}}, {"+?", {1, 3}},  {"*+", {0, 3}},    {"{3}", {3, 3}}};
        const auto& [text, range] = kQuantifiers[rng_() % std::size(kQuantifiers)];
        item.pattern += text;
        const auto inner = item.sample;
        const auto [lo, hi] = range;
        item.sample = [this, inner, lo = lo, hi = hi] {
          std::string s;
          for (unsigned k = lo + rng_() % (hi - lo + 1); k > 0; --k) s += inner();
          return s;
        };
      }
      items.push_back(std::move(item));
    }
    std::string pattern;
    for (const Gen& item : items) pattern += item.pattern;
    return {pattern, [items] {
              std::string s;
              for (const Gen& item : items) s += item.sample();
              return s;
            }};
  }

  std::mt19937 rng_;
};

TEST(LiteralFactors, SoundOnRandomPatterns) {
  RandomPatterns gen(20240611);
  std::vector<std::string> texts;
  for (int i = 0; i < 200; ++i) texts.push_back(gen.Text() + gen.Text() + gen.Text());
  std::size_t patterns = 0, with_factors = 0, checked = 0, strong = 0;
  while (patterns < 3000) {
    const RandomPatterns::Gen g = gen.Alternation(0);
    auto parsed = ParsePythonRegex(g.pattern);
    if (!parsed.ok()) continue;  // e.g. nothing to repeat
    const PatternInfo& info = (*parsed);
    auto compiled = Pcre2Regex::Compile(info.pcre2);
    ASSERT_TRUE(compiled.ok()) << g.pattern;
    const Pcre2Regex& re = (*compiled);
    ++patterns;
    with_factors += !info.literal_factors.empty();
    for (const auto& set : info.literal_factors) {
      EXPECT_FALSE(set.empty()) << g.pattern;
      EXPECT_TRUE(std::is_sorted(set.begin(), set.end())) << g.pattern;
      EXPECT_EQ(std::adjacent_find(set.begin(), set.end()), set.end()) << g.pattern;
      EXPECT_EQ(std::count(set.begin(), set.end(), std::string()), 0) << g.pattern;
    }
    const auto& best = info.literal_factors;
    const bool long_literals =
        !best.empty() && std::all_of(best[0].begin(), best[0].end(),
                                     [](const std::string& lit) { return lit.size() >= 2; });
    std::vector<std::string> own = texts;
    for (int i = 0; i < 30; ++i) own.push_back(gen.Text() + g.sample() + gen.Text());
    for (const std::string& text : own) {
      if (!re.Search(text)) continue;
      ++checked;
      strong += long_literals;
      EXPECT_TRUE(FactorsHold(info.literal_factors, FoldLiteralCase(text)))
          << g.pattern << " matches \"" << text << "\" but factors are" << Show(info.literal_factors);
    }
  }
  EXPECT_GT(with_factors, patterns / 2);
  EXPECT_GT(strong, 10000u);  // matches of patterns whose best set is not single letters
  std::cout << "[ factors  ] " << patterns << " random patterns, " << with_factors << " with factors, "
            << checked << " matches checked, " << strong << " against literals of 2+ bytes\n";
}

// The "error" object of every deadends corpus record (a discarded value when
// a file does not parse), or nullopt when the corpus is absent.
struct CorpusError {
  std::filesystem::path file;
  nlohmann::json record;
  nlohmann::json error;
};
std::optional<std::vector<CorpusError>> ReadCorpusErrors() {
  const std::filesystem::path root = std::filesystem::path(KEDB_SHARED_DIR) / "corpora" / "deadends" / "canons";
  if (!std::filesystem::is_directory(root)) return std::nullopt;
  std::vector<CorpusError> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    CorpusError e{entry.path(), nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false), {}};
    if (!e.record.is_discarded()) e.error = e.record.value("error", nlohmann::json::object());
    out.push_back(std::move(e));
  }
  return out;
}
#define KEDB_CORPUS_OR_SKIP(var)                                                         \
  auto var = ReadCorpusErrors();                                                         \
  if (!var) GTEST_SKIP() << "corpus missing: ../shared/corpora/deadends/canons is absent, corpus test skipped"

// Every deadends regex against every record's signature: a match satisfies
// the factors.
TEST(LiteralFactors, SoundOnCorpus) {
  KEDB_CORPUS_OR_SKIP(corpus);
  std::vector<std::string> patterns, signatures;
  for (const auto& [file, record, error] : *corpus) {
    ASSERT_FALSE(record.is_discarded()) << file;
    if (!error.contains("regex") || !error["regex"].is_string()) continue;
    patterns.push_back(error["regex"].get<std::string>());
    signatures.push_back(error.contains("signature") && error["signature"].is_string()
                             ? error["signature"].get<std::string>()
                             : std::string());
  }
  ASSERT_FALSE(patterns.empty());
  std::vector<std::string> folded;
  for (const auto& s : signatures) folded.push_back(FoldLiteralCase(s));

  struct Result {
    Sets factors;
    std::size_t matches = 0;
    std::vector<std::string> unsound;  // signatures the factors exclude
    bool ok = false;
  };
  std::vector<Result> results(patterns.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t p = next++; p < patterns.size(); p = next++) {
      Result& r = results[p];
      auto parsed = ParsePythonRegex(patterns[p]);
      if (!parsed.ok()) continue;
      r.factors = (*parsed).literal_factors;
      auto compiled = Pcre2Regex::Compile((*parsed).pcre2);
      if (!compiled.ok()) continue;
      r.ok = true;
      const Pcre2Regex& re = (*compiled);
      for (std::size_t t = 0; t < signatures.size(); ++t) {
        if (!re.Search(signatures[t])) continue;
        ++r.matches;
        if (!FactorsHold(r.factors, folded[t])) r.unsound.push_back(signatures[t]);
      }
      // The record's own signature in other cases, to exercise the folding.
      std::string upper = signatures[p], swapped = signatures[p];
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      for (char& c : swapped) {
        const auto u = static_cast<unsigned char>(c);
        c = static_cast<char>(std::islower(u) ? std::toupper(u) : std::tolower(u));
      }
      for (const std::string& text : {upper, swapped}) {
        if (!re.Search(text)) continue;
        ++r.matches;
        if (!FactorsHold(r.factors, FoldLiteralCase(text))) r.unsound.push_back(text);
      }
    }
  };
  std::vector<std::thread> threads;
  const unsigned n = std::max(2u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < n; ++i) threads.emplace_back(work);
  for (auto& t : threads) t.join();

  std::size_t with = 0, without = 0, matches = 0;
  std::map<std::size_t, std::size_t> best_min;  // shortest literal of the best set -> patterns
  for (std::size_t p = 0; p < patterns.size(); ++p) {
    const Result& r = results[p];
    ASSERT_TRUE(r.ok) << patterns[p];
    for (const std::string& text : r.unsound) {
      ADD_FAILURE() << patterns[p] << " ->" << Show(r.factors) << " excludes its match in \"" << text
                    << "\"";
    }
    matches += r.matches;
    if (r.factors.empty()) {
      ++without;
      continue;
    }
    ++with;
    std::size_t shortest = std::string::npos;
    for (const auto& lit : r.factors.front()) shortest = std::min(shortest, lit.size());
    ++best_min[std::min<std::size_t>(shortest, 10)];
  }
  EXPECT_GT(with, without);
  std::cout << "[ factors  ] " << patterns.size() << " regexes x " << signatures.size()
            << " signatures, " << matches << " matches checked: " << with << " with factors, "
            << without << " without\n[ factors  ] shortest literal of the best set (bytes):";
  for (const auto& [len, count] : best_min) {
    std::cout << " " << (len == 10 ? "10+" : std::to_string(len)) << ":" << count;
  }
  std::cout << "\n";
}

// ---------------------------------------------------------------------------
// Pcre2Regex.

TEST(Pcre2Regex, CaselessByDefault) {
  const Pcre2Regex re = CompileOrDie("Out of Memory");
  EXPECT_TRUE(re.Search("java: OUT OF MEMORY"));
  Pcre2Options exact;
  exact.caseless = false;
  const Pcre2Regex strict = CompileOrDie("Out of Memory", exact);
  EXPECT_FALSE(strict.Search("java: OUT OF MEMORY"));
  EXPECT_TRUE(strict.Search("java: Out of Memory"));
}

TEST(Pcre2Regex, FindReturnsByteSpans) {
  const Pcre2Regex re = CompileOrDie("needle");
  EXPECT_EQ(re.Find("haystack needle hay"), Span(9, 15));
  EXPECT_EQ(re.Find("nothing"), std::nullopt);
  const Pcre2Regex cjk = CompileOrDie("\u9519\u8bef");
  EXPECT_EQ(cjk.Find("\u4e2d\u6587\u9519\u8bef"), Span(6, 12));
  const Pcre2Regex empty = CompileOrDie("^$");
  EXPECT_TRUE(empty.Search(""));
  EXPECT_TRUE(empty.Search(std::string_view()));
}

TEST(Pcre2Regex, InvalidUtf8SubjectIsSafe) {
  const Pcre2Regex re = CompileOrDie("a.c|abc");
  EXPECT_FALSE(re.Search("a\xff" "c"));  // invalid bytes match nothing, not even "."
  EXPECT_EQ(re.Find("\xff\xfe" "abc"), Span(2, 5));
  EXPECT_FALSE(CompileOrDie(".").Search("\xc3"));  // truncated sequence
  EXPECT_TRUE(CompileOrDie("x").Search("\xe4\xb8" "x\xed\xa0\x80"));
}

TEST(Pcre2Regex, CatastrophicPatternGivesUpQuickly) {
  const Pcre2Regex re = CompileOrDie("(a+)+$");
  const std::string text = std::string(40, 'a') + "!";
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(re.Search(text));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, std::chrono::seconds(2));
  // The interpreter too (atomic groups are not JITed).
  const Pcre2Regex interpreted = CompileOrDie("(?>z)|(?:(a+)+)+(?:b|c)$");
  EXPECT_FALSE(interpreted.jit_compiled());
  const auto start2 = std::chrono::steady_clock::now();
  EXPECT_FALSE(interpreted.Search(text));
  EXPECT_LT(std::chrono::steady_clock::now() - start2, std::chrono::seconds(2));
}

TEST(Pcre2Regex, AtomicGroupsAvoidJitBugs) {
  // PCRE2 10.42's JIT finds "b" here; Python and the interpreter do not.
  const Pcre2Regex atomic = CompileOrDie("(?>.*|)b");
  EXPECT_FALSE(atomic.Search("abc"));
  EXPECT_FALSE(atomic.jit_compiled());
  EXPECT_FALSE(CompileOrDie("(?>.*|)(?<=a)").Search("abc"));
  EXPECT_EQ(CompileOrDie("a[+]+b").jit_compiled(), Pcre2Regex::JitAvailable());
}

// A regex whose JIT waits for its 8th search answers the same before and
// after, also while four threads search it as the JIT copy is made.
TEST(Pcre2Regex, DeferredJitAnswersAsTheInterpreter) {
  Pcre2Options deferred;
  deferred.jit_after = 8;
  const std::string pattern = "(?:failed|unable) to read (?:the )?(\\w+) trigger after (\\d+) ms";
  const Pcre2Regex re = CompileOrDie(pattern, deferred);
  const Pcre2Regex now = CompileOrDie(pattern);
  EXPECT_FALSE(re.jit_compiled());
  const std::vector<std::string> lines = {"E: failed to read the parent trigger after 1552 ms (KX1)",
                                          "unable to read trigger after 9 ms", "failed to read trigger",
                                          "UNABLE TO READ THE X TRIGGER AFTER 1 MS"};
  for (int round = 0; round < 4; ++round) {
    for (const std::string& line : lines) {
      EXPECT_EQ(re.Find(line), now.Find(line)) << line;
      EXPECT_EQ(re.Captures(line), now.Captures(line)) << line;
    }
  }
  EXPECT_EQ(re.jit_compiled(), Pcre2Regex::JitAvailable());

  Pcre2Regex shared = CompileOrDie(pattern, deferred);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        for (const std::string& line : lines) wrong += shared.Find(line) != now.Find(line);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(shared.jit_compiled(), Pcre2Regex::JitAvailable());
  // Moved, it keeps its JIT copy and answers the same.
  const Pcre2Regex moved = std::move(shared);
  EXPECT_EQ(moved.Find(lines[0]), now.Find(lines[0]));
}

TEST(Pcre2Regex, MatchLimitIsApplied) {
  // Python finds "ac" at the end, after ~4M steps of backtracking from the
  // start; the default budget gives up (no match), a larger one gets there.
  const std::string text = std::string(22, 'a') + "bac";
  EXPECT_FALSE(CompileOrDie("(a+)+c").Search(text));
  Pcre2Options generous;
  generous.match_limit = 100'000'000;
  EXPECT_TRUE(CompileOrDie("(a+)+c", generous).Search(text));
}

TEST(Pcre2Regex, CompileErrorsCarryPcre2Offset) {
  auto compiled = Pcre2Regex::Compile("ab(");
  ASSERT_TRUE(!compiled.ok());
  EXPECT_EQ(compiled.status().offset(), 3u);
  EXPECT_FALSE(compiled.status().message().empty());
  auto python = CompilePython("ab(");
  ASSERT_TRUE(!python.ok());
  EXPECT_EQ(python.status().offset(), 2u);  // Python's position
}

TEST(Pcre2Regex, CapturesAndNames) {
  const Pcre2Regex re = CompileOrDie("(?P<key>\\w+)=(\\d+)?");
  EXPECT_EQ(re.capture_count(), 2u);
  ASSERT_EQ(re.group_names().size(), 3u);
  EXPECT_EQ(re.group_names()[1], "key");
  EXPECT_EQ(re.group_names()[2], "");
  const auto groups = re.Captures("  x=");
  ASSERT_TRUE(groups.has_value());
  ASSERT_EQ(groups->size(), 3u);
  EXPECT_EQ((*groups)[0], Span(2, 4));
  EXPECT_EQ((*groups)[1], Span(2, 3));
  EXPECT_EQ((*groups)[2], std::nullopt);
  EXPECT_EQ(re.Captures("==="), std::nullopt);
}

TEST(Pcre2Regex, MovesAndThreads) {
  Pcre2Regex re = CompileOrDie("b+");
  Pcre2Regex moved = std::move(re);
  EXPECT_TRUE(moved.Search("abbc"));
  EXPECT_FALSE(re.Search("abbc"));  // NOLINT(bugprone-use-after-move): moved-from is empty
  re = CompileOrDie("c");
  EXPECT_TRUE(re.Search("abc"));

  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) {
        if (moved.Find("xxabbbc") != Span(3, 6) || moved.Search("xyz")) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

// ---------------------------------------------------------------------------
// Corpus: every deadends regex parses and compiles.

TEST(Corpus, EveryDeadendsRegexParsesAndCompiles) {
  KEDB_CORPUS_OR_SKIP(corpus);
  std::size_t total = 0, lookaround = 0, backref = 0, nested = 0, short_branch = 0, self_match = 0;
  for (const auto& [file, record, error] : *corpus) {
    ASSERT_FALSE(record.is_discarded()) << file;
    ASSERT_TRUE(error.contains("regex") && error["regex"].is_string()) << file;
    const std::string pattern = error["regex"].get<std::string>();
    ++total;
    auto parsed = ParsePythonRegex(pattern);
    if (!parsed.ok()) {
      ADD_FAILURE() << file << ": " << pattern << " rejected at " << parsed.status().offset() << ": "
                    << parsed.status().message();
      continue;
    }
    const PatternInfo& info = (*parsed);
    auto compiled = Pcre2Regex::Compile(info.pcre2);
    if (!compiled.ok()) {
      ADD_FAILURE() << file << ": " << info.pcre2 << " does not compile: " << compiled.status().message();
      continue;
    }
    lookaround += info.has_lookaround;
    backref += info.has_backreference;
    nested += info.nested_quantifier;
    short_branch += !info.short_branches.empty();
    if (error.contains("signature") && error["signature"].is_string()) {
      self_match += (*compiled).Search(error["signature"].get<std::string>());
    }
  }
  EXPECT_GT(total, 0u);
  std::cout << "[ corpus   ] " << total << " regexes: " << lookaround << " with lookaround, "
            << backref << " with backreferences, " << nested << " with nested quantifiers, "
            << short_branch << " with short branches; " << self_match
            << " match their own signature\n";
}

}  // namespace
}  // namespace kedb::regex
