#include "kedb/engine.h"


#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "logs/line_chunker.h"
#include "match/pattern_set.h"
#include "match/rank.h"
#include "match/similarity.h"

namespace kedb {
namespace {

// A match being collected: scored cheaply now, explained only if kept.
struct Candidate {
  Match match;
  match::HitEvidence hit;
  std::vector<EnvPair> text_env;
};

// A confirmed hit of pattern `p` on `line`.
Candidate MakeMatch(const Engine& engine, const match::LineHit& lh, std::string_view line,
                    const match::LineWords& words,
                    std::size_t line_offset, std::size_t line_number, const MatchOptions& options,
                    const std::vector<EnvPair>& text_env) {
  const match::PatternSet& set = engine.patterns();
  const uint32_t p = lh.pattern;
  Candidate c;
  Match& m = c.match;
  m.record = &engine.kb().records()[p];
  m.line = line_number;
  c.hit.info = set.Info(p);
  // The confirmation found the span; only groups need a second search.
  const match::Span span = lh.span;
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
  c.hit.message_bytes = match::MessageBytes(line);
  c.hit.span_bytes = span.second - span.first;
  c.hit.similarity = engine.signatures().Similarity(words, p);
  c.hit.mentions_domain = engine.signatures().MentionsDomain(words, p);
  c.text_env = text_env;
  m.begin = line_offset + span.first;
  m.end = line_offset + span.second;
  m.score = match::Score(*m.record, c.hit, options.env, text_env, nullptr);
  return c;
}

// A candidate no pattern confirmed, found because the line reads like the
// record's signature.
Candidate MakeFuzzyMatch(const Engine& engine, std::size_t r, double similarity, std::string_view line,
                         const match::LineWords& words, std::size_t line_offset, std::size_t line_number,
                         const MatchOptions& options, const std::vector<EnvPair>& text_env) {
  Candidate c;
  Match& m = c.match;
  m.record = &engine.kb().records()[r];
  m.kind = "fuzzy";
  m.line = line_number;
  m.begin = line_offset;
  m.end = line_offset + line.size();
  c.hit.message_bytes = match::MessageBytes(line);
  c.hit.similarity = similarity;
  c.hit.mentions_domain = engine.signatures().MentionsDomain(words, r);
  c.text_env = text_env;
  m.score = match::Score(*m.record, c.hit, options.env, text_env, nullptr);
  return c;
}

// Fuzzy candidates need a line that shares most of its weight with a
// signature.
constexpr double kFuzzyMinSimilarity = 0.45;
constexpr std::size_t kFuzzyLinesPerMessage = 2000;

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
    match::Score(*c.match.record, c.hit, options.env, c.text_env, &c.match.why);
    out.push_back(std::move(c.match));
  }
  return out;
}

}  // namespace

Engine::~Engine() = default;

Result<std::shared_ptr<const Engine>> Engine::Open(const std::string& kb_path, const OpenOptions& options,
                                                   LoadReport* report) {
  std::string cache = options.cache_dir == "-" ? "" : options.cache_dir.empty() ? DefaultCacheDir(kb_path)
                                                                               : options.cache_dir;
  auto kb = KnowledgeBase::LoadCached(kb_path, options.load, cache, report);
  if (!kb.ok()) return kb.status();
  return FromKnowledgeBase(std::move(kb).value(), cache);
}

Result<std::shared_ptr<const Engine>> Engine::FromKnowledgeBase(KnowledgeBase kb, const std::string& cache_dir) {
  std::shared_ptr<Engine> engine(new Engine());
  engine->kb_ = std::move(kb);
  std::vector<std::string> patterns;
  patterns.reserve(engine->kb_.size());
  for (const Record& r : engine->kb_.records()) patterns.push_back(r.regex);
  auto set = match::PatternSet::Build(std::move(patterns), cache_dir);
  if (!set.ok()) return set.status();
  engine->patterns_ = std::move(set).value();
  engine->signatures_ = std::make_unique<match::SignatureIndex>(engine->kb_);
  return std::shared_ptr<const Engine>(std::move(engine));
}

