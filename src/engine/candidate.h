// Candidates: matches being collected during match and scan. Each carries
// the features the rank model weighs (rank.h); those measured on its line
// are set when it is made, those of the text around it once that is known
// (SetContext), and it is explained (the `why` list) only when kept.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "engine/engine_impl.h"
#include "kedb/match.h"
#include "logs/preprocess.h"
#include "match/pattern_set.h"
#include "match/rank.h"
#include "match/similarity.h"

namespace kedb::match {

// A message's lines as cleaned, wherever they came from: a pasted message
// (Engine::Match) or an error block of a log (Engine::Scan).
struct MessageLines {
  std::string_view text;               // the lines, each ending in '\n'
  std::vector<std::size_t> starts;     // line i is logs::LineText(text, starts, i)
  std::vector<std::size_t> origins;    // where line i's cleaned text starts in the input
  std::vector<logs::LineMark> marks;   // what line i's stripped prefix said
  std::vector<std::size_t> numbers;    // line i's 1-based number in the input
  // What the candidates are scored in the context of, when that is more
  // than `text` (a log's lines around an error block, which name known
  // errors of their own); empty: `text`.
  std::string_view context;
};

struct Candidate {
  Match match;
  Features features;
  std::size_t record = 0;  // index into the knowledge base
  // The versions and OS the text names (EnvFromText), shared by every
  // candidate of one text.
  std::shared_ptr<const std::vector<EnvPair>> text_env;
};

using TextEnv = std::shared_ptr<const std::vector<EnvPair>>;
// EnvFromText(text), shared; texts that name no version share one empty list.
TextEnv TextEnvOf(std::string_view text);

// A confirmed hit of a pattern on `line`; `line_offset` is where the line's
// text starts in the whole input.
Candidate MakeMatch(const Engine::Impl& engine, const LineHit& lh, std::string_view line, const LineWords& words,
                    std::size_t line_offset, std::size_t line_number, const MatchOptions& options,
                    const TextEnv& text_env);

// A candidate no pattern confirmed, found because the line (its `words`)
// reads like a record (SignatureIndex::Nearest measured how much).
Candidate MakeFuzzyMatch(const Engine::Impl& engine, const Neighbour& found, std::string_view line, const LineWords& words,
                         std::size_t line_offset, std::size_t line_number, const MatchOptions& options,
                         const TextEnv& text_env);

// The pattern hits on one line, hits[*next] and those after it with the
// same line, each confirmed into a candidate appended to `out`; *next moves
// past them. (Match and Scan both read a line's hits this way.)
//
// A line more than kMaxLineHits patterns hit is measured for the
// kMaxLineHits whose match holds the most literal characters. Measuring a
// candidate touches its record and its words; a large knowledge base has
// many broad patterns, and at a million generated records a message hit
// 25-40 of them (1-4 at 100,000), nearly all generic wordings that rank
// below the narrow hit. Against the 2,522-record corpus, lines of the
// real-error cases and their long logs are hit by 16 patterns at most, so
// nothing there changes; a cap of 6 lost one check-half case and three
// self-retrievals.
inline constexpr std::size_t kMaxLineHits = 16;
void AddLineMatches(const Engine::Impl& engine, const std::vector<LineHit>& hits, std::size_t* next,
                    std::string_view line, const LineWords& words, std::size_t line_offset, std::size_t line_number,
                    const MatchOptions& options, const TextEnv& text_env, std::vector<Candidate>* out);

// Fuzzy candidates need a line that shares this much of its weight with a
// record (Nearest's F1).
inline constexpr double kFuzzyMinSimilarity = 0.35;

// The words of the block or message around the candidate's line, and how
// much they belong to each domain (DomainCues::Affinity): sets the context
// features and scores the candidate again. `context_is_line`: the context
// is the candidate's line itself, whose words were measured already.
// `context_text` is the text those words were read from (for FixQuotes).
void SetContext(const Engine::Impl& engine, std::string_view context_text, const LineWords& context,
                const std::vector<double>& affinity, Candidate* c, bool context_is_line = false);

// The options' thresholds, with the calibrated defaults filled in.
double MinConfidence(const MatchOptions& options);
double ListConfidence(const MatchOptions& options);

// Whether the candidate, as scored so far, is worth listing.
bool Listable(const Candidate& c, const MatchOptions& options);

// Keeps each record's best candidate, best first, at most `top`, of those
// worth listing; none at all when the best is below the options' minimum
// confidence (abstention).
void KeepBest(std::vector<Candidate>* candidates, const MatchOptions& options);
// The same without thresholds: bounds a list as it grows.
void KeepBestOf(std::vector<Candidate>* candidates, std::size_t top);

// The kept candidates as explained matches.
std::vector<Match> Explain(std::vector<Candidate>&& kept, const MatchOptions& options);

}  // namespace kedb::match
