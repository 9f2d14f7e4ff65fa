#include "logs/blocks.h"

#include <algorithm>

#include "logs/block_starts.h"
#include "logs/line_kinds.h"
#include "util/strings.h"
#include "util/up_to_numbers.h"

namespace kedb::logs {
namespace {

using util::Contains;
using util::IsBlank;
using util::Trim;
using util::TrimLeft;



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
  ReturnLead();  // a block left unclosed gives its lead back
  current_ = Block();
  current_.kind = kind;
  current_.first_line = current_.last_line = line_no;
  have_decisive_ = false;
  blank_run_ = 0;
  open_text_.clear();
  open_lines_.clear();
  TakeLead();
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
  const State was = state_;
  const long index = CloseCurrent();
  if (was == State::kPytest) RememberPytestFailure(index);
  return index;
}

long BlockSegmenter::CloseCurrent() {
  State was = state_;
  state_ = State::kNone;
  if (was == State::kPython && headerless_ && !have_decisive_) {
    // Frames with neither header nor exception line are no error a reader
    // would point at (a log that prints frames of its own).
    headerless_ = false;
    open_lines_.clear();
    open_text_.clear();
    ReturnLead();
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
    ReturnLead();
    Block& first = blocks_[static_cast<std::size_t>(it->second)];
    ++first.count;
    if (first.repeats.size() < kMaxOccurrences) first.repeats.emplace_back(current_.first_line, current_.last_line);
    return it->second;
  }
  if (blocks_.size() >= kMaxBlocks) {
    ReturnLead();
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
  current_.lead.clear();  // now the kept block's
  long index = static_cast<long>(blocks_.size() - 1);
  StartTrail(blocks_.size() - 1);
  by_key_.emplace(std::move(key), index);
  return index;
}

void BlockSegmenter::SingleLine(BlockKind kind, std::size_t line_no, std::string_view text, std::size_t origin) {
  if (RestatesPytestFailure(line_no, text)) return;
  Open(State::kNone, kind, line_no, text, origin);
  SetDecisive(line_no, text);
  Close();
}

void BlockSegmenter::Add(std::size_t line_no, std::string_view text, LineMark mark, bool may_start,
                         std::size_t origin, bool problem) {
  if (in_group_) {
    if (const std::optional<std::string_view> inner = WithoutGroupGutter(text)) {
      text = *inner;
    } else {
      // The report ended; so did the message of the exception it ended on.
      if (state_ == State::kExceptionMessage) CloseException(current_.decisive_line, current_.decisive);
      in_group_ = false, group_block_ = -1;
    }
  }
  if (AfterBanner(line_no)) may_start = true;
  // The common case, first: an ordinary line outside any block.
  if (state_ == State::kNone && !pending_kind_ && !may_start && mark == LineMark::kNone &&
      !(prev_line_no_ + 1 == line_no && !prev_text_.empty() && IsAtFrame(text))) {
    prev_line_no_ = line_no;
    if (!prev_text_.empty()) prev_text_.clear();
    if (problem) KeepProblemLine(line_no, text, origin, mark);
    if (text.find_first_not_of(" \t") != std::string_view::npos) Remember(line_no, text, origin, mark);
    return;
  }
  line_no_ = line_no, origin_ = origin, text_ = text, mark_ = mark;
  const std::string_view t = Trim(text);
  const bool blank = t.empty();
  const bool indented = !text.empty() && IsBlank(text[0]);
  if (pending_kind_) {
    if (IsAtFrame(text) && pending_line_ + 1 == line_no) {
      pending_kind_.reset();  // the pending line heads this stack trace (Start takes it from prev_text_)
    } else if (indented && !blank && pending_line_ + 1 == line_no && !IsPythonFrame(t) &&
               !IsGroupTracebackHeader(t)) {
      // Details of the error line: read on as one block.
      Open(State::kDetails, *pending_kind_, pending_line_, pending_text_,
           pending_origin_);
      SetDecisive(pending_line_, pending_text_);
      pending_kind_.reset();
    } else if (blank && pending_line_ + 1 == line_no && pending_kind_ == BlockKind::kErrorLine) {
      // An exception printed without its traceback, or a tool's error line,
      // whose message may go on after this blank line (huggingface_hub's
      // "403 Client Error." before "Cannot access gated repo ...").
      Open(State::kNone, BlockKind::kErrorLine, pending_line_, pending_text_, pending_origin_);
      ReadException(pending_line_, pending_text_);
      pending_kind_.reset();
    } else if (!blank && !indented && pending_line_ + 1 == line_no && ReadsAsAdvice(t)) {
      // Advice to the reader right after the error line is the rest of its
      // message (transformers' "Please pass the argument
      // `trust_remote_code=True` to allow custom code to be run.").
      Open(State::kNone, *pending_kind_, pending_line_, pending_text_, pending_origin_);
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
    case State::kMaven:
      claimed = ContinueMaven(line);
      break;
    case State::kGradle:
      claimed = ContinueGradle(line);
      break;
    case State::kSpring:
      claimed = ContinueSpring(line);
      break;
  }
  if (!claimed) Start(line_no, text, mark, may_start || mark != LineMark::kNone);
  if (state_ != State::kNone) {
    KeepLine(line_no, text, origin);
  } else if (problem && !claimed && !(pending_line_ == line_no && pending_kind_)) {
    KeepProblemLine(line_no, text, origin, mark);  // a problem line no block took
  }
  if (!blank) Remember(line_no, text, origin, mark);
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
  if (IsGroupTracebackHeader(t)) {
    // The lines after it are read without their gutter, indented from it.
    Open(State::kPython, BlockKind::kPython, line_no, text, origin_);
    traceback_indent_ = 0;
    in_group_ = true, group_block_ = -1;
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
  // "thread 'main' panicked at ...", since 1.88 with the thread's id:
  // "thread 'main' (20802) panicked at ...".
  if (t.starts_with("thread '") && Contains(t, " panicked at ")) {
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
  if (t.starts_with("npm ERR!") || t.starts_with("npm error") || t.starts_with("gyp ERR!")) {
    Open(State::kNpm, BlockKind::kNpm, line_no, text, origin_);
    Add(line_no, text, mark, true, origin_);  // let the npm rules place the line
    return;
  }
  if (IsPytestHeader(t)) {
    Open(State::kPytest, BlockKind::kPytest, line_no, text, origin_);
    pytest_name_ = PytestHeaderName(t);
    return;
  }
  if (StartMaven(line_no, t) || StartGradle(line_no, t) || StartSpring(line_no, t)) return;
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
  if (IsErrorBanner(t)) {
    banner_line_ = line_no;
    return;
  }
  // A one-line error waits a line: if frames follow, it heads a stack trace.
  if (IsGpuError(t)) {
    pending_kind_ = BlockKind::kGpu;
  } else if (mark == LineMark::kCiError || IsErrorLine(t) || AfterBanner(line_no) ||
             (!IsBlank(text[0]) && ReportsFailedExit(t))) {  // indented, it is a detail (pip's "│ exit code: 1")
    banner_line_ = 0;
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
  if (IsBlank(text[0])) return !message_blank_;  // details: "\tstatus = StatusCode.UNAVAILABLE"
  // Unindented, the message goes on right after a line that announces it
  // ("... for Settings:"), with advice to the reader ("Please pass the
  // argument ..."), or as a paragraph after a blank line that starts by
  // saying what failed. Otherwise the next line is the program's own.
  if (!message_blank_ && !current_.decisive.ends_with(":") && !ReadsAsAdvice(t)) return false;
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
  if (in_group_ && index >= 0) {
    if (group_block_ < 0) {
      group_block_ = index;
    } else if (index != group_block_ && blocks_[static_cast<std::size_t>(group_block_)].caused_by < 0) {
      blocks_[static_cast<std::size_t>(group_block_)].caused_by = index;
    }
  }
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
  if (blocks_.empty()) TakeLastWords();
}

}  // namespace kedb::logs
