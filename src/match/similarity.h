// SignatureIndex: how much a piece of text reads like a record.
//
// A record is read as two sets of words (text_words.h: values masked,
// inflections folded): its signature with its aliases, and all the words
// it spells, which adds the literal words of its regex. Words are weighted
// by rarity across the knowledge base (IDF), so that
// "CUDNN_STATUS_BAD_PARAM" counts for much more than "error"; words of the
// text no record has (names, values the masking missed) count as little as
// the commonest words, and those with a digit not at all.
//
// Three measures come out of it, each in [0,1]:
//   - Similarity: F1 of the weighted overlap of a line and the signature
//     (1 for the signature itself): the line reads like the record;
//   - Recall: the share of the record's words (pattern words too) the text
//     holds: a reworded message still names most of what the record does;
//   - and, through DomainCues, which domain the text's words belong to.
// Nearest proposes "fuzzy" candidates when no pattern fires.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kedb/knowledge_base.h"
#include "util/section_file.h"

namespace kedb::match {

// A text's words with their weights, computed once per text and shared by
// every record it is compared with.
struct LineWords {
  double weight = 0;                // the known words' idf, plus a little per unknown word
  // The words some record has, as the index's ids, ascending, with their
  // idf: what the measures are computed from.
  std::vector<std::pair<uint32_t, double>> known;
  // The text's error names (MessageCodes) that some record names and few
  // do, as code ids, ascending.
  std::vector<uint32_t> codes;
  // Those of `codes` with a digit (E0382, TS2307, NU1605, E11000): a
  // numbered code names one error; a name such as EACCES or ImportError
  // names a kind of error many records share.
  std::vector<uint32_t> numbered_codes;
  // The families of the numbered codes the text names ("ts" for TS2403,
  // "cs" for CS0246), known or not, as family ids, ascending.
  std::vector<uint32_t> code_families;
  // The words of error families (util/error_phrases.h) among `known`, as
  // word ids, ascending: the text says an error some record says in
  // another tool's words.
  std::vector<uint32_t> families;
  // The same text's words against a second, smaller index laid over this
  // one (the records changed since it was built: engine/layered_indexes.h);
  // null when there is none.
  std::shared_ptr<const LineWords> changed;
};

// How much the words of a text point at each domain of the knowledge base:
// a word counts for a domain in proportion to the share of that domain's
// records that use it, weighted by its rarity. "npm" points at node,
// "kubectl" at kubernetes, "NCCL" at cuda and pytorch. Built from the
// records alone.
class DomainCues {
 public:
  DomainCues() = default;
  // Writes the cues as sections: `domains[i]` is record i's domain; its
  // word ids (each once) are `words[begin[i] .. begin[i + 1])`; `idf` has
  // one value per word id. (Built once, when the index is.)
  // `other_sizes`: records per domain of an index this one is laid over,
  // counted in each domain's size (a word's share of a domain is the share
  // of the domain's records that have it).
  static void Write(const std::vector<std::string>& domains, const std::vector<uint32_t>& begin,
                    const std::vector<uint32_t>& words, std::size_t word_count, util::SectionWriter* w,
                    const std::map<std::string, double>& other_sizes = {});
  // Records per domain, by name.
  std::map<std::string, double> Sizes() const;
  // Word w's shares before they were made to sum to 1: what splits a
  // word between two indexes laid one over the other.
  double Total(uint32_t w) const { return w < total_.size() ? total_[w] : 0; }
  static constexpr std::size_t kSections = 7;
  // Binds the sections Write wrote, from `first`; `idf` by word id.
  bool Bind(const util::SectionFile& file, std::size_t first, util::Array<double> idf, std::size_t records);
  const std::vector<std::string>& names() const { return names_; }

  // Per domain (DomainOf's numbering), the text's affinity, scaled so that
  // the strongest domain has 1 (unless `scaled` is false); all 0 when no
  // word points anywhere.
  std::vector<double> Affinity(const LineWords& words, bool scaled = true) const;
  // Record i's domain, as an index into Affinity().
  std::size_t DomainOf(std::size_t record) const { return record_domain_[record]; }
  std::size_t domains() const { return names_.size(); }

  // A word's share of a domain's records.
  struct Share {
    uint16_t domain;
    uint16_t unused;
    float share;
  };

