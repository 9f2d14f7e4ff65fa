#include "mine/draft.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "mine/draft_file.h"
#include "mine/guesses.h"
#include "util/strings.h"
#include "util/utf8.h"

namespace kedb::mine {
namespace {

constexpr std::size_t kMaxWorkarounds = 3;
constexpr std::size_t kMaxDeadEnds = 3;
constexpr std::size_t kMaxSignatureBytes = 300;

// A quoted line without its marks: "> > RuntimeError: x" -> "RuntimeError: x".
std::string_view Unquoted(std::string_view line) {
  line = util::TrimLeft(line);
  while (line.starts_with(">")) line = util::TrimLeft(line.substr(1));
  return line;
}

// A pattern for a text no error line stands behind: its words, escaped,
// as far as a word boundary within 80 bytes.
std::string LiteralPattern(std::string_view text) {
  text = util::Trim(text);
  if (text.size() > 80) {
    std::size_t cut = text.rfind(' ', 80);
    text = text.substr(0, cut == std::string_view::npos ? 80 : cut);
  }
  return EscapedLiteral(text);
}

std::string Shortened(std::string_view s, std::size_t max) {
  s = util::Trim(s);
  return std::string(s.substr(0, util::Utf8Cut(s, max)));
}

std::string PostSource(const Thread& thread, std::size_t post) {
  const std::string& url = thread.posts[post].url;
  return url.empty() ? fmt::format("thread post {}", post) : url;
}

// "linux", "windows" or "macos" for an OS as reported, or "".
std::string OsKey(std::string_view value) {
  std::string lower(value);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view linux_word : {"linux", "ubuntu", "debian", "centos", "fedora", "rhel"}) {
    if (lower.find(linux_word) != std::string::npos) return "linux";
  }
  if (lower.find("windows") != std::string::npos) return "windows";
  if (lower.find("macos") != std::string::npos || lower.find("darwin") != std::string::npos) return "macos";
  return "";
}

// Where the draft comes from, so that a curator can check it: the thread,
// and the error line exactly as it was posted (the signature is cut from
// it). A thread read from plain text has no address, and gets neither.
void AddEvidence(const Thread& thread, const Signatures& s, Record* r) {
  if (util::IsHttpUrl(thread.url)) r->sources.push_back(thread.url);
  if (s.candidates.empty()) return;
  const SignatureCandidate& c = s.candidates[0];
  std::string where = c.post < thread.posts.size() ? thread.posts[c.post].url : "";
  if (!util::IsHttpUrl(where)) where = thread.url;
  if (util::IsHttpUrl(where)) r->occurrences.push_back(Occurrence{c.example, where, "", ""});
}

void FillRecord(const Thread& thread, const ThreadText& text, const std::vector<ThreadLine>& errors, Draft* d) {
  Record& r = d->record;
  const Signatures& s = d->signatures;
  std::string basis = thread.title;
  if (!s.candidates.empty()) {
    r.signature = Shortened(s.candidates[0].example, kMaxSignatureBytes);
    if (basis.empty() || !s.from_symptoms) basis = s.candidates[0].masked;
  } else {
    // Nothing reads as an error: the title, or the report's first sentence.
    std::string_view said = thread.title;
    if (said.empty() && !text.parts.empty() && !text.parts[0].sentences.empty()) said = text.parts[0].sentences[0].text;
    r.signature = Shortened(said, kMaxSignatureBytes);
    // A record needs a signature; a thread with no words gives this one.
    if (r.signature.empty()) r.signature = "an issue thread with no error text";
  }
  if (!s.regex.empty()) {
    r.regex = s.regex;
  } else {
    const std::string phrase = PhrasePattern(r.signature);
    r.regex = phrase.empty() ? LiteralPattern(r.signature) : phrase;
  }

  std::vector<std::string> error_texts;
  for (const ThreadLine& e : errors) error_texts.push_back(e.text);
  std::string all;
  for (const Post& p : thread.posts) (all += p.body) += '\n';
  r.domain = GuessDomain(thread.title, error_texts, all, d->related.empty() ? "" : d->related[0].domain);
  r.category = GuessCategory(error_texts, thread.title, thread.posts.empty() ? "" : thread.posts[0].body);
  r.id = MakeId(r.domain, basis.empty() ? r.signature : basis);

  if (!d->candidates.root_causes.empty()) r.root_cause = d->candidates.root_causes[0].text;
  bool confirmed = false;
  for (const Candidate& c : d->candidates.workarounds) {
    if (r.workarounds.size() >= kMaxWorkarounds) break;
    const bool worked = std::any_of(c.evidence.begin(), c.evidence.end(),
                                    [](const std::string& e) { return e.starts_with("reported to work"); });
    confirmed |= worked;
    Workaround w;
    w.action = c.text;
    w.how = c.how.empty() ? c.text : c.how;
    w.success_rate = worked ? 0.7 : 0.5;  // placeholders until outcomes are reported
    w.sources.push_back(PostSource(thread, c.post));
    r.workarounds.push_back(std::move(w));
  }
  for (const Candidate& c : d->candidates.dead_ends) {
    if (r.dead_ends.size() >= kMaxDeadEnds) break;
    DeadEnd e;
    e.action = c.text;
    e.why_fails = c.why_fails;
    e.fail_rate = c.why_fails == c.text ? 0.6 : 0.8;  // a reply that it failed weighs more than a self-report
    e.sources.push_back(PostSource(thread, c.post));
    r.dead_ends.push_back(std::move(e));
  }
  for (const EnvFact& f : d->environment) {
    if (std::string entry = VersionEntryText(f); !entry.empty()) {
      r.versions.push_back(VersionEntry{entry, "", "", "", "", "reported"});
    } else if (f.name == "os") {
      if (std::string key = OsKey(f.value); !key.empty()) {
        r.os_specific.emplace_back(key, fmt::format("reported on {}", f.value));
      }
    }
  }
  for (const Link& l : d->official_links) {
    if (l.url.find("/pull/") == std::string::npos && l.url.find("/commit/") == std::string::npos) {
      r.official_doc_url = l.url;
      break;
    }
  }
  AddEvidence(thread, d->signatures, &r);
  r.verification_tier = "mined";
  r.resolvable = confirmed ? Resolvable::kTrue : r.workarounds.empty() ? Resolvable::kUnknown : Resolvable::kPartial;
  if (!r.workarounds.empty()) r.fix_success_rate = confirmed ? 0.7 : 0.5;
  r.evidence_count = 1;
  for (const std::string& label : thread.labels) {
    std::string tag = label;
    for (char& c : tag) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    r.tags.push_back(tag);
  }
  r.locale = "en";
}

// How much of a record the thread gave: a pattern that checks out, a
// cause, a fix the thread confirmed, the environment, related records.
double Confidence(const Draft& d) {
  double c = 0.1;
  if (!d.signatures.regex.empty()) c += d.signatures.from_symptoms ? 0.1 : 0.2;
  if (!d.candidates.root_causes.empty()) c += std::min(0.15, 0.1 * d.candidates.root_causes[0].score);
  if (!d.candidates.workarounds.empty()) c += std::min(0.2, 0.1 * d.candidates.workarounds[0].score);
  if (!d.candidates.dead_ends.empty()) c += 0.05;
  if (!d.environment.empty()) c += 0.05;
  if (!d.related.empty()) c += 0.05;
  return std::min(0.7, std::round(c * 100) / 100);
}

}  // namespace

