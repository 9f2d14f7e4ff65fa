#include "engine/candidate.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "match/fix_quote.h"

namespace kedb::match {
namespace {

constexpr std::size_t kFixSearchBytes = 1 << 16;

void Score(Candidate* c) {
  c->match.score = RankLogit(c->features);
  c->match.confidence = Confidence(c->match.score);
}

// What every candidate measures alike: the line, the record, the user.
Candidate Start(const Engine::Impl& engine, std::size_t r, const WordMeasures& measures, const LineWords& words,
                std::size_t line_number, const MatchOptions& options, const TextEnv& text_env) {
  Candidate c;
  c.record = r;
  c.match.record = &engine.kb().records()[r];
  c.match.line = line_number;
  Features& f = c.features;
  f.similarity = measures.similarity;
  f.closeness = std::max(0.0, (f.similarity - 0.5) / 0.5);
  f.recall = measures.recall;
  f.explained = measures.explained;
  // Until the surroundings are known, the line is its own context.
  f.context = f.recall;
  f.names_agree = engine.signatures().CodesAgree(words, r) ? 1 : 0;
  f.names_conflict = engine.signatures().CodesConflict(words, r) ? 1 : 0;
  f.family = engine.signatures().SharesFamily(words, r) ? 1 : 0;
  f.code_agree = engine.signatures().NumberedCodesAgree(words, r) ? 1 : 0;
  f.confidence = c.match.record->confidence.value_or(0.5);
  f.env = EnvFeature(*c.match.record, options.env, *text_env, nullptr);
  c.text_env = text_env;
  return c;
}

}  // namespace

TextEnv TextEnvOf(std::string_view text) {
  static const TextEnv kNone = std::make_shared<const std::vector<EnvPair>>();
  std::vector<EnvPair> env = EnvFromText(text);
  return env.empty() ? kNone : std::make_shared<const std::vector<EnvPair>>(std::move(env));
}

Candidate MakeMatch(const Engine::Impl& engine, const LineHit& lh, std::string_view line, const LineWords& words,
                    std::size_t line_offset, std::size_t line_number, const MatchOptions& options,
                    const TextEnv& text_env) {
  const auto& set = engine.patterns();
  const uint32_t p = lh.pattern;
  Candidate c = Start(engine, p, engine.signatures().Measure(words, p), words, line_number, options, text_env);
  Match& m = c.match;
  // The confirmation found the span; only groups need a second search.
  const regex::Span span = lh.span;
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
  m.begin = line_offset + span.first;
  m.end = line_offset + span.second;
  Features& f = c.features;
  f.regex = 1;
  f.specificity = 1 - std::exp(-static_cast<double>(set.MatchedLiteralChars(p, line, span)) / 20.0);
  const std::size_t message = MessageBytes(line);
  f.coverage = message == 0 ? 0 : std::min(1.0, static_cast<double>(span.second - span.first) / static_cast<double>(message));
  Score(&c);
  return c;
}

void AddLineMatches(const Engine::Impl& engine, const std::vector<LineHit>& hits, std::size_t* next,
                    std::string_view line, const LineWords& words, std::size_t line_offset, std::size_t line_number,
                    const MatchOptions& options, const TextEnv& text_env, std::vector<Candidate>* out) {
  const std::size_t begin = *next;
  const std::size_t li = hits[begin].line;
  while (*next < hits.size() && hits[*next].line == li) ++*next;
  auto add = [&](std::size_t i) {
    out->push_back(MakeMatch(engine, hits[i], line, words, line_offset, line_number, options, text_env));
  };
  if (*next - begin <= kMaxLineHits) {
    for (std::size_t i = begin; i < *next; ++i) add(i);
    return;
  }
  thread_local std::vector<std::pair<std::size_t, std::size_t>> specific;  // literal chars, hit
  specific.clear();
  for (std::size_t i = begin; i < *next; ++i) {
    specific.emplace_back(engine.patterns().MatchedLiteralChars(hits[i].pattern, line, hits[i].span), i);
  }
  // The most literal characters first; among equals, the earlier hit. The
  // kept hits are then measured in their own order.
  std::stable_sort(specific.begin(), specific.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  specific.resize(kMaxLineHits);
  std::sort(specific.begin(), specific.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  for (const auto& [chars, i] : specific) add(i);
}

Candidate MakeFuzzyMatch(const Engine::Impl& engine, const Neighbour& found, std::string_view line, const LineWords& words,
                         std::size_t line_offset, std::size_t line_number, const MatchOptions& options,
                         const TextEnv& text_env) {
  Candidate c = Start(engine, found.record, found.measures, words, line_number, options, text_env);
  c.match.kind = MatchKind::kFuzzy;
  c.match.begin = line_offset;
  c.match.end = line_offset + line.size();
  Score(&c);
  return c;
}

void SetContext(const Engine::Impl& engine, std::string_view context_text, const LineWords& context,
                const std::vector<double>& affinity, Candidate* c, bool context_is_line) {
  if (!context_is_line) {
    c->features.context = std::max(c->features.recall, engine.signatures().Recall(context, c->record));
    if (engine.signatures().CodesAgree(context, c->record)) c->features.names_agree = 1;
    if (engine.signatures().SharesFamily(context, c->record)) c->features.family = 1;
    if (engine.signatures().NumberedCodesAgree(context, c->record)) c->features.code_agree = 1;
  }
  const std::size_t d = engine.signatures().DomainOf(c->record);
  c->features.domain = d < affinity.size() ? affinity[d] : 0;
  // A block's text has no bound of its own (a Java trace of thousands of
  // frames); its first 64 KiB hold any message that quotes a fix.
  const std::string_view quoted = context_text.substr(0, std::min<std::size_t>(context_text.size(), kFixSearchBytes));
  c->features.fix_quoted = engine.fix_quotes().Quotes(c->record, *c->match.record, quoted) ? 1 : 0;
  Score(c);
}

double MinConfidence(const MatchOptions& options) {
  return options.min_confidence < 0 ? DefaultMinConfidence() : options.min_confidence;
}

double ListConfidence(const MatchOptions& options) {
  double list = options.list_confidence < 0 ? DefaultListConfidence() : options.list_confidence;
  return std::min(list, MinConfidence(options));
}

bool Listable(const Candidate& c, const MatchOptions& options) {
  return c.match.confidence >= ListConfidence(options);
}

void KeepBestOf(std::vector<Candidate>* candidates, std::size_t top) {
  // Order positions, not candidates: a candidate is heavy to move.
  thread_local std::vector<std::size_t> order;
  order.resize(candidates->size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto& cs = *candidates;
  // Ties keep their order (the position decides last), without the buffer
  // a stable sort asks for.
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    const Match& a = cs[x].match;
    const Match& b = cs[y].match;
    if (a.score != b.score) return a.score > b.score;
    if (a.record != b.record) return a.record->id < b.record->id;
    return x < y;
  });
  std::vector<Candidate> kept;
  kept.reserve(std::min(top, order.size()));
  for (std::size_t i : order) {
    if (kept.size() >= top) break;
    const Record* record = cs[i].match.record;
    bool seen = std::any_of(kept.begin(), kept.end(), [&](const Candidate& k) { return k.match.record == record; });
    if (!seen) kept.push_back(std::move((*candidates)[i]));
  }
  *candidates = std::move(kept);
}

void KeepBest(std::vector<Candidate>* candidates, const MatchOptions& options) {
  KeepBestOf(candidates, options.top);
  if (candidates->empty() || candidates->front().match.confidence < MinConfidence(options)) {
    candidates->clear();
    return;
  }
  const double list = ListConfidence(options);
  std::erase_if(*candidates, [&](const Candidate& c) { return c.match.confidence < list; });
}

std::vector<Match> Explain(std::vector<Candidate>&& kept, const MatchOptions& options) {
  std::vector<Match> out;
  out.reserve(kept.size());
  for (auto& c : kept) {
    // What the versions were compared with is told only when they counted.
    std::string env_detail;
    if (c.features.env != 0) EnvFeature(*c.match.record, options.env, *c.text_env, &env_detail);
    c.match.why = ExplainFeatures(c.features, env_detail);
    out.push_back(std::move(c.match));
  }
  return out;
}

}  // namespace kedb::match
