// The outcome store and the rates it gives: what `kedb report` and every
// front end showing observed rates rely on.
#include <atomic>
#include <thread>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "store/posterior.h"
#include "store/store.h"
#include "store_backends.h"
#include "test_util.h"

namespace kedb {
namespace {

using store::ActionKind;
using store::Outcome;
using store::OutcomeReport;
using store::OutcomeStore;
using testing::TempDir;

OutcomeReport Report(std::string id, int position, Outcome outcome, std::string action = "") {
  OutcomeReport r;
  r.event_id = std::move(id);
  r.record_id = "t/rec";
  r.kind = ActionKind::kWorkaround;
  r.position = position;
  r.action = std::move(action);
  r.outcome = outcome;
  r.reported_at = 1'700'000'000;
  return r;
}

Workaround W(std::string action, double rate) {
  Workaround w;
  w.action = std::move(action);
  w.success_rate = rate;
  return w;
}

DeadEnd D(std::string action, double rate) {
  DeadEnd d;
  d.action = std::move(action);
  d.fail_rate = rate;
  return d;
}

std::unique_ptr<OutcomeStore> Open(const std::string& spec) {
  auto s = store::OpenStore(spec);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? std::move(s).value() : nullptr;
}

// Every test of this suite runs once per backend.
class Store : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { KEDB_REQUIRE_BACKEND(store_); }
  const std::string& Spec() const { return store_.spec(); }
  testing::TestStore store_{GetParam()};
};
INSTANTIATE_TEST_SUITE_P(Backends, Store, ::testing::Values("sqlite", "postgresql"), testing::BackendName);

TEST_P(Store, SameEventTwiceCountsOnceAndOtherContentIsRefused) {
  auto s = Open(Spec());
  ASSERT_TRUE(s);
  EXPECT_EQ(*s->Add(Report("e1", 1, Outcome::kWorked)), OutcomeStore::Added::kNew);
  OutcomeReport retry = Report("e1", 1, Outcome::kWorked);
  retry.reported_at += 60;  // a retry is stamped later; still the same report
  EXPECT_EQ(*s->Add(retry), OutcomeStore::Added::kDuplicate);
  auto other = s->Add(Report("e1", 1, Outcome::kFailed));
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("event_id \"e1\" is stored already with other content"), std::string::npos);
  EXPECT_EQ(*s->Size(), 1);
}

TEST_P(Store, BadReportsAreRefusedNamingTheField) {
  auto s = Open(Spec());
  ASSERT_TRUE(s);
  OutcomeReport r = Report("bad id with spaces", 1, Outcome::kWorked);
  EXPECT_NE(s->Add(r).status().message().find("event_id:"), std::string::npos);
  r = Report("e2", 1, Outcome::kWorked);
  r.note = std::string(store::kMaxNoteBytes + 1, 'x');
  EXPECT_NE(s->Add(r).status().message().find("note: 4097 bytes, at most 4096"), std::string::npos);
  r = Report("e3", 0, Outcome::kWorked);
  EXPECT_NE(s->Add(r).status().message().find("position: 0"), std::string::npos);
  r = Report("e4", 1, Outcome::kWorked);
  r.env = {{"os", "linux"}, {"os", "windows"}};
  EXPECT_NE(s->Add(r).status().message().find("env[1]: keys must be sorted and unique"), std::string::npos);
  EXPECT_EQ(*s->Size(), 0);
}

