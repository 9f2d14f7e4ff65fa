// Long log-shaped evaluation cases: an error people pasted in an issue thread
// (a traceback, an npm block, a compiler error), placed inside a whole CI or
// batch job log of thousands of lines, where the failing step would print it.
// Unlike wrap.h's 20-80 lines of noise, these logs have the step structure,
// the install, build and test output, and the benign problem-sounding lines
// (deprecation warnings, "0 errors", retries) that a scanner must read past.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kedb::eval {

struct LongLog {
  std::string text;             // the whole log, '\n'-terminated lines
  std::size_t error_first = 0;  // 1-based line range where the error text was placed
  std::size_t error_last = 0;
};

// "github" (Actions raw log), "buildkit" (docker build --progress=plain),
// "jenkins" (pipeline console), "gitlab" (runner job log), "python" (a long
// training or data job's own output).
const std::vector<std::string>& LongLogStyles();

// A job log of about `lines` lines (within a few percent; callers use
// 4,000-16,000) in `style`, deterministic in `seed`, with `error_text` (one or
// more lines, used verbatim line by line after the style's line prefix) placed
// where the job's failing step prints it. Throws std::invalid_argument for a
// style not in LongLogStyles().
LongLog MakeLongLog(const std::string& error_text, const std::string& style, uint64_t seed, std::size_t lines);

}  // namespace kedb::eval
