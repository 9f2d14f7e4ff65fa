#include "serve/mcp_tools.h"

#include <fmt/format.h>

#include "app/mine.h"
#include "app/outcomes.h"
#include "app/queries.h"
#include "serve/assets.h"
#include "serve/outcome_request.h"
#include "util/json_writer.h"
#include "util/utf8.h"

namespace kedb::serve {
// The questions themselves are the query layer's; this file maps wire
// arguments onto them.
using namespace app;  // NOLINT(google-build-using-namespace)

namespace {

Json LangSchema() {
  return {{"type", "string"}, {"enum", {"en", "zh"}}, {"description", "Language of the answer: en (default) or zh"}};
}
Json EnvSchema() {
  return {{"type", "string"},
          {"description", "Your versions and OS, e.g. \"torch=2.2,cudnn=8.9,os=linux\"; ranks records that fit first"}};
}
Json IdSchema(const char* what) {
  return {{"type", "string"}, {"minLength", 1}, {"description", what}};
}

Json Tool(const char* name, const char* title, const char* description, Json properties,
          std::vector<std::string> required) {
  Json schema{{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) schema["required"] = required;
  return Json{{"name", name},
              {"title", title},
              {"description", description},
              {"inputSchema", std::move(schema)},
              {"annotations",
               {{"title", title},
                {"readOnlyHint", true},
                {"destructiveHint", false},
                {"idempotentHint", true},
                {"openWorldHint", false}}}};
}

// A tool's structuredContent is the answer the HTTP API gives to the same
// question, so its outputSchema is that answer's schema in the OpenAPI
// document the server publishes: one description of each answer, which
// the HTTP and MCP conformance tests both hold the server to.
constexpr std::pair<std::string_view, std::string_view> kAnswerSchemas[] = {
    {"lookup_error", "MatchResult"},   {"scan_log", "ScanResult"},      {"batch_lookup", "MatchResults"},
    {"get_error_detail", "Record"},    {"get_error_chain", "Chain"},    {"search_errors", "SearchResult"},
    {"list_error_domains", "Domains"}, {"list_errors_by_domain", "DomainErrors"},
    {"get_domain_stats", "Stats"},     {"mine_thread", "DraftRecord"},  {"report_outcome", "OutcomeReport"}};

const Json& OpenApiSchemas() {
  static const Json schemas = [] {
    const Asset* doc = FindAsset("/v1/openapi.json");
    return doc ? Json::parse(doc->body).at("components").at("schemas") : Json::object();
  }();
  return schemas;
}

// `schema` with every "#/components/schemas/X" reference replaced by X
// itself: an outputSchema has to stand alone, outside the document.
Json Inlined(const Json& schema) {
  if (schema.is_array()) {
    Json out = Json::array();
    for (const Json& item : schema) out.push_back(Inlined(item));
    return out;
  }
  if (!schema.is_object()) return schema;
  if (auto ref = schema.find("$ref"); ref != schema.end() && ref->is_string()) {
    const std::string name = ref->get<std::string>().substr(ref->get<std::string>().rfind('/') + 1);
    return Inlined(OpenApiSchemas().at(name));  // the document's schemas do not refer to themselves
  }
  Json out = Json::object();
  for (const auto& [key, value] : schema.items()) out[key] = Inlined(value);
  return out;
}

Json OutputSchema(std::string_view tool) {
  for (const auto& [name, component] : kAnswerSchemas) {
    if (name == tool) return Inlined(OpenApiSchemas().at(std::string(component)));
  }
  return Json();
}

Json BuildToolList() {
  Json tools = Json::array();
  tools.push_back(Tool(
      "lookup_error", "Look up an error",
      "Identify the known errors in an error message (one line or a traceback): root cause, workarounds with "
      "success rates, dead ends that look like fixes but fail, versions, and what it usually leads to. Use it "
      "before trying to fix an error.",
      {{"error_message", {{"type", "string"}, {"minLength", 1}, {"description", "The full error message"}}},
       {"top", {{"type", "integer"}, {"minimum", 1}, {"maximum", 20}, {"description", fmt::format("Matches to return (default {})", kMatchTop)}}},
       {"env", EnvSchema()},
       {"lang", LangSchema()}},
      {"error_message"}));
  tools.push_back(Tool(
      "scan_log", "Scan a log",
      "Find every known error in a whole log (CI output, a training run): error blocks root cause first, each "
      "with its decisive line and the known errors it shows.",
      {{"log_text", {{"type", "string"}, {"minLength", 1}, {"description", "The log text"}}},
       {"top", {{"type", "integer"}, {"minimum", 1}, {"maximum", 20}, {"description", fmt::format("Matches per block (default {})", kScanTop)}}},
       {"env", EnvSchema()},
       {"lang", LangSchema()},
       {"all_lines",
        {{"type", "boolean"},
         {"description",
          "Try broad patterns on every line, not only on lines that read as a problem (slower; default false)"}}}},
      {"log_text"}));
  tools.push_back(Tool(
      "batch_lookup", "Look up several errors",
      "Look up several error messages at once; returns the best known error for each, in order.",
      {{"error_messages",
        {{"type", "array"},
         {"items", {{"type", "string"}}},
         {"minItems", 1},
         {"maxItems", 100},
         {"description", "The error messages"}}},
       {"env", EnvSchema()},
       {"lang", LangSchema()}},
      {"error_messages"}));
  tools.push_back(Tool("get_error_detail", "Get a known error",
                       "Everything known about one error by id (e.g. cuda/cudnn-bn-epsilon-nan): root cause, every "
                       "workaround and dead end, versions, OS notes, related errors and sources.",
                       {{"error_id", IdSchema("The record id, e.g. cuda/cudnn-bn-epsilon-nan")}, {"lang", LangSchema()}},
                       {"error_id"}));
  tools.push_back(Tool(
      "get_error_chain", "Get an error's chain",
      "The transition graph around one error: what it leads to, what usually comes before it, and what it is "
      "confused with. Use it to find the root of cascading failures and to predict what comes next.",
      {{"error_id", IdSchema("The record id")},
       {"depth", {{"type", "integer"}, {"minimum", 1}, {"maximum", kMaxChainDepth}, {"description", fmt::format("Edges to follow (default {})", kChainDepth)}}},
       {"lang", LangSchema()}},
      {"error_id"}));
  tools.push_back(Tool(
      "search_errors", "Search errors",
      "Search known errors by words, in English or Chinese (BM25 over signatures, root causes, fixes and tags). "
      "Use it for a vague description such as 'nccl timeout' rather than an exact message.",
      {{"query", {{"type", "string"}, {"minLength", 1}, {"description", "Words to search for"}}},
       {"domain", {{"type", "string"}, {"description", "Only this domain, e.g. cuda"}}},
       {"limit", {{"type", "integer"}, {"minimum", 1}, {"maximum", 100}, {"description", fmt::format("Hits to return (default {})", kSearchTop)}}},
       {"lang", LangSchema()}},
      {"query"}));
  tools.push_back(Tool("list_error_domains", "List domains", "Every domain of the knowledge base with its record count.",
                       Json::object(), {}));
  tools.push_back(Tool(
      "list_errors_by_domain", "List a domain's errors", "Every known error of one domain with its fix rate.",
      {{"domain", IdSchema("The domain, e.g. cuda")},
       {"sort_by",
        {{"type", "string"},
         {"enum", {"fix_rate", "name", "confidence"}},
         {"description", "Order: fix_rate (default), name or confidence"}}},
       {"lang", LangSchema()}},
      {"domain"}));
  tools.push_back(Tool("get_domain_stats", "Domain statistics",
                       "Counts for one domain: records, mean fix rate and confidence, resolvability, categories and "
                       "verification tiers.",
                       {{"domain", IdSchema("The domain, e.g. cuda")}}, {"domain"}));
  Json mine = Tool("mine_thread", "Draft a record from an issue thread",
                   "Turn an issue thread (text or Markdown as copied, or GitHub's issue JSON) into a draft known-error "
                   "record: signature and a checked regex, root cause, workarounds and dead ends ranked by how the "
                   "thread received them, versions and OS, related records, and where each field came from.",
                   {{"thread", {{"type", "string"}, {"minLength", 1},
                                {"description", "The thread: text, Markdown, or GitHub's issue JSON (issue and comments)"}}},
                    {"comments", {{"type", "string"},
                                  {"description", "GitHub's comments array as JSON, when `thread` is the issue object alone"}}},
                    {"lang", LangSchema()}},
                   {"thread"});
  tools.push_back(std::move(mine));
  Json report = Tool("report_outcome", "Report whether a fix worked",
                     "Tell kedb whether one of a record's workarounds (or dead ends) worked when you tried it, so its "
                     "success rate follows what happens. Give the record's id, which action (numbered from 1 as "
                     "get_error_detail lists them), the outcome and, when known, the environment. Sending the same "
                     "event_id again counts once.",
                     OutcomeSchemaProperties(), {"error_id", "index", "outcome"});
  report["annotations"]["readOnlyHint"] = false;
  report["annotations"]["idempotentHint"] = false;  // without an event_id, each call is a new report
  tools.push_back(std::move(report));
  for (Json& tool : tools) tool["outputSchema"] = OutputSchema(tool["name"].get<std::string>());
  return tools;
}

Lang LangOf(const Json& args) { return args.value("lang", "en") == "zh" ? Lang::kZh : Lang::kEn; }

// What an agent can do when no record knows a message: search with its
// words, and start a record when the error is new.
std::string NextStepsOnAMiss(const std::string& message) {
  std::string line = message.substr(0, message.find('\n'));
  line.resize(util::Utf8Cut(line, 120));
  std::string quoted;  // safe inside '...' in a shell
  for (char c : line) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return fmt::format(
      "Next: call search_errors with the error's distinctive words (the exception name, error code or "
      "library), for a record whose pattern misses this wording; pass the whole log to scan_log if this is "
      "one line of a longer failure. If no record fits, the error is new: `kedb new '{}'` drafts one with a "
      "checked pattern, and `kedb cluster LOGS` groups unknown errors across logs.\n",
      quoted);
}

ToolResult FromAnswer(const Answer& a) {
  ToolResult r;
  if (a.kind != Answer::Kind::kOk) {
    r.is_error = true;
    r.text = a.message;
    return r;
  }
  r.text = a.text;
  const std::size_t start = a.json.find_first_not_of(" \n");
  if (start != std::string::npos && a.json[start] == '{') {
    r.structured = a.json;
  } else {  // structuredContent must be an object
    util::JsonWriter w;
    w.BeginObject().Key("result").Raw(a.json).EndObject();
    r.structured = w.Take();
  }
  return r;
}

}  // namespace

const Json& ToolList() {
  static const Json tools = BuildToolList();
  return tools;
}

const Json* ToolSchema(const std::string& name) {
  for (const Json& t : ToolList()) {
    if (t["name"] == name) return &t["inputSchema"];
  }
  return nullptr;
}

bool IsWriteTool(const std::string& name) { return name == "report_outcome"; }

ToolResult CallTool(const Engine& engine, const ToolContext& context, const std::string& name, const Json& args) {
  store::OutcomeStore* store = context.store;
  Lang lang = LangOf(args);
  if (name == "lookup_error" || name == "scan_log") {
    MatchQuery q;
    const bool scan = name == "scan_log";
    q.text = args[scan ? "log_text" : "error_message"].get<std::string>();
    q.top = args.value("top", scan ? kScanTop : kMatchTop);
    q.env = args.value("env", "");
    q.lang = lang;
    q.store = store;
    q.record_hits = context.record_hits;
    if (scan) q.all_lines = args.value("all_lines", false);
    const Answer answer = scan ? ScanLog(engine, q) : MatchText(engine, q);
    ToolResult result = FromAnswer(answer);
    if (!scan && answer.kind == Answer::Kind::kOk && !answer.found) result.text += NextStepsOnAMiss(q.text);
    return result;
  }
  if (name == "batch_lookup") {
    MatchQuery q;
    q.top = 1;
    q.env = args.value("env", "");
    q.lang = lang;
    q.store = store;
    q.record_hits = context.record_hits;
    return FromAnswer(MatchEach(engine, args["error_messages"].get<std::vector<std::string>>(), q));
  }
  if (name == "get_error_detail") {
    const std::string id = args["error_id"].get<std::string>();
    return FromAnswer(store ? RecordWithEvidence(engine, *store, id, lang) : RecordById(engine, id, lang));
  }
  if (name == "report_outcome") {
    if (!store) return ToolResult{"this server keeps no outcome reports", "{}", true};
    OutcomeRequest q;
    if (std::string e = OutcomeFromJson(args, &q); !e.empty()) return ToolResult{e, "{}", true};
    q.now = NowSeconds();
    return FromAnswer(ReportOutcome(engine, *store, q));
  }
  if (name == "get_error_chain") {
    return FromAnswer(ChainById(engine, args["error_id"].get<std::string>(), args.value("depth", kChainDepth), lang));
  }
  if (name == "search_errors") {
    SearchQuery q;
    q.query = args["query"].get<std::string>();
    q.limit = args.value("limit", kSearchTop);
    q.domain = args.value("domain", "");
    q.lang = lang;
    return FromAnswer(SearchRecords(engine, q));
  }
  if (name == "list_error_domains") return FromAnswer(ListDomains(engine));
  if (name == "list_errors_by_domain") {
    return FromAnswer(
        ListDomainRecords(engine, args["domain"].get<std::string>(), args.value("sort_by", "fix_rate"), lang));
  }
  if (name == "get_domain_stats") return FromAnswer(Stats(engine, args["domain"].get<std::string>()));
  if (name == "mine_thread") {
    MineQuery q;
    q.lang = lang;
    q.documents.push_back(args["thread"].get<std::string>());
    if (args.contains("comments")) q.documents.push_back(args["comments"].get<std::string>());
    return FromAnswer(MineThread(engine, q));
  }
  return ToolResult{fmt::format("unknown tool \"{}\"", name), "{}", true};
}

}  // namespace kedb::serve
