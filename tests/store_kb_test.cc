// Knowledge bases kept in a store: records written with `kedb import
// --into`, read by every command through --kb STORE, and followed by a
// running server without a restart. Each test runs on SQLite and on
// PostgreSQL.
#include <chrono>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "store/record_store.h"
#include "store_backends.h"
#include "test_util.h"

namespace kedb {
namespace {

using testing::RunKedb;
using testing::SourceDir;

const char* kNewRecord = testing::kFrobRecord;

class StoreKb : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { KEDB_REQUIRE_BACKEND(store_); }
  std::string Kb() const { return store_.kb_spec(); }
  std::string Quoted() const { return "'" + Kb() + "'"; }

  std::unique_ptr<store::RecordStore> Records() const {
    auto r = store::OpenRecordStore(Kb());
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? std::move(r).value() : nullptr;
  }

  testing::TestStore store_{GetParam()};
};
INSTANTIATE_TEST_SUITE_P(Backends, StoreKb, ::testing::Values("sqlite", "postgresql"), testing::BackendName);

TEST_P(StoreKb, ImportedRecordsAnswerEveryCommand) {
  const std::string kb = "'" + (SourceDir() / "kb").string() + "'";
  auto first = RunKedb("import native " + kb + " --into " + Quoted());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find(fmt::format("imported {} records into", testing::BundledRecords())), std::string::npos) << first.out;
  EXPECT_NE(first.out.find(fmt::format("{} new or changed, 0 unchanged; revision 1", testing::BundledRecords())), std::string::npos) << first.out;
  // The same records again change nothing, so no server reloads for them.
  auto again = RunKedb("import native " + kb + " --into " + Quoted());
  EXPECT_NE(again.out.find(fmt::format("0 new or changed, {} unchanged; revision 1", testing::BundledRecords())), std::string::npos) << again.out;

  // match, show and lint read the store as they read files.
  auto match = RunKedb("match --json --kb " + Quoted() +
                       " 'RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0'");
  ASSERT_EQ(match.exit_code, 0) << match.err;
  EXPECT_EQ(nlohmann::json::parse(match.out)["matches"][0]["id"], "cuda/cudnn-bn-epsilon-nan");
  auto shown = RunKedb("show cuda/cudnn-bn-epsilon-nan --json --kb " + Quoted());
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_EQ(nlohmann::ordered_json::parse(shown.out),
            nlohmann::ordered_json::parse(testing::ReadFile(SourceDir() / "kb" / "cuda" / "cudnn-bn-epsilon-nan.json")));
  EXPECT_EQ(RunKedb("lint --kb " + Quoted()).exit_code, 0);
  // And the store exports back to files that are the knowledge base.
  const auto out = store_.tmp().path() / "files";
  ASSERT_EQ(RunKedb("import native " + Quoted() + " --out '" + out.string() + "'").exit_code, 0);
  EXPECT_EQ(nlohmann::ordered_json::parse(testing::ReadFile(out / "cuda" / "cudnn-bn-epsilon-nan.json")),
            nlohmann::ordered_json::parse(testing::ReadFile(SourceDir() / "kb" / "cuda" / "cudnn-bn-epsilon-nan.json")));
}

TEST_P(StoreKb, ABrokenRecordInTheStoreIsNamedByStoreAndId) {
  auto records = Records();
  ASSERT_TRUE(records);
  ASSERT_TRUE(records->Put({{"t/ok", kNewRecord, 0}, {"t/broken", R"({"id": "t/broken", "signature": 7})", 0}}, 1).ok());
  auto lint = RunKedb("lint --kb " + Quoted());
  EXPECT_EQ(lint.exit_code, 2);
  EXPECT_NE(lint.out.find("#t/broken:1:"), std::string::npos) << lint.out;
  EXPECT_NE(lint.out.find("signature"), std::string::npos) << lint.out;
  // A query still answers from the records that load, and says so.
  auto match = RunKedb("match --kb " + Quoted() + " 'FrobnicatorError: the frobnicator jammed'");
  EXPECT_EQ(match.exit_code, 0) << match.err;
  EXPECT_NE(match.err.find("1 of 2 documents"), std::string::npos) << match.err;
}

TEST_P(StoreKb, WritesAreAllOrNothingAndChecked) {
  auto records = Records();
  ASSERT_TRUE(records);
  auto twice = records->Put({{"t/a", "{}", 0}, {"t/a", "{}", 0}}, 1);
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("records[1] (t/a): the id is given twice"), std::string::npos);
  auto big = records->Put({{"t/b", "{}", 0}, {"t/big", std::string(store::kMaxStoredRecordBytes + 1, ' '), 0}}, 1);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.status().message().find("records[1] (t/big): 262145 bytes, at most 262144"), std::string::npos);
  EXPECT_EQ(*records->Revision(), 0);
  EXPECT_TRUE(records->All()->records.empty());  // nothing of either batch was kept
  auto written = records->Put({{"t/a", "{\"v\": 1}", 0}, {"t/b", "{}", 0}}, 100);
  ASSERT_TRUE(written.ok()) << written.status().message();
  EXPECT_EQ(written->changed, 2u);
  EXPECT_EQ(written->revision, 1);
  written = records->Put({{"t/a", "{\"v\": 2}", 0}, {"t/b", "{}", 0}}, 200);
  EXPECT_EQ(written->changed, 1u);
  EXPECT_EQ(written->unchanged, 1u);
  EXPECT_EQ(written->revision, 2);
  auto a = records->Get("t/a");
  ASSERT_TRUE(a.ok() && a->has_value());
  EXPECT_EQ((*a)->json, "{\"v\": 2}");
  EXPECT_EQ((*a)->updated_at, 200);
  EXPECT_EQ((*records->Get("t/b"))->updated_at, 100);  // unchanged, not restamped
  EXPECT_FALSE(records->Get("t/none")->has_value());
}

