// Renderers: turning results into text for people and JSON for programs.
// Every front end (CLI, HTTP, MCP) uses these; none formats on its own.
#pragma once

#include <span>
#include <string>

#include "kb/stats.h"
#include "kedb/graph.h"
#include "kedb/knowledge_base.h"
#include "kedb/lint.h"
#include "kedb/record.h"

namespace kedb {
namespace store {
struct RecordEvidence;
}  // namespace store

enum class Lang { kEn, kZh };

// How text for a terminal is dressed. With `color`, ANSI colours mark what
// a reader looks for first: the root error, record ids, and rates (green
// for a fix that usually works, yellow, red for one that rarely does and
// for dead ends). Off by default: files, pipes and NO_COLOR get plain text.
struct TextStyle {
  bool color = false;
};

// One record for a person: root cause, workarounds by success rate, dead
// ends by fail rate, versions and OS, related errors. `kb` (optional) names
// related records' signatures. With `evidence` (optional), an action that
// was reported on shows its posterior rate, ordered by it, with the counts
// behind it.
std::string RenderRecordText(const Record& record, Lang lang, const KnowledgeBase* kb = nullptr,
                             const store::RecordEvidence* evidence = nullptr);

std::string RenderStatsText(const KbStats& stats);
std::string RenderStatsJson(const KbStats& stats);

// `kedb chain`: the start record, then one line per edge (the start
// record's own edges as what the other record is to it). JSON
// {"id","depth","nodes":[{"id","signature","known","distance"}],
// "edges":[{"from","to","relation","probability"}]}, the start record first
// among the nodes and with its "domain" and "root_cause" too. Kept short for
// agents that ask at every step: signatures and the root cause are cut
// (longer for the start record), "signature" is absent for an id no record
// has and "probability" when no record states one; when an edge happens is
// in the records themselves.
std::string RenderChainText(const Chain& chain, Lang lang);
std::string RenderChainJson(const Chain& chain, Lang lang);

// Domains with their record counts, largest first. JSON
// {"total":N,"domains":[{"domain","records"}]}.
std::string RenderDomainsText(const KbStats& stats);
std::string RenderDomainsJson(const KbStats& stats);

// One domain's records (see RecordsInDomain). JSON {"domain","errors":[{"id",
// "signature","resolvable","fix_success_rate","confidence"}]}.
std::string RenderDomainRecordsText(std::string_view domain, const std::vector<const Record*>& records, Lang lang);
std::string RenderDomainRecordsJson(std::string_view domain, const std::vector<const Record*>& records, Lang lang);

// Lint findings, one per line, then counts per rule.
std::string RenderLintText(const LintReport& report);
std::string RenderLintJson(const LintReport& report);

}  // namespace kedb

#include "kedb/match.h"
#include "kedb/search.h"
#include <unordered_map>

#include "logs/cluster.h"
#include "store/posterior.h"
#include "util/json_writer.h"

