#include "app/new_record.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/mine.h"
#include "kedb/lint.h"
#include "mine/guesses.h"

namespace kedb::app {
namespace {

using OrderedJson = nlohmann::ordered_json;

// The skeleton in a record file's key order, with the fields a person
// fills present and empty.
OrderedJson Skeleton(const Record& r) {
  OrderedJson j;
  j["id"] = r.id;
  j["signature"] = r.signature;
  j["regex"] = r.regex;
  j["domain"] = r.domain;
  j["category"] = r.category;
  if (!r.error_code.empty()) j["error_code"] = r.error_code;
  j["root_cause"] = "";
  j["workarounds"] = OrderedJson::array();
  j["dead_ends"] = OrderedJson::array();
  j["first_seen"] = Today().ToString();
  j["evidence_count"] = 1;
  return j;
}

std::string Summary(const Record& r, const mine::Draft& d, bool domain_given) {
  std::string out = fmt::format("New record {}\n", r.id);
  out += fmt::format("  signature {}\n", r.signature);
  out += fmt::format("  regex     {}\n            matches {} of the {} error line(s) in the text\n", r.regex,
                     d.signatures.lines_matched, d.signatures.lines);
  out += fmt::format("  domain    {} · {} ({} guessed; change what is wrong)\n", r.domain, r.category,
                     domain_given ? "category" : "both");
  if (!r.error_code.empty()) out += fmt::format("  code      {}\n", r.error_code);
  bool matched = false;
  for (const mine::RelatedRecord& rel : d.related) {
    if (rel.via != "pattern") continue;
    if (!matched) out += "Already known? The text matches these records' patterns:\n";
    matched = true;
    out += fmt::format("  {}  {}\n", rel.id, rel.signature);
  }
  if (!matched && !d.related.empty()) {
    out += "Resembles (no pattern matches):\n";
    for (std::size_t i = 0; i < d.related.size() && i < 3; ++i) {
      out += fmt::format("  {}  {}\n", d.related[i].id, d.related[i].signature);
    }
  }
  out += "Left to fill: root_cause, workarounds (action, success_rate, how), dead_ends (action, why_fails, "
         "fail_rate); then `kedb lint --kb FILE`.\n";
  return out;
}

}  // namespace

Answer NewRecordSkeleton(const Engine& engine, const NewRecordQuery& q) {
  if (q.text.find_first_not_of(" \t\r\n") == std::string::npos) {
    return Answer::Error(Answer::Kind::kInvalid, "give the error text (as an argument or on stdin)");
  }
  mine::Thread thread;
  auto draft = DraftFromThread(engine, {q.text}, &thread);
  if (!draft.ok()) return Answer::Error(Answer::Kind::kInvalid, draft.status().message());
  if (draft->signatures.regex.empty()) {
    return Answer::Error(Answer::Kind::kInvalid,
                         "no error line in the text to build a pattern on: give the line the program printed");
  }
  Record r = draft->record;
  if (!q.domain.empty()) r.domain = q.domain;
  r.id = !q.id.empty() ? q.id : !q.domain.empty() ? mine::MakeId(q.domain, r.signature) : r.id;
  Answer a;
  a.json = Skeleton(r).dump(2, ' ', /*ensure_ascii=*/false) + "\n";
  a.text = Summary(r, *draft, !q.domain.empty());
  a.found = std::none_of(draft->related.begin(), draft->related.end(),
                         [](const mine::RelatedRecord& rel) { return rel.via == "pattern"; });
  return a;
}

}  // namespace kedb::app
