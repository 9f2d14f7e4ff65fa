#include "record/record_write.h"

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace kedb {
namespace {

// RecordFromJson credits deadends.dev on any document that has an
// "x_deadends" member and holds the credit nowhere else; the round-trip
// tests fail if the two files disagree on this text.
constexpr std::string_view kDeadendsCredit = "deadends.dev (CC BY 4.0)";

// The Put* helpers leave a field out when the typed value is empty: the
// reader turns a missing field into exactly that empty value, so writing
// "", null, [] or {} would only add noise.
void PutString(Json& obj, const char* key, const std::string& value) {
  if (!value.empty()) obj[key] = value;
}

void PutStrings(Json& obj, const char* key, const std::vector<std::string>& values) {
  if (!values.empty()) obj[key] = values;
}

void PutRate(Json& obj, const char* key, const std::optional<double>& value) {
  if (value) obj[key] = *value;
}

void PutDate(Json& obj, const char* key, const std::optional<Date>& value) {
  if (value) obj[key] = value->ToString();
}

template <typename T, typename ToJson>
void PutList(Json& obj, const char* key, const std::vector<T>& items, ToJson to_json) {
  if (items.empty()) return;
  Json list = Json::array();
  for (const T& item : items) list.push_back(to_json(item));
  obj[key] = std::move(list);
}

Json VersionToJson(const VersionEntry& v) {
  Json out = Json::object();
  out["version"] = v.version;  // required by the reader, so written even when empty
  PutString(out, "introduced", v.introduced);
  PutString(out, "deprecated", v.deprecated);
  PutString(out, "removed", v.removed);
  PutString(out, "behavior_change", v.behavior_change);
  PutString(out, "status", v.status);
  return out;
}

Json OccurrenceToJson(const Occurrence& o) {
  Json out = Json::object();
  out["text"] = o.text;
  out["source"] = o.source;
  PutString(out, "belongs_to", o.belongs_to);
  PutString(out, "note", o.note);
  return out;
}

Json DeadEndToJson(const DeadEnd& d) {
  Json out = Json::object();
  // The reader requires these three; the seeds have dead ends whose action
  // is "", which must stay a present "".
  out["action"] = d.action;
  out["why_fails"] = d.why_fails;
  out["fail_rate"] = d.fail_rate;
  PutString(out, "condition", d.condition);
  PutStrings(out, "sources", d.sources);
  PutString(out, "common_misconception", d.common_misconception);
  PutString(out, "tradeoff", d.tradeoff);
  return out;
}

Json WorkaroundToJson(const Workaround& w) {
  Json out = Json::object();
  out["action"] = w.action;  // required, with success_rate
  out["success_rate"] = w.success_rate;
  PutString(out, "how", w.how);
  PutString(out, "condition", w.condition);
  PutStrings(out, "sources", w.sources);
  PutString(out, "tradeoff", w.tradeoff);
  return out;
}

bool HasDetails(const Edge& e) {
  return e.probability || !e.condition.empty() || !e.distinction.empty() || !e.typical_delay.empty();
}

// The reader marks an edge plain exactly when it is a bare id string. An
// edge with details needs an object, so for one built in code with both
// `plain` and details the details win and `plain` reads back false; the
// reader itself never produces such an edge.
Json EdgeToJson(const Edge& e) {
  if (e.plain && !HasDetails(e)) return e.error_id;
  Json out = Json::object();
  out["error_id"] = e.error_id;
  PutRate(out, "probability", e.probability);
  PutString(out, "condition", e.condition);
  PutString(out, "distinction", e.distinction);
  PutString(out, "typical_delay", e.typical_delay);
  return out;
}

void PutTransitionGraph(Json& obj, const TransitionGraph& g) {
  Json out = Json::object();
  PutList(out, "leads_to", g.leads_to, EdgeToJson);
  PutList(out, "preceded_by", g.preceded_by, EdgeToJson);
  PutList(out, "frequently_confused_with", g.frequently_confused_with, EdgeToJson);
  if (!out.empty()) obj["transition_graph"] = std::move(out);
}

// An os without a note is written null, as the deadends.dev import writes
// it. A repeated os cannot be written twice (object keys are unique): its
// later note replaces the earlier one in the earlier one's place, which is
// also what the reader does with a repeated key.
void PutOsSpecific(Json& obj, const std::vector<std::pair<std::string, std::string>>& notes) {
  if (notes.empty()) return;
  Json out = Json::object();
  for (const auto& [os, note] : notes) out[os] = note.empty() ? Json(nullptr) : Json(note);
  obj["os_specific"] = std::move(out);
}

// id .. root_cause_zh: what the error is.
void PutIdentity(Json& obj, const Record& r) {
  // Required by the reader, so written even when empty (and then refused).
  obj["id"] = r.id;
  obj["signature"] = r.signature;
  PutString(obj, "signature_zh", r.signature_zh);
  obj["regex"] = r.regex;
  obj["domain"] = r.domain;
  PutString(obj, "category", r.category);
  PutString(obj, "subcategory", r.subcategory);
  PutString(obj, "root_cause", r.root_cause);
  PutString(obj, "root_cause_type", r.root_cause_type);
  PutString(obj, "root_cause_zh", r.root_cause_zh);
}

// versions .. transition_graph: where it happens and what to do about it.
void PutRemedies(Json& obj, const Record& r) {
  PutList(obj, "versions", r.versions, VersionToJson);
  PutOsSpecific(obj, r.os_specific);
  PutList(obj, "dead_ends", r.dead_ends, DeadEndToJson);
  PutList(obj, "workarounds", r.workarounds, WorkaroundToJson);
  PutStrings(obj, "workarounds_zh", r.workarounds_zh);
  PutTransitionGraph(obj, r.transition_graph);
}

// official_doc_url .. counterexamples: references, trust, bookkeeping and evidence.
void PutMetadata(Json& obj, const Record& r) {
  PutString(obj, "official_doc_url", r.official_doc_url);
  PutString(obj, "official_doc_section", r.official_doc_section);
  // Always a string: the reader also takes an integer, but the typed view
  // no longer knows whether "5" was written 5 or "5".
  PutString(obj, "error_code", r.error_code);
  PutString(obj, "verification_tier", r.verification_tier);
  PutString(obj, "verification_note", r.verification_note);
  PutRate(obj, "confidence", r.confidence);
  PutRate(obj, "fix_success_rate", r.fix_success_rate);
  if (r.resolvable != Resolvable::kUnknown) obj["resolvable"] = ResolvableName(r.resolvable);
  PutDate(obj, "first_seen", r.first_seen);
  PutDate(obj, "last_confirmed", r.last_confirmed);
  PutDate(obj, "last_updated", r.last_updated);
  // A missing count reads as 0, so 0 is left out like the empty fields.
  if (r.evidence_count != 0) obj["evidence_count"] = r.evidence_count;
  PutStrings(obj, "tags", r.tags);
  PutString(obj, "locale", r.locale);
  PutStrings(obj, "aliases", r.aliases);
  PutStrings(obj, "sources", r.sources);
  PutList(obj, "occurrences", r.occurrences, OccurrenceToJson);
  PutList(obj, "counterexamples", r.counterexamples, OccurrenceToJson);
}

// The native format has no attribution field: the reader derives the
// deadends.dev credit from the presence of "x_deadends". An empty one keeps
// that credit (a CC BY licence condition) through a rewrite, even though the
// canon's leftover fields it normally holds are not in the typed record.
// Any other attribution has nowhere to go and is not written.
void PutAttribution(Json& obj, const Record& r) {
  if (r.attribution == kDeadendsCredit) obj["x_deadends"] = Json::object();
}

}  // namespace

Json RecordToJson(const Record& record) {
  Json doc = Json::object();
  PutIdentity(doc, record);
  PutRemedies(doc, record);
  PutMetadata(doc, record);
  PutAttribution(doc, record);
  return doc;
}

}  // namespace kedb
