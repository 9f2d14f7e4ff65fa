#include <fmt/format.h>

#include "mine/draft.h"
#include "render/render.h"

namespace kedb {
namespace {

std::string Where(const mine::Candidate& c) {
  std::string who = c.author.empty() ? "" : fmt::format(" · {}", c.author);
  return fmt::format("post {}, line {}{}", c.post, c.line, who);
}

std::string Reasons(const mine::Candidate& c) {
  std::string out;
  for (const std::string& e : c.evidence) out += (out.empty() ? "" : "; ") + e;
  return out;
}

std::string Candidates(const char* label, const std::vector<mine::Candidate>& list, std::size_t shown) {
  std::string out;
  for (std::size_t i = 0; i < list.size() && i < shown; ++i) {
    const mine::Candidate& c = list[i];
    out += fmt::format("  {:<9} {}\n", i == 0 ? label : "", c.text);
    if (!c.why_fails.empty() && c.why_fails != c.text) out += fmt::format("            fails: {}\n", c.why_fails);
    out += fmt::format("            [{}; score {:.2f}: {}]\n", Where(c), c.score, Reasons(c));
  }
  return out;
}

}  // namespace

std::string RenderDraftText(const mine::Draft& d, Lang lang) {
  const bool zh = lang == Lang::kZh;
  const Record& r = d.record;
  std::string out = fmt::format("{} {}  ({} {:.0f}%)\n", zh ? "草稿记录" : "Draft record", r.id,
                                zh ? "置信度" : "confidence", d.confidence * 100);
  const mine::Signatures& s = d.signatures;
  if (!s.candidates.empty()) {
    out += fmt::format("  signature {}\n            [post {}, line {}{}]\n", r.signature, s.candidates[0].post,
                       s.candidates[0].line, s.from_symptoms ? "; a symptom line: the thread shows no error message" : "");
  } else {
    out += fmt::format("  signature {}\n            [no error line in the thread: the title or first sentence]\n",
                       r.signature);
  }
  out += fmt::format("  regex     {}\n", r.regex);
  if (!s.regex.empty()) {
    out += fmt::format("            [matches {} of {} error line(s); {} branch(es) dropped for firing on other lines]\n",
                       s.lines_matched, s.lines,
                       std::count_if(s.candidates.begin(), s.candidates.end(),
                                     [](const mine::SignatureCandidate& c) { return !c.kept; }));
  }
  out += fmt::format("  domain    {} · {}\n", r.domain, r.category);
  out += Candidates(zh ? "原因" : "cause", d.candidates.root_causes, 2);
  out += Candidates(zh ? "可试" : "try", d.candidates.workarounds, 3);
  out += Candidates(zh ? "勿试" : "avoid", d.candidates.dead_ends, 3);
  std::string versions;
  for (const VersionEntry& v : r.versions) versions += (versions.empty() ? "" : ", ") + v.version;
  if (!versions.empty()) out += fmt::format("  versions  {}\n", versions);
  for (const auto& [os, note] : r.os_specific) out += fmt::format("  os        {}: {}\n", os, note);
  for (const mine::EnvFact& f : d.environment) {
    if (f.name == "gpu" || f.name == "driver") out += fmt::format("  {:<9} {}\n", f.name, f.value);
  }
  for (std::size_t i = 0; i < d.related.size() && i < 5; ++i) {
    const mine::RelatedRecord& rel = d.related[i];
    out += fmt::format("  {:<9} {} ({}, {:.2f})\n", i == 0 ? "related" : "", rel.id, rel.via, rel.score);
  }
  for (std::size_t i = 0; i < d.official_links.size() && i < 3; ++i) {
    out += fmt::format("  {:<9} {}\n", i == 0 ? "links" : "", d.official_links[i].url);
  }
  out += zh ? "仍需人工：翻译中文字段；成功率在有结果报告前只是先验；复核 x_mined 中的候选。\n"
            : "Still needs a person: the Chinese text, rates from reported outcomes (these are priors), and a "
              "review of the candidates in x_mined.\n";
  return out;
}

}  // namespace kedb
