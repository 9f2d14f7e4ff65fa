// kedb-kafka-harness: `kedb consume` against librdkafka's mock cluster, for
// the consume tests and the Kafka benchmark (bench/kafka.sh).
//
//   kedb-kafka-harness --kedb build/kedb --kb kb --messages 2000 --consumers 2
//                      [--rate 500] [--join-after 300] [--kill-after 600] [--partitions 4] [--batch 20]
//
// It starts a mock cluster of three brokers in this process, writes
// `messages` job logs (a few kilobytes each, keyed by job; most hold one
// error the bundled knowledge base knows, some none) to the input topic,
// and starts `consumers` processes of `kedb consume` in one group. With
// --join-after one more consumer joins once that many results have come
// (a rebalance while messages flow); with --kill-after the first consumer
// is killed with SIGKILL once that many have come. It reads the results
// topic until every input message has a result or the time runs out, then
// stops the consumers and prints one JSON object:
//
//   {"messages", "input_messages", "results", "missing", "duplicates", "wrong", "incomplete", "seconds",
//    "messages_per_s", "mb_per_s", "first_result_s", "flowing_messages_per_s", ...}
//
// "seconds" runs from starting the consumers to the last result (process
// start and the group's first join included); the "flowing" rates from
// the first result to the last.
//
// "wrong": results whose first match is not the record the log was written
// around. Exit status 0 when nothing is missing or wrong.
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/xorshift.h"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
constexpr const char* kInput = "logs";
constexpr const char* kResults = "kedb-results";

// Errors written into the logs, with the bundled record each must find
// ("" for a log with no known error).
struct Planted {
  const char* line;
  const char* record;
};
constexpr Planted kPlanted[] = {
    {"RuntimeError: CUDA error: out of memory", "pytorch/cuda-out-of-memory"},
    {"RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0",
     "cuda/cudnn-bn-epsilon-nan"},
    {"ModuleNotFoundError: No module named 'triton'", "triton/module-not-found"},
    {"", ""},
};

std::string JobLog(std::size_t i, const Planted& p) {
  kedb::util::XorShift r(i, 0xCAFE);
  std::string log;
  const std::size_t lines = 40 + r.Below(60);
  for (std::size_t k = 0; k < lines; ++k) {
    log += fmt::format("2026-11-27T10:{:02}:{:02}.{:03}Z INFO  [trainer] epoch {} step {}/5000 loss={:.4f}\n",
                       r.Below(60), r.Below(60), r.Below(1000), k / 10, k * 17, r.Unit());
    if (k == lines / 2 && p.line[0] != '\0') {
      log += "Traceback (most recent call last):\n  File \"train.py\", line 212, in <module>\n    main()\n";
      log += std::string(p.line) + "\n";
    }
  }
  return log;
}

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "kedb-kafka-harness: %s\n", what.c_str());
  std::exit(2);
}

rd_kafka_t* NewClient(rd_kafka_type_t type, const std::vector<std::pair<std::string, std::string>>& settings) {
  char error[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  for (const auto& [k, v] : settings) {
    if (rd_kafka_conf_set(conf, k.c_str(), v.c_str(), error, sizeof error) != RD_KAFKA_CONF_OK) Die(error);
  }
  rd_kafka_t* rk = rd_kafka_new(type, conf, error, sizeof error);
  if (!rk) Die(error);
  return rk;
}

// Where each log's last message landed, the record its result must name
// and how many messages the log was sent in. Results are told apart by
// their last message: a consumer that takes over a partition from one that
// died reads again from the oldest job that one had open, and a job
// answered meanwhile comes out twice, the second time from that offset on
// but ending where it ended.
struct Log {
  std::string record;
  std::size_t messages = 1;
};
using Expected = std::map<std::pair<int32_t, int64_t>, Log>;

// A message's delivery, with what the harness needs to remember of it:
// only a log's last message has a Log (the others pass null).
void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* m, void* opaque) {
  if (m->err) Die(std::string("produce: ") + rd_kafka_err2str(m->err));
  if (m->_private == nullptr) return;
  auto* expected = static_cast<Expected*>(opaque);
  const Log* log = static_cast<const Log*>(m->_private);
  (*expected)[{m->partition, m->offset}] = *log;
  delete log;
}

