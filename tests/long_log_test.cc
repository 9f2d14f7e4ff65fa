// The long log-shaped evaluation cases (tools/eval/long_log.h): the length
// asked for, the error where the log says it is and verbatim after the
// style's prefix, the same log for the same seed, and noise that holds no
// failure of its own before the error.
#include "long_log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

namespace kedb::eval {
namespace {

const char* kTraceback =
    "Traceback (most recent call last):\n"
    "  File \"/srv/app/train.py\", line 42, in <module>\n"
    "    main()\n"
    "\n"
    "  File \"/srv/app/train.py\", line 30, in main\n"
    "    import torchvision\n"
    "ModuleNotFoundError: No module named 'torchvision'\n";
const char* kNpm =
    "npm ERR! code ERESOLVE\n"
    "npm ERR! ERESOLVE unable to resolve dependency tree\n"
    "npm ERR! Found: react@18.2.0";
const char* kOneLine = "fatal error: zlib.h: No such file or directory";
const char* kJava =
    "Exception in thread \"main\" java.lang.NullPointerException: Cannot invoke \"String.length()\"\n"
    "\tat com.example.App.main(App.java:12)";
// One error each of the project kinds the jobs are built around.
const char* kErrors[] = {kTraceback, kNpm, kOneLine, kJava};

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
    out.push_back(text.substr(start, nl - start));
  }
  EXPECT_EQ(start, text.size()) << "the last line is not '\\n'-terminated";
  return out;
}

// What the style puts before every line of the error.
std::regex PrefixOf(const std::string& style) {
  if (style == "github") return std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z )");
  if (style == "buildkit") return std::regex(R"(#\d+ \d+\.\d{3} )");
  if (style == "jenkins") return std::regex(R"((\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] )?)");
  if (style == "gitlab") return std::regex(R"((\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z 01E )?)");
  return std::regex("");
}

TEST(LongLog, EveryStyleHasTheLengthAndTheErrorVerbatimWhereItSays) {
  for (const std::string& style : LongLogStyles()) {
    for (const char* error : kErrors) {
      const std::vector<std::string> want =
          Lines(std::string(error).back() == '\n' ? error : std::string(error) + "\n");
      for (uint64_t seed = 1; seed <= 6; ++seed) {
        const std::size_t n = 2000 + seed * 2300;  // 4,300 to 15,800
        SCOPED_TRACE(style + " seed " + std::to_string(seed));
        LongLog log = MakeLongLog(error, style, seed, n);
        const std::vector<std::string> lines = Lines(log.text);
        EXPECT_NEAR(static_cast<double>(lines.size()), static_cast<double>(n), 0.05 * static_cast<double>(n));
        ASSERT_GE(log.error_first, 1u);
        ASSERT_EQ(log.error_last - log.error_first + 1, want.size());
        ASSERT_LE(log.error_last, lines.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
          const std::string& got = lines[log.error_first - 1 + i];
          ASSERT_GE(got.size(), want[i].size());
          EXPECT_EQ(got.substr(got.size() - want[i].size()), want[i]);
          EXPECT_TRUE(std::regex_match(got.substr(0, got.size() - want[i].size()), PrefixOf(style)))
              << "prefix of: " << got;
        }
        // Late in the log; in a CI job, with the job's closing lines after it
        // (a Python job may just end with its traceback).
        EXPECT_GT(log.error_first, lines.size() * 2 / 5);
        if (style != "python") {
          EXPECT_LT(log.error_last, lines.size());
        }
      }
    }
  }
}

TEST(LongLog, SameSeedSameLogOtherSeedAnother) {
  for (const std::string& style : LongLogStyles()) {
    LongLog a = MakeLongLog(kTraceback, style, 7, 5000), b = MakeLongLog(kTraceback, style, 7, 5000);
    LongLog c = MakeLongLog(kTraceback, style, 8, 5000);
    EXPECT_EQ(a.text, b.text) << style;
    EXPECT_EQ(a.error_first, b.error_first) << style;
    EXPECT_NE(a.text, c.text) << style;
  }
}

// Problem-sounding words are welcome in the noise (npm WARN deprecated,
// "0 errors", error_handler.py); a failure of its own before the error is not.
TEST(LongLog, NoFailureBeforeTheError) {
  const std::regex failure(R"(Traceback \(most|^\s*[A-Za-z.]*(Error|Exception): |\bERROR\b|\bFATAL\b|npm ERR!|)"
                           R"(exit code:? [1-9]|exit status [1-9]|\bFAILED\b|BUILD FAILURE)");
  const std::regex prefix(R"(^\S+Z (\d\d[OE]\+? )?|^\[\S+Z\] |^#\d+ [\d.]+ )");
  // std::regex is slow: only lines with one of these words are looked at closely.
  const char* words[] = {"Trace", "Error", "Exception", "ERR", "FATAL", "exit", "FAIL"};
  for (const std::string& style : LongLogStyles()) {
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      LongLog log = MakeLongLog(kErrors[seed % 4], style, seed, 4000);
      const std::vector<std::string> lines = Lines(log.text);
      for (std::size_t i = 0; i + 1 < log.error_first; ++i) {
        if (std::none_of(std::begin(words), std::end(words),
                         [&](const char* w) { return lines[i].find(w) != std::string::npos; })) {
          continue;
        }
        std::string l = std::regex_replace(lines[i], prefix, "");
        ASSERT_FALSE(std::regex_search(l, failure)) << style << " seed " << seed << " line " << i + 1 << ": " << l;
      }
    }
  }
}

TEST(LongLog, UnknownStyleThrows) { EXPECT_THROW(MakeLongLog("x", "travis", 1, 4000), std::invalid_argument); }

}  // namespace
}  // namespace kedb::eval
