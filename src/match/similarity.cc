#include "match/similarity.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

#include "util/strings.h"
#include "util/text_words.h"

namespace kedb::match {

using util::ForEachCode;
using util::ForEachWord;
using util::ForEachWordAndCode;
using util::HasDigit;
using util::PatternText;


std::size_t SignatureIndex::Hash::operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }

namespace {

// The family of a numbered code: its letters before the first digit
// ("ts2307" -> "ts", "e0382" -> "e"); empty when it has no number.
std::string_view CodeFamily(std::string_view code) {
  std::size_t letters = 0;
  while (letters < code.size() && code[letters] >= 'a' && code[letters] <= 'z') ++letters;
  if (letters == 0 || letters == code.size() || code[letters] < '0' || code[letters] > '9') return {};
  return code.substr(0, letters);
}

// A word in more records than this carries little meaning for retrieval;
// it still counts in the measures through its (low) weight, but does not
// propose candidates.
// Capped, so that finding candidates costs about the same at a million
// records as at ten thousand: a word in more than 1,000 records names
// no error by itself, and the words of a line that do are rarer.
std::size_t MaxCandidateDf(std::size_t records) { return std::clamp<std::size_t>(records / 20, 50, 1000); }

// What a word of the text that no record has adds to the text's weight:
// about what the commonest words weigh. Such words are mostly names and
// values; those with a digit count nothing.
constexpr double kUnknownWordWeight = 1.0;

// `text` without its parts in round brackets (not nested further).
std::string WithoutBracketed(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  int depth = 0;
  for (char c : text) {
    if (c == '(') ++depth;
    if (depth == 0) out += c;
    if (c == ')' && depth > 0) --depth;
  }
  return depth == 0 ? out : std::string(text);
}

// Five digits or more, nothing else: 65536, 134217728; not 404 or 1045,
// which name errors.
bool IsLongNumber(std::string_view word) {
  return word.size() >= 5 && std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
}

void SortUnique(std::vector<uint32_t>* ids) {
  std::sort(ids->begin(), ids->end());
  ids->erase(std::unique(ids->begin(), ids->end()), ids->end());
}

}  // namespace

DomainCues::DomainCues(const std::vector<std::string>& domains, const std::vector<uint32_t>& begin,
                       const std::vector<uint32_t>& words, const std::vector<double>& idf)
    : idf_(idf) {
  std::map<std::string, uint16_t> index;
  for (const auto& d : domains) index.emplace(d, 0);
  for (auto& [name, i] : index) {
    i = static_cast<uint16_t>(names_.size());
    names_.push_back(name);
  }
  std::vector<double> records_in(names_.size(), 0);
  record_domain_.reserve(domains.size());
  for (const auto& d : domains) {
    record_domain_.push_back(index[d]);
    ++records_in[index[d]];
  }
  // Per word: in how many records of each domain it appears. (Pairs sorted
  // and counted in runs: this runs at every start.)
  std::vector<std::pair<uint32_t, uint16_t>> pairs;
  pairs.reserve(words.size());
  for (std::size_t r = 0; r + 1 < begin.size(); ++r) {
    for (uint32_t k = begin[r]; k < begin[r + 1]; ++k) pairs.emplace_back(words[k], record_domain_[r]);
  }
  std::sort(pairs.begin(), pairs.end());
  by_word_begin_.assign(idf.size() + 1, 0);
  for (std::size_t i = 0; i < pairs.size();) {
    const uint32_t w = pairs[i].first;
    std::size_t end = i;
    while (end < pairs.size() && pairs[end].first == w) ++end;
    const std::size_t first = by_word_.size();
    double total = 0;
    for (std::size_t k = i; k < end;) {
      std::size_t run = k;
      while (run < end && pairs[run].second == pairs[k].second) ++run;
      const double share = static_cast<double>(run - k) / records_in[pairs[k].second];
      by_word_.emplace_back(pairs[k].second, static_cast<float>(share));
      total += share;
      k = run;
    }
    for (std::size_t k = first; k < by_word_.size(); ++k) by_word_[k].second = static_cast<float>(by_word_[k].second / total);
    by_word_begin_[w + 1] = static_cast<uint32_t>(by_word_.size() - first);
    i = end;
  }
  for (std::size_t w = 0; w < idf.size(); ++w) by_word_begin_[w + 1] += by_word_begin_[w];
}

