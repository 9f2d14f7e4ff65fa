// Error blocks: the units an engineer reads a failing log in.
//
// A block is one error as the software printed it: a Python traceback (as
// the interpreter or IPython/Jupyter prints it), a
// Java or JavaScript stack trace, an uncaught C++ exception, a Rust panic or rustc diagnostic, a Go
// panic with its goroutine dump, an npm ERR! block, a pytest failure
// section, a gcc/clang/tsc/MSVC compiler error, a CUDA/cuDNN/cuBLAS/NCCL
// failure line, or a line a logger marked as an error. Each carries its
// decisive line (the one that says what went wrong: usually the exception
// line, which Python prints last) and its frames.
//
// The segmenter is fed cleaned lines one at a time (see preprocess.h) and
// keeps only the block being read plus the finished ones, so its memory
// grows with the number of distinct errors, not with the log. A block seen
// again (same kind, same decisive line up to numbers) is counted, not kept
// twice. Chained exceptions are linked: Python's "During handling of the
// above exception" / "The above exception was the direct cause" and Java's
// "Caused by:".
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <optional>
#include <utility>
#include <vector>

#include "kedb/block_kind.h"
#include "logs/preprocess.h"
#include "util/utf8.h"

namespace kedb::logs {

struct Block {
  // Any kind but kMatch (kedb/block_kind.h). kStep: a line that only
  // reports a failed step's exit status (line_kinds.h), with the problem
  // lines its step printed before it that belong to no other block.
  BlockKind kind = BlockKind::kErrorLine;
  std::size_t first_line = 0, last_line = 0;  // 1-based, inclusive
  std::size_t decisive_line = 0;
  std::string decisive;             // the decisive line, cleaned
  std::vector<std::string> frames;  // at most kMaxFrames, cleaned
  std::size_t frame_count = 0;      // frames seen, kept or not
  std::size_t count = 1;            // occurrences in the log
  // Line ranges of the later occurrences (at most kMaxOccurrences).
  std::vector<std::pair<std::size_t, std::size_t>> repeats;
  // Lines that only restate it (pytest's summary line "FAILED ... -
  // Error"), at most kMaxOccurrences: part of the error, not occurrences.
  std::vector<std::size_t> restatements;
  // Index of the block that caused this one (a chained exception), or -1.
  long caused_by = -1;
  // The block's first lines (at most BlockSegmenter::kMaxTextLines) as
  // cleaned, each ending in '\n', and per line its number and where its
  // cleaned text starts in the log (the `origin` given to Add). Empty once
  // the segmenter's text budget is spent: a log of endless distinct errors
  // keeps decisive lines and frames only.
  struct TextLine {
    std::size_t line_no = 0, origin = 0;
    LineMark mark = LineMark::kNone;
  };
  std::string text;
  std::vector<TextLine> text_lines;
  // The lines around the block that are not its own: up to
  // BlockSegmenter::kAroundLines non-blank lines before its first line
  // (lead) and after its last (trail), each cut to kAroundBytes on a
  // character boundary, in log order. A block no record explains is read again with them, as a paste
  // of the error would have shown it: a tool's last words before its exit
  // status, the frames a C++ exception's report comes after, the line
  // after a stack trace that names what failed.
  struct AroundLine {
    std::size_t line_no = 0, origin = 0;
    LineMark mark = LineMark::kNone;
    std::string text;
  };
  std::vector<AroundLine> lead, trail;
};

class BlockSegmenter {
 public:
  static constexpr std::size_t kMaxFrames = 24;
  static constexpr std::size_t kMaxOccurrences = 64;
  static constexpr std::size_t kMaxBlocks = 10000;
  static constexpr std::size_t kMaxTextLines = 64;
  // A failed step's exit status takes at most kStepLines of the lines that
  // came before it since the last block and say something failed (warnings
  // aside), from no further back than kStepWindow lines: CI systems print
  // the exit status after the step's output, and sometimes after pages of
  // service logs. They are picked from the last kProblemRing problem lines.
  static constexpr std::size_t kStepLines = 24;
  static constexpr std::size_t kStepWindow = 5000;
  static constexpr std::size_t kProblemRing = 256;
  static constexpr std::size_t kTextBudget = 16u << 20;  // bytes of Block::text, lead and trail, all blocks together
  static constexpr std::size_t kAroundLines = 4;
  static constexpr std::size_t kAroundBytes = 320;

