// The questions every front end asks the engine, as plain functions: typed
// arguments in, rendered answers out. The HTTP API and the MCP tools only
// map their own argument names onto these and pick which rendering they
// send, so both always answer alike.
#pragma once

#include <cstddef>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kedb/engine.h"
#include "render/ci_render.h"
#include "render/render.h"

namespace kedb::logs {
class Clusterer;
}  // namespace kedb::logs
namespace kedb::store {
class OutcomeStore;
}  // namespace kedb::store

namespace kedb::app {

// What a query produced: JSON for programs and text for people (both
// rendered), or why it could not be answered.
struct Answer {
  // kUnavailable: the question was fine but something it needs failed (a
  // store that cannot write); a server answers 503.
  // kConflict: the request is sound but clashes with what is stored (a
  // record created twice); HTTP 409.
  enum class Kind { kOk, kNotFound, kInvalid, kUnavailable, kConflict };
  Kind kind = Kind::kOk;
  std::string json;     // kOk: the renderer's JSON
  std::string text;     // kOk: the renderer's text
  std::string message;  // otherwise: what was wrong, for a person
  // kOk: something was found (a match, a hit, related records); for a
  // check (lint, import), the check passed. Front ends turn this into
  // their status (the CLI's exit 0 or 1), so it is decided here only.
  bool found = true;
  // Notes for the person beside the answer (documents that did not load,
  // findings that stopped an import), one per line; "" for none. The CLI
  // prints them on stderr.
  std::string notes;
  // A second rendering the query asked for beside `text` (a scan's GitHub
  // job summary in Markdown, its GitLab collapsible sections for the job
  // log); "" otherwise.
  std::string report;
  // kOk: inputs that could not be read (a scan of several files goes on
  // without them); a front end reports failure when there are any.
  std::size_t unread = 0;

  static Answer Error(Kind kind, std::string message);
};

// What a request gets when it does not say, in every front end: matches
// per message, matches per block of a log (a log has many blocks, so fewer
// each), search hits, edges followed from a record, and the most any
// request may ask for.
inline constexpr std::size_t kMatchTop = 5;
inline constexpr std::size_t kScanTop = 3;
inline constexpr std::size_t kSearchTop = 10;
inline constexpr int kChainDepth = 2;
inline constexpr int kMaxChainDepth = 5;
inline constexpr std::size_t kMaxTop = 100;

struct MatchQuery {
  std::string text;
  // Whether Answer::text is rendered too; a front end that sends only JSON
  // skips it (it costs as much as the match itself).
  bool want_text = true;
  std::size_t top = kMatchTop;
  TextStyle style;  // how Answer::text is dressed (colour for a terminal)
  std::string env;  // "torch=2.2,os=linux"
  Lang lang = Lang::kEn;
  bool all_lines = false;   // scans only: ScanOptions::all_lines
  std::size_t threads = 1;  // scans only: ScanOptions::threads
  // Where outcome reports are kept (null: none): workarounds and dead ends
  // are then shown with their observed rates (app/outcomes.h).
  store::OutcomeStore* store = nullptr;
  // Count in `store`'s hit statistics the message's best match, or each
  // record that is a block's best match in a log (once per log).
  bool record_hits = false;
  // Scans only: `text` in a CI system's form instead of for people
  // (render/ci_render.h), naming the log `source` in annotations; with
  // kGithub, `report` is the job summary, with kGitlab the job log's
  // collapsible sections.
  std::optional<CiFormat> ci_format;
  std::string source = "-";
  // Scans only: what makes `found` false, so that a CI step fails (exit 1):
  // kDefault keeps grep's meaning (found: a known error); kKnown fails on a
  // known error, kUnknown on a block no record knows, kAny on any error
  // block, kNever never.
  enum class FailOn { kDefault, kKnown, kUnknown, kAny, kNever };
  FailOn fail_on = FailOn::kDefault;
};

struct SearchQuery {
  std::string query;
  std::size_t limit = kSearchTop;
  std::string domain;  // "" for every domain
  Lang lang = Lang::kEn;
};

// The match options a query asks for (top, env); fails when env does not
// parse.
Status MatchOptionsOf(const MatchQuery& q, MatchOptions* options);

// The match or scan options a query asks for; kInvalid when env is bad.
Answer MatchText(const Engine& engine, const MatchQuery& q);
Answer ScanLog(const Engine& engine, const MatchQuery& q);
// The same for a log read from a stream (q.text is not used); kInvalid
// when reading fails.
Answer ScanLog(const Engine& engine, std::istream& in, const MatchQuery& q);
// Each text matched alone; JSON {"results":[{"matches","abstained"}...]}
// in the same order; text: the best match of each.
Answer MatchEach(const Engine& engine, const std::vector<std::string>& texts, const MatchQuery& options);

// JSON: the record file as kedb writes it (FormatRecordFile: a loaded
// record's own text when it is in that layout). Text: RenderRecordText.
Answer RecordById(const Engine& engine, const std::string& id, Lang lang);
Answer ChainById(const Engine& engine, const std::string& id, int depth, Lang lang);
Answer SearchRecords(const Engine& engine, const SearchQuery& q);
Answer ListDomains(const Engine& engine);
Answer ListDomainRecords(const Engine& engine, const std::string& domain, const std::string& sort_by, Lang lang);
Answer Stats(const Engine& engine, const std::string& domain);  // "" for the whole knowledge base

// The unknown errors of some logs grouped into templates (logs/cluster.h):
// the decisive lines of blocks no record matched, most frequent first.
// Logs are added one at a time, so a front end holds one open at once.
struct ClusterQuery {
  std::size_t top = 20;
  std::size_t min_count = 1;  // templates seen fewer times are left out
};
class UnknownErrors {
 public:
  explicit UnknownErrors(const Engine& engine);
  ~UnknownErrors();
  // Scans one log; fails only when reading it fails.
  Status Add(std::istream& log);
  Answer Templates(const ClusterQuery& q);

 private:
  const Engine& engine_;
  std::unique_ptr<logs::Clusterer> clusterer_;
};

// "no record has the id ...; did you mean ...?"
std::string NotFoundMessage(const Engine& engine, const std::string& id);

// Ids of records close to `id` (same domain/slug, or containing it), for a
// not-found message that helps; at most `limit`.
std::vector<std::string> SimilarIds(const Engine& engine, const std::string& id, std::size_t limit);

// Every record's id, sorted: what shell completion offers for an ID.
std::vector<std::string> RecordIds(const Engine& engine);

}  // namespace kedb::app