std::vector<double> DomainCues::Affinity(const LineWords& words) const {
  std::vector<double> a(names_.size(), 0);
  for (const auto& [id, idf] : words.known) {
    if (id + 1 >= by_word_begin_.size()) continue;
    for (uint32_t k = by_word_begin_[id]; k < by_word_begin_[id + 1]; ++k) a[by_word_[k].first] += idf * by_word_[k].second;
  }
  double best = *std::max_element(a.begin(), a.end());
  if (best > 0) {
    for (double& x : a) x /= best;
  }
  return a;
}

SignatureIndex::SignatureIndex(const KnowledgeBase& kb) {
  const std::size_t n_records = kb.size();
  // Every word of `text` as an id (new words get the next one).
  auto intern = [&](std::string_view text, std::vector<uint32_t>* out) {
    ForEachWord(text, [&](std::string_view w) {
      auto it = ids_.find(w);
      if (it == ids_.end()) it = ids_.emplace(std::string(w), static_cast<uint32_t>(ids_.size())).first;
      out->push_back(it->second);
    });
  };
  std::vector<std::string> domains;
  domains.reserve(n_records);
  record_phrases_.reserve(n_records + 1);
  all_begin_.reserve(n_records + 1);
  std::vector<uint32_t> phrase, all;
  for (std::size_t r = 0; r < n_records; ++r) {
    const Record& rec = kb.records()[r];
    record_phrases_.push_back(static_cast<uint32_t>(phrase_begin_.size()));
    all.clear();
    auto add_phrase = [&](std::string_view text) {
      phrase.clear();
      intern(text, &phrase);
      SortUnique(&phrase);
      if (phrase.empty()) return;
      phrase_begin_.push_back(static_cast<uint32_t>(phrase_ids_.size()));
      phrase_ids_.insert(phrase_ids_.end(), phrase.begin(), phrase.end());
      all.insert(all.end(), phrase.begin(), phrase.end());
    };
    add_phrase(rec.signature);
    for (const auto& a : rec.aliases) add_phrase(a);
    // The signature without its details in brackets, "(tried to allocate
    // N bytes)", which people quoting the message leave out: for recall
    // only, or two records that differ in their details would read alike.
    bare_begin_.push_back(static_cast<uint32_t>(bare_ids_.size()));
    if (std::string bare = WithoutBracketed(rec.signature); bare != rec.signature) {
      phrase.clear();
      intern(bare, &phrase);
      SortUnique(&phrase);
      bare_ids_.insert(bare_ids_.end(), phrase.begin(), phrase.end());
    }
    // The errors it names, in its signature, aliases and pattern.
    std::string named = rec.signature;
    for (const auto& a : rec.aliases) (named += '\n') += a;
    (named += '\n') += PatternText(rec.regex);
    code_begin_.push_back(static_cast<uint32_t>(code_ids_list_.size()));
    std::vector<uint32_t> codes;
    ForEachCode(named, [&](std::string_view c) {
      auto it = code_ids_.find(c);
      if (it == code_ids_.end()) {
        it = code_ids_.emplace(std::string(c), static_cast<uint32_t>(code_ids_.size())).first;
        code_df_.push_back(0);
      }
      codes.push_back(it->second);
    });
    SortUnique(&codes);
    for (uint32_t c : codes) ++code_df_[c];
    code_ids_list_.insert(code_ids_list_.end(), codes.begin(), codes.end());
    intern(PatternText(rec.regex), &all);
    SortUnique(&all);
    all_begin_.push_back(static_cast<uint32_t>(all_ids_.size()));
    all_ids_.insert(all_ids_.end(), all.begin(), all.end());
    // The domain's own name is the plainest cue of all.
    std::string domain = rec.domain;
    for (char& c : domain) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::vector<uint32_t> domain_word;
    intern(domain, &domain_word);
    domain_word_.push_back(domain_word.empty() ? UINT32_MAX : domain_word.front());
    domains.push_back(std::move(domain));
  }
  record_phrases_.push_back(static_cast<uint32_t>(phrase_begin_.size()));
  phrase_begin_.push_back(static_cast<uint32_t>(phrase_ids_.size()));
  bare_begin_.push_back(static_cast<uint32_t>(bare_ids_.size()));
  all_begin_.push_back(static_cast<uint32_t>(all_ids_.size()));
  code_begin_.push_back(static_cast<uint32_t>(code_ids_list_.size()));
  Derive(domains);
  DeriveCounters(kb);
}

