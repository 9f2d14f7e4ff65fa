// The Python `re` dialect on PCRE2: translation, Python's errors, pattern
// analysis, the PCRE2 wrapper, and the whole deadends corpus.
//
// Expected values were measured with CPython 3.11 (re.compile, re.search
// with re.I, re.error.pos); the tests themselves do not need Python.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "match/pcre2_regex.h"
#include "match/python_regex.h"

namespace kedb::match {
namespace {

PatternInfo Parse(std::string_view pattern) {
  auto parsed = ParsePythonRegex(pattern);
  if (auto* error = std::get_if<RegexError>(&parsed)) {
    ADD_FAILURE() << "pattern " << pattern << " rejected at " << error->offset << ": "
                  << error->message;
    return {};
  }
  return std::get<PatternInfo>(parsed);
}

Pcre2Regex CompileOrDie(std::string_view python_pattern, const Pcre2Options& options = {}) {
  auto compiled = CompilePython(python_pattern, options);
  if (auto* error = std::get_if<RegexError>(&compiled)) {
    ADD_FAILURE() << "pattern " << python_pattern << " does not compile: " << error->message;
    return std::get<Pcre2Regex>(Pcre2Regex::Compile("(*FAIL)"));
  }
  return std::move(std::get<Pcre2Regex>(compiled));
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
    const auto* error = std::get_if<RegexError>(&parsed);
    ASSERT_NE(error, nullptr) << "accepted: " << c.pattern;
    EXPECT_NE(error->message.find(c.message), std::string::npos)
        << c.pattern << " -> " << error->message;
    EXPECT_EQ(error->offset, c.offset) << c.pattern << " -> " << error->message;
  }
}

TEST(Errors, UnknownLetterEscapesAreErrorsPunctuationIsLiteral) {
  for (const char* letter : {"p", "h", "R", "K", "e", "G", "Q", "E", "c", "i", "X", "z", "C"}) {
    const std::string pattern = std::string("\\") + letter;
    auto parsed = ParsePythonRegex(pattern);
    ASSERT_TRUE(std::holds_alternative<RegexError>(parsed)) << pattern;
    EXPECT_EQ(std::get<RegexError>(parsed).message, "bad escape " + pattern);
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
    ASSERT_TRUE(std::holds_alternative<PatternInfo>(parsed))
        << p << ": " << std::get<RegexError>(parsed).message;
    EXPECT_TRUE(std::holds_alternative<Pcre2Regex>(
        Pcre2Regex::Compile(std::get<PatternInfo>(parsed).pcre2)))
        << p << " -> " << std::get<PatternInfo>(parsed).pcre2;
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
  ASSERT_TRUE(std::holds_alternative<RegexError>(compiled));
  EXPECT_EQ(std::get<RegexError>(compiled).offset, 3u);
  EXPECT_FALSE(std::get<RegexError>(compiled).message.empty());
  auto python = CompilePython("ab(");
  ASSERT_TRUE(std::holds_alternative<RegexError>(python));
  EXPECT_EQ(std::get<RegexError>(python).offset, 2u);  // Python's position
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
  const std::filesystem::path root =
      std::filesystem::path(KEDB_SHARED_DIR) / "corpora" / "deadends" / "canons";
  if (!std::filesystem::is_directory(root)) {
    GTEST_SKIP() << "corpus missing: " << root << " is absent, corpus test skipped";
  }
  std::size_t total = 0, lookaround = 0, backref = 0, nested = 0, short_branch = 0, self_match = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const auto record = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    ASSERT_FALSE(record.is_discarded()) << entry.path();
    const auto& error = record.value("error", nlohmann::json::object());
    ASSERT_TRUE(error.contains("regex") && error["regex"].is_string()) << entry.path();
    const std::string pattern = error["regex"].get<std::string>();
    ++total;
    auto parsed = ParsePythonRegex(pattern);
    if (auto* e = std::get_if<RegexError>(&parsed)) {
      ADD_FAILURE() << entry.path() << ": " << pattern << " rejected at " << e->offset << ": "
                    << e->message;
      continue;
    }
    const PatternInfo& info = std::get<PatternInfo>(parsed);
    auto compiled = Pcre2Regex::Compile(info.pcre2);
    if (auto* e = std::get_if<RegexError>(&compiled)) {
      ADD_FAILURE() << entry.path() << ": " << info.pcre2 << " does not compile: " << e->message;
      continue;
    }
    lookaround += info.has_lookaround;
    backref += info.has_backreference;
    nested += info.nested_quantifier;
    short_branch += !info.short_branches.empty();
    if (error.contains("signature") && error["signature"].is_string()) {
      self_match += std::get<Pcre2Regex>(compiled).Search(error["signature"].get<std::string>());
    }
  }
  EXPECT_GT(total, 0u);
  std::cout << "[ corpus   ] " << total << " regexes: " << lookaround << " with lookaround, "
            << backref << " with backreferences, " << nested << " with nested quantifiers, "
            << short_branch << " with short branches; " << self_match
            << " match their own signature\n";
}

}  // namespace
}  // namespace kedb::match
