// POST /v1/records and PUT /v1/records/{id} through the router, without
// sockets: who may write, what lint refuses, and what reaches the store.
// Runs on both store backends.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "serve/engine_slot.h"
#include "serve/http_router.h"
#include "store/record_store.h"
#include "store_backends.h"
#include "serve_util.h"
#include "test_util.h"

namespace kedb {
namespace {

using nlohmann::json;

constexpr const char* kToken = "a-token-of-thirty-two-characters";
constexpr const char* kBearer = "Bearer a-token-of-thirty-two-characters";

const char* kRecord = testing::kFrobRecord;

class ServeRecords : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    KEDB_REQUIRE_BACKEND(store_);
    kb_ = store_.kb_spec();
    ASSERT_EQ(testing::RunKedb("import native '" + (testing::SourceDir() / "kb").string() + "' --into '" + kb_ + "'")
                  .exit_code,
              0);
    slot_ = std::make_unique<serve::EngineSlot>(kb_, (store_.tmp().path() / "cache").string());
    ASSERT_TRUE(slot_->Reload().ok());
    auto records = store::OpenRecordStore(kb_);
    ASSERT_TRUE(records.ok()) << records.status().message();
    records_ = std::move(records).value();
    slot_->AttachRecords(records_.get());
    slot_->AttachStore(nullptr, kToken);
  }

  serve::HttpReply Send(const std::string& method, const std::string& path, const std::string& body,
                        const std::string& authorization = kBearer) {
    return testing::RouteLocal(*slot_, method, path, body, authorization);
  }

  testing::TestStore store_{GetParam()};
  std::string kb_;
  std::unique_ptr<serve::EngineSlot> slot_;
  std::unique_ptr<store::RecordStore> records_;
};
INSTANTIATE_TEST_SUITE_P(Backends, ServeRecords, ::testing::Values("sqlite", "postgresql"), testing::BackendName);

TEST_P(ServeRecords, ARecordIsCreatedOnceThenReplacedAndLiveAfterAReload) {
  auto created = Send("POST", "/v1/records", kRecord);
  ASSERT_EQ(created.status, 201) << created.body;
  auto j = json::parse(created.body);
  EXPECT_EQ(j["id"], "t/frobnicator-jammed");
  EXPECT_TRUE(j["created"].get<bool>());
  EXPECT_EQ(j["revision"], 2);
  auto again = Send("POST", "/v1/records", kRecord);
  EXPECT_EQ(again.status, 409) << again.body;
  EXPECT_NE(again.body.find("PUT /v1/records/t/frobnicator-jammed replaces it"), std::string::npos);
  // The same content again changes nothing; new content is a new revision.
  auto same = Send("PUT", "/v1/records/t/frobnicator-jammed", kRecord);
  ASSERT_EQ(same.status, 200) << same.body;
  EXPECT_FALSE(json::parse(same.body)["changed"].get<bool>());
  std::string edited = kRecord;
  edited.replace(edited.find("is blocked"), 10, "is jammed shut");
  auto replaced = Send("PUT", "/v1/records/t/frobnicator-jammed", edited);
  ASSERT_EQ(replaced.status, 200) << replaced.body;
  EXPECT_EQ(json::parse(replaced.body)["revision"], 3);
  // The store holds the record in its file form; a reload serves it.
  auto stored = records_->Get("t/frobnicator-jammed");
  ASSERT_TRUE(stored.ok() && stored->has_value());
  EXPECT_NE((*stored)->json.find("\"root_cause\": \"The frobnicator's feed is jammed shut.\""), std::string::npos);
  ASSERT_TRUE(slot_->Reload().ok());
  auto match = Send("POST", "/v1/match", R"({"text": "FrobnicatorError: the frobnicator jammed"})");
  EXPECT_EQ(json::parse(match.body)["matches"][0]["id"], "t/frobnicator-jammed");
}

TEST_P(ServeRecords, WritesNeedTheTokenAndAStore) {
  EXPECT_EQ(Send("POST", "/v1/records", kRecord, "").status, 401);
  EXPECT_EQ(Send("PUT", "/v1/records/t/frobnicator-jammed", kRecord, "Bearer wrong-token-0123456789").status, 401);
  // A server answering from files writes no records.
  serve::EngineSlot files((testing::SourceDir() / "kb").string(), (store_.tmp().path() / "cache2").string());
  ASSERT_TRUE(files.Reload().ok());
  files.AttachStore(nullptr, kToken);
  auto refused = testing::RouteLocal(files, "POST", "/v1/records", kRecord, kBearer);
  EXPECT_EQ(refused.status, 403);
  EXPECT_NE(refused.body.find("--kb naming a store"), std::string::npos) << refused.body;
  EXPECT_FALSE(records_->Get("t/frobnicator-jammed")->has_value());
}

TEST_P(ServeRecords, WhatLintRefusesIsNotWrittenAndTheReplySaysWhere) {
  // Not JSON: line and column.
  auto broken = Send("POST", "/v1/records", "{\n  \"id\": \"t/x\",\n  \"signature\": ");
  EXPECT_EQ(broken.status, 400);
  EXPECT_NE(broken.body.find("request body:3:"), std::string::npos) << broken.body;
  // A wrong type: the field.
  auto typed = Send("POST", "/v1/records", R"({"id": "t/x", "signature": 7, "regex": "x", "domain": "t"})");
  EXPECT_EQ(typed.status, 400);
  EXPECT_NE(typed.body.find("signature"), std::string::npos) << typed.body;
  // A regex that does not compile, and an edge to no record: lint errors.
  auto regex = Send("POST", "/v1/records", R"({"id": "t/x", "signature": "x", "regex": "(x", "domain": "t"})");
  EXPECT_EQ(regex.status, 400);
  EXPECT_NE(regex.body.find("regex-compile"), std::string::npos) << regex.body;
  auto edge = Send("POST", "/v1/records",
                   R"({"id": "t/x", "signature": "x", "regex": "x", "domain": "t",
                       "transition_graph": {"leads_to": [{"error_id": "no/such-record"}]}})");
  EXPECT_EQ(edge.status, 400);
  EXPECT_NE(edge.body.find("dangling-edge"), std::string::npos) << edge.body;
  // An edge to a record the knowledge base has is fine.
  auto linked = Send("POST", "/v1/records",
                     R"({"id": "t/y", "signature": "y", "regex": "y", "domain": "t",
                         "transition_graph": {"leads_to": [{"error_id": "cuda/cudnn-bn-epsilon-nan"}]}})");
  EXPECT_EQ(linked.status, 201) << linked.body;
  // Too large, and an id that is not the path's.
  std::string big = kRecord;
  big.insert(big.size() - 1, ", \"x_pad\": \"" + std::string(store::kMaxStoredRecordBytes, 'p') + "\"");
  auto large = Send("POST", "/v1/records", big);
  EXPECT_EQ(large.status, 400);
  EXPECT_NE(large.body.find("at most 262144"), std::string::npos) << large.body.substr(0, 300);
  auto elsewhere = Send("PUT", "/v1/records/t/other", kRecord);
  EXPECT_EQ(elsewhere.status, 400);
  EXPECT_NE(elsewhere.body.find("the path names \\\"t/other\\\""), std::string::npos) << elsewhere.body;
  EXPECT_FALSE(records_->Get("t/x")->has_value());
  EXPECT_FALSE(records_->Get("t/frobnicator-jammed")->has_value());
  EXPECT_EQ(*records_->Revision(), 2);  // the import, then t/y
}

}  // namespace
}  // namespace kedb