void SignatureIndex::DeriveCounters(const KnowledgeBase& kb) {
  counter_ids_.clear();
  counter_begin_.clear();
  counter_weight_.clear();
  record_counters_.clear();
  for (const Record& rec : kb.records()) {
    record_counters_.push_back(static_cast<uint32_t>(counter_weight_.size()));
    for (const Occurrence& c : rec.counterexamples) {
      for (std::string_view text : util::SplitLines(c.text)) {
        const LineWords line = Words(text);
        if (line.known.empty()) continue;
        counter_begin_.push_back(static_cast<uint32_t>(counter_ids_.size()));
        for (const auto& [id, idf] : line.known) counter_ids_.push_back(id);
        counter_weight_.push_back(line.weight);
      }
    }
  }
  record_counters_.push_back(static_cast<uint32_t>(counter_weight_.size()));
  counter_begin_.push_back(static_cast<uint32_t>(counter_ids_.size()));
}

double SignatureIndex::CounterSimilarity(const LineWords& words, std::size_t i) const {
  double best = 0;
  for (uint32_t k = record_counters_[i]; k < record_counters_[i + 1]; ++k) {
    const double shared = Shared(words, counter_ids_, counter_begin_[k], counter_begin_[k + 1]);
    best = std::max(best, F1(shared, counter_weight_[k], words.weight));
  }
  return best;
}

void SignatureIndex::Derive(const std::vector<std::string>& domains) {
  const std::size_t n_records = domains.size();
  std::vector<uint32_t> df(ids_.size(), 0);
  for (uint32_t id : all_ids_) ++df[id];
  const double n = static_cast<double>(std::max<std::size_t>(n_records, 1));
  idf_.resize(ids_.size());
  for (std::size_t t = 0; t < idf_.size(); ++t) idf_[t] = std::log(1 + n / std::max<double>(df[t], 1));
  // A long number in a record is a value (a size, an address, a pid) that
  // the next occurrence of the error will not repeat; rare as it is, it
  // weighs as little as an unknown word, or a signature that quotes one
  // could not be recognised without it.
  for (const auto& [word, id] : ids_) {
    if (IsLongNumber(word)) idf_[id] = std::min(idf_[id], kUnknownWordWeight);
  }
  const std::size_t max_df = MaxCandidateDf(n_records);
  postings_begin_.assign(ids_.size() + 1, 0);
  for (std::size_t t = 0; t < df.size(); ++t) postings_begin_[t + 1] = postings_begin_[t] + (df[t] <= max_df ? df[t] : 0);
  postings_.resize(postings_begin_.back());
  std::vector<uint32_t> fill(postings_begin_.begin(), postings_begin_.end() - 1);
  for (std::size_t k = 0; k + 1 < phrase_begin_.size(); ++k) {
    double w = 0;
    for (uint32_t j = phrase_begin_[k]; j < phrase_begin_[k + 1]; ++j) w += idf_[phrase_ids_[j]];
    phrase_weight_.push_back(w);
  }
  bare_weight_.clear();
  for (std::size_t i = 0; i + 1 < bare_begin_.size(); ++i) {
    double w = 0;
    for (uint32_t j = bare_begin_[i]; j < bare_begin_[i + 1]; ++j) w += idf_[bare_ids_[j]];
    bare_weight_.push_back(w);
  }
  for (uint32_t i = 0; i < n_records; ++i) {
    double w = 0;
    for (uint32_t k = all_begin_[i]; k < all_begin_[i + 1]; ++k) {
      uint32_t t = all_ids_[k];
      w += idf_[t];
      if (df[t] <= max_df) postings_[fill[t]++] = i;
    }
    all_weight_.push_back(w);
  }
  // Code families, from the codes' own names.
  family_ids_.clear();
  code_family_.assign(code_ids_.size(), UINT32_MAX);
  for (const auto& [code, id] : code_ids_) {
    std::string_view family = CodeFamily(code);
    if (family.empty()) continue;
    auto it = family_ids_.find(family);
    if (it == family_ids_.end()) {
      it = family_ids_.emplace(std::string(family), static_cast<uint32_t>(family_ids_.size())).first;
    }
    code_family_[id] = it->second;
  }
  // A domain's cue words: every word of its records, and its own name.
  std::vector<uint32_t> cue_begin{0}, cue_words;
  cue_words.reserve(all_ids_.size() + n_records);
  for (uint32_t i = 0; i < n_records; ++i) {
    const auto first = all_ids_.begin() + all_begin_[i], last = all_ids_.begin() + all_begin_[i + 1];
    cue_words.insert(cue_words.end(), first, last);
    if (domain_word_[i] != UINT32_MAX && !std::binary_search(first, last, domain_word_[i])) {
      cue_words.push_back(domain_word_[i]);
    }
    cue_begin.push_back(static_cast<uint32_t>(cue_words.size()));
  }
  cues_ = DomainCues(domains, cue_begin, cue_words, idf_);
}

