#include "logs/line_kinds.h"

#include <algorithm>
#include <array>
#include <string>

#include "logs/block_starts.h"

namespace kedb::logs {
namespace {

bool WordByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Whether `word` occurs in `s` with no letter or digit right before it (or
// a lower-case letter before it: "DeprecationWarning") and none after it.
bool HasWord(std::string_view s, std::string_view word, bool camel_suffix) {
  for (std::size_t at = s.find(word); at != std::string_view::npos; at = s.find(word, at + 1)) {
    const bool left = at == 0 || !WordByte(s[at - 1]) || (camel_suffix && s[at - 1] >= 'a' && s[at - 1] <= 'z');
    const std::size_t end = at + word.size();
    const bool right = end == s.size() || !WordByte(s[end]);
    if (left && right) return true;
  }
  return false;
}

bool Lower(char c) { return c >= 'a' && c <= 'z'; }
bool Upper(char c) { return c >= 'A' && c <= 'Z'; }

// Whether `phrase` (lower case) starts at s[at] as whole words: no letter or
// digit around it, unless a case change marks the edge (CamelCase).
bool WholeAt(std::string_view s, std::size_t at, std::size_t size) {
  const std::size_t end = at + size;
  const bool left = at == 0 || !WordByte(s[at - 1]) || (Lower(s[at - 1]) && Upper(s[at]));
  const bool right = end >= s.size() || !WordByte(s[end]) || (Lower(s[end - 1]) && Upper(s[end]));
  return left && right;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

// "  Warning  BackOff  ..." : a Kubernetes event row of type Warning, the
// columns apart by two or more blanks or by tabs.
bool IsEventRow(std::string_view line) {
  for (std::size_t at = line.find("Warning"); at != std::string_view::npos; at = line.find("Warning", at + 1)) {
    const bool left = at == 0 || line[at - 1] == ' ' || line[at - 1] == '\t';
    std::size_t i = at + 7;
    const bool tab = i < line.size() && line[i] == '\t';
    const bool two = i + 1 < line.size() && line[i] == ' ' && line[i + 1] == ' ';
    if (!left || (!tab && !two)) continue;
    i = line.find_first_not_of(" \t", i);
    if (i != std::string_view::npos && Upper(line[i])) return true;
  }
  return false;
}

bool IsWarningLine(std::string_view line) {
  line = line.substr(0, std::min<std::size_t>(line.size(), 200));
  if (IsEventRow(line)) return false;
  if (HasWord(line, "Warning", /*camel_suffix=*/true)) return true;  // DeprecationWarning, "Warning: x"
  for (std::string_view w : {"WARNING", "WARN", "warning", "warn", "Warn"}) {
    if (HasWord(line, w, false)) return true;
  }
  return false;
}

bool NamesAnError(std::string_view line) {
  line = line.substr(0, std::min<std::size_t>(line.size(), 300));
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (!(c >= 'A' && c <= 'Z')) continue;
    const char before = i == 0 ? ' ' : line[i - 1];
    if (before != ' ' && before != '"' && before != '\'' && before != '[' && before != '(') continue;
    if (IsExceptionLine(line.substr(i))) return true;
  }
  return false;
}

// A test runner's line for a check that passed: "✓ rejects a bad token
// (12 ms)", "PASS src/a.test.ts", "--- PASS: TestFail (0.00s)", "ok
// example.com/pkg 0.01s", "tests/test_io.py::test_fails PASSED [ 40%]".
// Its words are a test's name, whatever they say.
bool ReportsPass(std::string_view line) {
  const std::size_t b = line.find_first_not_of(" \t");
  if (b == std::string_view::npos) return false;
  std::string_view t = line.substr(b);
  for (std::string_view mark : {"\u2713", "\u2714", "\u221a", "PASS ", "PASS\t", "--- PASS:", "ok  ", "ok\t"}) {
    if (t.starts_with(mark)) return true;
  }
  const std::size_t passed = t.find(" PASSED");
  return passed != std::string_view::npos && t.find("::") < passed;
}

bool IsSourceLine(std::string_view t) {
  std::size_t i = 0;
  auto skip_spaces = [&] {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
  };
  skip_spaces();
  // IPython's arrow at the failing line, then the line number.
  while (i < t.size() && t[i] == '-') ++i;
  if (i < t.size() && t[i] == '>') ++i;
  skip_spaces();
  const std::size_t digits = i;
  while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
  if (i > digits) {
    if (i == t.size() || (t[i] != ' ' && t[i] != '\t')) return false;  // "404 Not Found" has no code after it
    skip_spaces();
    // A code frame (Babel, webpack, Vite, ESLint, rustc): "> 60 |   this.setState({ error });".
    if (i < t.size() && t[i] == '|') return true;
  }
  const std::string_view code = t.substr(i);
  for (std::string_view keyword : {"raise ", "except ", "except:", "assert ", "throw "}) {
    if (code.substr(0, keyword.size()) == keyword) return true;
  }
  return false;
}

bool IsGoDiagnostic(std::string_view t) {
  const std::size_t ext = t.find(".go:");
  if (ext == std::string_view::npos || ext == 0 || t.substr(0, ext).find(' ') != std::string_view::npos) return false;
  std::size_t i = ext + 4;
  for (int field = 0; field < 2; ++field) {  // line, then column
    const std::size_t digits = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    if (i == digits || i >= t.size() || t[i] != ':') return false;
    ++i;
    if (field == 0 && i < t.size() && t[i] == ' ') {
      // No column: Go before 1.10, and messages only the compiler writes
      // ("errcheck/main.go:196: cannot use exprFn (type func(...)) as type
      // ..."); a test's own log line has the same shape.
      const std::string_view message = t.substr(i + 1);
      for (std::string_view phrase : {"cannot use ", "undefined: ", "imported and not used", "declared and not used",
                                      "declared but not used", "syntax error: ", "missing return", "too many arguments",
                                      "not enough arguments", "invalid operation: "}) {
        if (message.starts_with(phrase)) return true;
      }
      return false;
    }
  }
  return i + 1 < t.size() && t[i] == ' ';
}

bool StatesFailure(std::string_view line) {
  line = line.substr(0, std::min<std::size_t>(line.size(), 400));
  if (ReportsPass(line)) return false;
  if (IsGoDiagnostic(line)) return true;
  const std::string l = Lower(line);
  static const std::array<std::string_view, 52> kWords = {
      "error",     "exception", "fatal",     "failed",       "failure",    "fail",       "fails",
      "panic",     "refused",   "denied",    "cannot",       "can't",      "unable",     "not found",
      "no such",   "timed out", "timeout",   "invalid",      "crash",      "crashed",    "killed",
      "abort",     "aborted",   "unknown",   "unauthorized", "forbidden",  "did not",    "could not",
      "couldn't",  "unreachable", "unavailable", "out of memory", "segmentation fault", "traceback",
      "blocked",   "not allowed", "emerg",   "insufficient", "exceeded",   "exhausted",  "mismatch",
      "incompatible", "conflict", "expired",   "evicted",      "unhealthy",  "corrupt",    "deadlock",
      "violation", "oomkilled", "overflowed", "will not fit"};
  for (std::string_view w : kWords) {
    for (std::size_t at = l.find(w); at != std::string::npos; at = l.find(w, at + 1)) {
      if (WholeAt(line, at, w.size())) return true;
    }
  }
  return false;
}

bool ReadsAsAdvice(std::string_view line) {
  static constexpr std::array<std::string_view, 14> kOpenings = {
      "Please ",      "Try ",       "Consider ",  "Did you mean", "You can ",  "You may ",   "You should ",
      "You might ",   "You must ",  "You need ",  "Make sure ",   "To fix ",   "To resolve ", "If you "};
  return std::any_of(kOpenings.begin(), kOpenings.end(), [&](std::string_view o) { return line.starts_with(o); });
}

bool IsWrapperLine(std::string_view line) {
  std::string l = Lower(line.substr(0, std::min<std::size_t>(line.size(), 300)));
  std::replace(l.begin(), l.end(), '-', ' ');  // pip's "subprocess-exited-with-error"
  static const std::array<std::string_view, 14> kReports = {
      "exit code",          "exit status",           "exited with",
      "returned exit code", "did not complete successfully", "job failed",
      "command failed",     "build failed with an exception", "non-zero exit",
      "(exitcode: ",  // torch elastic: "failed (exitcode: 1) local_rank: 0 (pid: 51) of binary: ..."
      "job step aborted",  // Slurm's srun: "srun: Job step aborted: Waiting up to 32 seconds for job step to finish."
      // systemd's report on a unit whose process failed: the cause is in
      // the unit's own log lines.
      ".service: main process exited, code=", ".service: failed with result '", " entered failed state"};
  for (std::string_view r : kReports) {
    if (l.find(r) != std::string::npos) return true;
  }
  // wandb's teardown after the run's process exited 1: "wandb: Waiting for
  // W&B process to finish... (failed 1)."
  if (const std::size_t at = l.find("(failed "); at != std::string::npos && at + 8 < l.size() &&
      l[at + 8] >= '0' && l[at + 8] <= '9') {
    return true;
  }
  // make: "make: *** [Makefile:36: all] Error 2", "make[1]: *** ... Error 1"
  return l.rfind("make", 0) == 0 && l.find("*** ") != std::string::npos && l.find("] error ") != std::string::npos;
}

bool ReportsFailedExit(std::string_view line) {
  if (!IsWrapperLine(line)) return false;
  const std::string l = Lower(line.substr(0, std::min<std::size_t>(line.size(), 300)));
  // The number after the first phrase that names a status. A line without
  // one ("FAILURE: Build failed with an exception.") heads the report it
  // wraps, which is read on its own.
  static const std::array<std::string_view, 7> kStatus = {"exit code", "exit status", "exitcode", "exited with code",
                                                          "exited with", "status=", "error "};
  for (std::string_view phrase : kStatus) {
    std::size_t at = l.find(phrase);
    if (at == std::string::npos) continue;
    at += phrase.size();
    while (at < l.size() && (l[at] == ' ' || l[at] == ':' || l[at] == '(')) ++at;
    if (at == l.size() || l[at] < '0' || l[at] > '9') continue;
    std::size_t end = at;
    while (end < l.size() && l[end] >= '0' && l[end] <= '9') ++end;
    return l.substr(at, end - at).find_first_not_of('0') != std::string::npos;
  }
  return false;
}

}  // namespace kedb::logs
