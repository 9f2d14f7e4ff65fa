// Ranking: how well a hit explains the error line, as an engineer would
// judge it. A specific pattern that covers most of the line beats a generic
// one that fires on a word of it; among variants of one error, the one whose
// versions and OS fit the user's environment wins; confidence and evidence
// break ties.
#pragma once

#include <string_view>
#include <vector>

#include "kedb/match.h"
#include "kedb/record.h"
#include "match/pcre2_regex.h"
#include "match/python_regex.h"

namespace kedb::match {

// Weights of the factors; they sum to 1.
struct RankWeights {
  double specificity = 0.20;  // literal content of the pattern
  double coverage = 0.10;     // share of the line the match spans
  double similarity = 0.40;   // the line reads like the record's signature
  double domain = 0.10;       // the text names the record's domain ("cuda", "docker")
  double env = 0.08;          // versions and OS fit
  double confidence = 0.07;
  double evidence = 0.05;
};

// What is known about one candidate on one line.
struct HitEvidence {
  const PatternInfo* info = nullptr;  // the pattern's analysis; null for a fuzzy candidate
  std::size_t message_bytes = 0;      // the line's length, leading blanks aside
  std::size_t span_bytes = 0;         // the regex match's length (0 when fuzzy)
  double similarity = 0;              // SignatureIndex::Similarity of the line
  bool mentions_domain = false;
};

// HitEvidence::message_bytes for a line.
std::size_t MessageBytes(std::string_view line);

// Versions and OS names mentioned in `text` ("torch 2.2.1", "CUDA 12.1",
// "Ubuntu"), normalised like --env pairs.
std::vector<EnvPair> EnvFromText(std::string_view text);

// How well `record` fits `env`: +1 every stated product/OS it mentions
// agrees, -1 they all conflict, 0 when nothing can be compared.
double EnvFit(const Record& record, const std::vector<EnvPair>& env, std::string* detail);

// Scores a candidate. `env` is the explicit environment, `text_env` what
// the text says. A fuzzy candidate has no specificity or coverage, so a
// good regex hit outranks it. `why` (optional) receives the factors with
// their explanations; leave it null on hot paths and explain the matches
// that are kept.
// How strongly the text itself shows the record: the specificity,
// coverage, similarity and domain parts of Score(), without what is known
// of the record (confidence, evidence count) or the environment. Abstention
// uses it: an honest record with no reports yet must not be hidden, and a
// broad pattern firing on noise must not be shown because its record is
// well attested.
double TextEvidence(const HitEvidence& hit, const RankWeights& weights = {});

double Score(const Record& record, const HitEvidence& hit, const std::vector<EnvPair>& env,
             const std::vector<EnvPair>& text_env, std::vector<ScoreFactor>* why, const RankWeights& weights = {});

}  // namespace kedb::match