 private:
  std::vector<std::string> names_;  // few: read whole on opening
  util::Array<uint16_t> record_domain_;
  // Word id w -> (domain, the word's share of that domain's records), the
  // shares of one word summing to 1: by_word_[by_word_begin_[w] ..
  // by_word_begin_[w + 1]).
  util::Array<uint32_t> by_word_begin_;
  util::Array<Share> by_word_;
  util::Array<float> total_;  // by word id
  util::Array<double> idf_;
};

// What SignatureIndex::Measure finds of a text against one record.
struct WordMeasures {
  double similarity = 0, recall = 0, explained = 0, resemblance = 0;
  bool operator==(const WordMeasures&) const = default;
};

// A record a text reads like, with everything measured of it, so that a
// candidate made of it need not measure again.
struct Neighbour {
  std::size_t record = 0;
  WordMeasures measures;  // measures.resemblance is what it was found by
  bool operator==(const Neighbour&) const = default;
};

// The order neighbours are offered in: the most resembling first, then by
// record, so that ties fall the same way in every index.
inline bool MoreResembling(const Neighbour& a, const Neighbour& b) {
  const double x = a.measures.resemblance, y = b.measures.resemblance;
  return x != y ? x > y : a.record < b.record;
}

class SignatureIndex {
 public:
  // Reads every record (tens of milliseconds on the 2,522-record corpus).
  explicit SignatureIndex(const KnowledgeBase& kb);
  // An index of a few records laid over `weighed_like` (the records changed
  // since it was built): their words weigh what they would in one index of
  // both, and a text's words it does not know but `weighed_like` does
  // weigh what they do there. `weighed_like` must outlive it.
  SignatureIndex(const KnowledgeBase& kb, const SignatureIndex& weighed_like);
  SignatureIndex(SignatureIndex&&) noexcept;
  SignatureIndex& operator=(SignatureIndex&&) noexcept;
  ~SignatureIndex();

  // The index of `kb` from the cache folder `cache_dir` when a file there
  // was written for the same records by the same word rules; otherwise
  // built, and written there for the next start ("" for no cache). The
  // file is used in place (util/section_file.h): opening it reads its
  // tables, and a query reads only the words and records it touches.
  static std::unique_ptr<SignatureIndex> Open(const KnowledgeBase& kb, const std::string& cache_dir);

  // The words of `text` with this index's weights.
  LineWords Words(std::string_view text) const;

  // Similarity, Recall, Explained and Resemblance at once, for the cost of
  // one overlap per phrase and one with all the record's words.
  using Measures = WordMeasures;
  Measures Measure(const LineWords& words, std::size_t i) const;

  // Weighted-overlap F1 of the words and record `i`'s signature, or one of
  // its aliases, whichever reads closest; in [0,1].
  double Similarity(const LineWords& words, std::size_t i) const;

  // The weighted share of record `i`'s words found among `words`, in
  // [0,1]: of its signature's or one alias's words, or of all its words
  // (pattern words too), whichever is largest.
  double Recall(const LineWords& words, std::size_t i) const;

  // The weighted share of the text's words that record `i` has (signature,
  // aliases, pattern words), in [0,1]: 1 when nothing in the text is
  // foreign to the record.
  double Explained(const LineWords& words, std::size_t i) const;

  // How much the words read like record `i`: the larger of Similarity and
  // the F1 against all the record's words. What Nearest ranks by.
  double Resemblance(const LineWords& words, std::size_t i) const;

  // Whether the text and record `i` name the same error (a status, a code,
  // an exception class: MessageCodes).
  bool CodesAgree(const LineWords& words, std::size_t i) const;

  // Whether the text and record `i` name the same numbered code (E0382,
  // TS2307, NU1605: LineWords::numbered_codes).
  bool NumberedCodesAgree(const LineWords& words, std::size_t i) const;

  // Whether the text names a numbered code of a family record `i` names
  // codes of, and none of the record's: TS2403 against a TS2322 record.
  bool CodesConflict(const LineWords& words, std::size_t i) const;

  // Whether the text holds a phrase of an error family record `i`'s
  // signature or one of its aliases holds a phrase of too
  // (util/error_phrases.h).
  bool SharesFamily(const LineWords& words, std::size_t i) const;

  // Whether the words name record `i`'s domain ("cuda", "docker", ...).
  bool MentionsDomain(const LineWords& words, std::size_t i) const;

  const DomainCues& domains() const { return cues_; }
  // For an index laid over another (weighed_like): the unscaled affinity
  // (DomainCues) of a text's words, `theirs` against the other index and
  // `ours` against this one, each word split between the two indexes'
  // domains as one index of both records would split it. Returns the
  // other's domains, then this one's.
  std::pair<std::vector<double>, std::vector<double>> AffinityLaidOver(const LineWords& theirs,
                                                                       const LineWords& ours) const;

