#include "kedb/engine.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <future>
#include <map>

#include <fmt/format.h>

#include "logs/blocks.h"
#include "logs/line_chunker.h"
#include "logs/line_kinds.h"
#include "logs/preprocess.h"
#include "engine/candidate.h"
#include "engine/engine_impl.h"
#include "match/pattern_set.h"
#include "match/rank.h"
#include "match/similarity.h"
#include "search/bm25.h"
#include "util/binary_io.h"

namespace kedb {

using match::Candidate;

Engine::Engine(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Engine::~Engine() = default;

Result<std::shared_ptr<const Engine>> Engine::Open(const std::string& kb_path, const OpenOptions& options,
                                                   LoadReport* report) {
  std::string cache = options.cache_dir == "-" ? "" : options.cache_dir.empty() ? DefaultCacheDir(kb_path)
                                                                               : options.cache_dir;
  LoadReport local;
  LoadReport* rep = report ? report : &local;
  auto kb = KnowledgeBase::LoadCached(kb_path, options.load, cache, rep);
  if (!kb.ok()) return kb.status();
  if (kb->size() == 0 && !options.allow_empty) return Status::NotFound(NoRecordsMessage(kb_path, *rep));
  return FromKnowledgeBase(std::move(kb).value(), cache, options.defer_indexes);
}

Result<std::shared_ptr<const Engine>> Engine::FromKnowledgeBase(KnowledgeBase kb, const std::string& cache_dir,
                                                                bool defer_indexes) {
  auto impl = std::make_unique<Impl>(std::move(kb), cache_dir);
  if (!defer_indexes) {
    if (Status st = impl->Build(); !st.ok()) return st;
  }
  return std::shared_ptr<const Engine>(new Engine(std::move(impl)));
}

Result<std::shared_ptr<const Engine>> Engine::WithChanges(std::shared_ptr<const Engine> base,
                                                          KnowledgeBase::Changes changes) {
  if (!base || base->impl().layered()) {
    return Status::InvalidArgument("changes are laid over a compiled engine, not over one already layered");
  }
  auto impl = std::make_unique<Impl>(std::move(base), std::move(changes));
  if (Status st = impl->Build(); !st.ok()) return st;
  return std::shared_ptr<const Engine>(new Engine(std::move(impl)));
}

bool Engine::layered() const { return impl_->layered(); }

Status Engine::Prepare() const { return impl_->Build(); }

void Engine::PrepareSearch() const { impl_->PrepareSearch(); }

const KnowledgeBase& Engine::kb() const { return impl_->kb(); }

MatchResult Engine::Match(std::string_view text, const MatchOptions& options) const {
  return impl_->Match(text, options);
}

Status Engine::Scan(std::istream& in, const ScanOptions& options, ScanResult* result) const {
  return impl_->Scan(in, options, result);
}

SearchResult Engine::Search(std::string_view query, const SearchOptions& options) const {
  return impl_->Search(query, options);
}

Engine::Impl::Impl(KnowledgeBase kb, std::string cache_dir)
    : kb_(std::make_shared<const KnowledgeBase>(std::move(kb))), cache_dir_(std::move(cache_dir)) {}

Engine::Impl::Impl(std::shared_ptr<const Engine> base, KnowledgeBase::Changes changes)
    : cache_dir_(base->impl().cache_dir_), base_(std::move(base)) {
  changed_ = std::make_unique<ChangedRecords>(changes, base_->impl().kb().size());
  kb_ = std::make_shared<const KnowledgeBase>(KnowledgeBase::WithChanges(base_->impl().kb_, std::move(changes)));
}

Engine::Impl::~Impl() = default;

Status Engine::Impl::Build() const {
  std::call_once(build_once_, [this] { layered() ? BuildLayered() : BuildOwn(); });
  return build_status_;
}

void Engine::Impl::BuildOwn() const {
  // Patterns are fetched from the knowledge base one at a time: a
  // database read from the cache compiles (and so fetches) only those a
  // scan finds candidates for.
  const KnowledgeBase& kb = *kb_;
  match::PatternSource patterns{kb.size(), [&kb](uint32_t p) { return kb.pattern(p); },
                                [&kb](uint32_t p) { return kb.pattern_hash(p); }, kb.content_key()};
  // The signature index needs only the records: it is read from the cache
  // (or built) on the other core while the pattern database loads.
  auto signatures = std::async(std::launch::async, [this] { return match::SignatureIndex::Open(*kb_, cache_dir_); });
  auto set = match::PatternSet::Build(std::move(patterns), cache_dir_);
  signatures_ = signatures.get();
  if (set.ok()) {
    patterns_ = std::move(set).value();
  } else {
    build_status_ = set.status();
    auto empty = match::PatternSet::Build(std::vector<std::string>{}, "");
    patterns_ = empty.ok() ? std::move(empty).value() : nullptr;
  }
  pattern_layers_ = LayeredPatterns(patterns_.get(), nullptr);
  signature_layers_ = LayeredSignatures(signatures_.get(), nullptr);
}

void Engine::Impl::BuildLayered() const {
  const Impl& base = base_->impl();
  build_status_ = base.Build();
  if (Status st = changed_->Build(*base.signatures_); !st.ok() && build_status_.ok()) build_status_ = st;
  pattern_layers_ = LayeredPatterns(base.patterns_.get(), changed_.get());
  signature_layers_ = LayeredSignatures(base.signatures_.get(), changed_.get());
}

// Lines past this many are matched by pattern only: a pasted message is
// short, and fuzzy search per line costs more than the patterns.
constexpr std::size_t kFuzzyLinesPerMessage = 2000;
constexpr std::size_t kSearchLinesPerMessage = 200;
// A message this short gets fuzzy candidates on every line; a longer one
// only on the lines that read as a problem or belong to an error block.
constexpr std::size_t kShortMessageLines = 10;
// How much of a message is read for its context (words, domain).
constexpr std::size_t kContextBytes = 1 << 16;

namespace {

// The lines of a long message worth fuzzy candidates: those of its error
// blocks, and those that say something failed. (A message is short: every
// line is offered to the segmenter, and no trigger-word database is
// needed.)
std::vector<bool> ProblemLines(std::string_view text, const std::vector<std::size_t>& starts,
                               const std::vector<logs::LineMark>& marks) {
  logs::BlockSegmenter segmenter;
  std::vector<bool> problem(starts.size(), false);
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const std::string_view line = logs::LineText(text, starts, i);
    segmenter.Add(i + 1, line, marks[i]);
    if (logs::StatesFailure(line)) problem[i] = true;
  }
  segmenter.Finish();
  for (const logs::Block& b : segmenter.blocks()) {
    auto mark = [&](std::size_t first, std::size_t last) {
      for (std::size_t l = first; l <= last && l <= problem.size(); ++l) problem[l - 1] = true;
    };
    mark(b.first_line, b.last_line);
    for (auto [f, l] : b.repeats) mark(f, l);
  }
  return problem;
}

}  // namespace

std::vector<Candidate> Engine::Impl::MessageCandidates(const match::MessageLines& m, const MatchOptions& options) const {
  const std::string_view text = m.text;
  const std::vector<std::size_t>& starts = m.starts;
  const bool short_message = starts.size() <= kShortMessageLines;
  const std::vector<bool> problem = short_message ? std::vector<bool>() : ProblemLines(text, starts, m.marks);
  std::vector<match::LineHit> hits;
  hits.reserve(8);
  patterns().Scan(text, starts, &hits);
  const match::TextEnv text_env = match::TextEnvOf(text);
  // Records a pattern hit, as a set: a message hits a handful, and a flag
  // per record would cost a pass over the knowledge base per call.
  std::vector<std::size_t> hit_records;
  auto regex_hit = [&](std::size_t r) { return std::find(hit_records.begin(), hit_records.end(), r) != hit_records.end(); };
  std::vector<Candidate> candidates;
  candidates.reserve(hits.size() + 2 * options.top);
  // The lines that may name an error, for the candidates of the whole message.
  std::vector<std::pair<std::size_t, match::LineWords>> fuzzy_lines;
  std::size_t h = 0;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    std::string_view line = logs::LineText(text, starts, i);
    const bool has_hits = h < hits.size() && hits[h].line == i;
    const bool fuzzy = i < kFuzzyLinesPerMessage && (short_message || problem[i]);
    if (!has_hits && !fuzzy) continue;
    match::LineWords words = signatures().Words(line);
    if (has_hits) {
      const std::size_t first = candidates.size();
      AddLineMatches(*this, hits, &h, line, words, m.origins[i], m.numbers[i], options, text_env, &candidates);
      for (std::size_t k = first; k < candidates.size(); ++k) hit_records.push_back(candidates[k].record);
    }
    if (!fuzzy) continue;
    // With no pattern fired anywhere, search widens the net (first lines
    // only). A line in another tool's words for an error (an error family's
    // phrase) is offered the family's records, however it reads otherwise.
    std::vector<match::Neighbour> near = FuzzyRecords(line, words, options.top, hits.empty() && i < kSearchLinesPerMessage);
    for (const match::Neighbour& n : signatures().FamilyNeighbours(words, options.top)) {
      if (std::none_of(near.begin(), near.end(), [&](const match::Neighbour& x) { return x.record == n.record; })) {
        near.push_back(n);
      }
    }
    for (const match::Neighbour& n : near) {
      if (regex_hit(n.record)) continue;
      candidates.push_back(MakeFuzzyMatch(*this, n, line, words, m.origins[i], m.numbers[i], options, text_env));
    }
    fuzzy_lines.emplace_back(i, std::move(words));
  }
  // The whole message is every candidate's context; an error told over
  // several lines (npm's ERESOLVE report) may read like a record only as a
  // whole: such records are offered on the line that reads most like them.
  // (A message of one line is its own context: its words are known.)
  const bool one_line = starts.size() == 1 && fuzzy_lines.size() == 1 && m.context.empty();
  const std::string_view context_text = m.context.empty() ? text : m.context;
  match::LineWords whole;
  if (!one_line) whole = signatures().Words(context_text.substr(0, std::min(context_text.size(), kContextBytes)));
  const match::LineWords& context = one_line ? fuzzy_lines.front().second : whole;
  if (starts.size() > 1 && !fuzzy_lines.empty()) {
    for (const match::Neighbour& whole_text : signatures().Nearest(context, options.top, match::kFuzzyMinSimilarity)) {
      const std::size_t r = whole_text.record;
      if (regex_hit(r)) continue;
      const auto* best = &fuzzy_lines.front();
      match::Neighbour on_line{r, {}};
      on_line.measures.resemblance = -1;
      for (const auto& fl : fuzzy_lines) {
        const match::WordMeasures measures = signatures().Measure(fl.second, r);
        if (measures.resemblance > on_line.measures.resemblance) best = &fl, on_line.measures = measures;
      }
      const std::size_t i = best->first;
      if (signatures().ReadsLikeCounterexample(best->second, r, on_line.measures.resemblance)) continue;
      candidates.push_back(MakeFuzzyMatch(*this, on_line, logs::LineText(text, starts, i), best->second, m.origins[i],
                                          m.numbers[i], options, text_env));
    }
  }
  const std::vector<double> affinity = signatures().Affinity(context);
  std::size_t lines_with_text = 0;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    if (logs::LineText(text, starts, i).find_first_not_of(" \t") != std::string_view::npos) ++lines_with_text;
  }
  for (Candidate& c : candidates) {
    if (lines_with_text == 1 && c.match.kind == MatchKind::kFuzzy) c.features.fuzzy_alone = 1;
    match::SetContext(*this, context_text, context, affinity, &c, one_line);
  }
  // A record hit by a pattern anywhere is not also offered as fuzzy.
  std::erase_if(candidates, [&](const Candidate& c) { return c.match.kind == MatchKind::kFuzzy && regex_hit(c.record); });
  return candidates;
}

