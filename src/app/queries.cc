#include "app/queries.h"

#include <algorithm>

#include <fmt/format.h>

#include "app/outcomes.h"
#include "kb/stats.h"
#include "kedb/graph.h"
#include "logs/cluster.h"
#include "util/view_streambuf.h"

namespace kedb::app {
namespace {

Answer Ok(std::string json, std::string text, bool found = true) {
  Answer a;
  a.json = std::move(json);
  a.text = std::move(text);
  a.found = found;
  return a;
}

bool Options(const MatchQuery& q, MatchOptions* options, Answer* error) {
  if (Status st = MatchOptionsOf(q, options); !st.ok()) {
    *error = Answer::Error(Answer::Kind::kInvalid, st.message());
    return false;
  }
  return true;
}

}  // namespace

std::string NotFoundMessage(const Engine& engine, const std::string& id) {
  std::string msg = fmt::format("no record has the id \"{}\"", id);
  auto similar = SimilarIds(engine, id, 5);
  if (!similar.empty()) {
    msg += "; did you mean ";
    for (std::size_t i = 0; i < similar.size(); ++i) msg += (i ? ", " : "") + similar[i];
    msg += "?";
  }
  return msg;
}

Status MatchOptionsOf(const MatchQuery& q, MatchOptions* options) {
  options->top = q.top;
  auto env = ParseEnv(q.env);
  if (!env.ok()) return env.status();
  options->env = std::move(*env);
  return Status::Ok();
}

Answer Answer::Error(Kind kind, std::string message) {
  Answer a;
  a.kind = kind;
  a.message = std::move(message);
  a.found = false;
  return a;
}

namespace {

std::vector<const Record*> RecordsOf(const std::vector<Match>& matches) {
  std::vector<const Record*> out;
  for (const Match& m : matches) out.push_back(m.record);
  return out;
}

}  // namespace

Answer MatchText(const Engine& engine, const MatchQuery& q) {
  MatchOptions options;
  Answer error;
  if (!Options(q, &options, &error)) return error;
  MatchResult result = engine.Match(q.text, options);
  std::string note;
  const ObservedRates observed = ObservedFor(q.store, RecordsOf(result.matches), &note);
  if (q.record_hits && !result.matches.empty()) note += CountHits(q.store, {result.matches.front().record});
  Answer a = Ok(RenderMatchJson(result, q.lang, &observed), q.want_text ? RenderMatchText(result, q.lang, &observed, q.style) : "",
                !result.matches.empty());
  a.notes = note;
  return a;
}

Answer ScanLog(const Engine& engine, const MatchQuery& q) {
  util::ViewStreambuf buf(q.text);
  std::istream in(&buf);
  return ScanLog(engine, in, q);
}

Answer MatchEach(const Engine& engine, const std::vector<std::string>& texts, const MatchQuery& q) {
  MatchOptions options;
  Answer error;
  if (!Options(q, &options, &error)) return error;
  util::JsonWriter json;
  json.BeginObject().Key("results").BeginArray();
  std::string text;
  bool any = false;
  std::vector<const Record*> identified;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    MatchResult result = engine.Match(texts[i], options);
    any |= !result.matches.empty();
    if (!result.matches.empty()) identified.push_back(result.matches.front().record);
    std::string note;
    const ObservedRates observed = ObservedFor(q.store, RecordsOf(result.matches), &note);
    WriteMatchJson(json, result, q.lang, &observed);  // what MatchText answers for that text alone
    std::string_view head(texts[i]);
    head = head.substr(0, head.find('\n')).substr(0, 100);
    text += fmt::format("## {}. {}\n", i + 1, head);
    MatchResult best = result;
    if (best.matches.size() > 1) best.matches.resize(1);
    text += RenderMatchText(best, q.lang, &observed, q.style) + "\n";
  }
  json.EndArray().EndObject();
  Answer a = Ok(json.Take() + "\n", text, any);
  if (q.record_hits) a.notes = CountHits(q.store, identified);
  return a;
}

Answer RecordById(const Engine& engine, const std::string& id, Lang lang) {
  const Record* r = engine.kb().Find(id);
  if (!r) return Answer::Error(Answer::Kind::kNotFound, NotFoundMessage(engine, id));
  return Ok(FormatRecordFile(*r), RenderRecordText(*r, lang, &engine.kb()));
}

