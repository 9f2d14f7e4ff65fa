#include "engine/hit_regions.h"

#include <algorithm>

#include "logs/blocks.h"
#include "util/up_to_numbers.h"

namespace kedb::match {

void CutLines::FixOffsets(Match* m) const {
  for (const Cut& c : cuts_) {
    if (c.line != m->line) continue;
    if (m->begin >= c.tail_offset) m->begin += c.shift;
    if (m->end > c.tail_offset) m->end += c.shift;
  }
}

std::string_view LineOf(const LineTexts& texts, std::size_t line) {
  for (const auto& [n, text] : texts) {
    if (n == line) return text;
  }
  return {};
}

void HitRegions::Add(std::size_t line_no, std::string_view text, std::vector<Candidate>&& found) {
  if (found.empty()) return;
  if (open_ && line_no > open_region_.last_line + gap_) Close();
  if (!open_) {
    open_region_ = Region();
    open_region_.first_line = line_no;
    open_ = true;
  }
  open_region_.last_line = line_no;
  if (open_region_.texts.size() < 64) open_region_.texts.emplace_back(line_no, text);
  for (auto& c : found) open_region_.candidates.push_back(std::move(c));
  // A long region keeps only its best candidates as it grows.
  if (open_region_.candidates.size() > 256) KeepBestOf(&open_region_.candidates, std::max<std::size_t>(top_, 64));
}

void HitRegions::Finish() {
  if (open_) Close();
}

void HitRegions::Close() {
  open_ = false;
  // Kept per line, not only per record: the lines may fall into different
  // error blocks. Bounded all the same.
  auto& cs = open_region_.candidates;
  std::stable_sort(cs.begin(), cs.end(), [](const Candidate& a, const Candidate& b) { return a.match.score > b.match.score; });
  std::vector<Candidate> kept;
  for (auto& c : cs) {
    if (kept.size() >= std::max<std::size_t>(top_, 32)) break;
    bool seen = std::any_of(kept.begin(), kept.end(), [&](const Candidate& k) {
      return k.match.record == c.match.record && k.match.line == c.match.line;
    });
    if (!seen) kept.push_back(std::move(c));
  }
  cs = std::move(kept);
  std::string key = open_region_.candidates.empty() ? std::string() : open_region_.candidates[0].match.record->id;
  key += '\x1f';
  // The best candidate's line, numbers aside, tells repeats apart.
  if (!cs.empty()) util::AppendUpToNumbers(LineOf(open_region_.texts, cs[0].match.line), &key);
  if (auto it = by_key_.find(key); it != by_key_.end()) {
    Region& first = regions_[it->second];
    ++first.count;
    if (first.repeats.size() < logs::BlockSegmenter::kMaxOccurrences) {
      first.repeats.emplace_back(open_region_.first_line, open_region_.last_line);
    }
    return;
  }
  if (regions_.size() >= logs::BlockSegmenter::kMaxBlocks) {
    ++dropped_;
    return;
  }
  by_key_.emplace(std::move(key), regions_.size());
  regions_.push_back(std::move(open_region_));
}

}  // namespace kedb::match