  // Line `line_no` (1-based, increasing) of the log, already cleaned;
  // `origin` is where its cleaned text starts in the log (kept with the
  // block's text, see Block). `may_start` false promises that the line holds
  // none of the trigger words (see triggers.h), so that it cannot start a
  // block: it is then only checked for continuing one, which is cheap.
  // `problem`: the line reads as a problem (triggers.h); such lines outside
  // any block, warnings aside, are remembered for a failed step's exit
  // status.
  void Add(std::size_t line_no, std::string_view text, LineMark mark, bool may_start = true, std::size_t origin = 0,
           bool problem = false);
  // Closes the block being read. Call once, after the last line.
  void Finish();
  // For a caller that hands over many lines at once (a chunk of a log):
  // AddStable is Add for a line whose text stays valid until the next call
  // to Detach, which must come before that text changes. The segmenter
  // then keeps pointers to the last few lines instead of copying each.
  void AddStable(std::size_t line_no, std::string_view text, LineMark mark, bool may_start, std::size_t origin,
                 bool problem) {
    stable_ = true;
    Add(line_no, text, mark, may_start, origin, problem);
    stable_ = false;
  }
  void Detach();

  const std::vector<Block>& blocks() const { return blocks_; }
  std::vector<Block> TakeBlocks() { return std::move(blocks_); }
  std::size_t dropped() const { return dropped_; }  // distinct blocks past kMaxBlocks

 private:
  enum class State { kNone, kPython, kIPython, kExceptionMessage, kStack, kRustPanic, kRustc, kGo, kNpm, kPytest,
                     kCompiler, kCpp, kDetails, kMaven, kGradle, kSpring };
  // An error line's indented details (gRPC's status and debug string, a
  // validation error's fields) are part of its block, up to this many.
  static constexpr std::size_t kMaxDetailLines = 40;
  // A Python exception's message may go on after its line: indented
  // details (gRPC's status), or a paragraph after one blank line
  // (huggingface_hub's "Cannot access gated repo ..."), up to this many.
  static constexpr std::size_t kMaxMessageLines = 8;
  // An IPython traceback whose exception line never comes ends here.
  static constexpr std::size_t kMaxIPythonLines = 2000;

  // One line as the open block's reader sees it.
  struct LineView {
    std::size_t no;
    std::string_view text;  // as given
    std::string_view t;     // trimmed
    bool blank, indented;
    LineMark mark;
  };
  // The open block's reader for each state: true when the line belongs to
  // the block (it may also close it), false when the block ended before
  // the line, which may then start a block of its own.
  // Closes the open block before the line, which it does not take: false.
  bool CloseBefore();
  // The line goes into the open block as a frame, or as one of its lines.
  void FrameOrLine(std::size_t line_no, std::string_view t, bool frame);
  bool ContinuePython(const LineView& line);
  bool ContinueExceptionMessage(const LineView& line);
  bool ContinueIPython(const LineView& line);
  bool ContinueStack(const LineView& line);
  bool ContinueRustPanic(const LineView& line);
  bool ContinueRustc(const LineView& line);
  bool ContinueGo(const LineView& line);
  bool ContinueNpm(const LineView& line);
  bool ContinuePytest(const LineView& line);
  bool ContinueCpp(const LineView& line);
  bool ContinueDetails(const LineView& line);
  bool ContinueCompiler(const LineView& line);
  // Maven's failure output (block_build_tools.cc): the COMPILATION ERROR
  // section, the BUILD FAILURE banner and "Failed to execute goal" with its
  // boilerplate, read as one block whose decisive line is the first
  // compiler error, else the goal that failed.
  bool StartMaven(std::size_t line_no, std::string_view t);
  bool ContinueMaven(const LineView& line);
  // Gradle's "* What went wrong:" section, read as one block whose decisive
  // line is the deepest "> " cause under the task that failed.
  bool StartGradle(std::size_t line_no, std::string_view t);
  bool ContinueGradle(const LineView& line);
  // Spring Boot's "APPLICATION FAILED TO START" report, read as one block
  // whose decisive line is the first of its Description.
  bool StartSpring(std::size_t line_no, std::string_view t);
  bool ContinueSpring(const LineView& line);
  // pytest's short summary restates a failure its section showed
  // ("FAILED tests/x.py::test_y - RuntimeError: ..."): the line is added
  // to that block's restatements instead of opening a block.
  void RememberPytestFailure(long index);
  bool RestatesPytestFailure(std::size_t line_no, std::string_view t);

