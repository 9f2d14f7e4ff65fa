#include "render/ci_render.h"

#include <cctype>
#include <cstdint>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/strings.h"

namespace kedb {
namespace {

using Json = nlohmann::ordered_json;

const std::string& Pick(Lang lang, const std::string& zh, const std::string& en) {
  return lang == Lang::kZh && !zh.empty() ? zh : en;
}

// What CI shows for one block with a known error: its best match and the
// fix a reader would try first.
struct Finding {
  const Record* record = nullptr;  // nullptr: no record knows the block
  double confidence = 0;
  std::string fix, how;
  double fix_rate = 0;
};

Finding Find(const ErrorBlock& b, const ObservedRates* observed) {
  Finding f;
  if (b.matches.empty()) return f;
  f.record = b.matches.front().record;
  f.confidence = b.matches.front().confidence;
  const ShownFix first = FirstWorkaround(*f.record, observed);
  if (first.index >= 0) {
    const Workaround& fix = f.record->workarounds[static_cast<std::size_t>(first.index)];
    f.fix = fix.action;
    f.how = fix.how != fix.action ? fix.how : "";
    f.fix_rate = first.rate;
  }
  return f;
}

// The plain-text explanation every format carries.
std::string Explain(const Finding& f, Lang lang) {
  const Record& r = *f.record;
  std::string out = fmt::format("{} ({:.0f}% likely)\nCause: {}", Pick(lang, r.signature_zh, r.signature),
                                f.confidence * 100, Pick(lang, r.root_cause_zh, r.root_cause));
  if (!f.fix.empty()) out += fmt::format("\nFix ({:.0f}% success): {}", f.fix_rate * 100, f.fix);
  if (!f.how.empty()) out += "\n  " + f.how;
  for (const DeadEnd& d : r.dead_ends) {
    if (d.fail_rate >= 0.7 && !d.action.empty()) out += fmt::format("\nDon't: {} (fails {:.0f}%)", d.action, d.fail_rate * 100);
  }
  if (!r.official_doc_url.empty()) out += "\nDocs: " + r.official_doc_url;
  return out;
}

std::string UnknownText(const ErrorBlock& b) {
  return fmt::format("{}\nNo known error matches this block; `kedb new` starts a record for it.", b.decisive);
}

// GitHub workflow commands: % and line breaks escaped in the message, and
// also : and , in property values.
std::string GithubData(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else out += c;
  }
  return out;
}
std::string GithubProperty(const std::string& s) {
  std::string out;
  for (char c : GithubData(s)) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

std::string Github(std::span<const ScannedLog> logs, Lang lang, const ObservedRates* observed) {
  std::string out;
  for (const auto& [file, result] : logs) {
    for (const ErrorBlock& b : result.blocks) {
      const Finding f = Find(b, observed);
      const std::string title = f.record ? "kedb: " + f.record->id + (b.root ? " (root error)" : "") : "kedb: unknown error";
      out += fmt::format("::{} file={},line={},endLine={},title={}::{}\n", f.record ? "error" : "warning",
                         GithubProperty(file), b.decisive_line, std::max(b.decisive_line, b.last_line),
                         GithubProperty(title), GithubData(f.record ? Explain(f, lang) : UnknownText(b)));
    }
  }
  return out;
}

std::string XmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default:
        // Control characters other than tab and newlines are not XML.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') out += ' ';
        else out += c;
    }
  }
  return out;
}

std::string Junit(std::span<const ScannedLog> logs, Lang lang, const ObservedRates* observed) {
  std::string suites;
  std::size_t total = 0;
  for (const auto& [file, result] : logs) {
    std::string cases;
    for (const ErrorBlock& b : result.blocks) {
      const Finding f = Find(b, observed);
      const std::string name = fmt::format("{}:{} {}", file, b.decisive_line, f.record ? f.record->id : "unknown error");
      cases += fmt::format(
          "    <testcase classname=\"kedb.{}\" name=\"{}\">\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n"
          "    </testcase>\n",
          XmlEscape(f.record ? f.record->domain : "unknown"), XmlEscape(name),
          XmlEscape(f.record ? f.record->id : "unknown"), XmlEscape(b.decisive),
          XmlEscape(f.record ? Explain(f, lang) : UnknownText(b)));
    }
    const std::size_t n = result.blocks.size();
    total += n;
    suites += fmt::format("  <testsuite name=\"kedb scan {}\" tests=\"{}\" failures=\"{}\">\n{}  </testsuite>\n",
                          XmlEscape(file), n, n, cases);
  }
  return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"{}\" failures=\"{}\">\n{}</testsuites>\n",
                     total, total, suites);
}