LineWords SignatureIndex::Words(std::string_view text) const {
  LineWords w;
  w.known.reserve(32);
  // Words no record has are counted once each, told apart by their hash.
  thread_local std::vector<std::size_t> unknown;
  unknown.clear();
  // Names most records share ("RuntimeError") say little either way.
  const std::size_t max_df = MaxCandidateDf(code_begin_.empty() ? 0 : code_begin_.size() - 1);
  ForEachWordAndCode(
      text,
      [&](std::string_view t) {
        if (auto it = ids_.find(t); it != ids_.end()) {
          w.known.emplace_back(it->second, idf_[it->second]);
        } else if (!HasDigit(t)) {
          unknown.push_back(std::hash<std::string_view>()(t));
        }
      },
      [&](std::string_view c) {
        auto it = code_ids_.find(c);
        if (it != code_ids_.end() && code_df_[it->second] <= max_df) w.codes.push_back(it->second);
        std::string_view family = CodeFamily(c);
        if (family.empty()) return;
        if (auto f = family_ids_.find(family); f != family_ids_.end()) w.code_families.push_back(f->second);
      });
  std::sort(w.known.begin(), w.known.end());
  w.known.erase(std::unique(w.known.begin(), w.known.end()), w.known.end());
  for (const auto& [id, idf] : w.known) w.weight += idf;
  std::sort(unknown.begin(), unknown.end());
  w.weight += kUnknownWordWeight * static_cast<double>(std::unique(unknown.begin(), unknown.end()) - unknown.begin());
  std::sort(w.codes.begin(), w.codes.end());
  w.codes.erase(std::unique(w.codes.begin(), w.codes.end()), w.codes.end());
  std::sort(w.code_families.begin(), w.code_families.end());
  w.code_families.erase(std::unique(w.code_families.begin(), w.code_families.end()), w.code_families.end());
  return w;
}

bool SignatureIndex::CodesAgree(const LineWords& words, std::size_t i) const {
  const uint32_t* b = code_ids_list_.data() + code_begin_[i];
  const uint32_t* e = code_ids_list_.data() + code_begin_[i + 1];
  return std::any_of(words.codes.begin(), words.codes.end(), [&](uint32_t c) { return std::binary_search(b, e, c); });
}


double SignatureIndex::Shared(const LineWords& words, const std::vector<uint32_t>& ids, uint32_t begin,
                              uint32_t end) const {
  const uint32_t* s = ids.data() + begin;
  const uint32_t* e = ids.data() + end;
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

bool SignatureIndex::CodesConflict(const LineWords& words, std::size_t i) const {
  if (words.code_families.empty()) return false;
  bool same_family = false;
  for (uint32_t k = code_begin_[i]; k < code_begin_[i + 1] && !same_family; ++k) {
    const uint32_t f = code_family_[code_ids_list_[k]];
    same_family = f != UINT32_MAX && std::binary_search(words.code_families.begin(), words.code_families.end(), f);
  }
  return same_family && !CodesAgree(words, i);
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
  if (shared.size() != all_weight_.size()) shared.assign(all_weight_.size(), 0);
  touched.clear();
  for (const auto& [id, idf] : words.known) {
    for (uint32_t p = postings_begin_[id]; p < postings_begin_[id + 1]; ++p) {
      const uint32_t r = postings_[p];
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
  auto better = [](const Neighbour& a, const Neighbour& b) {
    const double x = a.measures.resemblance, y = b.measures.resemblance;
    return x != y ? x > y : a.record < b.record;
  };
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
    out.insert(std::upper_bound(out.begin(), out.end(), scored, better), scored);
    if (out.size() > k) out.pop_back();
  }
  return out;
}

}  // namespace kedb::match