Answer ChainById(const Engine& engine, const std::string& id, int depth, Lang lang) {
  auto chain = ChainOf(engine.kb(), id, depth);
  if (!chain) return Answer::Error(Answer::Kind::kNotFound, NotFoundMessage(engine, id));
  return Ok(RenderChainJson(*chain, lang), RenderChainText(*chain, lang), !chain->edges.empty());
}

Answer SearchRecords(const Engine& engine, const SearchQuery& q) {
  SearchOptions options;
  options.top = q.limit;
  options.domain = q.domain;
  SearchResult result = engine.Search(q.query, options);
  return Ok(RenderSearchJson(result, q.lang), RenderSearchText(result, q.lang), !result.hits.empty());
}

Answer ListDomains(const Engine& engine) {
  KbStats stats = ComputeStats(engine.kb());
  return Ok(RenderDomainsJson(stats), RenderDomainsText(stats));
}

Answer ListDomainRecords(const Engine& engine, const std::string& domain, const std::string& sort_by, Lang lang) {
  auto order = ParseDomainOrder(sort_by.empty() ? "fix_rate" : sort_by);
  if (!order) {
    return Answer::Error(Answer::Kind::kInvalid,
                         fmt::format("sort_by \"{}\" is not one of fix_rate, name, confidence", sort_by));
  }
  auto records = RecordsInDomain(engine.kb(), domain, *order);
  if (records.empty()) return Answer::Error(Answer::Kind::kNotFound, fmt::format("no domain is named \"{}\"", domain));
  return Ok(RenderDomainRecordsJson(domain, records, lang), RenderDomainRecordsText(domain, records, lang));
}

Answer Stats(const Engine& engine, const std::string& domain) {
  KbStats stats = ComputeStats(engine.kb(), domain);
  if (!domain.empty() && stats.records == 0) {
    return Answer::Error(Answer::Kind::kNotFound, fmt::format("no domain is named \"{}\"", domain));
  }
  return Ok(RenderStatsJson(stats), RenderStatsText(stats));
}

UnknownErrors::UnknownErrors(const Engine& engine) : engine_(engine), clusterer_(std::make_unique<logs::Clusterer>()) {}
UnknownErrors::~UnknownErrors() = default;

Status UnknownErrors::Add(std::istream& log) {
  ScanResult result;
  if (Status st = engine_.Scan(log, ScanOptions{}, &result); !st.ok()) return st;
  for (const auto& block : result.blocks) {
    if (block.matches.empty() && !block.decisive.empty()) clusterer_->Add(block.decisive, block.count);
  }
  return Status::Ok();
}

Answer UnknownErrors::Templates(const ClusterQuery& q) {
  std::vector<logs::Template> templates = clusterer_->Finish();
  std::erase_if(templates, [&](const logs::Template& t) { return t.count < q.min_count; });
  if (templates.size() > q.top) templates.resize(q.top);
  return Ok(RenderClusterJson(templates), RenderClusterText(templates), !templates.empty());
}

std::vector<std::string> SimilarIds(const Engine& engine, const std::string& id, std::size_t limit) {
  std::vector<std::string> out;
  if (id.empty()) return out;
  // "domain/slug" of a "domain/slug/env" id: its siblings are the best guess.
  std::string stem = id;
  if (std::count(stem.begin(), stem.end(), '/') >= 2) stem = stem.substr(0, stem.rfind('/'));
  for (const Record& r : engine.kb().records()) {
    if (out.size() >= limit) break;
    if (r.id.rfind(stem, 0) == 0 || (id.size() >= 4 && r.id.find(id) != std::string::npos)) out.push_back(r.id);
  }
  if (out.empty()) {
    // No sibling: the records whose words the id's words are ("cuda/bn-epsilon").
    // The domain alone says little, so only the words after it count.
    std::string words = id.substr(id.find('/') == std::string::npos ? 0 : id.find('/') + 1);
    std::replace_if(words.begin(), words.end(), [](char c) { return c == '/' || c == '-' || c == '_'; }, ' ');
    SearchOptions options;
    options.top = std::min<std::size_t>(limit, 3);
    for (const SearchHit& h : engine.Search(words, options).hits) out.push_back(h.record->id);
  }
  return out;
}

std::vector<std::string> RecordIds(const Engine& engine) {
  std::vector<std::string> ids;
  ids.reserve(engine.kb().records().size());
  for (const Record& r : engine.kb().records()) ids.push_back(r.id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace kedb::app