TEST_P(StoreKb, AWatcherWakesOnAChangeFromAnotherProcess) {
  auto watcher = store::OpenRecordWatcher(Kb());
  ASSERT_TRUE(watcher.ok()) << watcher.status().message();
  // Nothing changes: the wait ends at its timeout, at revision 0.
  EXPECT_EQ(*(*watcher)->WaitPast(0, std::chrono::milliseconds(200)), 0);
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    testing::WriteFile(store_.tmp().path() / "new" / "r.json", kNewRecord);
    RunKedb("import native '" + (store_.tmp().path() / "new").string() + "' --into " + Quoted());
  });
  // A long wait that a change ends early: the revision it returns is new.
  auto revision = (*watcher)->WaitPast(0, std::chrono::seconds(60));
  writer.join();
  ASSERT_TRUE(revision.ok()) << revision.status().message();
  EXPECT_EQ(*revision, 1);
}

// Runs `script` with KEDB, KB (the store) and WORK set; its exit status.
int Shell(const testing::TestStore& store, const std::string& kb, const std::string& script) {
  const auto file = store.tmp().path() / "script.sh";
  testing::WriteFile(file, script);
  const std::string cmd = "KEDB='" + std::string(KEDB_BINARY) + "' KB='" + kb + "' WORK='" + store.tmp().path().string() +
                          "' bash '" + file.string() + "'";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_P(StoreKb, ARunningServerFollowsTheStore) {
  ASSERT_EQ(RunKedb("import native '" + (SourceDir() / "kb").string() + "' --into " + Quoted()).exit_code, 0);
  testing::WriteFile(store_.tmp().path() / "new" / "r.json", kNewRecord);
  // The server is stopped however the test ends.
  struct Stop {
    std::filesystem::path pid;
    ~Stop() { std::system(("kill $(cat '" + pid.string() + "') 2>/dev/null").c_str()); }
  } stop{store_.tmp().path() / "serve.pid"};
  // A server on the store; a new record is imported: it is served without
  // a restart.
  ASSERT_EQ(Shell(store_, Kb(), R"sh(
set -u
"$KEDB" serve --kb "$KB" --store "$WORK/o.sqlite" --port 0 > "$WORK/serve.out" 2> "$WORK/serve.err" &
echo $! > "$WORK/serve.pid"
for i in $(seq 1 200); do grep -q 'listening on' "$WORK/serve.out" && break; sleep 0.05; done
url=$(sed -n 's/listening on //p' "$WORK/serve.out")
echo "$url" > "$WORK/url"
ask() { curl -sf "$url/v1/match" -d '{"text":"FrobnicatorError: the frobnicator jammed"}'; }
case "$(ask)" in *frobnicator-jammed*) echo "known before the import"; exit 3 ;; esac
"$KEDB" import native "$WORK/new" --into "$KB" > /dev/null || exit 4
for i in $(seq 1 400); do case "$(ask)" in *frobnicator-jammed*) exit 0 ;; esac; sleep 0.025; done
echo "not live after 10 s"; cat "$WORK/serve.err"; exit 5
)sh"), 0);
  // Then a broken version of it is written past lint, as a hand edit of
  // the database would: refused, and the good one keeps serving.
  ASSERT_TRUE(Records()->Put({{"t/frobnicator-jammed", R"({"id": "t/frobnicator-jammed", "signature": 7})", 0}}, 1).ok());
  ASSERT_EQ(Shell(store_, Kb(), R"sh(
set -u
url=$(cat "$WORK/url")
for i in $(seq 1 400); do grep -q 'refused' "$WORK/serve.err" && break; sleep 0.025; done
curl -sf "$url/healthz" > "$WORK/health.json" || exit 3
curl -sf "$url/v1/match" -d '{"text":"FrobnicatorError: the frobnicator jammed"}' > "$WORK/after.json" || exit 4
)sh"), 0);
  auto health = nlohmann::json::parse(testing::ReadFile(store_.tmp().path() / "health.json"));
  EXPECT_EQ(health["records"], testing::BundledRecords() + 1);
  EXPECT_EQ(health["store_revision"], 2);
  EXPECT_EQ(health["failed_reloads"], 1);
  EXPECT_NE(health["last_reload_error"].get<std::string>().find("#t/frobnicator-jammed"), std::string::npos)
      << health.dump();
  auto after = nlohmann::json::parse(testing::ReadFile(store_.tmp().path() / "after.json"));
  EXPECT_EQ(after["matches"][0]["id"], "t/frobnicator-jammed");
}

}  // namespace
}  // namespace kedb
