// A thread's error lines as candidate signatures, and a pattern for them.
//
// Error lines are masked and grouped the way unknown errors in a log are
// (logs/cluster.h: numbers, hex, paths and quoted names become
// placeholders; lines that differ only there share a template). The
// thread's error is the first candidate in this order: seen in the opening
// post, surer (ThreadLine::strength), more frequent, earlier. Its pattern
// is the line's phrase (PhrasePattern), or the template's own pattern when
// there is no phrase or it misses one of the lines; it must match every
// line it stands for and no other line of the thread (a copy of one of its
// lines aside), or the next candidate is tried.
//
// A thread whose error is not an error message (a wrong result, a NaN)
// has no error lines; its symptom lines stand in: program output that
// recurs in two or more posts and says something is false, NaN or failed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kedb::mine {

struct ThreadLine {
  std::string text;
  std::size_t post = 0, line = 0;  // 1-based line in the post
  // How surely the line names the error: 2 an exception, panic, compiler or
  // library error; 1 a logger's error line or a known error's pattern; 0 a
  // line of output that only says something failed.
  int strength = 1;
};

struct SignatureCandidate {
  std::string masked;    // "CUDA out of memory. Tried to allocate <NUM> MiB ..."
  std::string example;   // the first line as written
  std::size_t count = 0; // lines in the thread it stands for
  std::size_t post = 0, line = 0;  // where the example is
  std::string regex;     // its own pattern (Python re)
  bool kept = false;     // its pattern is part of Signatures::regex
};

struct Signatures {
  std::vector<SignatureCandidate> candidates;  // most frequent first
  std::string regex;             // Python re; "" when there is nothing to match
  std::size_t lines_matched = 0; // error lines the pattern matches
  std::size_t lines = 0;         // error lines in all
  std::vector<ThreadLine> false_hits;  // other lines a dropped branch fired on (at most 5)
  bool from_symptoms = false;    // no error line: symptom lines stood in
};

// `errors`: the error lines found (a scan's decisive lines); `others`: the
// thread's remaining lines (prose and output, quotes excluded).
Signatures BuildSignatures(const std::vector<ThreadLine>& errors, const std::vector<ThreadLine>& others);

// The words of `line` that say what the error is, as a pattern: after a
// log prefix in brackets and a class or level ("RuntimeError:", "ERROR:"),
// the run of three to ten words of the message with the most words, within
// one sentence. Values (numbers and their units, paths, URLs, hex, file
// names, options, key=value, first quoted names) are what differ between
// two reports: one alone within the run becomes \S+, two end it. The words
// are escaped and joined by \s+. "" when there is no such run.
std::string PhrasePattern(std::string_view line);

// `text` as a Python `re` pattern that matches it literally.
std::string EscapedLiteral(std::string_view text);

// Lines of program output that say something failed (logs/line_kinds.h),
// warnings, comments and exit statuses aside, with strength 0: they stand
// beside the error blocks a scan found, and for them when there are none.
std::vector<ThreadLine> FailureLines(const std::vector<ThreadLine>& output_lines, std::size_t limit = 8);

// Output lines that recur in two or more posts (up to numbers) and say
// something is false, NaN or failed, at most `limit`.
std::vector<ThreadLine> SymptomLines(const std::vector<ThreadLine>& output_lines, std::size_t limit = 8);

}  // namespace kedb::mine
