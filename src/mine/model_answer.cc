#include "mine/model_answer.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "record/json_text.h"
#include "record/record_parse.h"

namespace kedb::mine {
namespace {

constexpr std::size_t kMaxThreadInPrompt = 200'000;  // bytes of thread text a prompt carries
constexpr double kDefaultRate = 0.5;                 // a rate the model leaves out

bool IsModelField(std::string_view key) {
  return std::find(std::begin(kModelFields), std::end(kModelFields), key) != std::end(kModelFields);
}

// A model seldom knows a rate; one it leaves out is the miner's prior.
void FillRates(Json* doc) {
  for (const char* list : {"workarounds", "dead_ends"}) {
    if (!doc->contains(list) || !(*doc)[list].is_array()) continue;
    const char* rate = std::string_view(list) == "workarounds" ? "success_rate" : "fail_rate";
    for (Json& item : (*doc)[list]) {
      if (item.is_object() && !item.contains(rate)) item[rate] = kDefaultRate;
    }
  }
}

}  // namespace

std::string ModelPrompt(const Thread& thread, const Draft& draft) {
  Json fields = Json::object();
  Json doc = Json::parse(draft.file, nullptr, false);
  for (std::string_view f : kModelFields) {
    if (doc.is_object() && doc.contains(std::string(f))) fields[std::string(f)] = doc[std::string(f)];
  }
  std::string text;
  for (const Post& p : thread.posts) {
    text += fmt::format("--- post {}{}{} ---\n", p.index, p.author.empty() ? "" : " by ", p.author);
    text += p.body;
    if (text.size() > kMaxThreadInPrompt) break;
  }
  return fmt::format(
      "You read an issue thread and improve a draft known-error record mined from it.\n"
      "Answer with one JSON object and nothing else. It may hold only these fields: {}.\n"
      "- root_cause: one or two sentences, in your own words, on why the error happens, as the thread "
      "establishes it.\n"
      "- workarounds: [{{\"action\", \"how\", \"success_rate\"}}], what fixed it first; dead_ends: "
      "[{{\"action\", \"why_fails\", \"fail_rate\"}}], what was tried and did not help.\n"
      "- signature_zh, root_cause_zh, workarounds_zh: the Chinese text, class names and error text kept as "
      "written.\n"
      "- category: one of resource_error, import_error, install_error, distributed_error, numerical_error, "
      "compile_error, build_error, type_error, value_error, config_error, hardware_error, runtime_error.\n"
      "Leave out a field you cannot support from the thread.\n\n"
      "Title: {}\nDraft fields:\n{}\n\nThread:\n{}",
      fmt::join(std::begin(kModelFields), std::end(kModelFields), ", "), thread.title, fields.dump(2),
      text.substr(0, kMaxThreadInPrompt));
}

Status MergeModelAnswer(std::string_view answer, std::string_view command, Draft* draft) {
  Json reply;
  if (Status s = ParseJson(answer, JsonLimits{}, &reply); !s.ok()) {
    return Status::InvalidArgument(fmt::format("the answer is not JSON: {}", s.message()));
  }
  if (!reply.is_object()) return Status::InvalidArgument("the answer is not a JSON object");
  for (const auto& [key, value] : reply.items()) {
    if (!IsModelField(key)) return Status::InvalidArgument("not a field the model may fill").In(key);
  }
  Json doc;
  if (Status s = ParseJson(draft->file, JsonLimits{}, &doc); !s.ok()) return s;  // written by the miner: parses
  FillRates(&reply);
  std::vector<std::string> filled;
  for (const auto& [key, value] : reply.items()) {
    doc[key] = value;
    filled.push_back(key);
  }
  Record merged;
  std::vector<FieldIssue> issues;
  const bool ok = RecordFromJson(doc, &merged, &issues);
  for (const FieldIssue& issue : issues) {
    if (issue.severity == Severity::kError || !ok) {
      return Status::InvalidArgument(issue.message).In(FormatPath(issue.path));
    }
  }
  Json& x = doc["x_mined"];
  x["model"] = Json{{"command", std::string(command)}, {"fields", filled}};
  for (const std::string& f : filled) {
    // The model's list replaces the miner's, and with it their sources.
    for (auto it = x["sources"].begin(); it != x["sources"].end();) {
      it = it.key().starts_with(f + "[") ? x["sources"].erase(it) : std::next(it);
    }
    x["sources"][f] = Json{{"from", "model"}};
  }
  draft->record = std::move(merged);
  draft->file = doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  return Status::Ok();
}

}  // namespace kedb::mine
