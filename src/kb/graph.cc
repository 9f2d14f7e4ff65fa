#include "kedb/graph.h"

#include <deque>
#include <set>
#include <tuple>
#include <unordered_map>

namespace kedb {

const char* RelationName(Relation relation) {
  switch (relation) {
    case Relation::kLeadsTo: return "leads_to";
    case Relation::kPrecededBy: return "preceded_by";
    case Relation::kConfusedWith: return "confused_with";
  }
  return "leads_to";
}

namespace {

// Every edge a record states, with its relation.
template <typename Fn>
void ForEachEdge(const Record& r, Fn fn) {
  for (const Edge& e : r.transition_graph.leads_to) fn(e, Relation::kLeadsTo);
  for (const Edge& e : r.transition_graph.preceded_by) fn(e, Relation::kPrecededBy);
  for (const Edge& e : r.transition_graph.frequently_confused_with) fn(e, Relation::kConfusedWith);
}

}  // namespace

std::optional<Chain> ChainOf(const KnowledgeBase& kb, std::string_view id, int depth) {
  const Record* start = kb.Find(id);
  if (!start) return std::nullopt;
  Chain chain;
  chain.id = start->id;
  chain.depth = depth;
  // Edges pointing at a record are stated by other records, so walking
  // "backwards" needs the reverse index; it is built per call because a
  // chain is asked for rarely and the scan over records is cheap.
  std::unordered_map<std::string_view, std::vector<const Record*>> stated_by;
  for (const Record& r : kb.records()) {
    ForEachEdge(r, [&](const Edge& e, Relation) { stated_by[e.error_id].push_back(&r); });
  }
  std::unordered_map<std::string, int> distance{{start->id, 0}};
  chain.nodes.push_back({start->id, start, 0});
  std::set<std::tuple<std::string, std::string, Relation>> seen_edges;
  auto add_edge = [&](const Record& from, const Edge& e, Relation relation) {
    if (!distance.count(e.error_id) || !distance.count(from.id)) return;
    if (!seen_edges.insert({from.id, e.error_id, relation}).second) return;
    // A confused-with edge states how to tell the two apart instead of a
    // condition; either way it is what a reader needs next to the arrow.
    chain.edges.push_back({from.id, e.error_id, relation, e.probability, e.condition.empty() ? e.distinction : e.condition});
  };
  auto visit = [&](const std::string& node, int d) {
    if (distance.count(node) || chain.nodes.size() >= kMaxChainNodes) return false;
    distance[node] = d;
    chain.nodes.push_back({node, kb.Find(node), d});
    return true;
  };
  std::deque<std::string> queue{start->id};
  while (!queue.empty()) {
    std::string node = std::move(queue.front());
    queue.pop_front();
    int d = distance[node];
    if (d >= depth) continue;
    if (const Record* r = kb.Find(node)) {
      ForEachEdge(*r, [&](const Edge& e, Relation) {
        if (visit(e.error_id, d + 1)) queue.push_back(e.error_id);
      });
    }
    if (auto it = stated_by.find(node); it != stated_by.end()) {
      for (const Record* other : it->second) {
        if (visit(other->id, d + 1)) queue.push_back(other->id);
      }
    }
  }
  // Edges among the nodes kept, in node order, as their records state them.
  for (const ChainNode& n : chain.nodes) {
    if (n.record) ForEachEdge(*n.record, [&](const Edge& e, Relation rel) { add_edge(*n.record, e, rel); });
  }
  return chain;
}

}  // namespace kedb