  // Starts current_ at line `line_no`, whose text is `text`.
  void Open(State state, BlockKind kind, std::size_t line_no, std::string_view text, std::size_t origin);
  // Keeps a line of the block being read (up to kMaxTextLines, each once).
  void KeepLine(std::size_t line_no, std::string_view text, std::size_t origin, LineMark mark = LineMark::kNone);
  void SetDecisive(std::size_t line_no, std::string_view text);
  void AddFrame(std::size_t line_no, std::string_view text);
  void Extend(std::size_t line_no) { current_.last_line = line_no; }
  // Finishes current_: collapses it into an equal earlier block or keeps it.
  // Returns its index (or the earlier block's), -1 when dropped.
  long Close();
  long CloseCurrent();  // Close() before what a block's kind remembers of it
  // Ends a Python or IPython traceback at its exception line `text`:
  // Close(), linked to the traceback a chained one continued.
  void CloseException(std::size_t line_no, std::string_view text);
  // Reads the exception line `text` of a Python traceback; the block stays
  // open for the lines its message goes on over (kExceptionMessage).
  void ReadException(std::size_t line_no, std::string_view text);
  // Whether the line being read goes on with the exception's message.
  bool ContinuesMessage(std::string_view text, std::string_view trimmed, bool blank);
  // Close() for a stack trace: links it as the cause of the trace that a
  // "Caused by:" line continued.
  long CloseStack();
  // Handles a line no open block claimed; may open one.
  void Start(std::size_t line_no, std::string_view text, LineMark mark, bool may_start);
  void SingleLine(BlockKind kind, std::size_t line_no, std::string_view text, std::size_t origin);
  void FlushPending();

