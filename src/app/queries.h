// The questions every front end asks the engine, as plain functions: typed
// arguments in, rendered answers out. The HTTP API and the MCP tools only
// map their own argument names onto these and pick which rendering they
// send, so both always answer alike.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kedb/engine.h"
#include "render/render.h"

namespace kedb::app {

// What a query produced: JSON for programs and text for people (both
// rendered), or why it could not be answered.
struct Answer {
  enum class Kind { kOk, kNotFound, kInvalid };
  Kind kind = Kind::kOk;
  std::string json;     // kOk: the renderer's JSON
  std::string text;     // kOk: the renderer's text
  std::string message;  // otherwise: what was wrong, for a person
  bool found = true;    // kOk: something was found (a match, a hit)

  static Answer Error(Kind kind, std::string message);
};

// Matches kept when a request does not say: per message, and per block of
// a log (a log has many blocks, so fewer each).
inline constexpr std::size_t kMatchTop = 5;
inline constexpr std::size_t kScanTop = 3;

struct MatchQuery {
  std::string text;
  // Whether Answer::text is rendered too; a front end that sends only JSON
  // skips it (it costs as much as the match itself).
  bool want_text = true;
  std::size_t top = kMatchTop;
  std::string env;  // "torch=2.2,os=linux"
  Lang lang = Lang::kEn;
  bool all_lines = false;  // scans only: ScanOptions::all_lines
};

struct SearchQuery {
  std::string query;
  std::size_t limit = 10;
  std::string domain;  // "" for every domain
  Lang lang = Lang::kEn;
};

// The match or scan options a query asks for; kInvalid when env is bad.
Answer MatchText(const Engine& engine, const MatchQuery& q);
Answer ScanLog(const Engine& engine, const MatchQuery& q);
// Each text matched alone; JSON {"results":[{"matches","abstained"}...]}
// in the same order; text: the best match of each.
Answer MatchEach(const Engine& engine, const std::vector<std::string>& texts, const MatchQuery& options);

// JSON: the record's native JSON, unchanged. Text: RenderRecordText.
Answer RecordById(const Engine& engine, const std::string& id, Lang lang);
Answer ChainById(const Engine& engine, const std::string& id, int depth, Lang lang);
Answer SearchRecords(const Engine& engine, const SearchQuery& q);
Answer ListDomains(const Engine& engine);
Answer ListDomainRecords(const Engine& engine, const std::string& domain, const std::string& sort_by, Lang lang);
Answer Stats(const Engine& engine, const std::string& domain);  // "" for the whole knowledge base

// Ids of records close to `id` (same domain/slug, or containing it), for a
// not-found message that helps; at most `limit`.
std::vector<std::string> SimilarIds(const Engine& engine, const std::string& id, std::size_t limit);

}  // namespace kedb::app
