#include "record/record_parse.h"

#include <cmath>
#include <cctype>
#include <functional>
#include <initializer_list>
#include <string_view>

#include <fmt/format.h>

#include "util/strings.h"

namespace kedb {
namespace {

const char* TypeName(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::string: return "a string";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return "an integer";
    case Json::value_t::number_float: return "a number";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    default: return "binary data";
  }
}

// Walks one document, with the path of the value at hand, collecting issues.
class Reader {
 public:
  explicit Reader(std::vector<FieldIssue>* issues) : issues_(issues) {}

  bool failed() const { return errors_ > 0; }

  void Error(const JsonPath& path, std::string message) {
    ++errors_;
    issues_->push_back({Severity::kError, "schema", path, std::move(message)});
  }
  void UnknownField(const JsonPath& path) {
    issues_->push_back({Severity::kWarning, "unknown-field", path,
                        "unknown field (prefix extensions with x_ to keep them without a warning)"});
  }

  // A string; null reads as "" when `nullable`.
  void String(const Json& v, const JsonPath& path, std::string* out, bool nullable = true) {
    if (v.is_string()) {
      *out = v.get<std::string>();
    } else if (!(nullable && v.is_null())) {
      Error(path, fmt::format("expected {}, found {}", nullable ? "a string or null" : "a string", TypeName(v)));
    }
  }
  void RequiredString(const Json& v, const JsonPath& path, std::string* out) {
    String(v, path, out, /*nullable=*/false);
    if (v.is_string() && out->empty()) Error(path, "must not be empty");
  }
  void StringList(const Json& v, const JsonPath& path, std::vector<std::string>* out) {
    if (v.is_null()) return;
    if (!v.is_array()) return Error(path, fmt::format("expected an array of strings, found {}", TypeName(v)));
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i].is_string()) {
        out->push_back(v[i].get<std::string>());
      } else {
        Error(Child(path, i), fmt::format("expected a string, found {}", TypeName(v[i])));
      }
    }
  }
  // A rate or probability in [0,1].
  std::optional<double> Rate(const Json& v, const JsonPath& path, bool nullable) {
    if (v.is_null() && nullable) return std::nullopt;
    if (!v.is_number()) {
      Error(path, fmt::format("expected a number in [0,1]{}, found {}", nullable ? " or null" : "", TypeName(v)));
      return std::nullopt;
    }
    double d = v.get<double>();
    if (!(d >= 0.0 && d <= 1.0)) {
      Error(path, fmt::format("{} is not in [0,1]", v.dump()));
      return std::nullopt;
    }
    return d;
  }
  std::optional<Date> DateField(const Json& v, const JsonPath& path) {
    if (v.is_null()) return std::nullopt;
    if (!v.is_string()) {
      Error(path, fmt::format("expected a date \"YYYY-MM-DD\" or null, found {}", TypeName(v)));
      return std::nullopt;
    }
    auto d = Date::Parse(v.get<std::string>());
    if (!d) Error(path, fmt::format("{} is not a date of the form YYYY-MM-DD", v.dump()));
    return d;
  }

  // Visits the members of an object, dispatching known keys to handlers and
  // reporting unknown ones.
  using Handler = std::function<void(const Json&, const JsonPath&)>;
  void Object(const Json& v, const JsonPath& path,
              std::initializer_list<std::pair<std::string_view, Handler>> handlers,
              std::initializer_list<std::string_view> required = {}) {
    if (!v.is_object()) return Error(path, fmt::format("expected an object, found {}", TypeName(v)));
    for (std::string_view name : required) {
      if (!v.contains(std::string(name))) Error(Child(path, std::string(name)), "required field is missing");
    }
    for (const auto& [key, value] : v.items()) {
      JsonPath child = Child(path, key);
      bool known = false;
      for (const auto& [name, handler] : handlers) {
        if (name == key) {
          handler(value, child);
          known = true;
          break;
        }
      }
      if (!known && key.rfind("x_", 0) != 0) UnknownField(child);
    }
  }
  // Visits each element of an array.
  void Array(const Json& v, const JsonPath& path, const std::function<void(const Json&, const JsonPath&)>& each) {
    if (v.is_null()) return;
    if (!v.is_array()) return Error(path, fmt::format("expected an array, found {}", TypeName(v)));
    for (std::size_t i = 0; i < v.size(); ++i) each(v[i], Child(path, i));
  }

  static JsonPath Child(const JsonPath& path, PathSegment seg) {
    JsonPath p = path;
    p.push_back(std::move(seg));
    return p;
  }

 private:
  std::vector<FieldIssue>* issues_;
  int errors_ = 0;
};

