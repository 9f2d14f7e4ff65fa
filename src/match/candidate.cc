#include "match/candidate.h"

#include <algorithm>
#include <string>

namespace kedb::match {

// A confirmed hit of pattern `p` on `line`.
Candidate MakeMatch(const Engine& engine, const LineHit& lh, std::string_view line,
                    const LineWords& words,
                    std::size_t line_offset, std::size_t line_number, const MatchOptions& options,
                    const std::vector<EnvPair>& text_env) {
  const PatternSet& set = engine.patterns();
  const uint32_t p = lh.pattern;
  Candidate c;
  Match& m = c.match;
  m.record = &engine.kb().records()[p];
  m.line = line_number;
  c.hit.info = set.Info(p);
  // The confirmation found the span; only groups need a second search.
  const Span span = lh.span;
  if (set.CaptureCount(p) > 0) {
    if (auto groups = set.Captures(p, line); groups && groups->size() > 1) {
      std::vector<std::string> names = set.GroupNames(p);
      for (std::size_t g = 1; g < groups->size(); ++g) {
        if (!(*groups)[g]) continue;
        auto [b, e] = *(*groups)[g];
        std::string name = g < names.size() && !names[g].empty() ? names[g] : std::to_string(g);
        m.captures.emplace_back(std::move(name), std::string(line.substr(b, e - b)));
      }
    }
  }
  c.hit.message_bytes = MessageBytes(line);
  c.hit.span_bytes = span.second - span.first;
  c.hit.similarity = engine.signatures().Similarity(words, p);
  c.hit.mentions_domain = engine.signatures().MentionsDomain(words, p);
  c.text_env = text_env;
  m.begin = line_offset + span.first;
  m.end = line_offset + span.second;
  m.score = Score(*m.record, c.hit, options.env, text_env, nullptr);
  m.evidence = TextEvidence(c.hit);
  return c;
}

// A candidate no pattern confirmed, found because the line reads like the
// record's signature.
Candidate MakeFuzzyMatch(const Engine& engine, std::size_t r, double similarity, std::string_view line,
                         const LineWords& words, std::size_t line_offset, std::size_t line_number,
                         const MatchOptions& options, const std::vector<EnvPair>& text_env) {
  Candidate c;
  Match& m = c.match;
  m.record = &engine.kb().records()[r];
  m.kind = "fuzzy";
  m.line = line_number;
  m.begin = line_offset;
  m.end = line_offset + line.size();
  c.hit.message_bytes = MessageBytes(line);
  c.hit.similarity = similarity;
  c.hit.mentions_domain = engine.signatures().MentionsDomain(words, r);
  c.text_env = text_env;
  m.score = Score(*m.record, c.hit, options.env, text_env, nullptr);
  m.evidence = TextEvidence(c.hit);
  return c;
}

// Keeps each record's best candidate, best first, at most `top`.
void KeepBest(std::vector<Candidate>* candidates, std::size_t top) {
  std::stable_sort(candidates->begin(), candidates->end(), [](const Candidate& a, const Candidate& b) {
    if (a.match.score != b.match.score) return a.match.score > b.match.score;
    return a.match.record->id < b.match.record->id;
  });
  std::vector<Candidate> kept;
  for (auto& c : *candidates) {
    if (kept.size() >= top) break;
    bool seen = std::any_of(kept.begin(), kept.end(), [&](const Candidate& k) { return k.match.record == c.match.record; });
    if (!seen) kept.push_back(std::move(c));
  }
  *candidates = std::move(kept);
}

// The kept candidates as explained matches.
std::vector<Match> Explain(std::vector<Candidate>&& kept, const MatchOptions& options) {
  std::vector<Match> out;
  out.reserve(kept.size());
  for (auto& c : kept) {
    Score(*c.match.record, c.hit, options.env, c.text_env, &c.match.why);
    out.push_back(std::move(c.match));
  }
  return out;
}

}  // namespace kedb::match
