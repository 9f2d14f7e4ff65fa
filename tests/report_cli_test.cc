// `kedb report` and `kedb show` with a store, as users and scripts run
// them: output, exit codes, and nothing acknowledged lost when writers run
// at once, are killed, or fill the disk.
#include <nlohmann/json.hpp>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "store_backends.h"
#include "test_util.h"

namespace kedb {
namespace {

using testing::RunKedb;
using testing::SourceDir;
using testing::TempDir;

const char* kId = "cuda/cudnn-bn-epsilon-nan";

std::string Kb() { return "--kb '" + (SourceDir() / "kb").string() + "'"; }

// Each test runs once per store backend.
class ReportCli : public ::testing::TestWithParam<std::string> {
 protected:
  explicit ReportCli(const std::string& backend = GetParam()) : store_(backend) {}
  void SetUp() override { KEDB_REQUIRE_BACKEND(store_); }

  std::string StoreArg() const { return "--store '" + store_.spec() + "'"; }
  const TempDir& tmp() const { return store_.tmp(); }

  // The record's observed section as `kedb show --json` gives it (null
  // when nothing was reported).
  nlohmann::json Observed() const {
    auto r = RunKedb(std::string("show ") + kId + " --json " + Kb() + " " + StoreArg());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    return j.contains("observed") ? j["observed"] : nlohmann::json();
  }