MatchResult Engine::Impl::Match(std::string_view raw, const MatchOptions& options) const {
  Build();
  // Matched as cleaned lines (see logs/preprocess.h); spans are mapped back
  // to the raw text through each line's start and stripped prefix.
  std::vector<std::size_t> raw_starts = logs::LineStarts(raw);
  logs::CleanedLines cleaned;
  logs::CleanLines(raw, raw_starts, &cleaned);
  match::MessageLines message{cleaned.text, std::move(cleaned.starts), std::move(cleaned.origins),
                              std::move(cleaned.marks), {}, {}};
  message.numbers.resize(message.starts.size());
  for (std::size_t i = 0; i < message.numbers.size(); ++i) message.numbers[i] = i + 1;
  std::vector<Candidate> candidates = MessageCandidates(message, options);
  match::KeepBest(&candidates, options);
  MatchResult result;
  result.matches = match::Explain(std::move(candidates), options);
  result.abstained = result.matches.empty();
  return result;
}

const search::Bm25Index& Engine::Impl::SearchIndex() const {
  if (layered()) return base_->impl().SearchIndex();
  std::call_once(search_once_, [&]() { search_ = search::Bm25Index::Open(*kb_, cache_dir_); });
  return *search_;
}

std::vector<search::Hit> Engine::Impl::SearchRecords(std::string_view query, std::size_t top,
                                                     const std::function<bool(std::size_t)>& keep) const {
  return SearchLayered(SearchIndex(), changed_.get(), *kb_, query, top, keep);
}

