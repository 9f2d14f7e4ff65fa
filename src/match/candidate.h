// Candidates: matches being collected during match and scan, scored
// cheaply, explained (the `why` list) only when kept.
#pragma once

#include <string_view>
#include <vector>

#include "kedb/engine.h"
#include "kedb/match.h"
#include "match/pattern_set.h"
#include "match/rank.h"
#include "match/similarity.h"

namespace kedb::match {

struct Candidate {
  Match match;
  HitEvidence hit;
  std::vector<EnvPair> text_env;
};

// A confirmed hit of a pattern on `line`; `line_offset` is where the line's
// text starts in the whole input.
Candidate MakeMatch(const Engine& engine, const LineHit& lh, std::string_view line, const LineWords& words,
                    std::size_t line_offset, std::size_t line_number, const MatchOptions& options,
                    const std::vector<EnvPair>& text_env);

// A candidate no pattern confirmed, found because the line reads like record
// `r`'s signature.
Candidate MakeFuzzyMatch(const Engine& engine, std::size_t r, double similarity, std::string_view line,
                         const LineWords& words, std::size_t line_offset, std::size_t line_number,
                         const MatchOptions& options, const std::vector<EnvPair>& text_env);

// Fuzzy candidates need a line that shares most of its weight with a
// signature.
inline constexpr double kFuzzyMinSimilarity = 0.45;

// Whether the text shows the candidate's record strongly enough to report
// it (MatchOptions::min_evidence, min_fuzzy_evidence).
inline bool StrongEnough(const Candidate& c, const MatchOptions& options) {
  return c.match.evidence >= (c.match.kind == "fuzzy" ? options.min_fuzzy_evidence : options.min_evidence);
}

// Keeps each record's best candidate, best first, at most `top`.
void KeepBest(std::vector<Candidate>* candidates, std::size_t top);

// The kept candidates as explained matches.
std::vector<Match> Explain(std::vector<Candidate>&& kept, const MatchOptions& options);

}  // namespace kedb::match
