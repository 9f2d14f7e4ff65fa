// kedb consume: scan logs from a Kafka topic as one of a consumer group
// (stream/kafka_consume.h).
#include <atomic>
#include <csignal>

#include "cli/commands.h"
#include "cli/common.h"
#include "stream/kafka_consume.h"

namespace kedb::cli {
namespace {

std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
void OnStop(int) { g_stop.store(true); }

// "name=value" into its two parts; false when there is no '='.
bool SplitSetting(const std::string& item, std::pair<std::string, std::string>* out) {
  const std::size_t eq = item.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  *out = {item.substr(0, eq), item.substr(eq + 1)};
  return true;
}

}  // namespace

void RegisterConsume(CLI::App& app, int* exit_code) {
  struct Args {
    std::string kb, env, lang = "en";
    stream::ConsumeOptions options;
    std::vector<std::string> settings;
    double idle_exit = 0;
    double gather = 0;
    double gather_max_mb = 64;
    double gather_open_mb = 1024;
    std::size_t top = app::kScanTop;
  };
  auto args = std::make_shared<Args>();
  args->options.group = "kedb";
  args->options.output_topic = "kedb-results";
  CLI::App* cmd = app.add_subcommand("consume", "Scan logs from a Kafka topic, as one of a consumer group");
  cmd->add_option("--brokers", args->options.brokers, "Kafka bootstrap servers, host:port[,host:port...]")->required();
  cmd->add_option("--topic", args->options.input_topic, "Topic to read logs from (one log, or part of one, a message; "
                                                        "the key names the job)")
      ->required();
  cmd->add_option("--gather", args->gather,
                  "Gather each job's messages into one log, ended by a message with the kedb-job-end header or an "
                  "empty one, or after this many seconds without a message (0: each message is a log)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--gather-max-mb", args->gather_max_mb, "A gathered job longer than this is scanned in parts")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--gather-open-mb", args->gather_open_mb,
                  "Jobs being gathered hold at most this much together; past it, the largest is scanned as a part")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--results", args->options.output_topic, "Topic to write each log's scan result to")
      ->capture_default_str();
  cmd->add_option("--group", args->options.group, "Consumer group: processes with one group share the partitions")
      ->capture_default_str();
  cmd->add_option("-X,--kafka", args->settings, "More librdkafka settings, NAME=VALUE (security.protocol, sasl.*, ...)");
  cmd->add_option("--batch", args->options.batch, "Messages read between two commits at most (a line a message wants thousands)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--idle-exit", args->idle_exit, "Exit after this many seconds without a message (0: never)")
      ->check(CLI::NonNegativeNumber);
  AddKbOption(cmd, &args->kb);
  AddEnvOption(cmd, &args->env);
  AddLangOption(cmd, &args->lang);
  cmd->add_option("--top", args->top, "Matches per error block in each result")->check(CLI::Range(1, 100));
  cmd->footer(
      "Each result goes to the results topic under the input's key:\n"
      "  {\"job\":KEY,\"input\":{\"topic\",\"partition\",\"offset\",\"last_offset\",\"messages\"},\"bytes\":N,\"ended\":WHY,\n"
      "   \"scan\":{...as kedb scan --format json}}\n"
      "Offsets are committed only after the results are acknowledged, and never past a job still being gathered\n"
      "(at least once): a result may come twice, and input.topic/partition/last_offset tell the copies apart.\n"
      "SIGINT or SIGTERM stops after the current batch.\n"
      "Exit status: 0 stopped, 2 error.\nExamples:\n"
      "  kedb consume --brokers kafka:9092 --topic ci-logs --results ci-errors --group kedb\n"
      "  kedb consume --brokers kafka:9092 --topic ci-lines --gather 30     # a line a message, keyed by job\n"
      "  kedb consume --brokers b1:9093 --topic logs -X security.protocol=SSL -X ssl.ca.location=/etc/ca.pem");
  cmd->callback([args, exit_code]() {
    for (const std::string& item : args->settings) {
      std::pair<std::string, std::string> setting;
      if (!SplitSetting(item, &setting)) {
        PrintError(fmt::format("kedb consume: -X {}: expected NAME=VALUE\n", item));
        *exit_code = kExitError;
        return;
      }
      args->options.settings.push_back(std::move(setting));
    }
    auto engine = OpenForQuery(args->kb);
    if (!engine) {
      *exit_code = kExitError;
      return;
    }
    stream::ConsumeOptions& o = args->options;
    o.idle_exit_ms = static_cast<int>(args->idle_exit * 1000);
    o.gather_quiet_ms = static_cast<int>(args->gather * 1000);
    if (args->gather > 0 && o.gather_quiet_ms == 0) o.gather_quiet_ms = 1;
    o.gather_max_bytes = static_cast<std::size_t>(args->gather_max_mb * (1 << 20));
    o.gather_max_open_bytes = static_cast<std::size_t>(args->gather_open_mb * (1 << 20));
    o.query.env = args->env;
    o.query.lang = ParseLang(args->lang);
    o.query.top = args->top;
    std::signal(SIGINT, OnStop);
    std::signal(SIGTERM, OnStop);
    stream::ConsumeStats stats;
    Status st = stream::Consume(*engine, o, g_stop, &stats);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    PrintError(fmt::format("kedb consume: {} message(s), {} bytes read; {} log(s) answered; {} commit(s), {} refused\n",
                           stats.messages, stats.bytes, stats.results, stats.commits, stats.commit_failures));
    if (!st.ok()) {
      PrintError(fmt::format("kedb consume: {}\n", st.message()));
      *exit_code = kExitError;
      return;
    }
    *exit_code = kExitOk;
  });
}

}  // namespace kedb::cli
