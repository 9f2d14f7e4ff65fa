// Ranking: how likely a candidate record is to be the right explanation of
// the text, judged from what the text shows.
//
// Each candidate is described by a few measured features (Features, below:
// how specific the part of the pattern that matched is, how much of the
// line it covers, how much the line and its surroundings read like the
// record, whether the text belongs to the record's domain, whether the
// line is the one that says what went wrong, ...). A logistic model weighs
// them into a score; its weights were fitted on the tuning half of a set of
// real error reports (tools/eval/data/real) by tools/eval/train_rank.py, and
// the score is mapped to a calibrated confidence: of answers reported with
// confidence 0.8, about 8 in 10 are right on the other half of that set.
// Abstention is decided on that confidence.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "kedb/match.h"
#include "kedb/record.h"

namespace kedb::match {

// What the text shows for one candidate record. Each in [0,1] except env,
// in [-1,1].
struct Features {
  // Literal characters of the pattern's alternative that matched,
  // 1 - exp(-n/20); 0 for a fuzzy candidate.
  double specificity = 0;
  double coverage = 0;    // share of the line's message the match spans; 0 when fuzzy
  double similarity = 0;  // the line reads like the signature (SignatureIndex::Similarity)
  double recall = 0;      // share of the record's words on the line (SignatureIndex::Recall)
  double context = 0;     // share of the record's words in the block or message around the line
  double domain = 0;      // how much the surrounding text belongs to the record's domain (DomainCues)
  double regex = 0;       // 1 when a pattern confirmed the match
  double confidence = 0;  // the record's own confidence (0.5 when it states none)
  double env = 0;         // fit of the versions and OS in --env (or, at half weight, in the text)
  // 1 when the text names an error the record names too (a status, a code,
  // an exception class: SignatureIndex::CodesAgree).
  double names_agree = 0;
  // 1 when the line names a numbered code of a family the record names
  // others of (TS2403 against a TS2322 record: CodesConflict).
  double names_conflict = 0;
  // How far above half the line's similarity is: (similarity - 0.5) / 0.5,
  // 0 below. A line that all but repeats a signature is far stronger
  // evidence than the straight similarity weight says.
  double closeness = 0;
  // 1 when the candidate is a fuzzy one and the message is that one line:
  // a one-line error that reads like a signature is that error more often
  // than a line that reads like one inside a longer text.
  double fuzzy_alone = 0;
  // The share of the line's words the record has (SignatureIndex::
  // Explained): a line with words of its own that the record lacks is
  // often another error that shares a phrase with it.
  double explained = 0;
  // 1 when the text says the error in a phrase of a family the record has
  // another phrase of (util/error_phrases.h): Go's "certificate signed by
  // unknown authority" against a record of OpenSSL's "unable to get local
  // issuer certificate".
  double family = 0;
  // 1 when the text and the record name the same numbered code (E0382,
  // TS2307, NU1605): a stronger sign than names_agree, whose exception and
  // status names many records share.
  double code_agree = 0;
  // 1 when the text around the line quotes a code fragment one of the
  // record's workarounds gives (FixQuotes: `tokenizer.pad_token =
  // tokenizer.eos_token`, `--legacy-peer-deps`): messages that name their
  // own remedy name the record's.
  double fix_quoted = 0;
};

inline constexpr std::size_t kFeatureCount = 17;
std::array<double, kFeatureCount> FeatureValues(const Features& f);
// "specificity", "coverage", ... in FeatureValues' order.
const std::array<const char*, kFeatureCount>& FeatureNames();

// The model's score (a log-odds) for a candidate. Higher is better.
double RankLogit(const Features& f);
// The calibrated probability that a candidate scoring `logit` is right.
double Confidence(double logit);

// The thresholds the model was calibrated with: below kMinConfidence the
// best answer is withheld (kedb abstains); once one answer clears it,
// others are listed down to kListConfidence.
double DefaultMinConfidence();
double DefaultListConfidence();

// The features the text showed (those not 0), as the reasons behind a
// score, each with its value, its weight and what it was measured from.
std::vector<ScoreFactor> ExplainFeatures(const Features& f, const std::string& env_detail);

// HitEvidence::message_bytes for a line: its length, leading blanks aside.
std::size_t MessageBytes(std::string_view line);

// Versions and OS names mentioned in `text` ("torch 2.2.1", "CUDA 12.1",
// "Ubuntu"), normalised like --env pairs.
std::vector<EnvPair> EnvFromText(std::string_view text);

// How well `record` fits `env`: +1 every stated product/OS it mentions
// agrees, -1 they all conflict, 0 when nothing can be compared.
double EnvFit(const Record& record, const std::vector<EnvPair>& env, std::string* detail);

// Features::env for a record: the user's --env when it says anything about
// the record, otherwise half of what the text's own versions say.
double EnvFeature(const Record& record, const std::vector<EnvPair>& env, const std::vector<EnvPair>& text_env,
                  std::string* detail);

}  // namespace kedb::match