  // Runs a shell script with KEDB (the binary), KB, STORE and WORK (the
  // temporary folder) set; its exit status.
  int Shell(const std::string& script) const {
    const auto file = tmp().path() / "script.sh";
    testing::WriteFile(file, script);
    const std::string cmd = "KEDB='" + std::string(KEDB_BINARY) + "' KB='" + (SourceDir() / "kb").string() +
                            "' STORE='" + store_.spec() + "' WORK='" + tmp().path().string() + "' bash '" +
                            file.string() + "'";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  testing::TestStore store_;
};
INSTANTIATE_TEST_SUITE_P(Backends, ReportCli, ::testing::Values("sqlite", "postgresql"), testing::BackendName);

// A full file system is the embedded store's case; a PostgreSQL server's
// disk is the server's to watch.
class ReportCliSqlite : public ReportCli {
 protected:
  ReportCliSqlite() : ReportCli("sqlite") {}
};

TEST_P(ReportCli, AReportMovesTheRateShownEverywhere) {
  auto r = RunKedb(std::string("report ") + kId + " --workaround 1 --failed --env OS=Linux --note 'still NaN' " +
                   Kb() + " " + StoreArg());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Recorded: failed workaround #1 of cuda/cudnn-bn-epsilon-nan"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("success rate now 86%"), std::string::npos) << r.out;  // Beta(9.5, 0.5) + 1 failure
  auto observed = Observed();
  ASSERT_TRUE(observed.is_object());
  EXPECT_EQ(observed["reports"], 1);
  EXPECT_EQ(observed["workarounds"][0]["failed"], 1);
  EXPECT_NEAR(observed["workarounds"][0]["rate"].get<double>(), 9.5 / 11.0, 1e-9);
  EXPECT_TRUE(observed["last_confirmed"].is_null());  // nothing worked yet
  // The card shows the same rate and the counts behind it.
  auto card = RunKedb(std::string("show ") + kId + " " + Kb() + " " + StoreArg());
  EXPECT_NE(card.out.find(" 86% Set epsilon"), std::string::npos) << card.out;
  EXPECT_NE(card.out.find("reported: 0 worked, 1 failed"), std::string::npos) << card.out;
}

TEST_P(ReportCli, MatchAndScanOrderFixesByWhatWasReported) {
  const std::string message =
      "'RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0'";
  auto before = nlohmann::json::parse(RunKedb("match --json " + message + " " + Kb() + " " + StoreArg()).out);
  const std::string first = before["matches"][0]["workarounds"][0]["action"];
  EXPECT_EQ(first.rfind("Set epsilon", 0), 0u) << first;  // curated 95% before 90%
  // Six people report that it failed: it falls below the other one.
  for (int i = 0; i < 6; ++i) {
    ASSERT_EQ(RunKedb(std::string("report ") + kId + " --workaround 1 --failed " + Kb() + " " + StoreArg()).exit_code, 0);
  }
  auto after = nlohmann::json::parse(RunKedb("match --json " + message + " " + Kb() + " " + StoreArg()).out);
  const auto& ws = after["matches"][0]["workarounds"];
  EXPECT_EQ(ws[0]["action"].get<std::string>().rfind("If epsilon", 0), 0u) << ws.dump();
  EXPECT_EQ(ws[1]["curated_rate"], 0.95);
  EXPECT_EQ(ws[1]["observed"]["failed"], 6);
  EXPECT_NEAR(ws[1]["success_rate"].get<double>(), 9.5 / 16.0, 1e-9);
  // A scan shows the same numbers.
  auto scan = RunKedb("scan --json - " + Kb() + " " + StoreArg(),
                      "epoch 1\nRuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0\n");
  auto blocks = nlohmann::json::parse(scan.out)["blocks"];
  ASSERT_FALSE(blocks.empty()) << scan.out;
  EXPECT_EQ(blocks[0]["matches"][0]["workarounds"], ws);
}

TEST_P(ReportCli, ScansCountWhatTheyIdentifyOncePerLog) {
  const std::string error = "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0\n";
  const std::string log = "step 1\n" + error + "step 2\n" + error + error;
  for (int job = 0; job < 2; ++job) {
    auto r = RunKedb("scan --record-hits - " + Kb() + " " + StoreArg(), log);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
  }
  // A scan without the flag counts nothing.
  ASSERT_EQ(RunKedb("scan - " + Kb() + " " + StoreArg(), log).exit_code, 0);
  auto stats = RunKedb("stats --hits --json " + Kb() + " " + StoreArg());
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  auto records = nlohmann::json::parse(stats.out)["records"];
  ASSERT_EQ(records.size(), 1u) << stats.out;
  EXPECT_EQ(records[0]["id"], kId);
  EXPECT_EQ(records[0]["day"], 2);  // two jobs, however often each printed it
  EXPECT_EQ(records[0]["daily"][29], 2);
  auto text = RunKedb("stats --hits " + Kb() + " " + StoreArg());
  EXPECT_NE(text.out.find("cuda/cudnn-bn-epsilon-nan"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("█"), std::string::npos) << text.out;  // today's bar is the tallest
}

TEST_P(ReportCli, ExportFoldsReportsIntoTheRecordsForReview) {
  for (int i = 0; i < 6; ++i) {
    ASSERT_EQ(RunKedb(std::string("report ") + kId + " --workaround 1 --failed " + Kb() + " " + StoreArg()).exit_code, 0);
  }
  ASSERT_EQ(RunKedb(std::string("report ") + kId + " --workaround 2 --worked " + Kb() + " " + StoreArg()).exit_code, 0);
  const auto out = tmp().path() / "out";
  auto r = RunKedb("export --out '" + out.string() + "' " + Kb() + " " + StoreArg());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(fmt::format("exported {} records", testing::BundledRecords())), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 with reported outcomes folded in"), std::string::npos) << r.out;
  auto doc = nlohmann::ordered_json::parse(testing::ReadFile(out / "cuda" / "cudnn-bn-epsilon-nan.json"));
  EXPECT_EQ(doc["workarounds"][0]["success_rate"], 0.59);  // Beta(9.5, 0.5) after six failures
  EXPECT_EQ(doc["workarounds"][0]["x_reported"]["failed"], 6);
  EXPECT_EQ(doc["evidence_count"], 1 + 7);
  EXPECT_NE(doc["last_confirmed"], "2024-06-01");  // a report that a workaround worked is newer
  // Records nothing was reported about keep their content.
  auto other = nlohmann::ordered_json::parse(testing::ReadFile(out / "cuda" / "cudnn-rnn-double-backward.json"));
  EXPECT_EQ(other, nlohmann::ordered_json::parse(testing::ReadFile(SourceDir() / "kb" / "cuda" / "cudnn-rnn-double-backward.json")));
  // And the export is a knowledge base that loads and lints without errors.
  EXPECT_EQ(RunKedb("lint --no-shadowing --kb '" + out.string() + "'").exit_code, 0);
}

TEST_P(ReportCli, TheRecordsOwnFieldsStayAsStored) {
  ASSERT_EQ(RunKedb(std::string("report ") + kId + " --dead-end 1 --failed " + Kb() + " " + StoreArg()).exit_code, 0);
  auto shown = nlohmann::ordered_json::parse(RunKedb(std::string("show ") + kId + " --json " + Kb() + " " + StoreArg()).out);
  auto file = nlohmann::ordered_json::parse(testing::ReadFile(SourceDir() / "kb" / "cuda" / "cudnn-bn-epsilon-nan.json"));
  ASSERT_TRUE(shown.contains("observed"));
  EXPECT_EQ(shown["observed"]["dead_ends"][0]["failed"], 1);
  shown.erase("observed");
  EXPECT_EQ(shown, file);
}

TEST_P(ReportCli, ARetryWithTheSameIdCountsOnce) {
  const std::string cmd = std::string("report ") + kId + " --workaround 2 --worked --id ci-1234 --json " + Kb() + " " +
                          StoreArg();
  auto first = RunKedb(cmd), second = RunKedb(cmd);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_FALSE(nlohmann::json::parse(first.out)["duplicate"].get<bool>());
  EXPECT_TRUE(nlohmann::json::parse(second.out)["duplicate"].get<bool>());
  EXPECT_EQ(Observed()["workarounds"][1]["worked"], 1);
  auto conflict = RunKedb(std::string("report ") + kId + " --workaround 2 --failed --id ci-1234 " + Kb() + " " + StoreArg());
  EXPECT_EQ(conflict.exit_code, 2);
  EXPECT_NE(conflict.err.find("event_id \"ci-1234\" is stored already with other content"), std::string::npos);
}

TEST_P(ReportCli, WrongRequestsSayWhatIsWrong) {
  auto r = RunKedb(std::string("report ") + kId + " --workaround 9 --worked " + Kb() + " " + StoreArg());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("workaround 9: cuda/cudnn-bn-epsilon-nan has 2 workarounds (numbered from 1)"), std::string::npos) << r.err;
  r = RunKedb(std::string("report no/such --workaround 1 --worked ") + Kb() + " " + StoreArg());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no record has the id \"no/such\""), std::string::npos);
  r = RunKedb(std::string("report ") + kId + " --workaround 1 " + Kb() + " " + StoreArg());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--worked, --failed or --partial"), std::string::npos);
  r = RunKedb(std::string("report ") + kId + " --workaround 1 --worked --env os " + Kb() + " " + StoreArg());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("\"os\" is not KEY=VALUE"), std::string::npos) << r.err;
  EXPECT_TRUE(Observed().is_null());  // none of them stored anything
}