TEST_P(Store, ReportsSurviveReopeningAndCountPerEnvironment) {
  {
    auto s = Open(Spec());
    ASSERT_TRUE(s);
    for (int i = 0; i < 4; ++i) {
      OutcomeReport r = Report("l" + std::to_string(i), 1, Outcome::kWorked, "Pin the driver");
      r.env = {{"os", "linux"}};
      ASSERT_TRUE(s->Add(r).ok());
      r = Report("w" + std::to_string(i), 1, Outcome::kFailed, "Pin the driver");
      r.env = {{"os", "windows"}};
      ASSERT_TRUE(s->Add(r).ok());
    }
  }
  auto s = Open(Spec());
  ASSERT_TRUE(s);
  auto counts = s->Counts("t/rec");
  ASSERT_TRUE(counts.ok());
  Record rec = testing::MakeRecord("t/rec", "boom", "boom");
  rec.workarounds.push_back(W("Pin the driver", 0.8));
  const store::RecordEvidence e = store::Evidence(rec, *counts);
  ASSERT_EQ(e.actions.size(), 1u);
  const store::ActionEvidence& a = e.actions[0];
  EXPECT_EQ(a.worked, 4);
  EXPECT_EQ(a.failed, 4);
  ASSERT_EQ(a.by_env.size(), 2u);
  EXPECT_EQ(a.by_env[0].value, "linux");
  EXPECT_EQ(a.by_env[1].value, "windows");
  // Works on Linux, fails on Windows: the environments say so.
  EXPECT_GT(a.by_env[0].rate.mean, 0.8);
  EXPECT_LT(a.by_env[1].rate.mean, 0.6);
  EXPECT_EQ(e.reports, 8);
  EXPECT_EQ(e.last_confirmed, 1'700'000'000);
}

TEST_P(Store, CountsFollowTheActionsTextWhenARecordIsReordered) {
  auto s = Open(Spec());
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->Add(Report("a", 1, Outcome::kWorked, "Upgrade the driver")).ok());
  ASSERT_TRUE(s->Add(Report("b", 2, Outcome::kFailed, "Reinstall CUDA")).ok());
  ASSERT_TRUE(s->Add(Report("c", 3, Outcome::kFailed, "A step since removed")).ok());
  Record rec = testing::MakeRecord("t/rec", "boom", "boom");
  // The record was edited: the two actions swapped places.
  rec.workarounds.push_back(W("Reinstall CUDA", 0.5));
  rec.workarounds.push_back(W("Upgrade the driver", 0.5));
  const store::RecordEvidence e = store::Evidence(rec, *s->Counts("t/rec"));
  EXPECT_EQ(e.actions[0].failed, 1);  // Reinstall CUDA
  EXPECT_EQ(e.actions[1].worked, 1);  // Upgrade the driver
  EXPECT_EQ(e.unattributed, 1);
}

TEST_P(Store, AStoreFromANewerSchemaIsRefused) {
  ASSERT_TRUE(Open(Spec()));
  store_.Exec("UPDATE kedb_schema SET version = 99");
  auto s = store::OpenStore(Spec());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("written by a newer kedb (schema version 99"), std::string::npos);
}

TEST(Store, AFileThatIsNotAStoreIsRefused) {
  TempDir tmp;
  const auto path = tmp.path() / "o.sqlite";
  testing::WriteFile(path, std::string(8192, 'x'));
  auto s = store::OpenStore(path.string());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("not a kedb store or damaged"), std::string::npos) << s.status().message();
  EXPECT_EQ(testing::ReadFile(path), std::string(8192, 'x'));  // left as it was
}

