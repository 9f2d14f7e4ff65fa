#include "logs/triggers.h"

#include <xxhash.h>

#include <algorithm>
#include <string>

#include "logs/line_chunker.h"
#include "regex/hs_database.h"

namespace kedb::logs {
namespace {

// Case-insensitive. Every start condition in blocks.cc contains one.
const std::vector<std::string>& TriggerWords() {
  static const std::vector<std::string> words = {
      "error", "exception", "traceback", "panic", "fatal", "critical", "severe", "failed", "failure",
      "fault", "throwable", "interrupt", "exit", "cuda", "cudnn", "cublas", "cusolver", "cufft", "nccl",
      "watchdog", "device-side", "npm err", "___", "caused by", "terminate called",
      // Gradle's "* What went wrong:"; Next.js marks an error with "⨯";
      // apt's "E: " at a line's start; curl's "curl: (60) ..."; pnpm's
      // "ERR_PNPM_..."; Elixir's "** (Mix) ...".
      "what went wrong", "\u2a2f", "\ne: ", "curl: (", "err_pnpm", "** (",
      // Jupyter's "[E 10:08:13 ...]"; Jest's "FAIL src/a.test.ts" and
      // "● Suite › test"; Ruby's
      // "file.rb:12:in `m': boom (RuntimeError)"; kubectl's "Unable to
      // connect to the server"; Kotlin's "App.kt: (195, 24): ...".
      "[e ", "[c ", "fail ", "\u25cf ", ":in `", ":in '", "unable to connect to the server", ".kt: (",
      // Go's compiler names no level: "./main.go:12:5: undefined: foo".
      ".go:"};
  return words;
}

// Case-insensitive, found anywhere in a line. Words of trouble in any
// domain's messages; generous, since a problem line missed here loses the
// broad patterns' matches on it, while an extra one costs a little time.
const std::vector<std::string>& ProblemWords() {
  static const std::vector<std::string> words = {
      // failing and refusing
      "err!", "err_", "err:", "abort", "crash", "kill", "denied", "refused", "reject", "forbidden", "unauthori",
      "permission", "cannot", "unable", "not ", "n't", "no such", "no module", "no space", "miss", "out of ",
      "is down", "unavailable", "unreachable", "disconnect", "lost", "closed", "cancel", "moved", "removed",
      // waiting
      "timeout", "timed out", "time out", "deadline", "stuck", "hang", "slow", "busy", "blocked", "retry",
      "retries", "backoff", "throttl", "behind",
      // wrong content
      "invalid", "illegal", "unexpected", "unknown", "unsupported", "mismatch", "undefined", "nan", "null",
      "empty", "stale", "duplicate", "already", "circular", "cycle", "conflict", "incompatible", "corrupt",
      "broken", "wrong", "irrelevant", "unassigned", "stopiteration", "detached", "diverged", "readonly",
      "read-only", "read only", "bad request", "bad gateway",
      // limits and health
      "overflow", "deadlock", "leak", "exceed", "limit", "too many", "too large", "too long", "insufficient",
      "exhausted", "unhealthy", "evicted", "notready", "expired", "core dumped", "errno", "oom", "assert",
      // warnings and security
      "warn", "deprecat", "silently", "detected", "excessive", "violat", "unsafe", "insecure", "injection",
      "vulnerab", "redirect", "traversal",
      // Chinese: warning, error, failure, exception
      "警告", "错误", "失败", "异常"};
  return words;
}

// The trigger words alone, or followed by the problem words.
const regex::HsDatabase* Database(bool problem_lines) {
  static const auto compile = [](bool problem) -> const regex::HsDatabase* {
    std::vector<std::string> words = TriggerWords();
    if (problem) words.insert(words.end(), ProblemWords().begin(), ProblemWords().end());
    auto compiled = regex::HsDatabase::CompileLiterals(words);
    return compiled.ok() ? new regex::HsDatabase(std::move(compiled).value()) : nullptr;
  };
  // Each compiled on first use: a scan of a knowledge base without broad
  // patterns never needs the larger one.
  if (problem_lines) {
    static const regex::HsDatabase* problems = compile(true);
    return problems;
  }
  static const regex::HsDatabase* triggers = compile(false);
  return triggers;
}

}  // namespace

void MarkTriggerLines(std::string_view text, const std::vector<std::size_t>& starts, bool problem_lines,
                      std::vector<uint8_t>* flags) {
  flags->assign(starts.size(), 0);
  const regex::HsDatabase* db = Database(problem_lines);
  if (!db) {  // cannot happen with a working Hyperscan; then test every line
    flags->assign(starts.size(), kTriggerLine | kProblemLine);
    return;
  }
  LineCursor lines(starts);
  const std::size_t triggers = TriggerWords().size();
  db->Scan(text, [&](unsigned id, unsigned long long end) {
    (*flags)[lines.LineOfEnd(end)] |= id < triggers ? (kTriggerLine | kProblemLine) : kProblemLine;
  });
}

bool HoldsProblemWord(std::string_view text) {
  const regex::HsDatabase* db = Database(/*problem_lines=*/true);
  if (!db) return false;  // then every line is marked, and nothing is gained
  bool found = false;
  db->Scan(text, [&](unsigned, unsigned long long) { found = true; });
  return found;
}

uint64_t ProblemWordsKey() {
  static const uint64_t key = [] {
    XXH3_state_t* st = XXH3_createState();
    XXH3_64bits_reset(st);
    for (const auto* words : {&TriggerWords(), &ProblemWords()}) {
      for (const std::string& w : *words) XXH3_64bits_update(st, w.data(), w.size() + 1);  // with its '\0'
    }
    const uint64_t digest = XXH3_64bits_digest(st);
    XXH3_freeState(st);
    return digest;
  }();
  return key;
}

}  // namespace kedb::logs