// How the logs are sent: each whole in one message, or a line a message
// with eight jobs' lines interleaved (keys unique per job), the last line
// of each carrying the end header unless `end_marker` is false.
struct Sending {
  bool lines = false;
  bool end_marker = true;
};

// The messages of `logs` (whole or by lines), interleaved as sent: (log
// index, text, whether it is the log's last).
struct Piece {
  std::size_t log;
  std::string text;
  bool last;
};
std::vector<Piece> Pieces(const std::vector<std::string>& logs, bool by_lines) {
  std::vector<Piece> out;
  if (!by_lines) {
    for (std::size_t i = 0; i < logs.size(); ++i) out.push_back({i, logs[i], true});
    return out;
  }
  std::vector<std::vector<std::string>> lines(logs.size());
  for (std::size_t i = 0; i < logs.size(); ++i) {
    std::size_t b = 0;
    for (std::size_t e; (e = logs[i].find('\n', b)) != std::string::npos; b = e + 1) {
      lines[i].push_back(logs[i].substr(b, e - b));
    }
  }
  kedb::util::XorShift r(logs.size(), 0x11E5);
  std::vector<std::size_t> active, next_line(logs.size(), 0);
  std::size_t started = 0;
  while (started < logs.size() || !active.empty()) {
    while (active.size() < 8 && started < logs.size()) active.push_back(started++);
    const std::size_t k = r.Below(active.size());
    const std::size_t i = active[k];
    const bool last = next_line[i] + 1 == lines[i].size();
    out.push_back({i, lines[i][next_line[i]++], last});
    if (last) active.erase(active.begin() + static_cast<std::ptrdiff_t>(k));
  }
  return out;
}

// Writes the job logs, `rate` messages a second (0: as fast as it can);
// returns their total size.
std::size_t ProduceLogs(const std::string& bootstrap, std::size_t messages, double rate, const Sending& how,
                        Expected* expected, std::size_t* sent) {
  const auto start = Clock::now();
  char error[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), error, sizeof error);
  rd_kafka_conf_set_dr_msg_cb(conf, OnDelivery);
  rd_kafka_conf_set_opaque(conf, expected);
  rd_kafka_t* producer = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error);
  if (!producer) Die(error);
  std::vector<std::string> logs;
  std::size_t bytes = 0;
  for (std::size_t i = 0; i < messages; ++i) {
    logs.push_back(JobLog(i, kPlanted[i % std::size(kPlanted)]));
    bytes += logs.back().size();
  }
  const std::vector<Piece> pieces = Pieces(logs, how.lines);
  *sent = pieces.size();
  std::vector<std::size_t> counts(logs.size(), 0);
  for (const Piece& p : pieces) ++counts[p.log];
  for (std::size_t n = 0; n < pieces.size(); ++n) {
    const Piece& piece = pieces[n];
    // Whole logs reuse keys (many logs of one job); lines need a key per job.
    const std::string key = how.lines ? fmt::format("job-{}", piece.log) : fmt::format("job-{}", piece.log % 97);
    Log* last = nullptr;
    if (piece.last) last = new Log{kPlanted[piece.log % std::size(kPlanted)].record, counts[piece.log]};
    rd_kafka_headers_t* headers = rd_kafka_headers_new(1);
    if (how.lines && how.end_marker && piece.last) rd_kafka_header_add(headers, "kedb-job-end", -1, "", 0);
    rd_kafka_resp_err_t err;
    while ((err = rd_kafka_producev(producer, RD_KAFKA_V_TOPIC(kInput), RD_KAFKA_V_KEY(key.data(), key.size()),
                                    RD_KAFKA_V_VALUE(const_cast<char*>(piece.text.data()), piece.text.size()),
                                    RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_HEADERS(headers),
                                    RD_KAFKA_V_OPAQUE(last), RD_KAFKA_V_END)) == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      rd_kafka_poll(producer, 50);
    }
    if (err) Die(std::string("produce: ") + rd_kafka_err2str(err));
    rd_kafka_poll(producer, 0);
    if (rate > 0) std::this_thread::sleep_until(start + std::chrono::duration<double>(static_cast<double>(n + 1) / rate));
  }
  if (rd_kafka_flush(producer, 60000) != RD_KAFKA_RESP_ERR_NO_ERROR) Die("produce: not flushed in 60 s");
  rd_kafka_destroy(producer);
  return bytes;
}