bool ValidId(std::string_view id) {
  if (id.empty() || id.size() > 200) return false;
  std::size_t seg_start = 0;
  for (std::size_t i = 0; i <= id.size(); ++i) {
    if (i == id.size() || id[i] == '/') {
      std::string_view seg = id.substr(seg_start, i - seg_start);
      if (seg.empty() || seg == "." || seg == ".." || seg.front() == '.') return false;
      seg_start = i + 1;
      continue;
    }
    unsigned char c = static_cast<unsigned char>(id[i]);
    bool ok = std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '+';
    if (!ok) return false;
  }
  return true;
}

void ReadUrlList(Reader& r, const Json& v, const JsonPath& path, std::vector<std::string>* out) {
  std::size_t first = out->size();
  r.StringList(v, path, out);
  for (std::size_t i = first; i < out->size(); ++i) {
    if (!util::IsHttpUrl((*out)[i])) r.Error(Reader::Child(path, i - first), fmt::format("\"{}\" is not an http(s) URL", (*out)[i]));
  }
}

// occurrences / counterexamples: [{text, source, belongs_to?, note?}].
void ReadOccurrences(Reader& r, const Json& v, const JsonPath& path, bool counter, std::vector<Occurrence>* out) {
  r.Array(v, path, [&](const Json& e, const JsonPath& p) {
    Occurrence o;
    auto text = [&](std::string* field) {
      return [&r, field](const Json& x, const JsonPath& q) { r.RequiredString(x, q, field); };
    };
    auto source = [&](const Json& x, const JsonPath& q) {
      r.RequiredString(x, q, &o.source);
      if (!o.source.empty() && !util::IsHttpUrl(o.source)) r.Error(q, fmt::format("{} is not an http(s) URL", x.dump()));
    };
    auto optional = [&](std::string* field) {
      return [&r, field](const Json& x, const JsonPath& q) { r.String(x, q, field); };
    };
    if (counter) {
      r.Object(e, p, {{"text", text(&o.text)}, {"source", source}, {"belongs_to", optional(&o.belongs_to)},
                      {"note", optional(&o.note)}},
               {"text", "source"});
    } else {
      r.Object(e, p, {{"text", text(&o.text)}, {"source", source}, {"note", optional(&o.note)}}, {"text", "source"});
    }
    out->push_back(std::move(o));
  });
}

void ReadEdges(Reader& r, const Json& v, const JsonPath& path, std::vector<Edge>* out) {
  r.Array(v, path, [&](const Json& e, const JsonPath& p) {
    Edge edge;
    if (e.is_string()) {
      edge.error_id = e.get<std::string>();
      edge.plain = true;
      if (edge.error_id.empty()) r.Error(p, "must not be empty");
    } else {
      r.Object(e, p,
               {{"error_id", [&](const Json& x, const JsonPath& q) { r.RequiredString(x, q, &edge.error_id); }},
                {"probability", [&](const Json& x, const JsonPath& q) { edge.probability = r.Rate(x, q, true); }},
                {"condition", [&](const Json& x, const JsonPath& q) { r.String(x, q, &edge.condition); }},
                {"distinction", [&](const Json& x, const JsonPath& q) { r.String(x, q, &edge.distinction); }},
                {"typical_delay", [&](const Json& x, const JsonPath& q) { r.String(x, q, &edge.typical_delay); }}},
               {"error_id"});
    }
    out->push_back(std::move(edge));
  });
}

}  // namespace

