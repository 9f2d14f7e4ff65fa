#include "serve/api.h"

#include <charconv>
#include <optional>

#include <fmt/format.h>

#include "serve/json_schema.h"
#include "app/mine.h"
#include "app/outcomes.h"
#include "app/record_writes.h"
#include "app/queries.h"
#include "serve/outcome_request.h"

namespace kedb::serve {
// The questions themselves are the query layer's; this file maps wire
// arguments onto them.
using namespace app;  // NOLINT(google-build-using-namespace)

namespace {

// The JSON bodies POST /v1/match and /v1/scan accept; published the same in
// openapi.json.
Json BodySchema(bool scan) {
  const char* text_field = scan ? "log" : "text";
  Json schema{{"type", "object"},
              {"required", {text_field}},
              {"additionalProperties", false},
              {"properties",
               {{text_field, {{"type", "string"}}},
                {"top", {{"type", "integer"}, {"minimum", 1}, {"maximum", kMaxTop}}},
                {"env", {{"type", "string"}}},
                {"lang", {{"type", "string"}, {"enum", {"en", "zh"}}}}}}};
  if (scan) schema["properties"]["all_lines"] = {{"type", "boolean"}};
  return schema;
}

ApiReply JsonReply(int status, std::string body) {
  ApiReply r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

ApiReply FromAnswer(const Answer& a) {
  switch (a.kind) {
    case Answer::Kind::kOk: return JsonReply(200, a.json);
    case Answer::Kind::kNotFound: return ErrorReply(404, "not_found", a.message);
    case Answer::Kind::kInvalid: return ErrorReply(400, "bad_request", a.message);
    case Answer::Kind::kUnavailable: return ErrorReply(503, "unavailable", a.message);
    case Answer::Kind::kConflict: return ErrorReply(409, "conflict", a.message);
  }
  return ErrorReply(500, "internal", "unreachable");
}

// Query parameters, checked: a bad value is an error, not a silent default.
struct Params {
  explicit Params(const ApiRequest& r) : request(r) {}
  const ApiRequest& request;
  std::string error;

  Lang GetLang() {
    const std::string* v = request.Param("lang");
    if (!v || *v == "en") return Lang::kEn;
    if (*v == "zh") return Lang::kZh;
    Fail(fmt::format("lang: \"{}\" is not en or zh", *v));
    return Lang::kEn;
  }
  std::size_t GetInt(std::string_view name, std::size_t fallback, std::size_t lo, std::size_t hi) {
    const std::string* v = request.Param(name);
    if (!v) return fallback;
    std::size_t n = 0;
    auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
    if (ec != std::errc() || end != v->data() + v->size() || n < lo || n > hi) {
      Fail(fmt::format("{}: \"{}\" is not an integer from {} to {}", name, *v, lo, hi));
      return fallback;
    }
    return n;
  }
  std::string GetString(std::string_view name) {
    const std::string* v = request.Param(name);
    return v ? *v : std::string();
  }
  bool GetBool(std::string_view name) {
    const std::string* v = request.Param(name);
    if (!v || *v == "false" || *v == "0") return false;
    if (*v == "true" || *v == "1" || v->empty()) return true;
    Fail(fmt::format("{}: \"{}\" is not true or false", name, *v));
    return false;
  }
  void Fail(std::string message) {
    if (error.empty()) error = std::move(message);
  }
};

// curl -d sends JSON as application/x-www-form-urlencoded unless told
// otherwise; that is too common a mistake to refuse, so it reads as JSON.
bool IsJson(const std::string& content_type) {
  return content_type.empty() || content_type.rfind("application/json", 0) == 0 ||
         content_type.rfind("application/x-www-form-urlencoded", 0) == 0;
}
bool IsText(const std::string& content_type) { return content_type.rfind("text/plain", 0) == 0; }

// The request body as JSON, or the 400 that says where it is malformed.
// Strings may be as long as the body: the body limit already bounds them.
std::optional<ApiReply> ParseBody(const ApiRequest& req, Json* body) {
  JsonLimits limits;
  limits.max_string_bytes = req.body.size() + 1;
  Status err = ParseJson(req.body, limits, body);
  if (err.ok()) return std::nullopt;
  LineColumn lc = OffsetToLineColumn(req.body, err.offset());
  return ErrorReply(400, "bad_request",
                    fmt::format("request body: line {}, column {}: {}", lc.line, lc.column, err.message()));
}

// POST /v1/match and /v1/scan: a JSON body, or the text itself as text/plain
// with options in the query string (handy for curl --data-binary @log).
ApiReply MatchOrScan(const Engine& engine, const EngineSlot& slot, const ApiRequest& req, bool scan) {
  const char* field = scan ? "log" : "text";
  MatchQuery q;
  q.want_text = false;  // the API answers in JSON only
  q.store = slot.store();
  q.record_hits = slot.record_hits();
  if (IsText(req.content_type)) {
    Params p(req);
    q.text = req.body;
    q.top = p.GetInt("top", scan ? kScanTop : kMatchTop, 1, kMaxTop);
    q.env = p.GetString("env");
    q.lang = p.GetLang();
    if (scan) q.all_lines = p.GetBool("all_lines");
    if (!p.error.empty()) return ErrorReply(400, "bad_request", p.error);
  } else if (IsJson(req.content_type)) {
    Json body;
    if (auto bad = ParseBody(req, &body)) return *bad;
    static const Json kMatchSchema = BodySchema(false), kScanSchema = BodySchema(true);  // built once
    if (Status err = CheckAgainstSchema(body, scan ? kScanSchema : kMatchSchema); !err.ok()) {
      return ErrorReply(400, "bad_request", "request body: " + err.message());
    }
    q.text = body[field].get<std::string>();
    q.top = body.value("top", scan ? kScanTop : kMatchTop);
    q.env = body.value("env", "");
    q.lang = body.value("lang", "en") == "zh" ? Lang::kZh : Lang::kEn;
    q.all_lines = body.value("all_lines", false);
    if (const std::string* lang = req.Param("lang"); lang && *lang == "zh" && !body.contains("lang")) {
      q.lang = Lang::kZh;
    }
  } else {
    return ErrorReply(415, "unsupported_media_type",
                      fmt::format("Content-Type \"{}\": send application/json or text/plain", req.content_type));
  }
  return FromAnswer(scan ? ScanLog(engine, q) : MatchText(engine, q));
}

// POST /v1/mine: the thread as text (text/plain, text/markdown), or JSON:
// {"thread": "<text>"} or GitHub's issue export as it is.
ApiReply Mine(const Engine& engine, const ApiRequest& req) {
  Params p(req);
  MineQuery q;
  q.lang = p.GetLang();
  if (!p.error.empty()) return ErrorReply(400, "bad_request", p.error);
  if (IsText(req.content_type) || req.content_type.rfind("text/markdown", 0) == 0) {
    q.documents = {req.body};
  } else if (IsJson(req.content_type)) {
    Json body;
    if (auto bad = ParseBody(req, &body)) return *bad;
    if (body.is_object() && body.contains("thread")) {
      if (!body["thread"].is_string()) return ErrorReply(400, "bad_request", "request body: thread: expected a string");
      q.documents = {body["thread"].get<std::string>()};
    } else {
      q.documents = {req.body};
    }
  } else {
    return ErrorReply(415, "unsupported_media_type",
                      fmt::format("Content-Type \"{}\": send application/json, text/plain or text/markdown",
                                  req.content_type));
  }
  return FromAnswer(MineThread(engine, q));
}

ApiReply Healthz(const EngineSlot& slot) {
  EngineSlot::Info info = slot.info();
  Json j{{"status", "ok"},
         {"records", info.records},
         {"generation", info.generation},
         {"loaded_at", info.loaded_at},
         {"failed_reloads", info.failed_reloads},
         {"layered_changes", info.layered_changes},
         {"full_compile_running", info.full_compile_running},
         {"last_reload_error", info.last_error}};
  if (slot.from_store()) j["store_revision"] = info.revision;
  // What the web page offers: hit statistics with a store, and reports when
  // writes are on too.
  j["outcomes_store"] = slot.store() != nullptr;
  j["takes_reports"] = slot.store() != nullptr && !slot.write_token().empty();
  return JsonReply(200, j.dump() + "\n");
}


// Who may write is decided before a body is read: 403 when the server
// takes no writes of this kind (`why` says how to turn them on), 401 with
// a Bearer challenge when the request lacks the token.
std::optional<ApiReply> RefuseWrite(bool enabled, const ApiRequest& req, std::string_view why) {
  if (!enabled) return ErrorReply(403, "writes_disabled", why);
  if (!req.may_write) {
    ApiReply r = ErrorReply(401, "unauthorized", "writes need the server's token: Authorization: Bearer TOKEN");
    r.bearer_challenge = true;
    return r;
  }
  return std::nullopt;
}

// POST /v1/outcomes.
ApiReply PostOutcome(const EngineSlot& slot, const Engine& engine, const ApiRequest& req) {
  if (auto refused = RefuseWrite(slot.store() != nullptr && !slot.write_token().empty(), req,
                                 "this server takes no reports: start it with KEDB_TOKEN or --token-file set")) {
    return *refused;
  }
  Json body;
  if (auto bad = ParseBody(req, &body)) return *bad;
  app::OutcomeRequest q;
  if (std::string e = OutcomeFromJson(body, &q); !e.empty()) return ErrorReply(400, "bad_request", "request body: " + e);
  q.now = NowSeconds();
  return FromAnswer(app::ReportOutcome(engine, *slot.store(), q));
}

// POST /v1/records (create) and PUT /v1/records/{id} (create or replace):
// the body is the record document itself.
ApiReply WriteRecordRoute(const EngineSlot& slot, const Engine& engine, const ApiRequest& req, std::string path_id) {
  if (auto refused = RefuseWrite(slot.records() != nullptr && !slot.write_token().empty(), req,
                                 "this server does not write records: start it with --kb naming a store "
                                 "(postgresql://... or sqlite:PATH) and KEDB_TOKEN or --token-file set")) {
    return *refused;
  }
  app::RecordWrite q;
  q.json = req.body;
  q.path_id = std::move(path_id);
  q.create_only = q.path_id.empty();
  q.now = NowSeconds();
  bool created = false;
  ApiReply r = FromAnswer(app::WriteRecord(engine, *slot.records(), q, &created));
  if (created) r.status = 201;
  return r;
}

ApiReply WrongMethod(const ApiRequest& req, const char* allow) {
  ApiReply r = ErrorReply(405, "method_not_allowed", fmt::format("{} {}: use {}", req.method, req.path, allow));
  r.allow = allow;
  return r;
}

}  // namespace

const std::string* ApiRequest::Param(std::string_view name) const {
  for (const auto& [k, v] : query) {
    if (k == name) return &v;
  }
  return nullptr;
}

ApiReply ErrorReply(int status, std::string_view code, std::string_view message) {
  Json j{{"error", {{"code", code}, {"message", message}}}};
  return JsonReply(status, j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n");
}

std::vector<ApiRoute> ApiRoutes() {
  return {{"post", "/v1/match"},        {"post", "/v1/scan"},   {"get", "/v1/errors/{id}"},
          {"get", "/v1/errors/{id}/chain"}, {"get", "/v1/search"}, {"get", "/v1/domains"},
          {"get", "/v1/domains/{domain}/errors"}, {"get", "/v1/stats"}, {"post", "/v1/mine"},
          {"post", "/v1/outcomes"},         {"get", "/v1/stats/hits"}, {"post", "/v1/records"},
          {"put", "/v1/records/{id}"},      {"get", "/healthz"}};
}

ApiReply HandleApi(const EngineSlot& slot, const ApiRequest& req) {
  const std::string& path = req.path;
  if (path == "/healthz") return req.method == "GET" ? Healthz(slot) : WrongMethod(req, "GET");
  std::shared_ptr<const Engine> engine = slot.Get();
  if (!engine) return ErrorReply(503, "not_ready", "the knowledge base is still loading");
  const bool get = req.method == "GET" || req.method == "HEAD";
  Params p(req);

  if (path == "/v1/match" || path == "/v1/scan") {
    if (req.method != "POST") return WrongMethod(req, "POST");
    return MatchOrScan(*engine, slot, req, path == "/v1/scan");
  }
  if (path == "/v1/mine") return req.method == "POST" ? Mine(*engine, req) : WrongMethod(req, "POST");
  if (path == "/v1/outcomes") return req.method == "POST" ? PostOutcome(slot, *engine, req) : WrongMethod(req, "POST");
  if (path == "/v1/records") return req.method == "POST" ? WriteRecordRoute(slot, *engine, req, "") : WrongMethod(req, "POST");
  if (path.starts_with("/v1/records/") && path.size() > 12) {
    return req.method == "PUT" ? WriteRecordRoute(slot, *engine, req, path.substr(12)) : WrongMethod(req, "PUT");
  }
  if (path == "/v1/search") {
    if (!get) return WrongMethod(req, "GET");
    SearchQuery q;
    q.query = p.GetString("q");
    q.limit = p.GetInt("limit", kSearchTop, 1, kMaxTop);
    q.domain = p.GetString("domain");
    q.lang = p.GetLang();
    if (q.query.find_first_not_of(" \t\r\n") == std::string::npos) p.Fail("q: give the words to search for");
    if (!p.error.empty()) return ErrorReply(400, "bad_request", p.error);
    return FromAnswer(SearchRecords(*engine, q));
  }
  if (path == "/v1/domains") return get ? FromAnswer(ListDomains(*engine)) : WrongMethod(req, "GET");
  if (path == "/v1/stats/hits") {
    if (!get) return WrongMethod(req, "GET");
    if (slot.store() == nullptr) return ErrorReply(404, "not_found", "this server keeps no statistics (no store)");
    return FromAnswer(app::HitStatistics(*engine, *slot.store(), NowSeconds()));
  }
  if (path == "/v1/stats") {
    if (!get) return WrongMethod(req, "GET");
    return FromAnswer(Stats(*engine, p.GetString("domain")));
  }
  if (path.starts_with("/v1/domains/") && path.ends_with("/errors")) {
    if (!get) return WrongMethod(req, "GET");
    std::string domain = path.substr(12, path.size() - 12 - 7);
    Lang lang = p.GetLang();
    if (!p.error.empty()) return ErrorReply(400, "bad_request", p.error);
    return FromAnswer(ListDomainRecords(*engine, domain, p.GetString("sort_by"), lang));
  }
  if (path.starts_with("/v1/errors/")) {
    if (!get) return WrongMethod(req, "GET");
    std::string id = path.substr(11);
    Lang lang = p.GetLang();
    // Ids hold slashes, so ".../chain" is a chain only when the id before it
    // names a record and the whole path does not.
    if (id.ends_with("/chain") && !engine->kb().Find(id)) {
      int depth = static_cast<int>(p.GetInt("depth", kChainDepth, 1, kMaxChainDepth));
      if (!p.error.empty()) return ErrorReply(400, "bad_request", p.error);
      return FromAnswer(ChainById(*engine, id.substr(0, id.size() - 6), depth, lang));
    }
    if (!p.error.empty()) return ErrorReply(400, "bad_request", p.error);
    if (slot.store() != nullptr) return FromAnswer(app::RecordWithEvidence(*engine, *slot.store(), id, lang));
    return FromAnswer(RecordById(*engine, id, lang));
  }
  return ErrorReply(404, "not_found", fmt::format("no route for {} {}", req.method, path));
}

}  // namespace kedb::serve