  // How much the words read like one of record `i`'s counterexamples (real
  // texts of look-alike errors it must not be taken for), line by line:
  // the best F1; 0 when it lists none.
  double CounterSimilarity(const LineWords& words, std::size_t i) const;
  // Whether the words read at least as much like one of record `i`'s
  // counterexamples as `resemblance` (how much they read like the record):
  // then the text is that other error, and not a fuzzy match for `i`.
  bool ReadsLikeCounterexample(const LineWords& words, std::size_t i, double resemblance) const {
    return record_counters_[i] != record_counters_[i + 1] && CounterSimilarity(words, i) >= resemblance;
  }

  // Up to `k` records whose signature, or all of whose words, the text
  // reads like (Resemblance at least `min_similarity`), best first. A
  // record the text reads at least as much like one of its counterexamples
  // as like itself is not proposed: the text is that other error.
  std::vector<Neighbour> Nearest(const LineWords& words, std::size_t k, double min_similarity) const;

  // Up to `k` records that share an error family with the text
  // (SharesFamily), however little else of them it reads like: the most
  // resembling first. Counterexamples rule records out as in Nearest.
  std::vector<Neighbour> FamilyNeighbours(const LineWords& words, std::size_t k) const;

 private:
  SignatureIndex();
  // The index file's bytes, built from every record (signature_build.cc).
  static std::string BuildFile(const KnowledgeBase& kb, uint64_t key, const SignatureIndex* weighed_like = nullptr);
  // Binds every table to `file`'s sections; false when they do not fit
  // together (a file of another shape is rebuilt).
  bool Bind(std::unique_ptr<util::SectionFile> file, std::size_t records);
  static uint64_t ContentKey(const KnowledgeBase& kb);

  // Weighted overlap of the words with the ids of one run of `ids`.
  double Shared(const LineWords& words, const util::Array<uint32_t>& ids, uint32_t begin, uint32_t end) const;
  double F1(double shared, double record_weight, double text_weight) const;
  // The share of record i's signature without its bracketed details that
  // the words hold; 0 when it has none.
  double BareRecall(const LineWords& words, std::size_t i) const;
  // Measure, given what the words share with all of record i's words.
  Measures MeasureSharing(const LineWords& words, std::size_t i, double all) const;

  // Every table below is a section of file_. Words are interned: every
  // word of every record has an id, and a record is its sorted ids, so
  // that comparing costs integer work instead of a string per word.
  std::unique_ptr<util::SectionFile> file_;
  std::size_t records_ = 0;
  const SignatureIndex* weighed_like_ = nullptr;
  util::StringTable words_;
  util::Array<double> idf_;  // by word id
  // A record's phrases are its signature and its aliases, each read on its
  // own: phrase k's ids are phrase_ids_[phrase_begin_[k] .. phrase_begin_[k + 1]),
  // record i's phrases are [record_phrases_[i], record_phrases_[i + 1]).
  // All its ids (pattern words too): all_ids_[all_begin_[i] .. all_begin_[i + 1]).
  util::Array<uint32_t> phrase_ids_, phrase_begin_, record_phrases_, all_ids_, all_begin_;
  util::Array<double> phrase_weight_, all_weight_;  // sum of idf per phrase, per record
  // Record i's signature without its bracketed details, when it has some:
  // bare_ids_[bare_begin_[i] .. bare_begin_[i + 1]), and its weight.
  util::Array<uint32_t> bare_ids_, bare_begin_;
  util::Array<double> bare_weight_;
  util::Array<uint32_t> domain_word_;  // per record: its domain as a word id
  // Error names, interned like words; record i's are
  // code_ids_list_[code_begin_[i] .. code_begin_[i + 1]), ascending.
  util::StringTable codes_;
  util::Array<uint32_t> code_df_, code_ids_list_, code_begin_;
  // Families of numbered codes: by family name, and per code id
  // (UINT32_MAX when the code has no number).
  util::StringTable families_;
  util::Array<uint32_t> code_family_;
  // Word id w's records (for the words few records have):
  // postings_[postings_begin_[w] .. postings_begin_[w + 1]).
  util::Array<uint32_t> postings_begin_, postings_;
  DomainCues cues_;
  // Counterexample line k's known word ids: counter_ids_[counter_begin_[k]
  // .. counter_begin_[k + 1]), its weight counter_weight_[k] (unknown words
  // included); record i's lines are [record_counters_[i], record_counters_[i + 1]).
  util::Array<uint32_t> counter_ids_, counter_begin_, record_counters_;
  util::Array<double> counter_weight_;
};

}  // namespace kedb::match
