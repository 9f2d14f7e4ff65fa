// The readers of an open block, one per kind (BlockSegmenter::Continue*):
// each decides whether a line carries the block on, ends it, or ends it and
// is read again as a line of its own. blocks.cc holds the rest of the
// segmenter.
#include <algorithm>

#include "logs/block_starts.h"
#include "logs/blocks.h"
#include "logs/line_kinds.h"
#include "util/strings.h"

namespace kedb::logs {
namespace {

using util::Contains;
using util::Trim;
using util::TrimLeft;

bool Digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool BlockSegmenter::CloseBefore() {
  Close();
  return false;
}

void BlockSegmenter::FrameOrLine(std::size_t line_no, std::string_view t, bool frame) {
  if (frame) {
    AddFrame(line_no, t);
  } else {
    Extend(line_no);
  }
}

bool BlockSegmenter::ContinuePython(const LineView& line) {
  const auto& [line_no, text, t, blank, indented, mark] = line;
  // Frames are indented deeper than the "Traceback" line; the exception
  // line is not (pip and other tools indent a child's whole output).
  std::size_t indent = text.size() - TrimLeft(text).size();
  if (blank) {
    if (++blank_run_ >= 2) {
      last_python_ = Close();
      return false;
    }
  } else if (indent > traceback_indent_ || IsElisionLine(t)) {
    blank_run_ = 0;
    FrameOrLine(line_no, t, t.starts_with("File \""));
  } else if (IsPythonFrame(t) && !headerless_) {
    // A frame pasted flush left (a paste's indentation lost on the way)
    // is still a frame, not the exception line.
    blank_run_ = 0;
    AddFrame(line_no, t);
  } else if (t == "Traceback (most recent call last):" || (headerless_ && !IsExceptionLine(t))) {
    // A traceback cut short; or frames without a header that no
    // exception line ends, which are no traceback (Close drops them).
    last_python_ = Close();
    return false;
  } else {
    ReadException(line_no, t);
  }
  return true;
}

bool BlockSegmenter::ContinueExceptionMessage(const LineView& line) {
  const auto& [line_no, text, t, blank, indented, mark] = line;
  if (ContinuesMessage(text, t, blank)) {
    if (!blank) Extend(line_no);
  } else {
    CloseException(current_.decisive_line, current_.decisive);
    return false;
  }
  return true;
}

bool BlockSegmenter::ContinueIPython(const LineView& line) {
  const auto& [line_no, text, t, blank, indented, mark] = line;
  // Frames, their numbered code lines ("----> 3 f()", "      4 g()") and
  // blank lines between them, up to the exception line, which is the
  // first unindented line that reads as one.
  if (blank || indented || t.starts_with("--") || IsElisionLine(t)) {
    Extend(line_no);
  } else if (IsIPythonFrame(t)) {
    AddFrame(line_no, t);
  } else if (IsExceptionLine(t)) {
    CloseException(line_no, t);
  } else if (t.starts_with("During handling of the above exception") ||
             t.starts_with("The above exception was the direct cause") || IsIPythonHeader(t) ||
             line_no > current_.first_line + kMaxIPythonLines) {
    last_python_ = Close();  // cut short: the header names the exception
    return false;
  } else {
    Extend(line_no);
  }
  return true;
}

bool BlockSegmenter::ContinueStack(const LineView& line) {
  const auto& [line_no, text, t, blank, indented, mark] = line;
  if (IsAtFrame(text)) {
    AddFrame(line_no, t);
  } else if (indented && t.starts_with("...") && t.ends_with("more")) {
    Extend(line_no);
  } else if (t.starts_with("Caused by: ")) {
    // The trace just read is explained by the one starting here.
    long effect = CloseStack();
    Open(State::kStack, current_kind_, line_no, text, origin_);
    SetDecisive(line_no, t.substr(11));
    last_stack_ = effect;
    pending_caused_by_ = effect >= 0;
  } else {
    CloseStack();
    return false;
  }
  return true;
}

bool BlockSegmenter::ContinueRustPanic(const LineView& line) {
  const auto& [line_no, text, t, blank, indented, mark] = line;
  if (blank) {
    Close();
  } else if (!have_decisive_) {
    SetDecisive(line_no, t);  // 1.73+: the message follows "panicked at file:line:col:"
  } else if (t.starts_with("note: ") || t.starts_with("stack backtrace:") ||
             (indented && (Digit(t[0]) || t.starts_with("at ")))) {
    FrameOrLine(line_no, t, indented);
  } else {
    return CloseBefore();
  }
  return true;
}

bool BlockSegmenter::ContinueRustc(const LineView& line) {
  const auto& [line_no, text, t, blank, indented, mark] = line;
  if (blank) {
    Close();
  } else if (indented || t[0] == '|' || (Digit(t[0]) && Contains(t.substr(0, 8), "|")) || t.starts_with("= ") ||
             t.starts_with("help:") || t.starts_with("note:") || t.starts_with("-->")) {
    FrameOrLine(line_no, t, t.starts_with("-->"));
  } else {
    return CloseBefore();
  }
  return true;
}

bool BlockSegmenter::ContinueGo(const LineView& line) {
  const auto& [line_no, text, t, blank, indented, mark] = line;
  if (blank) {
    if (++blank_run_ >= 2) Close();
  } else if (t.starts_with("goroutine ") || (!text.empty() && text[0] == '\t') || t.starts_with("created by ") ||
             t.starts_with("[signal ") || t.starts_with("[recovered]") ||
             (t.ends_with(")") && Contains(t, "(") && !Contains(t, " "))) {
    blank_run_ = 0;
    FrameOrLine(line_no, t, !text.empty() && text[0] == '\t');
  } else if (t.starts_with("exit status ")) {
    Extend(line_no);
    Close();
  } else {
    return CloseBefore();
  }
  return true;
}

bool BlockSegmenter::ContinueNpm(const LineView& line) {
  const auto& [line_no, text, t, blank, indented, mark] = line;
  std::string_view body;
  // node-gyp, which npm runs to build native modules, reports the same way:
  // "gyp ERR! build error", then its stack, system, command and versions.
  if (t.starts_with("npm ERR!") || t.starts_with("gyp ERR!")) {
    body = Trim(t.substr(8));
  } else if (t.starts_with("npm error")) {
    body = Trim(t.substr(9));
  } else {
    return CloseBefore();
  }
  bool detail = body.empty() || body.starts_with("code ") || body.starts_with("errno ") ||
                body.starts_with("syscall ") || body.starts_with("path ") || body.starts_with("A complete log") ||
                body.starts_with("/");
  if (t.starts_with("gyp")) {
    for (std::string_view d : {"stack ", "System ", "command ", "cwd ", "node -v", "node-gyp -v", "not ok"}) {
      detail = detail || body.starts_with(d);
    }
  }
  if (!have_decisive_ && !detail) {
    SetDecisive(line_no, t);
  } else {
    AddFrame(line_no, t);
  }
  return true;
}

bool BlockSegmenter::ContinuePytest(const LineView& line) {
  const auto& [line_no, text, t, blank, indented, mark] = line;
  if (IsPytestHeader(t)) {
    return CloseBefore();
  } else if (IsRule(t, '=')) {
    return CloseBefore();
  } else {
    if (mark == LineMark::kPytestError && (!have_decisive_ || (!IsExceptionLine(current_.decisive) && IsExceptionLine(t)))) {
      SetDecisive(line_no, t);
    } else if (!have_decisive_ && IsExceptionLine(t)) {
      SetDecisive(line_no, t);
    } else if (t.starts_with("File \"") || Contains(t, ".py:")) {
      AddFrame(line_no, t);
    } else {
      Extend(line_no);
    }
  }
  return true;
}

bool BlockSegmenter::ContinueCpp(const LineView& line) {
  const auto& [line_no, text, t, blank, indented, mark] = line;
  // "  what():  message" says what went wrong; "Aborted (core dumped)" ends it.
  // PyTorch's c10 errors carry where they were raised and their native
  // frames: "Exception raised from checkTimeout at ...", "frame #0: ...".
  if (t.starts_with("what():")) {
    SetDecisive(line_no, Trim(t.substr(7)));
  } else if (t.starts_with("frame #")) {
    AddFrame(line_no, t);
  } else if (t.starts_with("Aborted") || t.starts_with("*** ") || t.starts_with("Exception raised from ") ||
             (indented && !blank)) {
    Extend(line_no);
  } else {
    return CloseBefore();
  }
  return true;
}

bool BlockSegmenter::ContinueDetails(const LineView& line) {
  const auto& [line_no, text, t, blank, indented, mark] = line;
  if (indented && !blank && line_no <= current_.first_line + kMaxDetailLines) {
    Extend(line_no);
  } else {
    return CloseBefore();
  }
  return true;
}

bool BlockSegmenter::ContinueCompiler(const LineView& line) {
  const auto& [line_no, text, t, blank, indented, mark] = line;
  if (!blank && (indented || Contains(t.substr(0, std::min<std::size_t>(t.size(), 12)), "|") || Contains(t, ": note: ") ||
                 t.starts_with("In file included from") || t.starts_with("^"))) {
    Extend(line_no);
  } else {
    return CloseBefore();
  }
  return true;
}

}  // namespace kedb::logs