namespace kedb {

// What was observed about some records, by record id (store/posterior.h):
// given to a renderer, an action that was reported on shows its posterior
// rate, ordered by it, with the counts behind it, in place of the curated
// rate.
using ObservedRates = std::unordered_map<std::string, store::RecordEvidence>;

// `kedb match`: a numbered list for people; one JSON object (one line) for
// programs, in the shape {"matches":[...],"abstained":bool}. A workaround
// is {"action","success_rate"} and, when it was reported on,
// "curated_rate" and "observed":{"worked","failed","partial","interval"};
// a dead end likewise with "fail_rate".
std::string RenderMatchText(const MatchResult& result, Lang lang, const ObservedRates* observed = nullptr,
                            TextStyle style = {});
std::string RenderMatchJson(const MatchResult& result, Lang lang, const ObservedRates* observed = nullptr);
// The same object written into `w`, for an answer that holds several.
void WriteMatchJson(util::JsonWriter& w, const MatchResult& result, Lang lang, const ObservedRates* observed = nullptr);

// `kedb scan`: error blocks root first, each with its decisive line and
// known errors, then a summary line. JSON: one object
// {"blocks":[{"kind","lines":[a,b],"decisive_line","decisive","frames",
// "frame_count","count","root","caused_by","matches":[...],"abstained"}],
// "summary":{...}}.
std::string RenderScanText(const ScanResult& result, Lang lang, const ObservedRates* observed = nullptr,
                           TextStyle style = {});

// One block as RenderScanText shows it: a header line with its lines, kind
// and root marker, its decisive line, and its matches' cards.
std::string RenderBlockText(const ErrorBlock& block, Lang lang, const ObservedRates* observed = nullptr,
                            TextStyle style = {});

// One log of a scan over several: the name it was given by and its result.
struct ScannedLog {
  std::string file;
  ScanResult result;
};
// What went wrong reading one of them (it has no result).
struct UnreadLog {
  std::string file, error;
};
// The summaries of several logs added up.
ScanSummary TotalOf(std::span<const ScannedLog> logs);

// `kedb scan` over several logs. Text: each log with error blocks under a
// "==> FILE <==" header, as RenderScanText shows it, then a line for all of
// them; clean logs are only counted. JSON: {"files":[{"file","blocks",
// "summary"}...],"summary":{... as one log's, and "files","clean"},
// "unread":[{"file","error"}]}.
std::string RenderScansText(std::span<const ScannedLog> logs, std::span<const UnreadLog> unread, Lang lang,
                            const ObservedRates* observed = nullptr, TextStyle style = {});
std::string RenderScansJson(std::span<const ScannedLog> logs, std::span<const UnreadLog> unread, Lang lang,
                            const ObservedRates* observed = nullptr);

// A log scanned while it is written (app/live_scan.h), one flush at a
// time: the blocks closed since the last flush, and those answered for
// before that were seen again. Text: the blocks' cards, and a line for
// each repeat. JSON: one line {"file","blocks":[...],"repeats":[{"lines",
// "decisive","record"}]} with line numbers in the whole log.
struct RepeatedBlock {
  std::size_t first_line = 0, last_line = 0;
  std::string decisive;
  const Record* record = nullptr;  // its best match, or nullptr
};
std::string RenderLiveText(const ScanResult& fresh, std::span<const RepeatedBlock> repeats, Lang lang,
                           const ObservedRates* observed = nullptr, TextStyle style = {});
std::string RenderLiveJson(const ScanResult& fresh, std::span<const RepeatedBlock> repeats, std::string_view file,
                           Lang lang, const ObservedRates* observed = nullptr);

// The workaround of `r` a reader is shown first: the highest shown rate
// (posterior where reported, curated elsewhere), and that rate; index -1
// when it has none.
struct ShownFix {
  long index = -1;
  double rate = 0;
};
ShownFix FirstWorkaround(const Record& r, const ObservedRates* observed);

// `kedb search`: a numbered list with the words that matched; JSON
// {"hits":[{"id","score","signature","domain","terms"}]}.
std::string RenderSearchText(const SearchResult& result, Lang lang);
std::string RenderSearchJson(const SearchResult& result, Lang lang);

// `kedb cluster`: templates of unknown errors, most frequent first, with
// their proposed regex and how many members it was checked to match. JSON
// {"templates":[{"template","count","example","regex","members","verified"}]}.
std::string RenderClusterText(const std::vector<logs::Template>& templates);
std::string RenderClusterJson(const std::vector<logs::Template>& templates);
// `file`, when given, is the first field: the log the blocks came from.
std::string RenderScanJson(const ScanResult& result, Lang lang, const ObservedRates* observed = nullptr,
                           std::string_view file = {});

}  // namespace kedb

namespace kedb::mine {
struct Draft;
}  // namespace kedb::mine

namespace kedb {

// `kedb mine`: the draft's fields with where each came from, the runners-up
// worth a look, related records, and what still needs a person. (The JSON
// is the draft record file itself, mine::Draft::file.)
std::string RenderDraftText(const mine::Draft& draft, Lang lang);

}  // namespace kedb
