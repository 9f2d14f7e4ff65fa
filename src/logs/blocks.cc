#include "logs/blocks.h"

#include <algorithm>

#include "logs/line_kinds.h"
#include "util/up_to_numbers.h"

namespace kedb::logs {
namespace {

bool Contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }
bool Space(char c) { return c == ' ' || c == '\t'; }
bool Digit(char c) { return c >= '0' && c <= '9'; }
bool WordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || Digit(c) || c == '_';
}

std::string_view TrimLeft(std::string_view s) {
  while (!s.empty() && Space(s.front())) s.remove_prefix(1);
  return s;
}
std::string_view Trim(std::string_view s) {
  s = TrimLeft(s);
  while (!s.empty() && (Space(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// "RuntimeError: ...", "torch.cuda.OutOfMemoryError: ...", "KeyError",
// "java.lang.IllegalStateException: ...", "Exception in thread "main" ...".
bool IsExceptionLine(std::string_view t) {
  if (t.starts_with("Exception in thread ")) return true;
  std::size_t end = 0;
  while (end < t.size() && (WordChar(t[end]) || t[end] == '.' || t[end] == '$')) ++end;
  if (end == 0 || (end < t.size() && t[end] != ':')) return false;
  std::string_view name = t.substr(0, end);
  for (std::string_view suffix : {"Error", "Exception", "Exit", "Interrupt", "Failure", "Fault", "Throwable"}) {
    if (name.ends_with(suffix)) return true;
  }
  return false;
}

// "  at com.x.Y.z(Y.java:12)", "    at Module._compile (node:internal/...)".
bool IsAtFrame(std::string_view line) {
  if (line.empty() || !Space(line[0])) return false;
  std::string_view t = TrimLeft(line);
  return t.starts_with("at ") && t.size() > 3;
}

// "file.c:12:5: error: ...", "file.ts(3,10): error TS2307: ...",
// "file.ts:3:10 - error TS2307: ...", "file.cpp(12): fatal error C1083: ...",
// and Go's diagnostics.
bool IsCompilerError(std::string_view t) {
  if (IsGoDiagnostic(t)) return true;
  for (std::string_view marker : {": error: ", ": fatal error: ", " - error TS", "): error ", "): fatal error "}) {
    std::size_t at = t.find(marker);
    if (at == std::string_view::npos || at == 0) continue;
    std::string_view where = t.substr(0, at + (marker[0] == ')' ? 1 : 0));
    // The location must end in a line number: "x.c:12:5", "x.ts(3,10)", "x.c:12".
    if (where.back() == ')') {
      std::size_t open = where.rfind('(');
      if (open == std::string_view::npos || open == 0 || !Digit(where[open + 1])) continue;
      return true;
    }
    if (!Digit(where.back()) || Contains(where, " ") || !Contains(where, ":")) continue;
    return true;
  }
  return false;
}

// A Python frame's location line: File "app.py", line 3, in <module>
bool IsPythonFrame(std::string_view t) { return t.starts_with("File \"") && Contains(t, "\", line "); }

// IPython and Jupyter head a traceback with the exception's name, padding
// and "Traceback (most recent call last)" on one line, and print the
// exception line last: "ValueError      Traceback (most recent call last)".
bool IsIPythonHeader(std::string_view t) {
  constexpr std::string_view kTail = "Traceback (most recent call last)";
  if (!t.ends_with(kTail) || t.size() <= kTail.size() + 2) return false;
  std::string_view head = t.substr(0, t.size() - kTail.size());
  if (!Space(head.back()) || !Space(head[head.size() - 2])) return false;
  head = Trim(head);
  for (char c : head) {
    if (!WordChar(c) && c != '.') return false;
  }
  return !head.empty();
}

// A frame's location line in an IPython traceback: "Cell In[3], line 1",
// "File ~/x.py:12, in f(a)", "<ipython-input-3-9f2c> in <module>()",
// "/usr/lib/python3/x.py in f(a)".
bool IsIPythonFrame(std::string_view t) {
  return t.starts_with("Cell In[") || t.starts_with("File ") || t.starts_with("<ipython-input-") ||
         (Contains(t, ".py in ") && !Contains(t.substr(0, t.find(".py in ")), " "));
}

bool IsRustcError(std::string_view t) {
  if (t.starts_with("error: ")) return true;
  if (!t.starts_with("error[E")) return false;
  std::size_t i = 7;
  while (i < t.size() && Digit(t[i])) ++i;
  return i > 7 && std::string_view(t.substr(i)).starts_with("]: ");
}

bool IsPytestHeader(std::string_view t) {
  if (!t.starts_with("___") || !t.ends_with("___")) return false;
  const std::size_t text = t.find_first_not_of('_');
  if (text == std::string_view::npos) return false;  // a rule of underscores
  std::string_view inner = Trim(t.substr(text));
  return !inner.empty() && inner.front() != '_' && Contains(t, " ");
}

bool IsRule(std::string_view t, char c) {  // "==== x ====", "---- y ----"
  return t.size() >= 6 && t[0] == c && t[1] == c && t[2] == c && t.back() == c;
}

// A line a GPU library wrote when it failed.
bool IsGpuError(std::string_view t) {
  for (std::string_view m : {"CUDA error", "CUDNN_STATUS_", "CUBLAS_STATUS_", "CUDA_ERROR_", "CUSOLVER_STATUS_",
                             "CUFFT_", "NCCL error", "ncclSystemError", "ncclInternalError", "ncclInvalidUsage",
                             "ncclUnhandledCudaError", "ncclRemoteError", "Watchdog caught collective operation timeout",
                             "CUDA out of memory", "device-side assert", "cudaErrorIllegalAddress"}) {
    if (Contains(t, m)) return true;
  }
  return false;
}

// A logger's error line: "ERROR ...", "FATAL: ...", "[ERROR] ...",
// "... ERROR launcher: ..." (level within the first words), "Error: ...",
// "FAILED tests/x.py::t - ...", a tool's "CMake Error: ..." / "CMake Error
// at CMakeLists.txt:12 (find_package):", or an exception printed on its own.
bool IsErrorLine(std::string_view t) {
  for (std::string_view p : {"ERROR", "FATAL", "CRITICAL", "[ERROR]", "[FATAL]", "[CRITICAL]", "Error: ", "error: ",
                             "FAILED ", "fatal: "}) {
    if (t.starts_with(p)) return true;
  }
  // One capitalised word, then "Error:" or "Error at".
  if (!t.empty() && t[0] >= 'A' && t[0] <= 'Z') {
    std::size_t i = 1;
    while (i < t.size() && WordChar(t[i])) ++i;
    const std::string_view rest = t.substr(i);
    if (rest.starts_with(" Error: ") || rest.starts_with(" Error at ")) return true;
  }
  // The level among the first few words.
  std::size_t words = 0;
  for (std::size_t i = 0; i < t.size() && words < 5;) {
    while (i < t.size() && Space(t[i])) ++i;
    std::size_t b = i;
    while (i < t.size() && !Space(t[i])) ++i;
    std::string_view w = t.substr(b, i - b);
    while (!w.empty() && (w.back() == ':' || w.back() == ']')) w.remove_suffix(1);
    while (!w.empty() && w.front() == '[') w.remove_prefix(1);
    if (w == "ERROR" || w == "FATAL" || w == "CRITICAL" || w == "SEVERE") return true;
    ++words;
  }
  return IsExceptionLine(t);
}

// The decisive line up to numbers (util/up_to_numbers.h).
std::string Key(BlockKind kind, std::string_view decisive) {
  std::string key(BlockKindName(kind));
  key += '\x1f';
  util::AppendUpToNumbers(decisive, &key);
  return key;
}

}  // namespace

void BlockSegmenter::Open(State state, BlockKind kind, std::size_t line_no, std::string_view text,
                          std::size_t origin) {
  state_ = state;
  current_ = Block();
  current_.kind = kind;
  current_.first_line = current_.last_line = line_no;
  have_decisive_ = false;
  blank_run_ = 0;
  open_text_.clear();
  open_lines_.clear();
  KeepLine(line_no, text, origin);
}

void BlockSegmenter::KeepLine(std::size_t line_no, std::string_view text, std::size_t origin, LineMark mark) {
  if (open_lines_.size() >= kMaxTextLines || (!open_lines_.empty() && open_lines_.back().line_no >= line_no)) return;
  if (line_no == line_no_) mark = mark_;
  open_text_.append(text);
  open_text_ += '\n';
  open_lines_.push_back({line_no, origin, open_text_.size(), mark});
}

void BlockSegmenter::SetDecisive(std::size_t line_no, std::string_view text) {
  current_.decisive_line = line_no;
  current_.decisive = std::string(Trim(text));
  have_decisive_ = true;
  Extend(line_no);
}

void BlockSegmenter::AddFrame(std::size_t line_no, std::string_view text) {
  ++current_.frame_count;
  if (current_.frames.size() < kMaxFrames) current_.frames.emplace_back(Trim(text));
  Extend(line_no);
}

long BlockSegmenter::Close() {
  State was = state_;
  state_ = State::kNone;
  if (was == State::kPython && headerless_ && !have_decisive_) {
    // Frames with neither header nor exception line are no error a reader
    // would point at (a log that prints frames of its own).
    headerless_ = false;
    open_lines_.clear();
    open_text_.clear();
    return -1;
  }
  headerless_ = false;
  if (!have_decisive_) {
    if (!current_.frames.empty()) {
      current_.decisive = current_.frames.back();
      current_.decisive_line = current_.last_line;
    } else {
      current_.decisive_line = current_.first_line;
    }
  }
  if (was == State::kRustc && current_.frame_count == 0) current_.kind = BlockKind::kErrorLine;
  // The line being read belongs to the block when the block ends on it (an
  // exception line, say).
  if (line_no_ >= current_.first_line && line_no_ <= current_.last_line) KeepLine(line_no_, text_, origin_);
  std::string key = Key(current_.kind, current_.decisive);
  const std::size_t previous_end = last_block_end_;
  last_block_end_ = std::max(last_block_end_, current_.last_line);
  if (auto it = by_key_.find(key); it != by_key_.end()) {
    Block& first = blocks_[static_cast<std::size_t>(it->second)];
    ++first.count;
    if (first.repeats.size() < kMaxOccurrences) first.repeats.emplace_back(current_.first_line, current_.last_line);
    return it->second;
  }
  if (blocks_.size() >= kMaxBlocks) {
    ++dropped_;
    return -1;
  }
  if (current_.kind == BlockKind::kErrorLine && IsWrapperLine(current_.decisive)) {
    last_block_end_ = previous_end;
    TakeStepLines();
    last_block_end_ = std::max(last_block_end_, current_.last_line);
  }
  // A distinct block keeps its text, as far as the budget goes.
  std::size_t begin = 0;
  for (const OpenLine& l : open_lines_) {
    if (l.line_no > current_.last_line) break;
    if (l.line_no >= current_.first_line && l.end - begin <= text_budget_) {
      current_.text.append(open_text_, begin, l.end - begin);
      current_.text_lines.push_back({l.line_no, l.origin, l.mark});
      text_budget_ -= l.end - begin;
    }
    begin = l.end;
  }
  open_lines_.clear();
  open_text_.clear();
  blocks_.push_back(std::move(current_));
  long index = static_cast<long>(blocks_.size() - 1);
  by_key_.emplace(std::move(key), index);
  return index;
}

void BlockSegmenter::KeepProblemLine(std::size_t line_no, std::string_view text, std::size_t origin, LineMark mark) {
  ProblemLine& slot = problem_lines_[problem_next_];
  problem_next_ = (problem_next_ + 1) % problem_lines_.size();
  slot.line_no = line_no, slot.origin = origin, slot.mark = mark;
  slot.text.assign(text);
}

void BlockSegmenter::TakeStepLines() {
  // The ring's last lines that say something failed, after the previous
  // block and within the window, oldest first, go before the exit status.
  // (Judged only now: a log has thousands of problem lines and few exits.)
  std::vector<const ProblemLine*> step;
  for (std::size_t k = problem_lines_.size(); k-- > 0 && step.size() < kStepLines;) {
    const ProblemLine& l = problem_lines_[(problem_next_ + k) % problem_lines_.size()];
    if (l.line_no == 0 || l.line_no <= last_block_end_ || l.line_no >= current_.first_line) continue;
    if (l.line_no + kStepWindow < current_.first_line) break;
    if (IsWarningLine(l.text) || !StatesFailure(l.text)) continue;  // not why a step failed
    step.push_back(&l);
  }
  if (step.empty()) return;
  std::reverse(step.begin(), step.end());
  std::string text;
  std::vector<OpenLine> lines;
  for (const ProblemLine* l : step) {
    text.append(l->text);
    text += '\n';
    lines.push_back({l->line_no, l->origin, text.size(), l->mark});
  }
  // Then the exit status itself, as kept.
  std::size_t begin = 0;
  for (const OpenLine& l : open_lines_) {
    text.append(open_text_, begin, l.end - begin);
    lines.push_back({l.line_no, l.origin, text.size(), l.mark});
    begin = l.end;
  }
  open_text_ = std::move(text);
  open_lines_ = std::move(lines);
  current_.kind = BlockKind::kStep;
  current_.first_line = step.front()->line_no;
}

void BlockSegmenter::SingleLine(BlockKind kind, std::size_t line_no, std::string_view text, std::size_t origin) {
  Open(State::kNone, kind, line_no, text, origin);
  SetDecisive(line_no, text);
  Close();
}

void BlockSegmenter::Add(std::size_t line_no, std::string_view text, LineMark mark, bool may_start,
                         std::size_t origin, bool problem) {
  // The common case, first: an ordinary line outside any block.
  if (state_ == State::kNone && !pending_kind_ && !may_start && mark == LineMark::kNone &&
      !(prev_line_no_ + 1 == line_no && !prev_text_.empty() && IsAtFrame(text))) {
    prev_line_no_ = line_no;
    if (!prev_text_.empty()) prev_text_.clear();
    if (problem) KeepProblemLine(line_no, text, origin, mark);
    return;
  }
  line_no_ = line_no, origin_ = origin, text_ = text, mark_ = mark;
  const std::string_view t = Trim(text);
  const bool blank = t.empty();
  const bool indented = !text.empty() && Space(text[0]);
  if (pending_kind_) {
    if (IsAtFrame(text) && pending_line_ + 1 == line_no) {
      pending_kind_.reset();  // the pending line heads this stack trace (Start takes it from prev_text_)
    } else if (indented && !blank && pending_line_ + 1 == line_no && !IsPythonFrame(t)) {
      // Details of the error line: read on as one block.
      Open(State::kDetails, *pending_kind_, pending_line_, pending_text_,
           pending_origin_);
      SetDecisive(pending_line_, pending_text_);
      pending_kind_.reset();
    } else if (blank && pending_line_ + 1 == line_no && pending_kind_ == BlockKind::kErrorLine &&
               IsExceptionLine(pending_text_)) {
      // An exception printed without its traceback, whose message may go
      // on after this blank line.
      Open(State::kNone, BlockKind::kErrorLine, pending_line_, pending_text_, pending_origin_);
      ReadException(pending_line_, pending_text_);
      pending_kind_.reset();
    } else {
      FlushPending();
    }
  }
  bool claimed = false;
  const LineView line{line_no, text, t, blank, indented, mark};
  switch (state_) {
    case State::kNone:
      break;
    case State::kPython:
      claimed = ContinuePython(line);
      break;
    case State::kExceptionMessage:
      claimed = ContinueExceptionMessage(line);
      break;
    case State::kIPython:
      claimed = ContinueIPython(line);
      break;
    case State::kStack:
      claimed = ContinueStack(line);
      break;
    case State::kRustPanic:
      claimed = ContinueRustPanic(line);
      break;
    case State::kRustc:
      claimed = ContinueRustc(line);
      break;
    case State::kGo:
      claimed = ContinueGo(line);
      break;
    case State::kNpm:
      claimed = ContinueNpm(line);
      break;
    case State::kPytest:
      claimed = ContinuePytest(line);
      break;
    case State::kCpp:
      claimed = ContinueCpp(line);
      break;
    case State::kDetails:
      claimed = ContinueDetails(line);
      break;
    case State::kCompiler:
      claimed = ContinueCompiler(line);
      break;
  }
  if (!claimed) Start(line_no, text, mark, may_start || mark != LineMark::kNone);
  if (state_ != State::kNone) {
    KeepLine(line_no, text, origin);
  } else if (problem && !claimed && !(pending_line_ == line_no && pending_kind_)) {
    KeepProblemLine(line_no, text, origin, mark);  // a problem line no block took
  }
  // Only a line that may start a block can head a stack trace; copying
  // every line would cost more than the rest.
  prev_line_no_ = line_no;
  prev_origin_ = origin;
  if (may_start || mark != LineMark::kNone) {
    prev_text_.assign(t);
  } else {
    prev_text_.clear();
  }
}

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
  } else if (indent > traceback_indent_) {
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
  if (blank || indented || t.starts_with("--")) {
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
  if (t.starts_with("npm ERR!")) {
    body = Trim(t.substr(8));
  } else if (t.starts_with("npm error")) {
    body = Trim(t.substr(9));
  } else {
    return CloseBefore();
  }
  bool detail = body.empty() || body.starts_with("code ") || body.starts_with("errno ") ||
                body.starts_with("syscall ") || body.starts_with("path ") || body.starts_with("A complete log") ||
                body.starts_with("/");
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

void BlockSegmenter::Start(std::size_t line_no, std::string_view text, LineMark mark, bool may_start) {
  const std::string_view t = Trim(text);
  if (t.empty()) return;
  if (!may_start) {
    if (IsAtFrame(text) && prev_line_no_ + 1 == line_no && !prev_text_.empty()) {
      // falls through to the stack-trace rule below
    } else {
      return;
    }
  }
  if (t == "Traceback (most recent call last):") {
    Open(State::kPython, BlockKind::kPython, line_no, text, origin_);
    traceback_indent_ = text.size() - TrimLeft(text).size();
    return;
  }
  if (IsPythonFrame(t) && !text.starts_with(t)) {
    // A traceback whose header was cut off (pasted from its middle): its
    // indented frames lead to the exception line all the same. (A paste is
    // read with every line offered here; a log scan offers only lines with
    // trigger words, and a log's tracebacks have their headers.)
    Open(State::kPython, BlockKind::kPython, line_no, text, origin_);
    traceback_indent_ = text.size() - TrimLeft(text).size() - 1;
    headerless_ = true;
    AddFrame(line_no, t);
    return;
  }
  if (IsIPythonHeader(t)) {
    Open(State::kIPython, BlockKind::kPython, line_no, text, origin_);
    // Until the exception line comes, the header is what names the error.
    current_.decisive = std::string(Trim(t.substr(0, t.find("Traceback (most recent"))));
    current_.decisive_line = line_no;
    have_decisive_ = true;
    return;
  }
  if (t.starts_with("During handling of the above exception") ||
      t.starts_with("The above exception was the direct cause")) {
    chain_from_ = last_python_;
    return;
  }
  if (t.starts_with("thread '") && Contains(t, "' panicked at")) {
    Open(State::kRustPanic, BlockKind::kRustPanic, line_no, text, origin_);
    if (!t.ends_with(":")) SetDecisive(line_no, t);  // before 1.73: message on this line
    return;
  }
  if (t.starts_with("terminate called after throwing an instance of ") ||
      t.starts_with("terminate called without an active exception")) {
    Open(State::kCpp, BlockKind::kCpp, line_no, text, origin_);
    SetDecisive(line_no, t);
    return;
  }
  if (IsRustcError(t)) {
    Open(State::kRustc, BlockKind::kRustc, line_no, text, origin_);
    SetDecisive(line_no, t);
    return;
  }
  if (t.starts_with("panic: ") || t.starts_with("fatal error: all goroutines") ||
      t.starts_with("fatal error: concurrent map")) {
    Open(State::kGo, BlockKind::kGoPanic, line_no, text, origin_);
    SetDecisive(line_no, t);
    return;
  }
  if (t.starts_with("npm ERR!") || t.starts_with("npm error")) {
    Open(State::kNpm, BlockKind::kNpm, line_no, text, origin_);
    Add(line_no, text, mark, true, origin_);  // let the npm rules place the line
    return;
  }
  if (IsPytestHeader(t)) {
    Open(State::kPytest, BlockKind::kPytest, line_no, text, origin_);
    return;
  }
  if (IsCompilerError(t)) {
    Open(State::kCompiler, BlockKind::kCompiler, line_no, text, origin_);
    SetDecisive(line_no, t);
    return;
  }
  if (IsAtFrame(text) && prev_line_no_ + 1 == line_no && !prev_text_.empty()) {
    // A stack trace: its header is the line before the first frame.
    bool java = Contains(t, ".java:") || Contains(t, ".kt:") || Contains(t, "(Native Method)") ||
                Contains(t, "(Unknown Source)") || prev_text_.starts_with("Exception in thread");
    current_kind_ = java ? BlockKind::kJava : BlockKind::kJavascript;
    Open(State::kStack, current_kind_, prev_line_no_, prev_text_, prev_origin_);
    SetDecisive(prev_line_no_, prev_text_);
    AddFrame(line_no, t);
    return;
  }
  // A one-line error waits a line: if frames follow, it heads a stack trace.
  if (IsGpuError(t)) {
    pending_kind_ = BlockKind::kGpu;
  } else if (mark == LineMark::kCiError || IsErrorLine(t)) {
    pending_kind_ = BlockKind::kErrorLine;
  } else {
    return;
  }
  pending_line_ = line_no;
  pending_origin_ = origin_;
  pending_text_.assign(t);
}

void BlockSegmenter::FlushPending() {
  if (!pending_kind_) return;
  const BlockKind kind = *pending_kind_;
  pending_kind_.reset();
  SingleLine(kind, pending_line_, pending_text_, pending_origin_);
}

void BlockSegmenter::ReadException(std::size_t line_no, std::string_view text) {
  SetDecisive(line_no, text);
  state_ = State::kExceptionMessage;
  message_blank_ = false;
  message_lines_ = 0;
}

bool BlockSegmenter::ContinuesMessage(std::string_view text, std::string_view t, bool blank) {
  if (blank) {
    // One blank line may part the message from its explanation; two end it.
    if (message_blank_ || message_lines_ > 0) return false;
    message_blank_ = true;
    return true;
  }
  const bool first = message_lines_++ == 0;
  if (message_lines_ > kMaxMessageLines || mark_ != LineMark::kNone) return false;
  if (Space(text[0])) return !message_blank_;  // details: "\tstatus = StatusCode.UNAVAILABLE"
  // Unindented, the message goes on right after a line that announces it
  // ("... for Settings:"), or as a paragraph after a blank line that starts
  // by saying what failed. Otherwise the next line is the program's own.
  if (!message_blank_ && !current_.decisive.ends_with(":")) return false;
  if (message_blank_ && first && !StatesFailure(t)) return false;
  // Prose that names no new error and is no other program's output: it
  // starts with a letter, and its first word is no logger's "name:".
  if (!((t[0] >= 'A' && t[0] <= 'Z') || (t[0] >= 'a' && t[0] <= 'z'))) return false;
  const std::size_t first_space = t.find(' ');
  const std::string_view first_word = t.substr(0, first_space);
  if (first_space == std::string_view::npos || first_word.back() == ':' || Contains(first_word, "[")) return false;
  return !IsErrorLine(t) && !IsWrapperLine(t) && !IsWarningLine(t) && !t.starts_with("Traceback (most recent") &&
         !t.starts_with("During handling of the above exception") &&
         !t.starts_with("The above exception was the direct cause");
}

void BlockSegmenter::CloseException(std::size_t line_no, std::string_view text) {
  if (current_.decisive_line != line_no || !have_decisive_) SetDecisive(line_no, text);
  const long index = Close();
  if (index >= 0 && chain_from_ >= 0 && chain_from_ != index && blocks_[static_cast<std::size_t>(index)].caused_by < 0) {
    blocks_[static_cast<std::size_t>(index)].caused_by = chain_from_;
  }
  chain_from_ = -1;
  last_python_ = index;
}

long BlockSegmenter::CloseStack() {
  long index = Close();
  if (pending_caused_by_ && index >= 0 && last_stack_ >= 0 && last_stack_ != index) {
    Block& effect = blocks_[static_cast<std::size_t>(last_stack_)];
    if (effect.caused_by < 0) effect.caused_by = index;
  }
  pending_caused_by_ = false;
  return index;
}

void BlockSegmenter::Finish() {
  FlushPending();
  if (state_ == State::kStack) {
    CloseStack();
  } else if (state_ == State::kExceptionMessage) {
    CloseException(current_.decisive_line, current_.decisive);
  } else if (state_ != State::kNone) {
    Close();
  }
}

}  // namespace kedb::logs
