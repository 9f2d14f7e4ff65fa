// A compiled PCRE2 pattern with the settings kedb matches with.
//
//   auto compiled = CompilePython(record.regex);
//   if (!compiled.ok()) { ...report compiled.status() (message, offset)... }
//   if (compiled->Search(log_text)) { ... }
//
// Matching never hangs and never throws: every search runs under a match
// limit, a depth limit and a heap limit, and hitting one counts as "no
// match". Subjects need not be valid UTF-8 (PCRE2_MATCH_INVALID_UTF).

#ifndef KEDB_REGEX_PCRE2_REGEX_H_
#define KEDB_REGEX_PCRE2_REGEX_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "regex/python_regex.h"

struct pcre2_real_code_8;  // pcre2_code, kept out of this header

namespace kedb::regex {

struct Pcre2Options {
  bool caseless = true;  // kedb applies every record's regex case-insensitively
  bool utf = true;       // UTF-8 with Unicode properties (PCRE2_UTF | PCRE2_UCP)
  // Backtracking budget per search (PCRE2 "match limit"); a catastrophic
  // pattern gives up after about this many steps.
  std::uint32_t match_limit = 1'000'000;
  // Nesting budget for the interpreter (ignored by the JIT, which has its
  // own stack, whose exhaustion also counts as no match).
  std::uint32_t depth_limit = 10'000;
  std::uint32_t heap_limit_kib = 64 * 1024;  // backtracking memory per search
  // Searches run interpreted before the pattern is JIT-compiled: 0 compiles
  // it at once. JIT compiling costs tens of microseconds, about what the
  // interpreter spends on a hundred short lines, so a caller that compiles
  // many patterns of which most are tried a few times (a large knowledge
  // base's candidates) defers it.
  std::uint32_t jit_after = 0;
};

// [begin, end) byte offsets into the subject.
using Span = std::pair<std::size_t, std::size_t>;

// Movable, not copyable. Const methods are safe to call from many threads at
// once: per-call scratch (match data, JIT stack) is thread_local.
class Pcre2Regex {
 public:
  // Compiles a PCRE2 pattern, e.g. PatternInfo::pcre2, and JIT-compiles it
  // when the JIT is available (falling back to the interpreter otherwise),
  // at once or on its options.jit_after-th search.
  // Patterns with atomic groups or possessive quantifiers are not JITed:
  // PCRE2 10.42's JIT returns wrong matches for some of them.
  // Newline is LF and PCRE2_ALT_CIRCUMFLEX is set, so ^ $ . behave as in
  // Python. On failure returns PCRE2's message and offset into the pattern.
  // Cost: proportional to the pattern; JIT adds tens of microseconds.
  static Result<Pcre2Regex> Compile(std::string_view pcre2_pattern, const Pcre2Options& options = {});

  Pcre2Regex(Pcre2Regex&& other) noexcept;
  Pcre2Regex& operator=(Pcre2Regex&& other) noexcept;
  Pcre2Regex(const Pcre2Regex&) = delete;
  Pcre2Regex& operator=(const Pcre2Regex&) = delete;
  ~Pcre2Regex();

  // The leftmost match in `text`, or nullopt when there is none or a limit
  // was hit. Cost: one pcre2_match call, no allocation after a thread's
  // first search.
  std::optional<Span> Find(std::string_view text) const;
  bool Search(std::string_view text) const { return Find(text).has_value(); }

  // Groups of the leftmost match, group 0 first; a group that took no part
  // in the match is nullopt. nullopt when there is no match. Allocates.
  std::optional<std::vector<std::optional<Span>>> Captures(std::string_view text) const;

  // Number of capture groups, group 0 not counted.
  std::size_t capture_count() const { return group_names_.empty() ? 0 : group_names_.size() - 1; }
  // group_names()[i] is the name of group i, "" when unnamed; size is
  // capture_count() + 1.
  const std::vector<std::string>& group_names() const { return group_names_; }
  const std::string& pattern() const { return pattern_; }
  // Whether searches run JIT-compiled now.
  bool jit_compiled() const { return jit_code_.load(std::memory_order_acquire) != nullptr; }

  // Whether this build of PCRE2 has a JIT for this machine.
  static bool JitAvailable();

 private:
  Pcre2Regex() = default;
  // pcre2_match() with this regex's limits; returns its result code.
  int Match(std::string_view text, std::size_t pairs, std::vector<Span>* spans,
            std::vector<bool>* set) const;
  // The code searches run with: the JIT-compiled copy once there is one,
  // made by the search that reaches options_.jit_after.
  const pcre2_real_code_8* CodeForSearch() const;
  void FreeCode();

  pcre2_real_code_8* code_ = nullptr;  // interpreted
  // A JIT-compiled copy of code_ (pcre2_code_copy), or null. The copy is
  // published whole, so searches running interpreted on code_ meanwhile
  // are never disturbed.
  mutable std::atomic<pcre2_real_code_8*> jit_code_{nullptr};
  mutable std::atomic<std::uint32_t> searches_{0};
  bool may_jit_ = false;  // the JIT is available and trusted with this pattern
  Pcre2Options options_;
  std::string pattern_;
  std::vector<std::string> group_names_;
};

// Parses `python_pattern` as Python's `re` does (ParsePythonRegex) and
// compiles its translation. Python's errors come with offsets into the
// Python pattern; a translation PCRE2 still rejects (rare: PCRE2 limits)
// comes back as "PCRE2: <message>" at offset 0.
Result<Pcre2Regex> CompilePython(std::string_view python_pattern, const Pcre2Options& options = {});

}  // namespace kedb::regex

#endif  // KEDB_REGEX_PCRE2_REGEX_H_
