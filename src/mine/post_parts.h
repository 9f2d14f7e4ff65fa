// A post read as a curator reads it: prose sentences apart from code,
// program output and quoted replies, and the links it gives.
//
// Code is what a closed fence (```) holds, an interpreter prompt (">>> ",
// "$ ", "In [3]: ") and its output (up to a blank line or a line of
// prose), a shell command on a line of its own (pip, conda, curl, docker,
// kubectl, git, npm, cargo, ...), a line that reads as source (an import,
// an assignment, a call) and a tool's report (runs of "Key: value" lines,
// as lscpu or a diagnose script prints them). Quoted lines ("> ...") repeat an earlier post and are
// not the poster's own words. Everything else is prose, cut into sentences
// at ". ", "? ", "! " and line ends.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kedb::mine {

enum class PartKind { kProse, kCode, kQuote };

struct Sentence {
  std::string text;     // trimmed, markup (`**`, leading "- ") removed
  std::size_t line = 0; // 1-based line in the post body where it starts
};

struct CodeSnippet {
  std::string text;     // the lines, as written, each ending in '\n'
  std::string language; // the fence's info string ("python", "bash"), or ""
  std::size_t line = 0; // first line, 1-based
};

struct Link {
  std::string url;
  std::size_t line = 0;
  std::size_t post = 0;  // set by whoever reads several posts
};

struct PostParts {
  std::vector<Sentence> sentences;   // prose only
  std::vector<CodeSnippet> code;     // fenced blocks, prompts, commands
  std::vector<Link> links;           // from prose and code alike, in order, each once
  // Every line's kind, by 1-based line number minus one: the error lines
  // and dumps are looked for in prose and code, never in quotes.
  std::vector<PartKind> line_kinds;
};

PostParts SplitPost(std::string_view body);

// For each line, whether it is inside a closed ``` or ~~~ fence (the fences
// included). An opening fence never closed counts as an ordinary line:
// copied threads often lose the closing one.
std::vector<bool> FencedLines(const std::vector<std::string_view>& lines);

// Whether `line` (trimmed) is a shell command a reader could run.
bool IsCommandLine(std::string_view line);

}  // namespace kedb::mine