TEST_P(Store, AnOlderStoreIsMigratedAndKeepsItsReports) {
  {
    auto s = Open(Spec());
    ASSERT_TRUE(s);
    ASSERT_TRUE(s->Add(Report("kept", 1, Outcome::kWorked)).ok());
  }
  // As a build that knew only the first step left it.
  store_.Exec("DROP TABLE hits");
  store_.Exec("DROP TABLE records");
  store_.Exec("DROP TABLE records_revision");
  store_.Exec("UPDATE kedb_schema SET version = 1");
  auto s = Open(Spec());
  ASSERT_TRUE(s);
  EXPECT_EQ(*s->Size(), 1);
  EXPECT_TRUE(s->AddHits({"t/rec"}, 1'700'000'000).ok());
  EXPECT_EQ(s->Hits(1'700'000'000)->size(), 1u);
}

TEST_P(Store, ServersStartingTogetherMigrateOnce) {
  // Four openers race on a store that does not exist yet: each must find
  // it created and current, none may fail or build it twice.
  std::vector<std::thread> openers;
  std::atomic<int> opened = 0;
  for (int i = 0; i < 4; ++i) {
    openers.emplace_back([&] {
      auto s = store::OpenStore(Spec());
      if (s.ok() && (*s)->Add(Report("o" + std::to_string(opened++), 1, Outcome::kWorked)).ok()) return;
      ADD_FAILURE() << (s.ok() ? "add failed" : s.status().message());
    });
  }
  for (auto& t : openers) t.join();
  EXPECT_EQ(opened.load(), 4);
  EXPECT_EQ(*Open(Spec())->Size(), 4);
}

TEST(StoreSpec, PasswordsNeverReachAMessage) {
  EXPECT_EQ(store::RedactUrl("postgresql://kedb:s3cret@db:5432/kedb"), "postgresql://kedb:***@db:5432/kedb");
  EXPECT_EQ(store::RedactUrl("postgresql://kedb@db/kedb?sslmode=require&password=s3cret&x=1"),
            "postgresql://kedb@db/kedb?sslmode=require&password=***&x=1");
  EXPECT_EQ(store::RedactUrl("postgresql://db/kedb?password=s3cret"), "postgresql://db/kedb?password=***");
  EXPECT_EQ(store::RedactUrl("postgresql://db/kedb?options=x"), "postgresql://db/kedb?options=x");
  EXPECT_EQ(store::RedactUrl("/var/lib/kedb/o.sqlite"), "/var/lib/kedb/o.sqlite");
}

TEST(StorePostgres, AnUnreachableServerIsNamedWithoutItsPassword) {
  auto s = store::OpenStore("postgresql://kedb:hunter2secret@127.0.0.1:1/kedb");
  ASSERT_FALSE(s.ok());
  const std::string& m = s.status().message();
  EXPECT_NE(m.find("postgresql://kedb:***@127.0.0.1:1/kedb: opening: cannot reach the server"), std::string::npos) << m;
  EXPECT_EQ(m.find("hunter2secret"), std::string::npos) << m;
}

TEST_P(Store, HitsAreCountedPerWindowAndDay) {
  auto s = Open(Spec());
  ASSERT_TRUE(s);
  const int64_t now = 1'700'000'000;
  const int64_t day = 24 * 3600;
  ASSERT_TRUE(s->AddHits({"a/rising", "a/rising", "b/old"}, now - 60).ok());
  ASSERT_TRUE(s->AddHits({"a/rising"}, now - 2 * day).ok());
  ASSERT_TRUE(s->AddHits({"b/old"}, now - 20 * day).ok());
  ASSERT_TRUE(s->AddHits({"b/old"}, now - 40 * day).ok());
  ASSERT_TRUE(s->AddHits({}, now).ok());
  auto hits = s->Hits(now);
  ASSERT_TRUE(hits.ok());
  ASSERT_EQ(hits->size(), 2u);
  const store::HitStats& a = (*hits)[0];  // most this week first
  EXPECT_EQ(a.record_id, "a/rising");
  EXPECT_EQ(a.day, 2);
  EXPECT_EQ(a.week, 3);
  EXPECT_EQ(a.month, 3);
  EXPECT_EQ(a.daily.size(), 30u);
  EXPECT_EQ(a.daily[29], 2);  // today
  EXPECT_EQ(a.daily[27], 1);  // two days ago
  const store::HitStats& b = (*hits)[1];
  EXPECT_EQ(b.day, 1);
  EXPECT_EQ(b.week, 1);
  EXPECT_EQ(b.month, 2);
  EXPECT_EQ(b.total, 3);
  EXPECT_EQ(b.first_seen, now - 40 * day);
  EXPECT_EQ(b.last_seen, now - 60);
}

TEST(Posterior, TheCuratedRateIsAPriorOfTenObservations) {
  auto r = store::Posterior(0.9, 0, 0);
  EXPECT_NEAR(r.mean, 0.9, 1e-12);
  EXPECT_LT(r.low, 0.9);
  EXPECT_GT(r.high, 0.9);
  r = store::Posterior(0.9, 0, 10);  // Beta(9, 1) after ten failures: Beta(9, 11)
  EXPECT_NEAR(r.mean, 9.0 / 20.0, 1e-12);
  r = store::Posterior(0.9, 0, 20);
  EXPECT_NEAR(r.mean, 9.0 / 30.0, 1e-12);
  r = store::Posterior(std::nullopt, 3, 1);  // Beta(1, 1) prior
  EXPECT_NEAR(r.mean, 4.0 / 6.0, 1e-12);
  // More reports, narrower interval.
  auto few = store::Posterior(0.5, 5, 5), many = store::Posterior(0.5, 500, 500);
  EXPECT_GT(few.high - few.low, 3 * (many.high - many.low));
}

TEST(Posterior, AWorkaroundThatKeepsFailingIsFlaggedAndADeadEndCountsFailures) {
  Record rec = testing::MakeRecord("t/rec", "boom", "boom");
  rec.workarounds.push_back(W("Restart", 0.7));
  rec.dead_ends.push_back(D("Reboot twice", 0.6));
  std::vector<store::ActionCounts> counts(2);
  counts[0].action = "Restart";
  counts[0].failed = 20;
  counts[1].kind = ActionKind::kDeadEnd;
  counts[1].action = "Reboot twice";
  counts[1].failed = 6;
  counts[1].partial = 2;
  const store::RecordEvidence e = store::Evidence(rec, counts);
  EXPECT_TRUE(e.actions[0].likely_dead_end);
  EXPECT_NEAR(e.actions[0].rate.mean, 7.0 / 30.0, 1e-12);
  // A dead end's rate is how often it fails: failures and half the partials.
  EXPECT_NEAR(e.actions[1].rate.mean, (6.0 + 7.0) / (10.0 + 8.0), 1e-12);
  EXPECT_FALSE(e.actions[1].likely_dead_end);
}

}  // namespace
}  // namespace kedb
