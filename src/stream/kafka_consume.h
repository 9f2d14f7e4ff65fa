// kedb as a Kafka consumer: logs in from one topic, scan results out to
// another (`kedb consume`).
//
// Each input message is a log or a piece of one (a line, a few lines, a
// whole job's output), keyed by the job it came from. Without gathering,
// each message is scanned on its own; with it (gather_quiet_ms > 0), a
// job's messages are gathered into one log until the job ends
// (job_gather.h). Each log is scanned as `kedb scan --format json` would
// scan it, and one result goes to the output topic under the same key:
//
//   {"job": KEY, "input": {"topic": T, "partition": P, "offset": O,
//    "last_offset": L, "messages": N}, "bytes": B, "ended": WHY,
//    "scan": {...the scan's JSON...}}
//
// O is the log's first message, L its last (the same without gathering).
//
// Delivery is at least once. Messages are taken in batches; the results
// of the logs a batch completes are produced and acknowledged by the
// brokers before any offset is committed, and a partition's offset never
// passes the first message of a job still being gathered, so a consumer
// that dies leaves what it has not answered to whoever takes its
// partitions. A commit the
// group refuses while it rebalances is tried again after the next batch
// and when partitions are revoked. A message may still have two results;
// the input's topic, partition and offset let a reader downstream drop the
// second.
//
// Consumers with the same group id share the input's partitions (Kafka's
// group protocol): partitions are the unit of parallelism, and more
// processes in the group means more throughput up to one per partition.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "app/queries.h"
#include "kedb/engine.h"
#include "kedb/status.h"
#include "stream/job_gather.h"

namespace kedb::stream {

struct ConsumeOptions {
  std::string brokers;       // bootstrap.servers: "host:port,..."
  std::string group;         // group.id
  std::string input_topic;
  std::string output_topic;
  // More librdkafka settings, applied to both the consumer and the producer
  // (security.protocol, sasl.*, session.timeout.ms, ...).
  std::vector<std::pair<std::string, std::string>> settings;
  std::size_t batch = 100;   // messages read between two commits at most
  // Gathering a job's messages (job_gather.h): a job ends after this long
  // without a message (0: no gathering, each message is a log), at its end
  // marker, or is cut into parts of gather_max_bytes.
  int gather_quiet_ms = 0;
  std::size_t gather_max_bytes = std::size_t{64} << 20;
  std::size_t gather_max_open_bytes = std::size_t{1} << 30;  // all open jobs together
  // Stop after this long with no message (0: run until `stop`).
  int idle_exit_ms = 0;
  app::MatchQuery query;     // how each log is scanned (top, env, lang)
};

struct ConsumeStats {
  uint64_t messages = 0;     // input messages read
  uint64_t bytes = 0;        // their size
  uint64_t results = 0;      // logs scanned and answered
  uint64_t commits = 0;      // batches committed
  uint64_t commit_failures = 0;  // commits refused (a rebalance), tried again later
};

// The result published for one log (see above).
std::string ResultJson(const ClosedJob& log, std::string_view scan_json);

// Runs until `stop` turns true, the idle time runs out, or a fatal error.
// Errors: settings librdkafka refuses, a topic that cannot be subscribed,
// results the brokers did not acknowledge (then nothing of that batch is
// committed, and the process should exit so that the group moves on).
Status Consume(const Engine& engine, const ConsumeOptions& options, const std::atomic<bool>& stop,
               ConsumeStats* stats);

}  // namespace kedb::stream
