// The transition graph around a record (kedb/graph.h) and how small its
// answer is: each link once, only the edges within the depth asked, and a
// depth-1 answer an agent can ask for at every step.
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kedb/graph.h"
#include "render/render.h"
#include "serve/engine_slot.h"
#include "serve/mcp.h"
#include "test_util.h"

namespace kedb {
namespace {

using json = nlohmann::json;

std::set<std::string> EdgeNames(const Chain& chain) {
  std::set<std::string> out;
  for (const ChainEdge& e : chain.edges) out.insert(e.from + " " + RelationName(e.relation) + " " + e.to);
  return out;
}

TEST(ChainTest, WalksBothDirectionsWithinTheDepth) {
  std::vector<Record> records;
  records.push_back(testing::MakeRecord("t/a", "A", "a"));
  records.push_back(testing::MakeRecord("t/b", "B", "b"));
  records.push_back(testing::MakeRecord("t/c", "C", "c"));
  records.push_back(testing::MakeRecord("t/d", "D", "d"));
  records[0].transition_graph.leads_to.push_back(Edge{"t/b", false, 0.4, "under load", "", ""});
  records[1].transition_graph.leads_to.push_back(Edge{"t/c", true, std::nullopt, "", "", ""});
  records[3].transition_graph.frequently_confused_with.push_back(Edge{"t/a", true, std::nullopt, "", "", ""});
  records[2].transition_graph.leads_to.push_back(Edge{"t/missing", true, std::nullopt, "", "", ""});
  KnowledgeBase kb = KnowledgeBase::FromRecords(std::move(records));

  auto one = ChainOf(kb, "t/a", 1);
  ASSERT_TRUE(one);
  std::set<std::string> ids;
  for (const auto& n : one->nodes) ids.insert(n.id);
  EXPECT_EQ(ids, (std::set<std::string>{"t/a", "t/b", "t/d"}));  // d points at a: found backwards
  ASSERT_EQ(one->edges.size(), 2u);
  EXPECT_EQ(one->edges[0].probability, 0.4);
  EXPECT_EQ(one->edges[0].condition, "under load");

  auto three = ChainOf(kb, "t/a", 3);
  ids.clear();
  for (const auto& n : three->nodes) {
    ids.insert(n.id);
    if (n.id == "t/missing") {
      EXPECT_EQ(n.record, nullptr);
    }
  }
  EXPECT_TRUE(ids.count("t/c") && ids.count("t/missing"));
  EXPECT_FALSE(ChainOf(kb, "t/zzz", 2));
}

TEST(ChainTest, ALinkStatedFromBothSidesIsOneEdge) {
  std::vector<Record> records;
  records.push_back(testing::MakeRecord("t/a", "A", "a"));
  records.push_back(testing::MakeRecord("t/b", "B", "b"));
  records.push_back(testing::MakeRecord("t/c", "C", "c"));
  records[0].transition_graph.leads_to.push_back(Edge{"t/b", false, std::nullopt, "", "", ""});
  records[1].transition_graph.preceded_by.push_back(Edge{"t/a", false, 0.3, "under load", "", ""});
  records[1].transition_graph.frequently_confused_with.push_back(Edge{"t/c", false, std::nullopt, "", "", ""});
  records[2].transition_graph.frequently_confused_with.push_back(Edge{"t/b", false, std::nullopt, "", "", ""});
  KnowledgeBase kb = KnowledgeBase::FromRecords(std::move(records));

  auto chain = ChainOf(kb, "t/a", 2);
  ASSERT_TRUE(chain);
  EXPECT_EQ(EdgeNames(*chain), (std::set<std::string>{"t/a leads_to t/b", "t/b confused_with t/c"}));
  // As the start states it, with what only the other side knew.
  EXPECT_EQ(chain->edges[0].probability, 0.3);
  EXPECT_EQ(chain->edges[0].condition, "under load");
}

TEST(ChainTest, EdgesBetweenTwoRecordsAtTheDepthAreLeftOut) {
  std::vector<Record> records;
  records.push_back(testing::MakeRecord("t/a", "A", "a"));
  records.push_back(testing::MakeRecord("t/b", "B", "b"));
  records.push_back(testing::MakeRecord("t/c", "C", "c"));
  records[0].transition_graph.leads_to.push_back(Edge{"t/b", false, std::nullopt, "", "", ""});
  records[0].transition_graph.leads_to.push_back(Edge{"t/c", false, std::nullopt, "", "", ""});
  records[1].transition_graph.leads_to.push_back(Edge{"t/c", false, std::nullopt, "", "", ""});
  KnowledgeBase kb = KnowledgeBase::FromRecords(std::move(records));

  auto one = ChainOf(kb, "t/a", 1);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->nodes.size(), 3u);
  EXPECT_EQ(EdgeNames(*one), (std::set<std::string>{"t/a leads_to t/b", "t/a leads_to t/c"}));
  EXPECT_EQ(ChainOf(kb, "t/a", 2)->edges.size(), 3u);  // one step further, b -> c is walked too
}

TEST(ChainTest, TheAnswerCutsSignaturesAndGivesMoreOnlyOfTheStart) {
  std::vector<Record> records;
  records.push_back(testing::MakeRecord("t/a", std::string(300, 'A'), "a"));
  records.push_back(testing::MakeRecord("t/b", std::string(300, 'B'), "b"));
  records.push_back(testing::MakeRecord("t/c", "C", "c"));
  records[0].root_cause = "because";
  records[0].transition_graph.leads_to.push_back(Edge{"t/b", false, 0.5, std::string(300, 'w'), "", ""});
  records[1].transition_graph.leads_to.push_back(Edge{"t/c", false, std::nullopt, "when b", "", ""});
  records[1].transition_graph.leads_to.push_back(Edge{"t/gone", false, std::nullopt, "", "", ""});
  KnowledgeBase kb = KnowledgeBase::FromRecords(std::move(records));
  const Chain chain = *ChainOf(kb, "t/a", 2);

  json j = json::parse(RenderChainJson(chain, Lang::kEn));
  const json& start = j["nodes"][0];
  EXPECT_EQ(start["id"], "t/a");
  EXPECT_EQ(start["domain"], "t");
  EXPECT_EQ(start["root_cause"], "because");
  EXPECT_LT(start["signature"].get<std::string>().size(), 300u);
  for (const json& n : j["nodes"]) {
    if (n["id"] == "t/a") continue;
    EXPECT_FALSE(n.contains("root_cause")) << n;
    if (n["id"] == "t/gone") {
      EXPECT_FALSE(n["known"].get<bool>());
      EXPECT_FALSE(n.contains("signature"));
    } else {
      EXPECT_LE(n["signature"].get<std::string>().size(), 60u + std::string("…").size()) << n;
    }
  }
  for (const json& e : j["edges"]) {
    EXPECT_FALSE(e.contains("condition")) << e;  // the records have them
    EXPECT_EQ(e.contains("probability"), e["from"] == "t/a") << e;  // stated on a -> b only
  }
  // The text says what each neighbour is to the start; edges further out
  // keep both ends.
  const std::string text = RenderChainText(chain, Lang::kEn);
  EXPECT_NE(text.find("\n  leads to p=0.50: t/b  BBB"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  t/b --leads to--> t/c  C\n"), std::string::npos) << text;
  EXPECT_NE(text.find("t/gone (not in this knowledge base)"), std::string::npos) << text;
}

// What an agent pays for one look at a record's neighbours over MCP: the
// whole JSON-RPC reply, text and structured content. A record with a few
// edges each way, and a hub that many errors lead to (1.7 and 3.3 KB when
// this was written, 5.5 and 15.8 KB before, with whole signatures, every
// link twice and the neighbours' links to each other).
TEST(McpTest, GetErrorChainAtDepthOneAnswersSmall) {
  serve::EngineSlot slot((testing::SourceDir() / "kb").string(), KEDB_TEST_CACHE);
  ASSERT_TRUE(slot.Reload().ok());
  serve::McpServer server(slot);
  const std::pair<const char*, std::size_t> bounds[] = {{"cuda/gpu-fallen-off-bus", 2048}, {"nccl/watchdog-timeout", 4096}};
  for (const auto& [id, bound] : bounds) {
    const json call{{"jsonrpc", "2.0"},
                    {"id", 1},
                    {"method", "tools/call"},
                    {"params", {{"name", "get_error_chain"}, {"arguments", {{"error_id", id}, {"depth", 1}}}}}};
    auto reply = server.Handle(call.dump());
    ASSERT_TRUE(reply) << id;
    const json chain = json::parse(*reply)["result"]["structuredContent"];
    ASSERT_GE(chain["nodes"].size(), 4u) << *reply;  // it has neighbours, and each is there
    ASSERT_EQ(chain["edges"].size(), chain["nodes"].size() - 1) << *reply;  // one link to each
    for (const json& e : chain["edges"]) EXPECT_TRUE(e["from"] == id || e["to"] == id) << e;
    EXPECT_LT(reply->size(), bound) << *reply;
  }
}

}  // namespace
}  // namespace kedb