ThreadText ReadPosts(const Thread& thread) {
  ThreadText t;
  for (const Post& post : thread.posts) {
    PostParts parts = SplitPost(post.body);
    std::string scan;
    std::size_t line = 0;
    for (std::size_t start = 0; start < post.body.size(); ++line) {
      std::size_t end = post.body.find('\n', start);
      if (end == std::string::npos) end = post.body.size();
      std::string_view text = std::string_view(post.body).substr(start, end - start);
      start = end + 1;
      PartKind kind = line < parts.line_kinds.size() ? parts.line_kinds[line] : PartKind::kProse;
      // The opening post has nothing earlier to quote: a quote there is the
      // reporter setting off what the program printed.
      if (kind == PartKind::kQuote && post.index == 0) {
        text = Unquoted(text);
        kind = PartKind::kCode;
      }
      if (kind != PartKind::kQuote) scan += text;
      scan += '\n';
      if (kind == PartKind::kQuote || util::Trim(text).empty()) continue;
      ThreadLine l{std::string(text), post.index, line + 1};
      // A line that is all inline code ("`error @x/y@0.0.1: The engine ...`")
      // is output quoted in prose.
      const std::string_view trimmed = util::Trim(text);
      // Inline code that spans the line, or opens it and runs past its end.
      const bool inline_code = trimmed.size() > 2 && trimmed.starts_with("`") &&
                               (trimmed.ends_with("`") || std::count(trimmed.begin(), trimmed.end(), '`') == 1);
      if (kind == PartKind::kCode || inline_code) t.output_lines.push_back(l);
      t.other_lines.push_back(std::move(l));
    }
    t.parts.push_back(std::move(parts));
    t.scan_text.push_back(std::move(scan));
  }
  return t;
}

Draft BuildDraft(const Thread& thread, const ThreadText& text, const std::vector<ThreadLine>& errors,
                 bool from_symptoms, std::vector<RelatedRecord> related) {
  Draft d;
  // The pattern must stay quiet on every line that is not one of the errors.
  std::set<std::pair<std::size_t, std::size_t>> error_at;
  std::set<std::string> error_texts;
  for (const ThreadLine& e : errors) {
    error_at.emplace(e.post, e.line);
    error_texts.insert(std::string(util::Trim(e.text)));
  }
  std::vector<ThreadLine> others;
  for (const ThreadLine& l : text.other_lines) {
    if (!error_at.count({l.post, l.line}) && !error_texts.count(std::string(util::Trim(l.text)))) others.push_back(l);
  }
  d.signatures = BuildSignatures(errors, others);
  d.signatures.from_symptoms = from_symptoms;
  d.candidates = FindCandidates(thread, text.parts);
  std::vector<EnvFact> facts;
  for (const Post& p : thread.posts) {
    for (EnvFact& f : FindEnvironment(p.body, p.index)) facts.push_back(std::move(f));
  }
  d.environment = MergeEnvironment(facts);
  for (std::size_t p = 0; p < text.parts.size(); ++p) {
    for (Link l : text.parts[p].links) {
      if (l.url == thread.url) continue;
      l.post = p;
      auto& list = IsOfficialLink(l.url) ? d.official_links : d.related_links;
      if (std::none_of(list.begin(), list.end(), [&](const Link& o) { return o.url == l.url; })) list.push_back(l);
    }
  }
  d.related = std::move(related);
  FillRecord(thread, text, errors, &d);
  d.confidence = Confidence(d);
  d.record.confidence = d.confidence;
  d.file = DraftFile(thread, text, d);
  return d;
}

}  // namespace kedb::mine
