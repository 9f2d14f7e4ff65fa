// A log scanned while it is written (kedb scan --follow FILE, or a pipe
// such as `tail -f log | kedb scan -`): each error block is answered as
// soon as it is closed, not at the end of the input.
//
// The log is kept as a window of the lines not yet answered for. Each
// Flush scans the window whole (Engine::Scan) and answers for the blocks
// that are closed: followed by kSettleLines more lines, or, once the
// writer has been quiet (or the input ended), all of them. Lines answered
// for leave the window, so it stays small whatever the log's length.
//
// What the window gives up against a scan of the whole file: root order
// and chained exceptions are decided per flush; a block that a quiet
// pause splits is answered as two; a failed step's exit status sees only
// the problem lines still in the window. A block seen in an earlier flush
// is answered again with `again` set rather than kept out, so that a
// repeat is seen as it happens.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>

#include "app/queries.h"
#include "kedb/engine.h"

namespace kedb::app {

class LiveScan {
 public:
  // A block is closed when this many lines follow it (regions of pattern
  // hits join across 3 lines; blocks merge with their neighbours).
  static constexpr std::size_t kSettleLines = 6;
  // Lines kept before the first open block, for the context a block
  // looks back on (a failed step's problem lines).
  static constexpr std::size_t kContextLines = 200;
  // The window's size past which the oldest lines go even when a block
  // in them is still open (a log that never settles).
  static constexpr std::size_t kMaxWindowBytes = 8u << 20;

  // `q` as for ScanLog; q.ci_format is not used (JSON or text only).
  LiveScan(const Engine& engine, const MatchQuery& q);

  // Bytes as read from the log; a line is taken once its '\n' arrives.
  void Add(std::string_view bytes);

  // The blocks closed since the last flush, all of them when `quiet` (the
  // writer paused, or the input ended: a last line without '\n' is then
  // taken too). Text: the blocks' cards; JSON: one line
  // {"file","blocks":[...]} where each block has its line numbers in the
  // whole log and "again" when an earlier flush answered for it. found is
  // true when there was something to answer for.
  Answer Flush(bool quiet);

  // The whole log so far, for the summary line at the end.
  const ScanSummary& total() const { return total_; }

 private:
  // Drops the window's first `lines` lines.
  void DropLines(std::size_t lines);

  const Engine& engine_;
  MatchQuery q_;
  std::string window_;   // whole lines not yet answered for
  std::string partial_;  // the line being written
  std::size_t window_lines_ = 0;
  std::size_t first_line_ = 1;   // the window's first line in the log
  std::size_t first_byte_ = 0;   // and its first byte
  std::size_t scanned_lines_ = 0;  // window_lines_ at the last flush
  std::set<std::string> answered_;  // blocks answered for, by kind, record and decisive line
  ScanSummary total_;
};

}  // namespace kedb::app
