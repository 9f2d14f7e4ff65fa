// The transition graph between known errors: what an error leads to, what
// usually comes before it, and what it is mistaken for. Records state these
// edges one by one; ChainOf() walks them from one record outwards.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kedb/knowledge_base.h"

namespace kedb {

enum class Relation { kLeadsTo, kPrecededBy, kConfusedWith };
const char* RelationName(Relation relation);  // "leads_to", "preceded_by", "confused_with"

struct ChainNode {
  std::string id;
  const Record* record = nullptr;  // nullptr when no loaded record has the id
  int distance = 0;                // edges from the start record
};

struct ChainEdge {
  std::string from, to;
  Relation relation = Relation::kLeadsTo;
  std::optional<double> probability;
  std::string condition;  // when it happens; for confused_with, how to tell them apart
};

struct Chain {
  std::string id;
  int depth = 0;
  std::vector<ChainNode> nodes;  // the start record first, then by distance
  // Each link once, as the record nearer the start states it (a record's
  // "A leads_to B" and the other's "B preceded_by A" are one link).
  std::vector<ChainEdge> edges;
};

// The records reachable from `id` within `depth` edges, in either direction
// of every relation a record states, and the edges with an end nearer than
// `depth` (one between two records `depth` away is a step further than
// asked). Nodes past kMaxChainNodes are left out (their edges too).
// nullopt when no record has the id. Cost: linear in the edges visited.
inline constexpr std::size_t kMaxChainNodes = 200;
std::optional<Chain> ChainOf(const KnowledgeBase& kb, std::string_view id, int depth);

}  // namespace kedb