// A fingerprint that stays the same across runs for the same error in the
// same place of the same file (FNV-1a, 64 bits).
std::string Fingerprint(const std::string& a, const std::string& b) {
  uint64_t h = 1469598103934665603ULL;
  for (const std::string* s : {&a, &b}) {
    for (unsigned char c : *s) h = (h ^ c) * 1099511628211ULL;
    h = (h ^ 0xff) * 1099511628211ULL;
  }
  return fmt::format("{:016x}", h);
}

std::string Gitlab(std::span<const ScannedLog> logs, Lang lang, const ObservedRates* observed) {
  Json issues = Json::array();
  for (const auto& [file, result] : logs) {
    for (const ErrorBlock& b : result.blocks) {
      const Finding f = Find(b, observed);
      const std::string id = f.record ? f.record->id : "kedb/unknown";
      issues.push_back({{"description", f.record ? Explain(f, lang) : UnknownText(b)},
                        {"check_name", id},
                        {"fingerprint", Fingerprint(id, file + "\n" + b.decisive)},
                        {"severity", f.record ? (b.root ? "critical" : "major") : "minor"},
                        {"location", {{"path", file}, {"lines", {{"begin", b.decisive_line}}}}}});
    }
  }
  return issues.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

// SARIF's artifactLocation.uri is a URI reference: a log's path with
// every byte a URI may not hold as it is percent-encoded (blanks, '%', '#',
// '?', brackets, non-ASCII; ':' too, which would read as a scheme), so a
// relative path stays relative and an absolute one absolute.
std::string SarifUri(const std::string& path) {
  static constexpr std::string_view kKept = "-._~!$&'()*+,;=@/";
  std::string out;
  for (char c : path) {
    const auto b = static_cast<unsigned char>(c);
    if ((b < 0x80 && std::isalnum(b)) || kKept.find(c) != std::string_view::npos) {
      out += c;
    } else {
      out += fmt::format("%{:02X}", b);
    }
  }
  return out;
}

// Whether `url` can stand as SARIF's helpUri (an absolute URI) as it is: a
// record's link with a blank or a non-ASCII character in it is left to the
// help text instead of being sent broken.
bool IsPlainUri(const std::string& url) {
  static constexpr std::string_view kAllowed = "-._~:/?#[]@!$&'()*+,;=%";
  if (!util::IsHttpUrl(url)) return false;
  for (char c : url) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x80 || (!std::isalnum(b) && kAllowed.find(c) == std::string_view::npos)) return false;
  }
  return true;
}