MatchResult Engine::Match(std::string_view text, const MatchOptions& options) const {
  MatchResult result;
  std::vector<std::size_t> starts = logs::LineStarts(text);
  std::vector<match::LineHit> hits;
  patterns_->Scan(text, starts, &hits);
  std::vector<EnvPair> text_env = match::EnvFromText(text);
  std::vector<bool> regex_hit(kb_.size(), false);
  std::vector<Candidate> candidates;
  std::size_t h = 0;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    std::string_view line = logs::LineText(text, starts, i);
    bool has_hits = h < hits.size() && hits[h].line == i;
    if (!has_hits && i >= kFuzzyLinesPerMessage) continue;
    match::LineWords words = signatures_->Words(line);
    for (; h < hits.size() && hits[h].line == i; ++h) {
      regex_hit[hits[h].pattern] = true;
      candidates.push_back(MakeMatch(*this, hits[h], line, words, starts[i], i + 1, options, text_env));
    }
    if (i < kFuzzyLinesPerMessage) {
      for (auto [r, sim] : signatures_->Nearest(words, options.top, kFuzzyMinSimilarity)) {
        if (regex_hit[r]) continue;
        candidates.push_back(MakeFuzzyMatch(*this, r, sim, line, words, starts[i], i + 1, options, text_env));
      }
    }
  }
  // A record hit by a pattern anywhere is not also offered as fuzzy.
  std::erase_if(candidates, [&](const Candidate& c) {
    return c.match.kind == "fuzzy" && regex_hit[static_cast<std::size_t>(c.match.record - kb_.records().data())];
  });
  KeepBest(&candidates, options.top);
  result.matches = Explain(std::move(candidates), options);
  result.abstained = result.matches.empty();
  return result;
}

Status Engine::Scan(std::istream& in, const ScanOptions& options, const std::function<void(Region&&)>& on_region,
                    ScanSummary* summary) const {
  logs::LineChunker chunker(in, 1 << 20, options.max_line_bytes);
  logs::LineChunk chunk;
  ScanSummary sum;
  Region open;
  std::vector<Candidate> open_candidates;
  bool have_open = false;
  auto close = [&]() {
    if (!have_open) return;
    KeepBest(&open_candidates, options.match.top);
    open.matches = Explain(std::move(open_candidates), options.match);
    open_candidates.clear();
    ++sum.regions;
    on_region(std::move(open));
    open = Region();
    have_open = false;
  };
  std::vector<match::LineHit> hits;
  while (chunker.Next(&chunk)) {
    sum.lines += chunk.line_starts.size();
    sum.bytes += chunk.text.size();
    sum.truncated_lines += chunk.truncated_lines;
    hits.clear();
    patterns_->Scan(chunk.text, chunk.line_starts, &hits);
    for (std::size_t i = 0; i < hits.size();) {
      std::size_t line_index = hits[i].line;
      std::size_t line_no = chunk.first_line + line_index;
      std::string_view line = logs::LineText(chunk.text, chunk.line_starts, line_index);
      if (have_open && line_no > open.last_line + options.region_gap) close();
      if (!have_open) {
        open.first_line = line_no;
        have_open = true;
      }
      open.last_line = line_no;
      // Versions named on the line itself inform the ranking.
      std::vector<EnvPair> text_env = match::EnvFromText(line);
      match::LineWords words = signatures_->Words(line);
      for (; i < hits.size() && hits[i].line == line_index; ++i) {
        open_candidates.push_back(MakeMatch(*this, hits[i], line, words,
                                         chunk.first_offset + chunk.line_starts[line_index], line_no, options.match,
                                         text_env));
      }
      // A long region keeps only its best candidates as it grows.
      if (open_candidates.size() > 256) KeepBest(&open_candidates, std::max<std::size_t>(options.match.top, 64));
    }
  }
  close();
  if (summary) *summary = sum;
  if (chunker.failed()) return Status::IoError("read error");
  return Status::Ok();
}

Result<std::vector<EnvPair>> ParseEnv(std::string_view text) {
  std::vector<EnvPair> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t comma = text.find(',', start);
    std::string_view item = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    start = comma == std::string_view::npos ? text.size() : comma + 1;
    if (item.empty()) continue;
    std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size()) {
      return Status::InvalidArgument(fmt::format("--env: \"{}\" is not KEY=VALUE", item));
    }
    out.push_back({std::string(item.substr(0, eq)), std::string(item.substr(eq + 1))});
  }
  return out;
}

}  // namespace kedb
