#include "kb/record_codec.h"

namespace kedb {
namespace {

using util::BinaryReader;
using util::BinaryWriter;

void PutStrings(BinaryWriter* w, const std::vector<std::string>& v) {
  w->U64(v.size());
  for (const auto& s : v) w->Bytes(s);
}
void PutOptional(BinaryWriter* w, const std::optional<double>& v) {
  w->U64(v.has_value());
  w->F64(v.value_or(0));
}
void PutDate(BinaryWriter* w, const std::optional<Date>& d) {
  w->U64(d.has_value());
  w->U64(d ? static_cast<uint64_t>(d->year) * 10000 + static_cast<uint64_t>(d->month) * 100 + static_cast<uint64_t>(d->day) : 0);
}
void PutEdges(BinaryWriter* w, const std::vector<Edge>& edges) {
  w->U64(edges.size());
  for (const Edge& e : edges) {
    w->Bytes(e.error_id);
    w->U64(e.plain);
    PutOptional(w, e.probability);
    w->Bytes(e.condition);
    w->Bytes(e.distinction);
    w->Bytes(e.typical_delay);
  }
}

void PutOccurrences(BinaryWriter* w, const std::vector<Occurrence>& v) {
  w->U64(v.size());
  for (const auto& o : v) w->Bytes(o.text), w->Bytes(o.source), w->Bytes(o.belongs_to), w->Bytes(o.note);
}

}  // namespace

void EncodeRecord(const Record& r, BinaryWriter* w) {
  for (const std::string* s : {&r.id, &r.signature, &r.signature_zh, &r.regex, &r.domain, &r.category,
                               &r.subcategory, &r.root_cause, &r.root_cause_type, &r.root_cause_zh,
                               &r.official_doc_url, &r.official_doc_section, &r.error_code, &r.verification_tier,
                               &r.verification_note, &r.locale, &r.attribution, &r.json, &r.origin.file}) {
    w->Bytes(*s);
  }
  w->U64(r.versions.size());
  for (const auto& v : r.versions) {
    for (const std::string* s : {&v.version, &v.introduced, &v.deprecated, &v.removed, &v.behavior_change, &v.status}) {
      w->Bytes(*s);
    }
  }
  w->U64(r.os_specific.size());
  for (const auto& [os, note] : r.os_specific) w->Bytes(os), w->Bytes(note);
  w->U64(r.dead_ends.size());
  for (const auto& d : r.dead_ends) {
    w->Bytes(d.action), w->Bytes(d.why_fails), w->F64(d.fail_rate), w->Bytes(d.condition);
    PutStrings(w, d.sources);
    w->Bytes(d.common_misconception), w->Bytes(d.tradeoff);
  }
  w->U64(r.workarounds.size());
  for (const auto& a : r.workarounds) {
    w->Bytes(a.action), w->F64(a.success_rate), w->Bytes(a.how), w->Bytes(a.condition);
    PutStrings(w, a.sources);
    w->Bytes(a.tradeoff);
  }
  PutStrings(w, r.workarounds_zh);
  PutEdges(w, r.transition_graph.leads_to);
  PutEdges(w, r.transition_graph.preceded_by);
  PutEdges(w, r.transition_graph.frequently_confused_with);
  PutOptional(w, r.confidence);
  PutOptional(w, r.fix_success_rate);
  w->U64(static_cast<uint64_t>(r.resolvable));
  PutDate(w, r.first_seen), PutDate(w, r.last_confirmed), PutDate(w, r.last_updated);
  w->U64(static_cast<uint64_t>(r.evidence_count));
  PutStrings(w, r.tags);
  PutStrings(w, r.aliases);
  PutStrings(w, r.sources);
  PutOccurrences(w, r.occurrences);
  PutOccurrences(w, r.counterexamples);
  w->U64(static_cast<uint64_t>(r.origin.format));
  w->U64(static_cast<uint64_t>(r.origin.offset));
  w->U64(static_cast<uint64_t>(r.origin.line));
  w->U64(r.origin.text_hash);
}


uint64_t RecordDecoder::Count() {
  uint64_t n = 0;
  ok_ = ok_ && r_->U64(&n) && n < (1u << 24);
  return ok_ ? n : 0;
}
uint64_t RecordDecoder::Int() {
  uint64_t n = 0;
  ok_ = ok_ && r_->U64(&n);
  return n;
}
double RecordDecoder::F64() {
  double d = 0;
  ok_ = ok_ && r_->F64(&d);
  return d;
}
void RecordDecoder::Strings(std::vector<std::string>* v) {
  v->resize(Count());
  for (auto& s : *v) Str(&s);
}
std::optional<double> RecordDecoder::Optional() {
  bool has = Int() != 0;
  double d = F64();
  return has ? std::optional<double>(d) : std::nullopt;
}
std::optional<Date> RecordDecoder::DateField() {
  bool has = Int() != 0;
  uint64_t v = Int();
  if (!has) return std::nullopt;
  return Date{static_cast<int>(v / 10000), static_cast<int>(v / 100 % 100), static_cast<int>(v % 100)};
}
void RecordDecoder::Edges(std::vector<Edge>* edges) {
  edges->resize(Count());
  for (Edge& e : *edges) {
    Str(&e.error_id);
    e.plain = Int() != 0;
    e.probability = Optional();
    Str(&e.condition), Str(&e.distinction), Str(&e.typical_delay);
  }
}
void RecordDecoder::Occurrences(std::vector<Occurrence>* v) {
  v->resize(Count());
  for (Occurrence& o : *v) Str(&o.text), Str(&o.source), Str(&o.belongs_to), Str(&o.note);
}
void RecordDecoder::Record(kedb::Record* r) {
  for (std::string* s : {&r->id, &r->signature, &r->signature_zh, &r->regex, &r->domain, &r->category,
                         &r->subcategory, &r->root_cause, &r->root_cause_type, &r->root_cause_zh,
                         &r->official_doc_url, &r->official_doc_section, &r->error_code, &r->verification_tier,
                         &r->verification_note, &r->locale, &r->attribution, &r->json, &r->origin.file}) {
    Str(s);
  }
  r->versions.resize(Count());
  for (auto& v : r->versions) {
    for (std::string* s : {&v.version, &v.introduced, &v.deprecated, &v.removed, &v.behavior_change, &v.status}) {
      Str(s);
    }
  }
  r->os_specific.resize(Count());
  for (auto& [os, note] : r->os_specific) Str(&os), Str(&note);
  r->dead_ends.resize(Count());
  for (auto& d : r->dead_ends) {
    Str(&d.action), Str(&d.why_fails);
    d.fail_rate = F64();
    Str(&d.condition);
    Strings(&d.sources);
    Str(&d.common_misconception), Str(&d.tradeoff);
  }
  r->workarounds.resize(Count());
  for (auto& a : r->workarounds) {
    Str(&a.action);
    a.success_rate = F64();
    Str(&a.how), Str(&a.condition);
    Strings(&a.sources);
    Str(&a.tradeoff);
  }
  Strings(&r->workarounds_zh);
  Edges(&r->transition_graph.leads_to);
  Edges(&r->transition_graph.preceded_by);
  Edges(&r->transition_graph.frequently_confused_with);
  r->confidence = Optional();
  r->fix_success_rate = Optional();
  uint64_t resolvable = Int();
  ok_ = ok_ && resolvable <= static_cast<uint64_t>(Resolvable::kFalse);
  r->resolvable = static_cast<Resolvable>(resolvable);
  r->first_seen = DateField(), r->last_confirmed = DateField(), r->last_updated = DateField();
  r->evidence_count = static_cast<int64_t>(Int());
  Strings(&r->tags);
  Strings(&r->aliases);
  Strings(&r->sources);
  Occurrences(&r->occurrences);
  Occurrences(&r->counterexamples);
  uint64_t format = Int();
  ok_ = ok_ && format <= static_cast<uint64_t>(Origin::Format::kDeadends);
  r->origin.format = static_cast<Origin::Format>(format);
  r->origin.offset = static_cast<int64_t>(Int());
  r->origin.line = static_cast<int>(Int());
  r->origin.text_hash = Int();
}


}  // namespace kedb