  State state_ = State::kNone;
  Block current_;
  bool have_decisive_ = false;
  std::size_t blank_run_ = 0;
  // The line being read.
  std::size_t line_no_ = 0, origin_ = 0;
  std::string_view text_;
  LineMark mark_ = LineMark::kNone;
  // The lines kept for the block being read: their text, and per line its
  // number, origin and where its text ends in open_text_.
  std::string open_text_;
  struct OpenLine {
    std::size_t line_no, origin, end;
    LineMark mark;
  };
  std::vector<OpenLine> open_lines_;
  std::size_t text_budget_ = kTextBudget;
  // The last problem lines outside any block, a ring of kProblemRing.
  struct ProblemLine {
    std::size_t line_no = 0, origin = 0;
    LineMark mark = LineMark::kNone;
    std::string text;
  };
  std::vector<ProblemLine> problem_lines_ = std::vector<ProblemLine>(kProblemRing);
  std::size_t problem_next_ = 0;
  std::size_t last_block_end_ = 0;  // the last line of the block closed last
  void KeepProblemLine(std::size_t line_no, std::string_view text, std::size_t origin, LineMark mark);
  // Gives a new exit-status block the problem lines of its step.
  void TakeStepLines();
  // A log with no error block whose last lines say something failed ("Refused
  // to execute inline script because it violates ... Content Security
  // Policy", a process that printed its one error and quit): that line is
  // an error line, when it is one of the last kLastWordsLines of a log of
  // kLastWordsMinLines or more.
  static constexpr std::size_t kLastWordsLines = 10;
  static constexpr std::size_t kLastWordsMinLines = 50;
  void TakeLastWords();
  // Block::lead and Block::trail (block_around.cc). Every line is offered
  // to Remember: a line given as stable is only pointed at (Detach copies
  // the few still remembered before the text goes), any other is copied.
  struct RecentLine {
    std::size_t line_no = 0, origin = 0;
    LineMark mark = LineMark::kNone;
    std::string_view text;
    std::string own;  // the text, once copied
  };
  std::array<RecentLine, kAroundLines + 1> recent_{};
  std::size_t recent_next_ = 0;
  bool stable_ = false;  // the line being read was given as stable
  // New blocks still taking trail lines: index and lines still wanted.
  std::vector<std::pair<std::size_t, std::size_t>> trailing_;
  // The non-blank line `line_no` as the last one read: into recent_, and
  // into the trail of the blocks that end before it (FeedTrails). Inline:
  // it runs for every line of a log.
  void Remember(std::size_t line_no, std::string_view text, std::size_t origin, LineMark mark) {
    const std::string_view kept = text.substr(0, util::Utf8Cut(text, kAroundBytes));  // never half a character
    if (!trailing_.empty()) FeedTrails(line_no, kept, origin, mark);
    RecentLine& slot = recent_[recent_next_];
    recent_next_ = recent_next_ + 1 == recent_.size() ? 0 : recent_next_ + 1;
    slot.line_no = line_no, slot.origin = origin, slot.mark = mark;
    if (stable_) {
      slot.text = kept;
    } else {
      slot.own.assign(kept);
      slot.text = slot.own;
    }
  }
  void FeedTrails(std::size_t line_no, std::string_view kept, std::size_t origin, LineMark mark);
  // current_.lead from recent_: the lines before its first line; and the
  // text budget it took back, when the block is not kept.
  void TakeLead();
  void ReturnLead();
  // A new block (index) starts taking its trail.
  void StartTrail(std::size_t index);
  // The previous line, for stack traces that start with their header line.
  std::size_t prev_line_no_ = 0, prev_origin_ = 0;
  std::string prev_text_;
  // Python: the next traceback is chained to this block.
  long chain_from_ = -1;
  std::size_t traceback_indent_ = 0;  // of the "Traceback" line being read
  bool headerless_ = false;           // the traceback being read lost its header
  long last_python_ = -1;
  bool message_blank_ = false;      // a blank line came after the exception line
  std::size_t message_lines_ = 0;   // lines the exception's message went on over
  // Spring Boot's report: 0 before "Description:", 1 in it, 2 in "Action:",
  // 3 once the action's text came.
  int spring_part_ = 0;
  // Maven: how good the decisive line is (0 the section's header, 1 the
  // goal that failed, 2 a compiler error).
  int maven_rank_ = 0;
  // pytest: the name in the header of the section being read, and the
  // failures shown so far by name (at most kMaxBlocks).
  std::string pytest_name_;
  std::unordered_map<std::string, long> pytest_failures_;
  // Java: the block a "Caused by:" explains.
  long last_stack_ = -1;
  bool pending_caused_by_ = false;
  BlockKind current_kind_ = BlockKind::kJava;  // kJava or kJavascript for the trace being read
  // Inside an exception group's report (WithoutGroupGutter), and the block
  // of the group's own traceback, which its first sub-exception explains.
  bool in_group_ = false;
  long group_block_ = -1;
  // The line of the last error banner (IsErrorBanner): the next non-blank
  // line, one blank line allowed, is an error line.
  std::size_t banner_line_ = 0;
  bool AfterBanner(std::size_t line_no) const { return banner_line_ != 0 && line_no <= banner_line_ + 2; }
  // A one-line error held back one line (it may head a stack trace):
  // kGpu or kErrorLine, or none.
  std::optional<BlockKind> pending_kind_;
  std::string pending_text_;
  std::size_t pending_line_ = 0, pending_origin_ = 0;
  std::vector<Block> blocks_;
  std::unordered_map<std::string, long> by_key_;
  std::size_t dropped_ = 0;
};

}  // namespace kedb::logs
