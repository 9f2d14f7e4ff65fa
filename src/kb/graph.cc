#include "kedb/graph.h"

#include <algorithm>
#include <deque>
#include <map>
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

// One link between two records whichever of them states it: "A leads_to B"
// and "B preceded_by A" are the same cause and effect, and confusion goes
// both ways.
using LinkKey = std::tuple<bool, std::string, std::string>;  // confused?, cause (or lesser id), effect
LinkKey KeyOf(const std::string& from, const std::string& to, Relation relation) {
  switch (relation) {
    case Relation::kLeadsTo: return {false, from, to};
    case Relation::kPrecededBy: return {false, to, from};
    case Relation::kConfusedWith: return {true, std::min(from, to), std::max(from, to)};
  }
  return {false, from, to};
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
  // Edges the walk followed: one end nearer than `depth`. Two ends on the
  // rim are a step further than asked; at depth 1 they would bury the
  // record's own edges under its neighbours' links to each other.
  std::map<LinkKey, std::size_t> link_at;  // -> index in chain.edges
  auto add_edge = [&](const Record& from, const Edge& e, Relation relation) {
    auto to = distance.find(e.error_id);
    if (to == distance.end() || std::min(distance.at(from.id), to->second) >= depth) return;
    // A confused-with edge states how to tell the two apart instead of a
    // condition; either way it is what a reader needs next to the arrow.
    const std::string& condition = e.condition.empty() ? e.distinction : e.condition;
    auto [it, added] = link_at.try_emplace(KeyOf(from.id, e.error_id, relation), chain.edges.size());
    if (added) {
      chain.edges.push_back({from.id, e.error_id, relation, e.probability, condition});
      return;
    }
    // The other record states the same link: it may know what this one left out.
    ChainEdge& kept = chain.edges[it->second];
    if (!kept.probability) kept.probability = e.probability;
    if (kept.condition.empty()) kept.condition = condition;
  };
  // In node order, so a link is kept as the record nearer the start states it.
  for (const ChainNode& n : chain.nodes) {
    if (n.record) ForEachEdge(*n.record, [&](const Edge& e, Relation rel) { add_edge(*n.record, e, rel); });
  }
  return chain;
}

}  // namespace kedb