TEST_P(ReportCli, ConcurrentWritersLoseNothing) {
  // Four processes, 15 reports each, all at once on one file.
  const int rc = Shell(R"sh(
set -u
for w in 1 2 3 4; do
  ( for i in $(seq 1 15); do
      "$KEDB" report cuda/cudnn-bn-epsilon-nan --workaround 1 --worked --id "w$w-$i" --kb "$KB" --store "$STORE" >/dev/null || exit 1
    done ) &
done
fail=0
for job in $(jobs -p); do wait "$job" || fail=1; done
exit $fail
)sh");
  ASSERT_EQ(rc, 0);
  EXPECT_EQ(Observed()["workarounds"][0]["worked"], 60);
}

TEST_P(ReportCli, SeveralServersOnOneStoreLoseNothing) {
  // Two servers share the store; two clients post to each at once.
  const int rc = Shell(R"sh(
set -u
export KEDB_TOKEN=a-token-of-thirty-two-characters
for s in 1 2; do
  "$KEDB" serve --kb "$KB" --store "$STORE" --port 0 > "$WORK/serve$s.out" 2>&1 &
  echo $! > "$WORK/serve$s.pid"
done
trap 'kill $(cat "$WORK"/serve*.pid) 2>/dev/null' EXIT
for s in 1 2; do
  for i in $(seq 1 100); do grep -q 'listening on' "$WORK/serve$s.out" && break; sleep 0.1; done
done
post() {  # server, client
  url=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$WORK/serve$1.out")
  for i in $(seq 1 15); do
    curl -sf -o /dev/null -H "Authorization: Bearer $KEDB_TOKEN" -H 'Content-Type: application/json' \
      -d "{\"error_id\":\"cuda/cudnn-bn-epsilon-nan\",\"index\":1,\"outcome\":\"worked\",\"event_id\":\"s$1-c$2-$i\"}" \
      "$url/v1/outcomes" || exit 1
  done
}
fail=0
for s in 1 2; do for c in 1 2; do post $s $c & done; done
for job in $(jobs -p | grep -v -e "$(cat "$WORK/serve1.pid")" -e "$(cat "$WORK/serve2.pid")"); do wait "$job" || fail=1; done
exit $fail
)sh");
  ASSERT_EQ(rc, 0);
  EXPECT_EQ(Observed()["workarounds"][0]["worked"], 60);
}