std::string Sarif(std::span<const ScannedLog> logs, Lang lang, const ObservedRates* observed) {
  Json rules = Json::array(), results = Json::array();
  std::vector<std::string> rule_ids;
  auto rule_index = [&](const std::string& id, const auto& make) {
    for (std::size_t i = 0; i < rule_ids.size(); ++i) {
      if (rule_ids[i] == id) return i;
    }
    rule_ids.push_back(id);
    rules.push_back(make());
    return rule_ids.size() - 1;
  };
  auto add = [&](const std::string& file, const ErrorBlock& b) {
    const Finding f = Find(b, observed);
    const std::string id = f.record ? f.record->id : "kedb/unknown";
    const std::size_t index = rule_index(id, [&] {
      if (!f.record) {
        return Json{{"id", id}, {"shortDescription", {{"text", "An error block no record knows"}}},
                    {"defaultConfiguration", {{"level", "warning"}}}};
      }
      const Record& r = *f.record;
      Json rule{{"id", id},
                {"shortDescription", {{"text", Pick(lang, r.signature_zh, r.signature)}}},
                {"fullDescription", {{"text", Pick(lang, r.root_cause_zh, r.root_cause)}}},
                {"help", {{"text", Explain(f, lang)}}},
                {"defaultConfiguration", {{"level", "error"}}}};
      if (IsPlainUri(r.official_doc_url)) rule["helpUri"] = r.official_doc_url;
      return rule;
    });
    Json region{{"startLine", std::max<std::size_t>(1, b.decisive_line)},
                {"endLine", std::max({std::size_t{1}, b.decisive_line, b.last_line})}};
    results.push_back({{"ruleId", id},
                       {"ruleIndex", index},
                       {"level", f.record ? "error" : "warning"},
                       {"message", {{"text", f.record ? Explain(f, lang) : UnknownText(b)}}},
                       {"locations", Json::array({{{"physicalLocation",
                                                    {{"artifactLocation", {{"uri", SarifUri(file)}}}, {"region", region}}}}})},
                       {"partialFingerprints", {{"kedbBlock/v1", Fingerprint(id, b.decisive)}}}});
  };
  for (const auto& [file, result] : logs) {
    for (const ErrorBlock& b : result.blocks) add(file, b);
  }
  Json driver{{"name", "kedb"}, {"rules", rules}};
  Json sarif{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
             {"version", "2.1.0"},
             {"runs", Json::array({{{"tool", {{"driver", driver}}}, {"results", results}}})}};
  return sarif.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string RenderScanCi(CiFormat format, std::span<const ScannedLog> logs, Lang lang, const ObservedRates* observed) {
  switch (format) {
    case CiFormat::kGithub: return Github(logs, lang, observed);
    case CiFormat::kGitlab: return Gitlab(logs, lang, observed);
    case CiFormat::kSarif: return Sarif(logs, lang, observed);
    case CiFormat::kJunit: return Junit(logs, lang, observed);
  }
  return "";
}

std::string RenderGitlabSections(std::span<const ScannedLog> logs, Lang lang, long long now,
                                 const ObservedRates* observed) {
  std::string out;
  std::size_t n = 0;
  for (const auto& [file, result] : logs) {
    for (const ErrorBlock& b : result.blocks) {
      const Finding f = Find(b, observed);
      // Section names may hold letters, digits, '_', '.' and '-' only.
      const std::string name = fmt::format("kedb_block_{}", ++n);
      const std::string header = fmt::format("kedb: {}:{} {}{}", file, b.decisive_line,
                                             f.record ? f.record->id : "unknown error", b.root ? " (root error)" : "");
      out += fmt::format("\x1b[0Ksection_start:{}:{}{}\r\x1b[0K{}\n", now, name, b.root ? "" : "[collapsed=true]",
                         header);
      out += RenderBlockText(b, lang, observed);
      out += fmt::format("\x1b[0Ksection_end:{}:{}\r\x1b[0K\n", now, name);
    }
  }
  return out;
}

std::string RenderScanMarkdown(std::span<const ScannedLog> logs, Lang lang, const ObservedRates* observed) {
  auto cell = [](std::string s) {
    for (char& c : s) {
      if (c == '|' || c == '\n') c = ' ';
    }
    return s;
  };
  std::string out;
  for (const auto& [file, result] : logs) {
    if (!out.empty()) out += "\n";
    out += fmt::format("### kedb: {}\n\n{} error block(s), {} known\n\n", cell(file), result.summary.blocks,
                       result.summary.known);
    if (result.blocks.empty()) continue;
    out += "| line | known error | likely | first fix |\n|---|---|---|---|\n";
    for (const ErrorBlock& b : result.blocks) {
      const Finding f = Find(b, observed);
      if (!f.record) {
        out += fmt::format("| {} | unknown: `{}` | | |\n", b.decisive_line, cell(b.decisive.substr(0, 120)));
        continue;
      }
      out += fmt::format("| {}{} | `{}` {} | {:.0f}% | {} |\n", b.decisive_line, b.root ? " (root)" : "", f.record->id,
                         cell(Pick(lang, f.record->signature_zh, f.record->signature)), f.confidence * 100,
                         f.fix.empty() ? "" : fmt::format("{} ({:.0f}%)", cell(f.fix), f.fix_rate * 100));
    }
  }
  return out;
}

}  // namespace kedb
