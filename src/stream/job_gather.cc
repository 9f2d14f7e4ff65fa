#include "stream/job_gather.h"

#include <algorithm>

namespace kedb::stream {

void JobGatherer::Add(const MessagePlace& place, std::string_view key, std::string_view payload, bool ends,
                      Clock::time_point now, int64_t message_ms) {
  int64_t& read = read_[{place.topic, place.partition}];
  read = std::max(read, place.offset + 1);
  if (message_ms >= 0) {
    int64_t& newest = newest_ms_.try_emplace({place.topic, place.partition}, message_ms).first->second;
    newest = std::max(newest, message_ms);
  }
  if (!gathering()) {
    closed_.push_back({std::string(key), place, place.offset, 1, std::string(payload), "message"});
    return;
  }
  auto [it, fresh] = open_.try_emplace({place.topic, place.partition, std::string(key)});
  if (fresh && payload.empty()) {  // a marker after its job closed as quiet: nothing to scan
    open_.erase(it);
    return;
  }
  Open& open = it->second;
  if (fresh) {
    open.job.key = std::string(key);
    open.job.first = place;
  }
  open.job.last_offset = place.offset;
  ++open.job.messages;
  const std::size_t before = open.job.text.size();
  open.job.text.append(payload);
  // Messages hold whole lines; one sent without its newline (a line a
  // message) must not run into the next.
  if (!payload.empty() && payload.back() != '\n') open.job.text.push_back('\n');
  open_bytes_ += open.job.text.size() - before;
  open.last = now;
  open.last_ms = message_ms;
  if (ends || payload.empty()) {
    Close(it, "end");
  } else if (open.job.text.size() >= max_bytes_) {
    Close(it, "size");
  }
  while (open_bytes_ > max_open_bytes_ && !open_.empty()) {
    auto largest = std::max_element(open_.begin(), open_.end(), [](const auto& a, const auto& b) {
      return a.second.job.text.size() < b.second.job.text.size();
    });
    Close(largest, "size");
  }
}

void JobGatherer::Close(std::map<JobKey, Open>::iterator it, std::string_view why) {
  open_bytes_ -= it->second.job.text.size();
  it->second.job.ended = why;
  closed_.push_back(std::move(it->second.job));
  open_.erase(it);
}

bool JobGatherer::Quiet(const JobKey& key, const Open& open, Clock::time_point now, bool caught_up) const {
  if (open.last_ms >= 0) {
    auto newest = newest_ms_.find({std::get<0>(key), std::get<1>(key)});
    if (newest != newest_ms_.end() && newest->second - open.last_ms >= quiet_ms_) return true;
  }
  return caught_up && now - open.last >= std::chrono::milliseconds(quiet_ms_);
}

std::vector<ClosedJob> JobGatherer::TakeClosed(Clock::time_point now, bool caught_up) {
  for (auto it = open_.begin(); it != open_.end();) {
    auto next = std::next(it);
    if (Quiet(it->first, it->second, now, caught_up)) Close(it, "quiet");
    it = next;
  }
  std::vector<ClosedJob> out;
  out.swap(closed_);
  return out;
}

std::map<std::pair<std::string, int32_t>, int64_t> JobGatherer::CommitPoints() {
  std::map<std::pair<std::string, int32_t>, int64_t> points = read_;
  for (const auto& [key, open] : open_) {
    int64_t& point = points[{std::get<0>(key), std::get<1>(key)}];
    point = std::min(point, open.job.first.offset);
  }
  std::map<std::pair<std::string, int32_t>, int64_t> moved;
  for (const auto& [partition, point] : points) {
    auto it = committed_.find(partition);
    if (it != committed_.end() && it->second >= point) continue;
    committed_[partition] = point;
    moved[partition] = point;
  }
  return moved;
}

void JobGatherer::Drop(const std::string& topic, int32_t partition) {
  for (auto it = open_.begin(); it != open_.end();) {
    auto next = std::next(it);
    if (std::get<0>(it->first) == topic && std::get<1>(it->first) == partition) {
      open_bytes_ -= it->second.job.text.size();
      open_.erase(it);
    }
    it = next;
  }
  std::erase_if(closed_, [&](const ClosedJob& j) { return j.first.topic == topic && j.first.partition == partition; });
  read_.erase({topic, partition});
  newest_ms_.erase({topic, partition});
  committed_.erase({topic, partition});
}

}  // namespace kedb::stream