pid_t StartConsumer(const std::string& kedb, const std::string& kb, const std::string& bootstrap, int n,
                    std::size_t batch, double gather) {
  const std::string log = fmt::format("/tmp/kedb-consume-{}-{}.log", getpid(), n);
  std::vector<std::string> args = {kedb, "consume", "--brokers", bootstrap, "--topic", kInput, "--results", kResults,
                                   "--group", "kedb-harness", "--kb", kb, "--batch", std::to_string(batch),
                                   "--gather", fmt::format("{}", gather),
                                   "-X", "session.timeout.ms=6000", "-X", "heartbeat.interval.ms=500"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  if (posix_spawn(&pid, kedb.c_str(), &actions, nullptr, argv.data(), environ) != 0) Die("cannot start " + kedb);
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

struct Tally {
  // By input partition and last offset: the first match, and the messages
  // the result says its log was gathered from (the first result of each).
  std::map<std::pair<int32_t, int64_t>, std::pair<std::string, std::size_t>> first_match;
  std::size_t results = 0, duplicates = 0;
};

// Reads one result into the tally.
void Count(const rd_kafka_message_t* m, Tally* t) {
  auto j = nlohmann::json::parse(static_cast<const char*>(m->payload), static_cast<const char*>(m->payload) + m->len,
                                 nullptr, false);
  if (j.is_discarded()) Die("a result is not JSON");
  ++t->results;
  const nlohmann::json& input = j["input"];
  const std::pair<int32_t, int64_t> where{input["partition"].get<int32_t>(),
                                          input.value("last_offset", input["offset"].get<int64_t>())};
  std::string first;
  for (const auto& b : j["scan"]["blocks"]) {
    if (!b["matches"].empty()) {
      first = b["matches"][0]["id"].get<std::string>();
      break;
    }
  }
  const std::size_t messages = j["input"].value("messages", std::size_t{0});
  if (!t->first_match.emplace(where, std::make_pair(first, messages)).second) ++t->duplicates;
}

// Results whose first match is not the record their log was written
// around, and results of a log gathered from other than all its messages.
std::size_t Wrong(const Tally& t, const Expected& expected, std::size_t* incomplete) {
  std::size_t wrong = 0;
  for (const auto& [where, result] : t.first_match) {
    auto it = expected.find(where);
    if (it == expected.end() || it->second.record != result.first) ++wrong;
    if (it != expected.end() && it->second.messages != result.second) ++*incomplete;
  }
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kedb consume against librdkafka's mock cluster"};
  std::string kedb, kb;
  std::size_t messages = 1000, join_after = 0, kill_after = 0, batch = 20;
  int consumers = 1, partitions = 4;
  double timeout = 120, rate = 0;
  app.add_option("--kedb", kedb)->required();
  app.add_option("--kb", kb)->required();
  app.add_option("--messages", messages);
  app.add_option("--consumers", consumers);
  app.add_option("--partitions", partitions);
  app.add_option("--join-after", join_after, "start one more consumer after this many results");
  app.add_option("--kill-after", kill_after, "SIGKILL the first consumer after this many results");
  app.add_option("--timeout", timeout, "seconds to wait for every result");
  app.add_option("--batch", batch, "kedb consume --batch (small by default, for many commit points)");
  app.add_option("--rate", rate, "messages a second, written while the consumers run (0: all before)");
  Sending how;
  double gather = 0;
  app.add_flag("--lines", how.lines, "send each log a line a message, eight jobs interleaved");
  bool no_end_marker = false;
  app.add_flag("--no-end-marker", no_end_marker, "with --lines: no kedb-job-end header; jobs end by going quiet");
  app.add_option("--gather", gather, "kedb consume --gather (seconds)");
  CLI11_PARSE(app, argc, argv);
  how.end_marker = !no_end_marker;

  rd_kafka_t* host = NewClient(RD_KAFKA_PRODUCER, {{"log_level", "3"}});  // only hosts the cluster
  rd_kafka_mock_cluster_t* cluster = rd_kafka_mock_cluster_new(host, 3);
  if (!cluster) Die("no mock cluster");
  const std::string bootstrap = rd_kafka_mock_cluster_bootstraps(cluster);
  rd_kafka_mock_topic_create(cluster, kInput, partitions, 1);
  rd_kafka_mock_topic_create(cluster, kResults, partitions, 1);
  // With a rate, the logs are written while the consumers run (so that a
  // join or a kill happens while messages flow); else all before they start.
  Expected expected;
  std::size_t bytes = 0, input_messages = 0;
  std::thread writer;
  if (rate > 0) {
    writer = std::thread([&] { bytes = ProduceLogs(bootstrap, messages, rate, how, &expected, &input_messages); });
  } else {
    bytes = ProduceLogs(bootstrap, messages, 0, how, &expected, &input_messages);
  }

  // The results are read by assignment, not as a group member, so that the
  // reader does not wait for a group to form.
  rd_kafka_t* reader = NewClient(RD_KAFKA_CONSUMER, {{"bootstrap.servers", bootstrap},
                                                     {"group.id", "kedb-harness-reader"},
                                                     {"enable.auto.commit", "false"}});
  rd_kafka_poll_set_consumer(reader);
  rd_kafka_topic_partition_list_t* assignment = rd_kafka_topic_partition_list_new(partitions);
  for (int p = 0; p < partitions; ++p) {
    rd_kafka_topic_partition_list_add(assignment, kResults, p)->offset = RD_KAFKA_OFFSET_BEGINNING;
  }
  rd_kafka_assign(reader, assignment);
  rd_kafka_topic_partition_list_destroy(assignment);

  const auto start = Clock::now();
  std::vector<pid_t> pids;
  for (int i = 0; i < consumers; ++i) pids.push_back(StartConsumer(kedb, kb, bootstrap, i, batch, gather));
  Tally tally;
  bool joined = false, killed = false;
  auto last_result = start, first_result = start;
  while (tally.first_match.size() < messages &&
         std::chrono::duration<double>(Clock::now() - start).count() < timeout) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(reader, 200);
    if (!m) continue;
    if (!m->err) {
      Count(m, &tally);
      last_result = Clock::now();
      if (tally.results == 1) first_result = last_result;
    }
    rd_kafka_message_destroy(m);
    if (join_after && !joined && tally.results >= join_after) {
      pids.push_back(StartConsumer(kedb, kb, bootstrap, static_cast<int>(pids.size()), batch, gather));
      joined = true;
    }
    if (kill_after && !killed && tally.results >= kill_after) {
      kill(pids.front(), SIGKILL);
      killed = true;
    }
  }
  const double seconds = std::chrono::duration<double>(last_result - start).count();
  // From the first result on: the rate once the group has formed.
  const double flowing = std::chrono::duration<double>(last_result - first_result).count();
  for (std::size_t i = 0; i < pids.size(); ++i) {
    if (!(killed && i == 0)) kill(pids[i], SIGTERM);
    waitpid(pids[i], nullptr, 0);
  }
  rd_kafka_consumer_close(reader);
  rd_kafka_destroy(reader);
  rd_kafka_mock_cluster_destroy(cluster);
  rd_kafka_destroy(host);

  if (writer.joinable()) writer.join();
  const std::size_t missing = messages - tally.first_match.size();
  std::size_t incomplete = 0;
  const std::size_t wrong = Wrong(tally, expected, &incomplete);
  nlohmann::ordered_json out = {{"messages", messages},
                                {"bytes", bytes},
                                {"input_messages", input_messages},
                                {"consumers", consumers},
                                {"joined", joined},
                                {"killed", killed},
                                {"results", tally.results},
                                {"missing", missing},
                                {"duplicates", tally.duplicates},
                                {"wrong", wrong},
                                {"incomplete", incomplete},
                                {"seconds", seconds},
                                {"messages_per_s", seconds > 0 ? static_cast<double>(messages) / seconds : 0},
                                {"mb_per_s", seconds > 0 ? static_cast<double>(bytes) / (1 << 20) / seconds : 0},
                                {"first_result_s", std::chrono::duration<double>(first_result - start).count()},
                                {"flowing_messages_per_s",
                                 flowing > 0 ? static_cast<double>(tally.results - 1) / flowing : 0},
                                {"flowing_mb_per_s", flowing > 0 ? static_cast<double>(bytes) / (1 << 20) *
                                                                       static_cast<double>(tally.results - 1) /
                                                                       static_cast<double>(messages) / flowing
                                                                 : 0}};
  std::printf("%s\n", out.dump().c_str());
  return missing == 0 && wrong == 0 && incomplete == 0 ? 0 : 1;
}
