#include "mine/draft_file.h"

#include <cmath>

#include <fmt/format.h>

#include "record/json_text.h"
#include "record/record_write.h"

namespace kedb::mine {
namespace {

constexpr std::size_t kMaxCandidates = 5;
constexpr std::size_t kMaxSnippets = 10;
constexpr std::size_t kMaxSnippetBytes = 2000;

double Rounded(double v) { return std::round(v * 1000) / 1000; }

Json Source(const Thread& thread, std::size_t post, std::size_t line) {
  Json j{{"post", post}, {"author", post < thread.posts.size() ? thread.posts[post].author : ""}, {"line", line}};
  if (post < thread.posts.size() && !thread.posts[post].url.empty()) j["url"] = thread.posts[post].url;
  return j;
}

Json CandidateJson(const Candidate& c) {
  Json j{{"text", c.text}};
  if (!c.how.empty() && c.how != c.text) j["how"] = c.how;
  if (!c.why_fails.empty()) j["why_fails"] = c.why_fails;
  j["score"] = Rounded(c.score);
  j["post"] = c.post;
  j["line"] = c.line;
  j["author"] = c.author;
  j["association"] = AssociationName(c.association);
  j["by_reporter"] = c.by_reporter;
  j["evidence"] = c.evidence;
  return j;
}

Json CandidateList(const std::vector<Candidate>& list) {
  Json out = Json::array();
  for (std::size_t i = 0; i < list.size() && i < kMaxCandidates; ++i) out.push_back(CandidateJson(list[i]));
  return out;
}

// Where each field the miner filled came from.
Json Sources(const Thread& thread, const Draft& d) {
  Json s = Json::object();
  const Signatures& sig = d.signatures;
  if (!sig.candidates.empty()) s["signature"] = Source(thread, sig.candidates[0].post, sig.candidates[0].line);
  if (!d.candidates.root_causes.empty()) {
    const Candidate& c = d.candidates.root_causes[0];
    s["root_cause"] = Source(thread, c.post, c.line);
  }
  for (std::size_t i = 0; i < d.record.workarounds.size(); ++i) {
    const Candidate& c = d.candidates.workarounds[i];
    s[fmt::format("workarounds[{}]", i)] = Source(thread, c.post, c.line);
  }
  for (std::size_t i = 0; i < d.record.dead_ends.size(); ++i) {
    const Candidate& c = d.candidates.dead_ends[i];
    s[fmt::format("dead_ends[{}]", i)] = Source(thread, c.post, c.line);
  }
  std::size_t v = 0;
  for (const EnvFact& f : d.environment) {
    if (ProductName(f.name).empty()) continue;
    s[fmt::format("versions[{}]", v++)] = Source(thread, f.post, f.line);
  }
  for (const Link& l : d.official_links) {
    if (l.url == d.record.official_doc_url) s["official_doc_url"] = Source(thread, l.post, l.line);
  }
  return s;
}

Json RegexCheck(const Signatures& s, std::size_t other_lines) {
  Json hits = Json::array();
  for (const ThreadLine& h : s.false_hits) hits.push_back({{"post", h.post}, {"line", h.line}, {"text", h.text}});
  return Json{{"error_lines", s.lines},
              {"matched", s.lines_matched},
              {"other_lines_checked", other_lines},
              {"dropped_branches_fired_on", std::move(hits)},
              {"from_symptoms", s.from_symptoms}};
}

Json SignatureList(const Signatures& s) {
  Json out = Json::array();
  for (const SignatureCandidate& c : s.candidates) {
    out.push_back({{"masked", c.masked}, {"example", c.example}, {"count", c.count}, {"post", c.post},
                   {"line", c.line}, {"regex", c.regex}, {"kept", c.kept}});
  }
  return out;
}

Json Links(const std::vector<Link>& links) {
  Json out = Json::array();
  for (const Link& l : links) out.push_back({{"url", l.url}, {"post", l.post}, {"line", l.line}});
  return out;
}

Json Snippets(const ThreadText& text) {
  Json out = Json::array();
  for (std::size_t p = 0; p < text.parts.size(); ++p) {
    for (const CodeSnippet& c : text.parts[p].code) {
      if (out.size() >= kMaxSnippets) return out;
      out.push_back({{"post", p}, {"line", c.line}, {"language", c.language},
                     {"text", c.text.substr(0, kMaxSnippetBytes)}});
    }
  }
  return out;
}

}  // namespace

std::string DraftFile(const Thread& thread, const ThreadText& text, const Draft& d) {
  Json doc = RecordToJson(d.record);
  Json env = Json::array();
  for (const EnvFact& f : d.environment) {
    env.push_back({{"name", f.name}, {"value", f.value}, {"post", f.post}, {"line", f.line},
                   {"from", f.from_dump ? "report" : "prose"}});
  }
  Json related = Json::array();
  for (const RelatedRecord& r : d.related) {
    related.push_back({{"id", r.id}, {"signature", r.signature}, {"domain", r.domain}, {"score", Rounded(r.score)},
                       {"via", r.via}});
  }
  std::size_t other_lines = 0;
  for (const ThreadLine& l : text.other_lines) other_lines += l.text.empty() ? 0 : 1;
  doc["x_mined"] = Json{
      {"thread", {{"url", thread.url}, {"title", thread.title}, {"posts", thread.posts.size()}, {"state", thread.state}}},
      {"sources", Sources(thread, d)},
      {"signatures", SignatureList(d.signatures)},
      {"regex_check", RegexCheck(d.signatures, other_lines)},
      {"candidates",
       {{"root_causes", CandidateList(d.candidates.root_causes)},
        {"workarounds", CandidateList(d.candidates.workarounds)},
        {"dead_ends", CandidateList(d.candidates.dead_ends)}}},
      {"environment", std::move(env)},
      {"links", {{"official", Links(d.official_links)}, {"related", Links(d.related_links)}}},
      {"code", Snippets(text)},
      {"related_records", std::move(related)},
      {"rates", "placeholders: success and fail rates are the miner's priors until outcomes are reported"},
  };
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace kedb::mine