std::vector<match::Neighbour> Engine::Impl::FuzzyRecords(std::string_view line, const match::LineWords& words,
                                                   std::size_t k, bool with_search) const {
  auto out = signatures().Nearest(words, k, match::kFuzzyMinSimilarity);
  if (!with_search) return out;
  for (const auto& hit : SearchRecords(line, k)) {
    bool known = std::any_of(out.begin(), out.end(), [&](const auto& o) { return o.record == hit.record; });
    if (known) continue;
    match::Neighbour n{hit.record, signatures().Measure(words, hit.record)};
    if (n.measures.resemblance < match::kFuzzyMinSimilarity) continue;
    if (signatures().ReadsLikeCounterexample(words, hit.record, n.measures.resemblance)) continue;
    out.push_back(n);
  }
  std::sort(out.begin(), out.end(), match::MoreResembling);
  if (out.size() > k) out.resize(k);
  return out;
}

SearchResult Engine::Impl::Search(std::string_view query, const SearchOptions& options) const {
  SearchResult result;
  std::function<bool(std::size_t)> in_domain;
  if (!options.domain.empty()) {
    in_domain = [&](std::size_t i) { return kb_->record(i).domain == options.domain; };
  }
  for (auto& h : SearchRecords(query, options.top, in_domain)) {
    result.hits.push_back({&kb_->record(h.record), h.score, std::move(h.terms)});
  }
  return result;
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
