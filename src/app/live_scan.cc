#include "app/live_scan.h"

#include <algorithm>

#include "app/outcomes.h"
#include "app/scan_files.h"
#include "render/render.h"
#include "util/view_streambuf.h"

namespace kedb::app {
namespace {

// What makes two answered blocks the same error: kind, best record, and
// the decisive line with its numbers masked (a step, a pid, a time).
std::string BlockKey(const ErrorBlock& b) {
  std::string key = std::string(BlockKindName(b.kind)) + "\n" + (b.matches.empty() ? "" : b.matches[0].record->id) + "\n";
  for (char c : b.decisive) key += (c >= '0' && c <= '9') ? '#' : c;
  return key;
}

// Moves a block found in the window to its place in the whole log.
void ShiftBlock(std::size_t lines, std::size_t bytes, ErrorBlock* b) {
  b->first_line += lines;
  b->last_line += lines;
  b->decisive_line += lines;
  for (Match& m : b->matches) {
    m.line += lines;
    m.begin += bytes;
    m.end += bytes;
  }
}

}  // namespace

LiveScan::LiveScan(const Engine& engine, const MatchQuery& q) : engine_(engine), q_(q) {}

void LiveScan::Add(std::string_view bytes) {
  total_.bytes += bytes.size();
  while (!bytes.empty()) {
    const std::size_t nl = bytes.find('\n');
    if (nl == std::string_view::npos) {
      partial_.append(bytes);
      return;
    }
    window_.append(partial_).append(bytes.substr(0, nl + 1));
    partial_.clear();
    ++window_lines_;
    ++total_.lines;
    bytes.remove_prefix(nl + 1);
  }
}

void LiveScan::DropLines(std::size_t lines) {
  std::size_t cut = 0;
  for (std::size_t i = 0; i < lines; ++i) cut = window_.find('\n', cut) + 1;
  window_.erase(0, cut);
  window_lines_ -= lines;
  first_line_ += lines;
  first_byte_ += cut;
}

Answer LiveScan::Flush(bool quiet) {
  if (quiet && !partial_.empty()) {
    window_ += partial_ + "\n";
    partial_.clear();
    ++window_lines_;
    ++total_.lines;
  }
  quiet |= window_.size() > kMaxWindowBytes;  // a log that never settles is answered for in pieces
  Answer none;
  none.found = false;
  if (window_lines_ == 0 || (!quiet && window_lines_ == scanned_lines_)) return none;

  ScanOptions options;
  if (Status st = ScanOptionsOf(q_, &options); !st.ok()) return Answer::Error(Answer::Kind::kInvalid, st.message());
  util::ViewStreambuf buf(window_);
  std::istream in(&buf);
  ScanResult window;
  if (Status st = engine_.Scan(in, options, &window); !st.ok()) {
    return Answer::Error(Answer::Kind::kInvalid, st.message());
  }

  // Which blocks are closed, and where the next flush must start reading.
  const std::size_t settled = quiet ? window_lines_ : window_lines_ - std::min(window_lines_, kSettleLines);
  std::size_t answered_to = 0, open_from = settled + 1;
  std::vector<long> new_index(window.blocks.size(), -1);
  ScanResult fresh;
  std::vector<RepeatedBlock> repeats;
  for (std::size_t i = 0; i < window.blocks.size(); ++i) {
    ErrorBlock& b = window.blocks[i];
    if (b.last_line > settled) {
      open_from = std::min(open_from, b.first_line);
      continue;
    }
    answered_to = std::max(answered_to, b.last_line);
    ShiftBlock(first_line_ - 1, first_byte_, &b);
    if (!answered_.insert(BlockKey(b)).second) {
      repeats.push_back({b.first_line, b.last_line, b.decisive, b.matches.empty() ? nullptr : b.matches[0].record});
      continue;
    }
    new_index[i] = static_cast<long>(fresh.blocks.size());
    fresh.blocks.push_back(std::move(b));
  }
  for (ErrorBlock& b : fresh.blocks) {
    if (b.caused_by >= 0) b.caused_by = new_index[static_cast<std::size_t>(b.caused_by)];
    ++total_.blocks;
    total_.known += !b.matches.empty();
  }
  const std::size_t keep_from = std::max(answered_to + 1, open_from > kContextLines ? open_from - kContextLines : 1);
  DropLines(quiet ? window_lines_ : std::min(window_lines_, keep_from - 1));
  scanned_lines_ = window_lines_;
  if (fresh.blocks.empty() && repeats.empty()) return none;

  std::vector<const Record*> records;
  for (const ErrorBlock& b : fresh.blocks) {
    for (const Match& m : b.matches) records.push_back(m.record);
  }
  Answer a;
  const ObservedRates observed = ObservedFor(q_.store, records, &a.notes);
  a.json = RenderLiveJson(fresh, repeats, q_.source, q_.lang, &observed);
  if (q_.want_text) a.text = RenderLiveText(fresh, repeats, q_.lang, &observed, q_.style);
  return a;
}

}  // namespace kedb::app
