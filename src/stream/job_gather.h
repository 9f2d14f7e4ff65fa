// JobGatherer: the messages of one job, gathered into one log across a
// topic's messages, and the offsets that are safe to commit meanwhile.
//
// A CI system that streams a job's output sends it as it comes: a line or
// a few lines a message, keyed by the job, interleaved with other jobs'.
// A traceback then spans several messages, and scanned one message at a
// time it would be read as loose lines. The gatherer keeps each job's text
// (per topic, partition and key: Kafka sends one key to one partition)
// until the job ends:
//   - a message with the header kJobEndHeader, or with an empty payload,
//     ends its job (the message's own text is the job's last);
//   - a job no message has reached for `quiet_ms` ends. Time is the
//     messages' own (their timestamps) while its partition has newer ones,
//     so a consumer behind on a backlog does not cut jobs whose next lines
//     it has yet to read; once caught up, it is the clock's;
//   - a job over `max_bytes` is closed as a part, and what follows is
//     gathered as the next part (bounded memory per job);
//   - when the open jobs hold more than `max_open_bytes` together, the
//     largest is closed as a part the same way (bounded memory in all,
//     whatever the number of jobs running at once).
// With quiet_ms == 0 nothing is gathered: each message is a whole log.
//
// Offsets. A message is answered once its job's result is acknowledged,
// and Kafka commits one offset per partition: everything before it. So a
// partition's commit point is the first offset of its oldest open job, or
// past the last message read when none is open. A consumer that dies
// leaves open jobs to the partition's next owner, which reads them again
// from their first message; jobs closed after that first message come out
// twice, and input.offset (a job's first offset) tells the copies apart.
//
// Not thread-safe; one per consumer.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace kedb::stream {

// The header (any value) that marks a job's last message.
inline constexpr std::string_view kJobEndHeader = "kedb-job-end";

// Where a message came from.
struct MessagePlace {
  std::string topic;
  int32_t partition = 0;
  int64_t offset = 0;
};

// A job ready to be scanned.
struct ClosedJob {
  std::string key;
  MessagePlace first;       // its first message (input.offset of the result)
  int64_t last_offset = 0;  // its last message, in the same partition
  std::size_t messages = 0;
  std::string text;
  // Why it closed: "message" (nothing is gathered), "end" (a marker),
  // "quiet" (no message for quiet_ms), "size" (a part of a longer job).
  std::string_view ended;
};

class JobGatherer {
 public:
  using Clock = std::chrono::steady_clock;
  JobGatherer(int quiet_ms, std::size_t max_bytes, std::size_t max_open_bytes = std::size_t{1} << 30)
      : quiet_ms_(quiet_ms), max_bytes_(max_bytes), max_open_bytes_(max_open_bytes) {}

  // One message read at `now`. `ends`: it carries the end marker.
  // `message_ms`: its timestamp in milliseconds, or -1 when it has none.
  void Add(const MessagePlace& place, std::string_view key, std::string_view payload, bool ends, Clock::time_point now,
           int64_t message_ms = -1);
  // Jobs closed by their messages, and open ones gone quiet, in the order
  // they closed; the gatherer forgets them. `caught_up`: the consumer has
  // read all there was (the last read came back short), so the clock may
  // end jobs too.
  std::vector<ClosedJob> TakeClosed(Clock::time_point now, bool caught_up);
  // Offsets safe to commit once the jobs taken so far are answered, for
  // the partitions whose point moved since the last call.
  std::map<std::pair<std::string, int32_t>, int64_t> CommitPoints();
  // The partitions were taken away: their open jobs are another's now.
  void Drop(const std::string& topic, int32_t partition);

  std::size_t open_jobs() const { return open_.size(); }
  std::size_t open_bytes() const { return open_bytes_; }
  bool gathering() const { return quiet_ms_ > 0; }

 private:
  using JobKey = std::tuple<std::string, int32_t, std::string>;  // topic, partition, key
  struct Open {
    ClosedJob job;
    Clock::time_point last;  // when its last message was read
    int64_t last_ms = -1;    // that message's timestamp
  };
  bool Quiet(const JobKey& key, const Open& open, Clock::time_point now, bool caught_up) const;
  void Close(std::map<JobKey, Open>::iterator it, std::string_view why);

  int quiet_ms_;
  std::size_t max_bytes_, max_open_bytes_;
  std::size_t open_bytes_ = 0;  // the open jobs' text, together
  std::map<JobKey, Open> open_;
  std::vector<ClosedJob> closed_;
  // Per partition: the offset after the last message read, and the point
  // last handed out by CommitPoints.
  std::map<std::pair<std::string, int32_t>, int64_t> read_, committed_;
  // Per partition: the newest message timestamp read.
  std::map<std::pair<std::string, int32_t>, int64_t> newest_ms_;
};

}  // namespace kedb::stream
