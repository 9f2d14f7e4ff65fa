#include "serve/outcome_request.h"

#include <algorithm>
#include <ctime>

#include <fmt/format.h>

namespace kedb::serve {

std::string OutcomeFromJson(const Json& body, app::OutcomeRequest* q) {
  if (!body.is_object()) return "expected a JSON object";
  auto string_field = [&](const char* name, std::string* out, bool required) -> std::string {
    if (!body.contains(name)) return required ? fmt::format("{}: is required", name) : "";
    if (!body[name].is_string()) return fmt::format("{}: expected a string", name);
    *out = body[name].get<std::string>();
    return "";
  };
  for (const auto& [key, value] : body.items()) {
    static constexpr std::string_view kKnown[] = {"error_id", "action", "index", "outcome", "env", "note", "event_id"};
    if (std::find(std::begin(kKnown), std::end(kKnown), key) == std::end(kKnown)) {
      return fmt::format("{}: not a field of an outcome report", key);
    }
  }
  if (auto e = string_field("error_id", &q->record_id, true); !e.empty()) return e;
  if (auto e = string_field("action", &q->kind, false); !e.empty()) return e;
  if (auto e = string_field("outcome", &q->outcome, true); !e.empty()) return e;
  if (auto e = string_field("note", &q->note, false); !e.empty()) return e;
  if (auto e = string_field("event_id", &q->event_id, false); !e.empty()) return e;
  if (!body.contains("index")) return "index: is required";
  if (!body["index"].is_number_integer()) return "index: expected an integer from 1";
  const int64_t index = body["index"].get<int64_t>();
  if (index < 1 || index > 1000) return fmt::format("index: {} is not from 1 to 1000", index);
  q->position = static_cast<int>(index);
  if (body.contains("env")) {
    const Json& env = body["env"];
    if (env.is_string()) {
      q->env = env.get<std::string>();
    } else if (env.is_object()) {
      q->env.clear();
      for (const auto& [k, v] : env.items()) {
        if (!v.is_string()) return fmt::format("env.{}: expected a string", k);
        if (k.find_first_of(",=") != std::string::npos || v.get<std::string>().find(',') != std::string::npos) {
          return fmt::format("env.{}: keys may not hold ',' or '=', values may not hold ','", k);
        }
        q->env += (q->env.empty() ? "" : ",") + k + "=" + v.get<std::string>();
      }
    } else {
      return "env: expected an object of strings or \"key=value,...\"";
    }
  }
  return "";
}

Json OutcomeSchemaProperties() {
  return {{"error_id", {{"type", "string"}, {"minLength", 1}, {"description", "The record's id"}}},
          {"action",
           {{"type", "string"},
            {"enum", {"workaround", "dead_end"}},
            {"description", "What was tried: one of the record's workarounds (default) or dead ends"}}},
          {"index",
           {{"type", "integer"},
            {"minimum", 1},
            {"maximum", 1000},
            {"description", "Which one, numbered from 1 in the record's order"}}},
          {"outcome",
           {{"type", "string"}, {"enum", {"worked", "failed", "partial"}}, {"description", "What happened"}}},
          {"env",
           {{"type", "object"},
            {"additionalProperties", {{"type", "string"}}},
            {"description", "Where it happened, e.g. {\"os\": \"linux\", \"torch\": \"2.2\"}"}}},
          {"note", {{"type", "string"}, {"maxLength", 4096}, {"description", "What happened, in a sentence"}}},
          {"event_id",
           {{"type", "string"},
            {"minLength", 1},
            {"maxLength", 128},
            {"description", "The report's own id; sending the same id again counts once"}}}};
}

bool TokenMatches(std::string_view authorization, std::string_view token) {
  if (token.empty()) return false;
  constexpr std::string_view kScheme = "Bearer ";
  if (authorization.size() < kScheme.size()) return false;
  for (std::size_t i = 0; i < kScheme.size(); ++i) {  // the scheme is case-insensitive
    const char c = authorization[i];
    if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c) != (i == 0 ? 'b' : kScheme[i])) return false;
  }
  const std::string_view given = authorization.substr(kScheme.size());
  // Every byte of the token is compared whatever the given value is.
  unsigned diff = given.size() == token.size() ? 0u : 1u;
  for (std::size_t i = 0; i < token.size(); ++i) {
    const char g = i < given.size() ? given[i] : '\0';
    diff |= static_cast<unsigned char>(g ^ token[i]);
  }
  return diff == 0;
}

int64_t NowSeconds() { return static_cast<int64_t>(std::time(nullptr)); }

}  // namespace kedb::serve
