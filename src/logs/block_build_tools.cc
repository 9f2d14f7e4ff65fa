// Block readers for what build tools and frameworks print around an
// error: Maven's and Gradle's failure output, Spring Boot's report, and
// pytest's summary lines (see blocks.h).
#include <algorithm>

#include "logs/block_starts.h"
#include "logs/blocks.h"
#include "util/strings.h"

namespace kedb::logs {
namespace {

using util::Trim;

bool Digit(char c) { return c >= '0' && c <= '9'; }

// The text after Maven's level prefix `level` ("[ERROR]"), trimmed.
bool MavenLevel(std::string_view t, std::string_view level, std::string_view* body) {
  if (!t.starts_with(level)) return false;
  *body = Trim(t.substr(level.size()));
  return true;
}

// A compiler error as Maven's compiler plugin prints it: a source file and
// "[line,column]" ("/src/App.java:[42,41] error: cannot find symbol").
bool IsMavenCompileError(std::string_view body) {
  const std::size_t at = body.find(":[");
  if (at == std::string_view::npos || at + 2 >= body.size() || !Digit(body[at + 2])) return false;
  const std::size_t close = body.find(']', at);
  return close != std::string_view::npos && body.substr(at, close - at).find(',') != std::string_view::npos;
}

// What Maven prints after every failure, whatever failed.
bool IsMavenBoilerplate(std::string_view body) {
  if (body.empty() || body == "-> [Help 1]") return true;
  for (std::string_view p : {"To see the full stack trace", "Re-run Maven using", "For more information about the errors",
                             "[Help ", "After correcting the problems", "mvn <args>", "Please refer to "}) {
    if (body.starts_with(p)) return true;
  }
  return false;
}

// The [INFO] lines between a failure's parts: rules, the BUILD FAILURE
// banner with its times, the count of compiler errors, the reactor summary.
bool IsMavenBanner(std::string_view body) {
  if (body.empty() || IsRule(body, '-') || body == "BUILD FAILURE") return true;
  for (std::string_view p : {"Total time", "Finished at", "Final Memory", "Reactor Summary"}) {
    if (body.starts_with(p)) return true;
  }
  for (std::string_view status : {" SUCCESS [", " FAILURE [", " SKIPPED"}) {
    if (body.find(status) != std::string_view::npos) return true;
  }
  std::size_t i = 0;
  while (i < body.size() && Digit(body[i])) ++i;
  const std::string_view rest = Trim(body.substr(i));
  return i > 0 && (rest == "error" || rest == "errors");
}

}  // namespace

bool BlockSegmenter::StartMaven(std::size_t line_no, std::string_view t) {
  std::string_view body;
  if (!MavenLevel(t, "[ERROR]", &body)) return false;
  if (IsMavenBoilerplate(body)) return true;  // never an error of its own
  const bool header = body.starts_with("COMPILATION ERROR");
  if (!header && !body.starts_with("Failed to execute goal")) return false;
  Open(State::kMaven, BlockKind::kErrorLine, line_no, text_, origin_);
  SetDecisive(line_no, t);
  maven_rank_ = header ? 0 : 1;
  return true;
}

bool BlockSegmenter::ContinueMaven(const LineView& line) {
  const auto& [line_no, text, t, blank, indented, mark] = line;
  std::string_view body;
  if (MavenLevel(t, "[ERROR]", &body)) {
    const int rank = IsMavenCompileError(body) ? 2 : body.starts_with("Failed to execute goal") ? 1 : -1;
    if (rank > maven_rank_) {
      SetDecisive(line_no, t);
      maven_rank_ = rank;
      if (rank == 2) current_.kind = BlockKind::kCompiler;
    } else if (rank == 2 && t != current_.decisive && current_.frames.size() < kMaxFrames / 2 &&
               std::find(current_.frames.begin(), current_.frames.end(), t) == current_.frames.end()) {
      AddFrame(line_no, t);  // the other compiler errors, once (Maven prints them again under the goal)
    } else {
      Extend(line_no);  // details ("symbol: class Foo"), test results, IsMavenBoilerplate
    }
    return true;
  }
  if (MavenLevel(t, "[INFO]", &body)) {
    if (!IsMavenBanner(body)) return CloseBefore();
    Extend(line_no);
    return true;
  }
  // javac's detail lines under an error, and with -e the exception and its
  // frames that Maven prints after "Failed to execute goal".
  if ((indented && !blank) || IsExceptionLine(t) || t.starts_with("Caused by:")) {
    Extend(line_no);
    return true;
  }
  return CloseBefore();
}

bool BlockSegmenter::StartGradle(std::size_t line_no, std::string_view t) {
  if (t != "* What went wrong:") return false;
  Open(State::kGradle, BlockKind::kErrorLine, line_no, text_, origin_);
  SetDecisive(line_no, t);  // named by its header until the first line of text comes
  have_decisive_ = false;
  return true;
}

// Gradle's section ends at the next "* Try:" (or any "* " heading), or at a
// blank line after its text. Its first line says which task failed
// ("Execution failed for task ':app:compileDebugKotlin'."); each "> " line
// under it is a deeper cause, and the deepest is what went wrong
// ("> Duplicate class kotlin.collections... found in modules ...").
bool BlockSegmenter::ContinueGradle(const LineView& line) {
  const auto& [line_no, text, t, blank, indented, mark] = line;
  if (t.starts_with("* ") || (blank && have_decisive_)) return CloseBefore();
  if (blank) return true;
  if (current_.frames.size() + 1 >= kMaxFrames) {
    Extend(line_no);
    return true;
  }
  if (!have_decisive_ || t.starts_with("> ")) {
    if (have_decisive_) AddFrame(current_.decisive_line, current_.decisive);
    SetDecisive(line_no, t.starts_with("> ") ? Trim(t.substr(2)) : t);
    return true;
  }
  AddFrame(line_no, t);  // the cause's own details, indented under it
  return true;
}

bool BlockSegmenter::StartSpring(std::size_t line_no, std::string_view t) {
  if (t != "APPLICATION FAILED TO START") return false;
  Open(State::kSpring, BlockKind::kErrorLine, line_no, text_, origin_);
  SetDecisive(line_no, t);  // until the description comes
  have_decisive_ = false;
  spring_part_ = 0;
  return true;
}

// The report between rules of asterisks: "Description:", its text (what
// failed: "Web server failed to start. Port 8080 was already in use."),
// "Action:", its text; a blank line after the action's text ends it.
bool BlockSegmenter::ContinueSpring(const LineView& line) {
  const auto& [line_no, text, t, blank, indented, mark] = line;
  if (blank) {
    if (spring_part_ == 3) return CloseBefore();
    return true;
  }
  if (IsRule(t, '*')) {
    Extend(line_no);
  } else if (t == "Description:" || t == "Action:") {
    spring_part_ = t == "Action:" ? 2 : 1;
    Extend(line_no);
  } else if (spring_part_ == 1 && !have_decisive_) {
    SetDecisive(line_no, t);
  } else if (spring_part_ >= 1) {
    AddFrame(line_no, t);
    if (spring_part_ == 2) spring_part_ = 3;
  } else {
    return CloseBefore();
  }
  return true;
}

void BlockSegmenter::RememberPytestFailure(long index) {
  if (index >= 0 && !pytest_name_.empty() && pytest_failures_.size() < kMaxBlocks) {
    pytest_failures_.emplace(pytest_name_, index);
  }
  pytest_name_.clear();
}

bool BlockSegmenter::RestatesPytestFailure(std::size_t line_no, std::string_view t) {
  if (pytest_failures_.empty()) return false;
  const std::string name = PytestSummaryName(t);
  if (name.empty()) return false;
  auto it = pytest_failures_.find(name);
  if (it == pytest_failures_.end()) return false;
  Block& shown = blocks_[static_cast<std::size_t>(it->second)];
  if (shown.restatements.size() < kMaxOccurrences) shown.restatements.push_back(line_no);
  last_block_end_ = std::max(last_block_end_, line_no);
  return true;
}

}  // namespace kedb::logs
