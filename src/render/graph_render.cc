#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "render/render.h"
#include "util/utf8.h"

namespace kedb {
namespace {

using Json = nlohmann::ordered_json;

std::string Dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n"; }

double Round4(double v) { return std::round(v * 1e4) / 1e4; }

const std::string& Signature(const Record& r, Lang lang) {
  return lang == Lang::kZh && !r.signature_zh.empty() ? r.signature_zh : r.signature;
}

const char* RelationLabel(Relation relation, Lang lang) {
  const bool zh = lang == Lang::kZh;
  switch (relation) {
    case Relation::kLeadsTo: return zh ? "导致" : "leads to";
    case Relation::kPrecededBy: return zh ? "之前常见" : "preceded by";
    case Relation::kConfusedWith: return zh ? "易混淆" : "confused with";
  }
  return "";
}

// "B preceded_by A" seen from A: A leads to B.
Relation Inverse(Relation relation) {
  switch (relation) {
    case Relation::kLeadsTo: return Relation::kPrecededBy;
    case Relation::kPrecededBy: return Relation::kLeadsTo;
    case Relation::kConfusedWith: return Relation::kConfusedWith;
  }
  return relation;
}

// A chain stays small enough to read at a glance, and for an agent to
// take in whole at every step: the start record's own text a little
// longer, every other record's signature cut short (its id leads to the
// rest). When an edge happens is left to the records (get_error_detail,
// kedb show): conditions would double the answer.
constexpr std::size_t kStartSignatureBytes = 160;
constexpr std::size_t kSignatureBytes = 60;
constexpr std::size_t kRootCauseBytes = 200;

}  // namespace

std::string RenderChainText(const Chain& chain, Lang lang) {
  const bool zh = lang == Lang::kZh;
  std::unordered_map<std::string_view, const ChainNode*> by_id;
  for (const ChainNode& n : chain.nodes) by_id[n.id] = &n;
  auto name = [&](const std::string& id, std::size_t max_bytes) {
    auto it = by_id.find(id);
    if (it == by_id.end() || !it->second->record) return fmt::format("{} ({})", id, zh ? "未收录" : "not in this knowledge base");
    return fmt::format("{}  {}", id, util::Shortened(Signature(*it->second->record, lang), max_bytes));
  };
  std::string out = fmt::format("{}\n", name(chain.id, kStartSignatureBytes));
  if (chain.edges.empty()) {
    out += zh ? "  （没有已知的关联错误）\n" : "  (no related errors are known)\n";
    return out;
  }
  for (const ChainEdge& e : chain.edges) {
    std::string p = e.probability ? fmt::format(" p={:.2f}", *e.probability) : "";
    if (e.from == chain.id || e.to == chain.id) {  // from the start record's side: what it is to the other
      const bool stated_by_start = e.from == chain.id;
      const Relation seen = stated_by_start ? e.relation : Inverse(e.relation);
      out += fmt::format("  {}{}: {}\n", RelationLabel(seen, lang), p, name(stated_by_start ? e.to : e.from, kSignatureBytes));
    } else {
      out += fmt::format("  {} --{}{}--> {}\n", e.from, RelationLabel(e.relation, lang), p, name(e.to, kSignatureBytes));
    }
  }
  return out;
}

std::string RenderChainJson(const Chain& chain, Lang lang) {
  Json nodes = Json::array();
  for (const ChainNode& n : chain.nodes) {
    const bool start = n.id == chain.id;
    Json j;
    j["id"] = n.id;
    if (n.record) j["signature"] = util::Shortened(Signature(*n.record, lang), start ? kStartSignatureBytes : kSignatureBytes);
    j["known"] = n.record != nullptr;
    j["distance"] = n.distance;
    if (start && n.record) {
      // What the error is, so that the answer reads alone.
      j["domain"] = n.record->domain;
      const std::string& cause = lang == Lang::kZh && !n.record->root_cause_zh.empty() ? n.record->root_cause_zh
                                                                                       : n.record->root_cause;
      j["root_cause"] = util::Shortened(cause, kRootCauseBytes);
    }
    nodes.push_back(std::move(j));
  }
  Json edges = Json::array();
  for (const ChainEdge& e : chain.edges) {
    Json j;
    j["from"] = e.from;
    j["to"] = e.to;
    j["relation"] = RelationName(e.relation);
    if (e.probability) j["probability"] = Round4(*e.probability);
    edges.push_back(std::move(j));
  }
  Json out;
  out["id"] = chain.id;
  out["depth"] = chain.depth;
  out["nodes"] = std::move(nodes);
  out["edges"] = std::move(edges);
  return Dump(out);
}

std::string RenderDomainsText(const KbStats& stats) {
  std::string out = fmt::format("{} records in {} domains\n", stats.records, stats.by_domain.size());
  for (const auto& [domain, n] : stats.by_domain) out += fmt::format("  {:>6}  {}\n", n, domain);
  return out;
}

std::string RenderDomainsJson(const KbStats& stats) {
  Json domains = Json::array();
  for (const auto& [domain, n] : stats.by_domain) domains.push_back(Json{{"domain", domain}, {"records", n}});
  return Dump(Json{{"total", stats.records}, {"domains", std::move(domains)}});
}

std::string RenderDomainRecordsText(std::string_view domain, const std::vector<const Record*>& records, Lang lang) {
  std::string out = fmt::format("{}: {} {}\n", domain, records.size(), lang == Lang::kZh ? "条记录" : "records");
  for (const Record* r : records) {
    std::string rate = r->fix_success_rate ? fmt::format("{:.0f}%", *r->fix_success_rate * 100) : "-";
    out += fmt::format("  [{}] fix {:>4}  {}  {}\n", ResolvableName(r->resolvable), rate, r->id, Signature(*r, lang));
  }
  return out;
}

std::string RenderDomainRecordsJson(std::string_view domain, const std::vector<const Record*>& records, Lang lang) {
  Json errors = Json::array();
  for (const Record* r : records) {
    Json j;
    j["id"] = r->id;
    j["signature"] = Signature(*r, lang);
    j["resolvable"] = ResolvableName(r->resolvable);
    j["fix_success_rate"] = r->fix_success_rate ? Json(*r->fix_success_rate) : Json(nullptr);
    j["confidence"] = r->confidence ? Json(*r->confidence) : Json(nullptr);
    errors.push_back(std::move(j));
  }
  return Dump(Json{{"domain", domain}, {"errors", std::move(errors)}});
}

}  // namespace kedb
