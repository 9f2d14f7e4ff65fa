// What search returns: records found by words rather than by an error
// message (see Engine::Search).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kedb/record.h"

namespace kedb {

struct SearchOptions {
  std::size_t top = 10;
  std::string domain;  // only records of this domain; "" for all
};

struct SearchHit {
  const Record* record = nullptr;
  double score = 0;                // BM25; comparable within one query
  std::vector<std::string> terms;  // the query's words that matched
};

struct SearchResult {
  std::vector<SearchHit> hits;  // best first
};

}  // namespace kedb