bool RecordFromJson(const Json& doc, Record* out, std::vector<FieldIssue>* issues) {
  Reader r(issues);
  Record& rec = *out;
  const JsonPath root;
  auto str = [&](std::string* field) {
    return [&r, field](const Json& v, const JsonPath& p) { r.String(v, p, field); };
  };
  auto req = [&](std::string* field) {
    return [&r, field](const Json& v, const JsonPath& p) { r.RequiredString(v, p, field); };
  };
  auto list = [&](std::vector<std::string>* field) {
    return [&r, field](const Json& v, const JsonPath& p) { r.StringList(v, p, field); };
  };
  auto date = [&](std::optional<Date>* field) {
    return [&r, field](const Json& v, const JsonPath& p) { *field = r.DateField(v, p); };
  };
  auto rate = [&](std::optional<double>* field) {
    return [&r, field](const Json& v, const JsonPath& p) { *field = r.Rate(v, p, true); };
  };

  r.Object(
      doc, root,
      {
          {"id",
           [&](const Json& v, const JsonPath& p) {
             r.RequiredString(v, p, &rec.id);
             if (!rec.id.empty() && !ValidId(rec.id)) {
               r.Error(p, fmt::format("{} is not a valid id: use letters, digits, '-', '_', '.', '+' in "
                                      "segments separated by '/'",
                                      v.dump()));
             }
           }},
          {"signature", req(&rec.signature)},
          {"signature_zh", str(&rec.signature_zh)},
          {"regex", req(&rec.regex)},
          {"domain", req(&rec.domain)},
          {"category", str(&rec.category)},
          {"subcategory", str(&rec.subcategory)},
          {"root_cause", str(&rec.root_cause)},
          {"root_cause_type", str(&rec.root_cause_type)},
          {"root_cause_zh", str(&rec.root_cause_zh)},
          {"versions",
           [&](const Json& v, const JsonPath& p) {
             r.Array(v, p, [&](const Json& e, const JsonPath& q) {
               VersionEntry ve;
               r.Object(e, q,
                        {{"version", req(&ve.version)},
                         {"introduced", str(&ve.introduced)},
                         {"deprecated", str(&ve.deprecated)},
                         {"removed", str(&ve.removed)},
                         {"behavior_change", str(&ve.behavior_change)},
                         {"status", str(&ve.status)}},
                        {"version"});
               rec.versions.push_back(std::move(ve));
             });
           }},
          {"os_specific",
           [&](const Json& v, const JsonPath& p) {
             if (v.is_null()) return;
             if (!v.is_object()) return r.Error(p, fmt::format("expected an object of os -> note, found {}", TypeName(v)));
             for (const auto& [os, note] : v.items()) {
               std::string text;
               r.String(note, Reader::Child(p, os), &text);
               rec.os_specific.emplace_back(os, std::move(text));
             }
           }},
          {"dead_ends",
           [&](const Json& v, const JsonPath& p) {
             r.Array(v, p, [&](const Json& e, const JsonPath& q) {
               DeadEnd d;
               r.Object(e, q,
                        {{"action", str(&d.action)},
                         {"why_fails", str(&d.why_fails)},
                         {"fail_rate", [&](const Json& x, const JsonPath& s) { d.fail_rate = r.Rate(x, s, false).value_or(0); }},
                         {"condition", str(&d.condition)},
                         {"sources", list(&d.sources)},
                         {"common_misconception", str(&d.common_misconception)},
                         {"tradeoff", str(&d.tradeoff)}},
                        {"action", "why_fails", "fail_rate"});
               rec.dead_ends.push_back(std::move(d));
             });
           }},
          {"workarounds",
           [&](const Json& v, const JsonPath& p) {
             r.Array(v, p, [&](const Json& e, const JsonPath& q) {
               Workaround w;
               r.Object(e, q,
                        {{"action", str(&w.action)},
                         {"success_rate", [&](const Json& x, const JsonPath& s) { w.success_rate = r.Rate(x, s, false).value_or(0); }},
                         {"how", str(&w.how)},
                         {"condition", str(&w.condition)},
                         {"sources", list(&w.sources)},
                         {"tradeoff", str(&w.tradeoff)}},
                        {"action", "success_rate"});
               rec.workarounds.push_back(std::move(w));
             });
           }},
          {"workarounds_zh", list(&rec.workarounds_zh)},
          {"transition_graph",
           [&](const Json& v, const JsonPath& p) {
             if (v.is_null()) return;
             auto& g = rec.transition_graph;
             r.Object(v, p,
                      {{"leads_to", [&](const Json& x, const JsonPath& q) { ReadEdges(r, x, q, &g.leads_to); }},
                       {"preceded_by", [&](const Json& x, const JsonPath& q) { ReadEdges(r, x, q, &g.preceded_by); }},
                       {"frequently_confused_with",
                        [&](const Json& x, const JsonPath& q) { ReadEdges(r, x, q, &g.frequently_confused_with); }}});
           }},
          {"official_doc_url",
           [&](const Json& v, const JsonPath& p) {
             r.String(v, p, &rec.official_doc_url);
             const std::string& u = rec.official_doc_url;
             if (!u.empty() && !util::IsHttpUrl(u)) {
               r.Error(p, fmt::format("{} is not an http(s) URL", v.dump()));
             }
           }},
          {"official_doc_section", str(&rec.official_doc_section)},
          {"error_code",
           [&](const Json& v, const JsonPath& p) {
             // Exit statuses and errno values are often written as numbers.
             if (v.is_number_integer()) {
               rec.error_code = std::to_string(v.get<int64_t>());
             } else {
               r.String(v, p, &rec.error_code);
             }
           }},
          {"verification_tier", str(&rec.verification_tier)},
          {"verification_note", str(&rec.verification_note)},
          {"confidence", rate(&rec.confidence)},
          {"fix_success_rate", rate(&rec.fix_success_rate)},
          {"resolvable",
           [&](const Json& v, const JsonPath& p) {
             if (v.is_null()) return;
             std::string s = v.is_string() ? v.get<std::string>() : "";
             if (s == "true") {
               rec.resolvable = Resolvable::kTrue;
             } else if (s == "partial") {
               rec.resolvable = Resolvable::kPartial;
             } else if (s == "false") {
               rec.resolvable = Resolvable::kFalse;
             } else {
               r.Error(p, fmt::format("{} is not one of \"true\", \"partial\", \"false\"", v.dump()));
             }
           }},
          {"first_seen", date(&rec.first_seen)},
          {"last_confirmed", date(&rec.last_confirmed)},
          {"last_updated", date(&rec.last_updated)},
          {"evidence_count",
           [&](const Json& v, const JsonPath& p) {
             if (v.is_null()) return;
             if (!v.is_number_integer() || v.get<int64_t>() < 0) {
               return r.Error(p, fmt::format("expected a whole number >= 0, found {}", v.dump()));
             }
             rec.evidence_count = v.get<int64_t>();
           }},
          {"tags", list(&rec.tags)},
          {"locale", str(&rec.locale)},
          {"aliases", list(&rec.aliases)},
          {"sources", [&](const Json& v, const JsonPath& p) { ReadUrlList(r, v, p, &rec.sources); }},
          {"occurrences",
           [&](const Json& v, const JsonPath& p) { ReadOccurrences(r, v, p, false, &rec.occurrences); }},
          {"counterexamples",
           [&](const Json& v, const JsonPath& p) { ReadOccurrences(r, v, p, true, &rec.counterexamples); }},
      },
      {"id", "signature", "regex", "domain"});
  // Records imported from the deadends.dev corpus must credit it when shown.
  if (doc.is_object() && doc.contains("x_deadends")) rec.attribution = "deadends.dev (CC BY 4.0)";
  return !r.failed();
}

}  // namespace kedb
