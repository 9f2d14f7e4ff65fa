// kedb consume: the result's JSON contract, and whole consumer groups run
// against librdkafka's mock cluster (bench/kafka_harness.cc): every input
// log gets a result naming the right record, sent whole or a line a
// message, through a rebalance while messages flow and a consumer killed
// mid-stream.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "stream/kafka_consume.h"
#include "test_util.h"

namespace kedb {
namespace {

using testing::RunShell;

// A result carries the input's place, so that a reader downstream can drop
// the second result of a message read twice, and the scan as `kedb scan
// --format json` writes it.
TEST(Consume, ResultNamesItsInputAndCarriesTheScan) {
  stream::ClosedJob log;
  log.key = "job-7";
  log.first = {"ci-logs", 3, 1234};
  log.last_offset = 1290;
  log.messages = 40;
  log.text = std::string(5120, 'x');
  log.ended = "end";
  const std::string json = stream::ResultJson(log, R"({"file":"-","blocks":[{"matches":[{"id":"a/b"}]}]})");
  auto j = nlohmann::json::parse(json);
  EXPECT_EQ(j["job"], "job-7");
  EXPECT_EQ(j["input"]["topic"], "ci-logs");
  EXPECT_EQ(j["input"]["partition"], 3);
  EXPECT_EQ(j["input"]["offset"], 1234);
  EXPECT_EQ(j["input"]["last_offset"], 1290);
  EXPECT_EQ(j["input"]["messages"], 40);
  EXPECT_EQ(j["bytes"], 5120);
  EXPECT_EQ(j["ended"], "end");
  EXPECT_EQ(j["scan"]["blocks"][0]["matches"][0]["id"], "a/b");
  EXPECT_EQ(json.find('\n'), std::string::npos);  // one message, one line
}

// Runs the harness; its JSON summary, or a failure with its output.
nlohmann::json Harness(const std::string& args) {
  const std::string kb = (testing::SourceDir() / "kb").string();
  auto r = RunShell(std::string("'") + KEDB_KAFKA_HARNESS + "' --kedb '" + KEDB_BINARY + "' --kb '" + kb + "' " + args);
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return j.is_discarded() ? nlohmann::json::object() : j;
}

// Every job has a result, gathered from all its messages, naming the
// record its log was written around.
void ExpectEveryJobWhole(const nlohmann::json& j) {
  EXPECT_EQ(j.value("missing", -1), 0);
  EXPECT_EQ(j.value("wrong", -1), 0);
  EXPECT_EQ(j.value("incomplete", -1), 0);
}

TEST(Consume, TwoConsumersInOneGroupAnswerEveryMessage) {
  auto j = Harness("--messages 600 --consumers 2 --timeout 90");
  EXPECT_EQ(j.value("missing", -1), 0);
  EXPECT_EQ(j.value("wrong", -1), 0);
  EXPECT_GE(j.value("results", 0), 600);
}

// One consumer at first; a second joins after 300 results while logs are
// still being written (150 a second for 10 s), and the first is killed
// (SIGKILL, no goodbye) after 800. Its uncommitted batch goes to the other:
// results may repeat, none may be missing.
TEST(Consume, RebalanceAndKilledConsumerLoseNothing) {
  auto j = Harness("--messages 1500 --rate 150 --consumers 1 --join-after 300 --kill-after 800 --timeout 120");
  EXPECT_TRUE(j.value("joined", false));
  EXPECT_TRUE(j.value("killed", false));
  EXPECT_EQ(j.value("missing", -1), 0);
  EXPECT_EQ(j.value("wrong", -1), 0);
  EXPECT_EQ(j.value("results", 0), 1500 + j.value("duplicates", 0));
}

// A line a message, eight jobs interleaved, each job's last line marked
// with the kedb-job-end header: each job gets one result, gathered from all
// its lines (a traceback spans several messages), naming the right record.
TEST(Consume, LinesOfAJobAreGatheredIntoOneLog) {
  auto j = Harness("--messages 200 --lines --gather 5 --consumers 2 --timeout 90");
  ExpectEveryJobWhole(j);
  EXPECT_EQ(j.value("results", 0), 200 + j.value("duplicates", 0));
}

// Without end markers a job ends when it goes quiet; written before the
// consumer starts, the backlog's own timestamps end each job, not the
// time the consumer takes to reach its next line.
TEST(Consume, JobsWithoutAnEndMarkerEndWhenQuiet) {
  auto j = Harness("--messages 100 --lines --no-end-marker --gather 0.5 --consumers 1 --timeout 90");
  ExpectEveryJobWhole(j);
}

// Gathering through a rebalance and a killed consumer: offsets are never
// committed past a job still open, so the partitions' next owner reads the
// dead one's open jobs from their first line. Nothing is missing or cut.
TEST(Consume, GatheredJobsSurviveARebalanceAndAKilledConsumer) {
  auto j = Harness(
      "--messages 300 --lines --rate 1500 --gather 2 --consumers 1 --join-after 60 --kill-after 150 --timeout 120");
  EXPECT_TRUE(j.value("joined", false));
  EXPECT_TRUE(j.value("killed", false));
  ExpectEveryJobWhole(j);
}

// Bad settings are refused before anything is read, naming the setting.
TEST(Consume, RefusesBadSettings) {
  auto r = testing::RunKedb("consume --brokers 127.0.0.1:1 --topic logs -X no.such.setting=1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no.such.setting"), std::string::npos) << r.err;
  r = testing::RunKedb("consume --brokers 127.0.0.1:1 --topic logs -X novalue");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("expected NAME=VALUE"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace kedb
