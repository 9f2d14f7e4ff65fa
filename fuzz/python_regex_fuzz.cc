// Feeds the input as a Python `re` pattern to ParsePythonRegex, compiles a
// successful translation with Pcre2Regex::Compile and searches a short fixed
// subject and the pattern's own text (so literal-heavy patterns match too).
//
// A bug is a crash, a sanitizer report, an exception, or a broken promise:
//   - an error's offset lies within the pattern;
//   - PCRE2 compiles every translation but where one of its size limits is
//     hit (documented with CompilePython: `(?>abc){30000}` is too large),
//     and its group count equals the analysis's capture_count;
//   - min_length <= max_length, and no literal factor set holds "";
//   - every match spans between min_length and max_length code points and
//     contains each required literal and a literal of each factor set (the
//     prefilter skips lines without them, so a miss here is a lost match).
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "fuzz_check.h"
#include "regex/pcre2_regex.h"
#include "regex/python_regex.h"

namespace {

using kedb::regex::PatternInfo;

constexpr std::string_view kSubject =
    "Traceback (most recent call last):\n"
    "RuntimeError: CUDA error: out of memory (code 2) at 0x7f3b, line 42\n"
    "cuDNN_STATUS_BAD_PARAM \xC3\x9F \xE2\x84\xAA \xC3\xA9 \xE6\x89\xB9\xE9\x87\x8F \t_ end";

// PCRE2's refusals for size, not meaning: "regular expression is too
// large", "parentheses are too deeply nested", "lookbehind assertion is too
// complicated", "too many capturing groups", ...
bool IsPcre2Limit(std::string_view message) {
  for (std::string_view limit : {"too large", "too deeply nested", "too complicated", "too many"}) {
    if (message.find(limit) != std::string_view::npos) return true;
  }
  return false;
}

std::size_t CodePoints(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

void CheckMatch(const kedb::regex::Pcre2Regex& re, const PatternInfo& info, std::string_view subject) {
  auto span = re.Find(subject);
  if (!span) return;
  FUZZ_CHECK(span->first <= span->second && span->second <= subject.size());
  const std::string_view matched = subject.substr(span->first, span->second - span->first);
  const std::size_t width = CodePoints(matched);
  FUZZ_CHECK(width >= info.min_length && width <= info.max_length);
  const std::string folded = kedb::regex::FoldLiteralCase(matched);
  for (const std::string& lit : info.required_literals) FUZZ_CHECK(folded.find(lit) != std::string::npos);
  for (const auto& set : info.literal_factors) {
    bool any = false;
    for (const std::string& lit : set) any = any || folded.find(lit) != std::string::npos;
    FUZZ_CHECK(any);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view pattern(reinterpret_cast<const char*>(data), size);
  auto parsed = kedb::regex::ParsePythonRegex(pattern);
  if (!parsed.ok()) {
    FUZZ_CHECK(parsed.status().offset() <= pattern.size());
    return 0;
  }
  const PatternInfo& info = *parsed;
  FUZZ_CHECK(info.min_length <= info.max_length);
  for (const auto& set : info.literal_factors) {
    FUZZ_CHECK(!set.empty());
    for (const std::string& lit : set) FUZZ_CHECK(!lit.empty());
  }
  auto compiled = kedb::regex::Pcre2Regex::Compile(info.pcre2);
  if (!compiled.ok()) {
    if (IsPcre2Limit(compiled.status().message())) return 0;
    std::fprintf(stderr, "PCRE2 refused the translation %s: %s\n", info.pcre2.c_str(),
                 compiled.status().message().c_str());
    FUZZ_CHECK(false);
  }
  const auto& re = *compiled;
  FUZZ_CHECK(re.capture_count() == info.capture_count);
  CheckMatch(re, info, kSubject);
  // Accepted patterns are valid UTF-8, so their own text is a fair subject.
  FUZZ_CHECK(kedb::fuzz::ValidUtf8(pattern));
  CheckMatch(re, info, pattern);
  return 0;
}
