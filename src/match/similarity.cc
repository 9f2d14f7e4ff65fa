#include "match/similarity.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "match/similarity_rules.h"
#include "util/error_phrases.h"
#include "util/strings.h"
#include "util/text_words.h"

namespace kedb::match {

using similarity_rules::CodeFamily;
using similarity_rules::kUnknownWordWeight;
using similarity_rules::MaxCandidateDf;
using util::ForEachWordAndCode;
using util::HasDigit;

bool DomainCues::Bind(const util::SectionFile& file, std::size_t first, util::Array<double> idf,
                      std::size_t records) {
  util::StringTable names;
  if (!names.Bind(file, first) || !file.Get(first + 3, &record_domain_) || !file.Get(first + 4, &by_word_begin_) ||
      !file.Get(first + 5, &by_word_) || !file.Get(first + 6, &total_)) {
    return false;
  }
  names_.clear();
  for (uint32_t d = 0; d < names.size(); ++d) names_.emplace_back(names.At(d));
  idf_ = idf;
  return record_domain_.size() == records && by_word_begin_.size() == idf_.size() + 1 &&
         total_.size() == idf_.size() && by_word_begin_[0] == 0 && by_word_begin_[idf_.size()] == by_word_.size();
}

std::map<std::string, double> DomainCues::Sizes() const {
  std::vector<double> count(names_.size(), 0);
  for (std::size_t r = 0; r < record_domain_.size(); ++r) {
    if (record_domain_[r] < count.size()) ++count[record_domain_[r]];
  }
  std::map<std::string, double> sizes;
  for (std::size_t d = 0; d < names_.size(); ++d) sizes[names_[d]] = count[d];
  return sizes;
}

std::vector<double> DomainCues::Affinity(const LineWords& words, bool scaled) const {
  std::vector<double> a(names_.size(), 0);
  if (a.empty()) return a;
  for (const auto& [id, idf] : words.known) {
    if (id + 1 >= by_word_begin_.size()) continue;
    for (const Share& s : by_word_.Slice(by_word_begin_[id], by_word_begin_[id + 1])) {
      if (s.domain < a.size()) a[s.domain] += idf * s.share;
    }
  }
  double best = *std::max_element(a.begin(), a.end());
  if (scaled && best > 0) {
    for (double& x : a) x /= best;
  }
  return a;
}

std::pair<std::vector<double>, std::vector<double>> SignatureIndex::AffinityLaidOver(const LineWords& theirs,
                                                                                     const LineWords& ours) const {
  // A word's share of a domain is the share of the domain's records that
  // have it, over the sum of those shares across domains: the sum over
  // both indexes' domains is the two totals added.
  auto part = [](double mine, double other) { return mine + other > 0 ? mine / (mine + other) : 0; };
  LineWords their_part, our_part;
  for (auto [id, idf] : theirs.known) {
    const int64_t here = weighed_like_ ? words_.Find(weighed_like_->words_.At(id)) : -1;
    if (here < 0) {
      their_part.known.emplace_back(id, idf);
      continue;
    }
    // Weighed as this index weighs it: by its rarity across both.
    const auto h = static_cast<uint32_t>(here);
    their_part.known.emplace_back(id, idf_[h] * part(weighed_like_->cues_.Total(id), cues_.Total(h)));
  }
  for (auto [id, idf] : ours.known) {
    const int64_t there = weighed_like_ ? weighed_like_->words_.Find(words_.At(id)) : -1;
    const double other = there >= 0 ? weighed_like_->cues_.Total(static_cast<uint32_t>(there)) : 0;
    our_part.known.emplace_back(id, idf * part(cues_.Total(id), other));
  }
  std::vector<double> their_affinity =
      weighed_like_ ? weighed_like_->cues_.Affinity(their_part, /*scaled=*/false) : std::vector<double>();
  return {std::move(their_affinity), cues_.Affinity(our_part, /*scaled=*/false)};
}

double SignatureIndex::CounterSimilarity(const LineWords& words, std::size_t i) const {
  double best = 0;
  for (uint32_t k = record_counters_[i]; k < record_counters_[i + 1]; ++k) {
    const double shared = Shared(words, counter_ids_, counter_begin_[k], counter_begin_[k + 1]);
    best = std::max(best, F1(shared, counter_weight_[k], words.weight));
  }
  return best;
}

LineWords SignatureIndex::Words(std::string_view text) const {
  LineWords w;
  w.known.reserve(32);
  // Words no record has are counted once each, told apart by their hash.
  thread_local std::vector<std::size_t> unknown;
  unknown.clear();
  // Words only the index this one is laid over has, as its ids.
  thread_local std::vector<uint32_t> weighed_elsewhere;
  weighed_elsewhere.clear();
  // Names most records share ("RuntimeError") say little either way.
  const std::size_t max_df = MaxCandidateDf(records_);
  ForEachWordAndCode(
      text,
      [&](std::string_view t) {
        if (const int64_t id = words_.Find(t); id >= 0) {
          w.known.emplace_back(static_cast<uint32_t>(id), idf_[static_cast<std::size_t>(id)]);
          if (util::IsErrorFamily(t)) w.families.push_back(static_cast<uint32_t>(id));
        } else if (const int64_t base_id = weighed_like_ ? weighed_like_->words_.Find(t) : -1; base_id >= 0) {
          weighed_elsewhere.push_back(static_cast<uint32_t>(base_id));
        } else if (!HasDigit(t)) {
          unknown.push_back(std::hash<std::string_view>()(t));
        }
      },
      [&](std::string_view c) {
        const int64_t code = codes_.Find(c);
        if (code >= 0 && code_df_[static_cast<std::size_t>(code)] <= max_df) {
          w.codes.push_back(static_cast<uint32_t>(code));
          if (HasDigit(c)) w.numbered_codes.push_back(static_cast<uint32_t>(code));
        }
        std::string_view family = CodeFamily(c);
        if (family.empty()) return;
        if (const int64_t f = families_.Find(family); f >= 0) w.code_families.push_back(static_cast<uint32_t>(f));
      });
  std::sort(w.known.begin(), w.known.end());
  w.known.erase(std::unique(w.known.begin(), w.known.end()), w.known.end());
  for (const auto& [id, idf] : w.known) w.weight += idf;
  std::sort(weighed_elsewhere.begin(), weighed_elsewhere.end());
  weighed_elsewhere.erase(std::unique(weighed_elsewhere.begin(), weighed_elsewhere.end()), weighed_elsewhere.end());
  for (uint32_t id : weighed_elsewhere) w.weight += weighed_like_->idf_[id];
  std::sort(unknown.begin(), unknown.end());
  w.weight += kUnknownWordWeight * static_cast<double>(std::unique(unknown.begin(), unknown.end()) - unknown.begin());
  std::sort(w.codes.begin(), w.codes.end());
  w.codes.erase(std::unique(w.codes.begin(), w.codes.end()), w.codes.end());
  std::sort(w.numbered_codes.begin(), w.numbered_codes.end());
  w.numbered_codes.erase(std::unique(w.numbered_codes.begin(), w.numbered_codes.end()), w.numbered_codes.end());
  std::sort(w.families.begin(), w.families.end());
  w.families.erase(std::unique(w.families.begin(), w.families.end()), w.families.end());
  std::sort(w.code_families.begin(), w.code_families.end());
  w.code_families.erase(std::unique(w.code_families.begin(), w.code_families.end()), w.code_families.end());
  return w;
}

bool SignatureIndex::CodesAgree(const LineWords& words, std::size_t i) const {
  if (words.codes.empty()) return false;
  const std::span<const uint32_t> names = code_ids_list_.Slice(code_begin_[i], code_begin_[i + 1]);
  return std::any_of(words.codes.begin(), words.codes.end(),
                     [&](uint32_t c) { return std::binary_search(names.begin(), names.end(), c); });
}


double SignatureIndex::Shared(const LineWords& words, const util::Array<uint32_t>& ids, uint32_t begin,
                              uint32_t end) const {
  const std::span<const uint32_t> run = ids.Slice(begin, end);
  const uint32_t* s = run.data();
  const uint32_t* e = run.data() + run.size();
  double shared = 0;
  // Both lists are sorted ids, and short: one linear merge.
  auto w = words.known.begin();
  while (s != e && w != words.known.end()) {
    if (*s < w->first) {
      ++s;
    } else if (w->first < *s) {
      ++w;
    } else {
      shared += w->second;
      ++s, ++w;
    }
  }
  return shared;
}

double SignatureIndex::F1(double shared, double record_weight, double text_weight) const {
  if (shared <= 0 || record_weight <= 0 || text_weight <= 0) return 0;
  double recall = shared / record_weight, precision = shared / text_weight;
  return 2 * precision * recall / (precision + recall);
}

SignatureIndex::Measures SignatureIndex::Measure(const LineWords& words, std::size_t i) const {
  return MeasureSharing(words, i, Shared(words, all_ids_, all_begin_[i], all_begin_[i + 1]));
}

SignatureIndex::Measures SignatureIndex::MeasureSharing(const LineWords& words, std::size_t i, double all) const {
  Measures m;
  // Recall is of all the record's words, of its signature's or an alias's,
  // or of the signature without its bracketed details, whichever the text
  // holds most of: a broad pattern spells many words a message of the error
  // never holds all of.
  if (all_weight_[i] > 0) m.recall = all / all_weight_[i];
  if (words.weight > 0) m.explained = std::min(1.0, all / words.weight);
  if (all <= 0) return m;  // no word in common with any of its phrases either
  for (uint32_t k = record_phrases_[i]; k < record_phrases_[i + 1]; ++k) {
    const double shared = Shared(words, phrase_ids_, phrase_begin_[k], phrase_begin_[k + 1]);
    m.similarity = std::max(m.similarity, F1(shared, phrase_weight_[k], words.weight));
    if (phrase_weight_[k] > 0) m.recall = std::max(m.recall, shared / phrase_weight_[k]);
  }
  m.recall = std::min(1.0, std::max(m.recall, BareRecall(words, i)));
  m.resemblance = std::max(m.similarity, F1(all, all_weight_[i], words.weight));
  return m;
}

// Each measure alone is read from Measure, so that there is one definition
// of each; the merges are the same ones.
double SignatureIndex::Similarity(const LineWords& words, std::size_t i) const { return Measure(words, i).similarity; }

double SignatureIndex::Recall(const LineWords& words, std::size_t i) const { return Measure(words, i).recall; }

double SignatureIndex::BareRecall(const LineWords& words, std::size_t i) const {
  if (bare_weight_[i] <= 0) return 0;
  return Shared(words, bare_ids_, bare_begin_[i], bare_begin_[i + 1]) / bare_weight_[i];
}

double SignatureIndex::Explained(const LineWords& words, std::size_t i) const { return Measure(words, i).explained; }

double SignatureIndex::Resemblance(const LineWords& words, std::size_t i) const { return Measure(words, i).resemblance; }

bool SignatureIndex::NumberedCodesAgree(const LineWords& words, std::size_t i) const {
  if (words.numbered_codes.empty()) return false;
  const std::span<const uint32_t> names = code_ids_list_.Slice(code_begin_[i], code_begin_[i + 1]);
  return std::any_of(words.numbered_codes.begin(), words.numbered_codes.end(),
                     [&](uint32_t c) { return std::binary_search(names.begin(), names.end(), c); });
}

bool SignatureIndex::CodesConflict(const LineWords& words, std::size_t i) const {
  if (words.code_families.empty()) return false;
  bool same_family = false;
  for (uint32_t k = code_begin_[i]; k < code_begin_[i + 1] && !same_family; ++k) {
    const uint32_t f = code_family_[code_ids_list_[k]];
    same_family = f != UINT32_MAX && std::binary_search(words.code_families.begin(), words.code_families.end(), f);
  }
  return same_family && !CodesAgree(words, i);
}

bool SignatureIndex::SharesFamily(const LineWords& words, std::size_t i) const {
  if (words.families.empty()) return false;
  // In its signature or an alias: a phrase among a broad pattern's
  // alternatives ("...|Connection refused|...") is one way the record's
  // error may show, not what it is.
  for (uint32_t k = record_phrases_[i]; k < record_phrases_[i + 1]; ++k) {
    const std::span<const uint32_t> ids = phrase_ids_.Slice(phrase_begin_[k], phrase_begin_[k + 1]);
    if (std::any_of(words.families.begin(), words.families.end(),
                    [&](uint32_t f) { return std::binary_search(ids.begin(), ids.end(), f); })) {
      return true;
    }
  }
  return false;
}

std::vector<Neighbour> SignatureIndex::FamilyNeighbours(const LineWords& words, std::size_t k) const {
  std::vector<Neighbour> out;
  if (k == 0) return out;
  for (const uint32_t f : words.families) {
    for (const uint32_t r : postings_.Slice(postings_begin_[f], postings_begin_[f + 1])) {
      if (std::any_of(out.begin(), out.end(), [&](const Neighbour& n) { return n.record == r; })) continue;
      if (!SharesFamily(words, r)) continue;
      Neighbour n{r, Measure(words, r)};
      if (ReadsLikeCounterexample(words, r, n.measures.resemblance)) continue;
      out.push_back(n);
    }
  }
  std::sort(out.begin(), out.end(), MoreResembling);
  if (out.size() > k) out.resize(k);
  return out;
}

bool SignatureIndex::MentionsDomain(const LineWords& words, std::size_t i) const {
  const uint32_t d = domain_word_[i];
  return d != UINT32_MAX && std::binary_search(words.known.begin(), words.known.end(), std::make_pair(d, idf_[d]));
}

std::vector<Neighbour> SignatureIndex::Nearest(const LineWords& words, std::size_t k,
                                                double min_similarity) const {
  if (k == 0) return {};
  // Shared weight through the postings of the rarer words; common words are
  // not posted, so this underestimates the overlap, and the best few by
  // this estimate are then scored exactly.
  // Only the entries touched are reset afterwards: clearing the whole array
  // for every line cost more than the rest on a large knowledge base.
  thread_local std::vector<double> shared;
  thread_local std::vector<uint32_t> touched;
  if (shared.size() != records_) shared.assign(records_, 0);
  touched.clear();
  for (const auto& [id, idf] : words.known) {
    for (const uint32_t r : postings_.Slice(postings_begin_[id], postings_begin_[id + 1])) {
      if (shared[r] == 0) touched.push_back(r);
      shared[r] += idf;
    }
  }
  thread_local std::vector<std::pair<std::size_t, double>> estimate;
  estimate.clear();
  for (uint32_t r : touched) {
    double f1 = F1(shared[r], all_weight_[r], words.weight);
    if (f1 >= 0.5 * min_similarity) estimate.emplace_back(r, f1);
    shared[r] = 0;
  }
  constexpr std::size_t kExact = 64;
  const std::size_t exact = std::min(kExact, estimate.size());
  std::partial_sort(estimate.begin(), estimate.begin() + static_cast<std::ptrdiff_t>(exact), estimate.end(),
                    [](const auto& a, const auto& b) { return a.second > b.second; });
  estimate.resize(exact);
  // Scored exactly, best estimates first. A phrase shares at most its own
  // weight and at most what all the record's words share, which bounds its
  // F1: a record whose bound cannot beat the k-th best so far is skipped
  // without reading its phrases.
  std::vector<Neighbour> out;
  out.reserve(k + 1);
  for (const auto& [r, _] : estimate) {
    const double all = Shared(words, all_ids_, all_begin_[r], all_begin_[r + 1]);
    const double all_f1 = F1(all, all_weight_[r], words.weight);
    double bound = all_f1;
    for (uint32_t p = record_phrases_[r]; p < record_phrases_[r + 1]; ++p) {
      bound = std::max(bound, F1(std::min(all, phrase_weight_[p]), phrase_weight_[p], words.weight));
    }
    const double floor = out.size() < k ? min_similarity : out.back().measures.resemblance;
    if (bound < floor) continue;
    const Neighbour scored{r, MeasureSharing(words, r, all)};
    if (scored.measures.resemblance < min_similarity) continue;
    if (ReadsLikeCounterexample(words, r, scored.measures.resemblance)) continue;
    out.insert(std::upper_bound(out.begin(), out.end(), scored, MoreResembling), scored);
    if (out.size() > k) out.pop_back();
  }
  return out;
}

}  // namespace kedb::match