TEST_P(ReportCli, AnAcknowledgedReportSurvivesKillNine) {
  // Rounds of a writer sending reports, killed with SIGKILL at a random
  // moment; each report it acknowledged (exit 0) is noted. Then every id
  // sent is sent again: acknowledged ones must be there already, and no
  // report may count twice.
  const int rc = Shell(R"sh(
set -u
: > "$WORK/acked"; : > "$WORK/sent"
for round in $(seq 1 12); do
  setsid bash -c 'for i in $(seq 1 40); do
      echo "r'$round'-$i" >> "$WORK/sent"
      "$KEDB" report cuda/cudnn-bn-epsilon-nan --workaround 1 --worked --id "r'$round'-$i" --kb "$KB" --store "$STORE" >/dev/null 2>&1 \
        && echo "r'$round'-$i" >> "$WORK/acked"
    done' &
  pid=$!
  sleep 0.$(( (RANDOM % 5) + 1 ))
  kill -9 -- -"$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
done
# Every acknowledged id must be stored: re-sending it says "duplicate".
while read -r id; do
  out=$("$KEDB" report cuda/cudnn-bn-epsilon-nan --workaround 1 --worked --id "$id" --json --kb "$KB" --store "$STORE") || exit 3
  case "$out" in *'"duplicate":true'*) ;; *) echo "lost: $id"; exit 4 ;; esac
done < "$WORK/acked"
# Every id sent, sent again, then counted once.
sort -u "$WORK/sent" > "$WORK/unique"
while read -r id; do
  "$KEDB" report cuda/cudnn-bn-epsilon-nan --workaround 1 --worked --id "$id" --kb "$KB" --store "$STORE" >/dev/null || exit 5
done < "$WORK/unique"
wc -l < "$WORK/unique" > "$WORK/expected"
[ -s "$WORK/acked" ] || exit 6
)sh");
  ASSERT_EQ(rc, 0);
  const int expected = std::stoi(testing::ReadFile(tmp().path() / "expected"));
  EXPECT_GT(expected, 12);
  EXPECT_EQ(Observed()["workarounds"][0]["worked"], expected);
}

TEST_F(ReportCliSqlite, AFullDiskFailsTheWriteClearlyAndKeepsWhatCameBefore) {
  // Files this shell writes may not grow past 48 KB (ulimit -f counts 1 KB
  // blocks in bash): the store fills up after some reports.
  const int rc = Shell(R"sh(
set -u
"$KEDB" report cuda/cudnn-bn-epsilon-nan --workaround 1 --worked --id first --kb "$KB" --store "$STORE" >/dev/null || exit 3
(
  ulimit -f 48
  trap '' XFSZ
  for i in $(seq 1 400); do
    if "$KEDB" report cuda/cudnn-bn-epsilon-nan --workaround 1 --worked --id "n$i" \
         --note "$(printf '%0400d' 0)" --kb "$KB" --store "$STORE" >/dev/null 2>"$WORK/err"; then
      echo "n$i" >> "$WORK/acked"
    else
      exit 0
    fi
  done
  exit 7
) || exit $?
)sh");
  ASSERT_EQ(rc, 0) << "the store never filled up";
  const std::string err = testing::ReadFile(tmp().path() / "err");
  EXPECT_NE(err.find("kedb report: sqlite:"), std::string::npos) << err;
  EXPECT_NE(err.find("storing a report: the system refused the write (a full disk or a file-size limit); nothing of "
                     "this write was kept"),
            std::string::npos)
      << err;
  // Without the limit, everything acknowledged is there.
  std::size_t acked = 0;
  for (char c : testing::ReadFile(tmp().path() / "acked")) acked += c == '\n';
  EXPECT_GT(acked, 0u);
  EXPECT_EQ(Observed()["workarounds"][0]["worked"].get<std::size_t>(), acked + 1);
}

}  // namespace
}  // namespace kedb
