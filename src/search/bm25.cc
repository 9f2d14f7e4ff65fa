#include "search/bm25.h"

#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <cmath>
#include <cstring>
#include <functional>
#include <unordered_map>

#include <fmt/format.h>

#include "search/tokenizer.h"
#include "util/binary_io.h"

namespace kedb::search {
namespace {

constexpr double kK1 = 1.2;
constexpr double kB = 0.75;
constexpr std::size_t kMinPrefix = 4;
constexpr double kPrefixWeight = 0.5;
constexpr std::size_t kMaxPrefixTerms = 64;
// How many postings a search scores in full (see the header), how many of
// its best records the remaining terms refine at least, and how many query
// words are told apart in a hit's terms.
constexpr std::size_t kPostingBudget = 8192;
constexpr std::size_t kRefineMin = 64;
constexpr std::size_t kMaxQueryWords = 64;

}  // namespace

namespace {

// Bump when the layout below or the tokenizer changes.
constexpr char kFormat[] = "KEDBBM25:3:tokenizer-2";  // 3: checked in 4 KB blocks
constexpr std::string_view kMagic = "KEDBBM25";
// The sections of the file, in order.
enum Section : std::size_t { kTermChars, kTermEnds, kOffsets, kDocs, kTfs, kDocLength, kAverageLength, kSections };
// BM25 indexes kept per cache folder, as for pattern databases.
constexpr std::size_t kCachedIndexes = 8;

}  // namespace

std::string Bm25Index::BuildFile(const KnowledgeBase& kb, uint64_t key) {
  const std::size_t n = kb.size();
  std::vector<float> doc_length(n);
  std::unordered_map<std::string, std::vector<std::pair<uint32_t, float>>> postings;
  postings.reserve(n * 8);
  double total = 0;
  // Per document: its weighted words, sorted and summed, then posted once.
  std::vector<std::pair<std::string, float>> words;
  kb.ForEachRecord([&](std::size_t record, const Record& r) {
    const auto d = static_cast<uint32_t>(record);
    words.clear();
    auto add = [&](std::string_view text, float weight) {
      for (auto& t : Tokenize(text)) words.emplace_back(std::move(t), weight);
    };
    add(r.signature, 3);
    for (const auto& a : r.aliases) add(a, 3);
    add(r.error_code, 3);
    add(r.signature_zh, 2);
    for (const auto& t : r.tags) add(t, 2);
    add(r.root_cause, 1);
    add(r.root_cause_zh, 1);
    for (const auto& w : r.workarounds_zh) add(w, 1);
    std::sort(words.begin(), words.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    float length = 0;
    for (std::size_t i = 0; i < words.size();) {
      std::size_t j = i;
      float tf = 0;
      for (; j < words.size() && words[j].first == words[i].first; ++j) tf += words[j].second;
      length += tf;
      postings[std::move(words[i].first)].emplace_back(d, tf);
      i = j;
    }
    doc_length[d] = length;
    total += length;
  });
  const double average = n == 0 ? 1 : std::max(1.0, total / static_cast<double>(n));
  std::vector<const std::string*> terms;
  terms.reserve(postings.size());
  for (const auto& [term, _] : postings) terms.push_back(&term);
  std::sort(terms.begin(), terms.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
  std::string chars;
  std::vector<uint32_t> ends, offsets{0}, docs;
  std::vector<float> tfs;
  for (const std::string* term : terms) {
    chars += *term;
    ends.push_back(static_cast<uint32_t>(chars.size()));
    for (auto [doc, tf] : postings[*term]) {
      docs.push_back(doc);
      tfs.push_back(tf);
    }
    offsets.push_back(static_cast<uint32_t>(docs.size()));
  }
  util::SectionWriter w;
  w.AddBytes(chars);
  w.Add(ends);
  w.Add(offsets);
  w.Add(docs);
  w.Add(tfs);
  w.Add(doc_length);
  w.Add(std::vector<double>{average});
  return w.Finish(kMagic, key);
}

Bm25Index::Bm25Index(const KnowledgeBase& kb, const Bm25Index& weighed_like) : Bm25Index(kb) {
  weighed_like_ = &weighed_like;
}

Bm25Index::Bm25Index(const KnowledgeBase& kb) : kb_(&kb) {
  const uint64_t key = ContentKey(kb);
  if (!Bind(util::SectionFile::FromBytes(BuildFile(kb, key), kMagic, key))) {
    std::fprintf(stderr, "kedb: internal error: the search index built for %zu records does not read back\n",
                 kb.size());
    std::abort();
  }
}

bool Bm25Index::Bind(std::unique_ptr<util::SectionFile> file) {
  if (!file || file->sections() != kSections) return false;
  util::Array<double> average;
  if (!file->Get(kTermChars, &term_chars_) || !file->Get(kTermEnds, &term_ends_) || !file->Get(kOffsets, &offsets_) ||
      !file->Get(kDocs, &docs_) || !file->Get(kTfs, &tfs_) || !file->Get(kDocLength, &doc_length_) ||
      !file->Get(kAverageLength, &average) || average.size() != 1) {
    return false;
  }
  // The shapes must agree; the values between are trusted as written,
  // every block being checked against its checksum before it is read.
  const std::size_t terms = term_ends_.size();
  if (doc_length_.size() != kb_->size() || offsets_.size() != terms + 1 || offsets_[0] != 0 ||
      offsets_[terms] != docs_.size() || tfs_.size() != docs_.size() ||
      (terms == 0 ? !term_chars_.empty() : term_ends_[terms - 1] != term_chars_.size())) {
    return false;
  }
  average_length_ = average[0];
  file_ = std::move(file);
  return true;
}

std::unique_ptr<Bm25Index> Bm25Index::Open(const KnowledgeBase& kb, const std::string& cache_dir) {
  const uint64_t key = ContentKey(kb);
  std::string path;
  if (!cache_dir.empty()) {
    path = (std::filesystem::path(cache_dir) / fmt::format("bm25-{:016x}.bin", key)).string();
    std::unique_ptr<Bm25Index> index(new Bm25Index(&kb));
    if (index->Bind(util::SectionFile::Open(path, kMagic, key))) return index;
  }
  auto index = std::make_unique<Bm25Index>(kb);
  // An unwritable cache only costs time.
  if (!path.empty() && util::WriteFileAtomically(path, index->file_->bytes(), util::WriteFor::kReadInPlaces)) {
    util::PruneCacheFiles(cache_dir, "bm25-", kCachedIndexes);
  }
  return index;
}

std::unique_ptr<Bm25Index> Bm25Index::Deserialize(const KnowledgeBase& kb, std::string_view bytes) {
  const uint64_t key = ContentKey(kb);
  std::unique_ptr<Bm25Index> index(new Bm25Index(&kb));
  if (!index->Bind(util::SectionFile::FromBytes(std::string(bytes), kMagic, key))) return nullptr;
  return index;
}

std::string_view Bm25Index::Term(std::size_t i) const {
  const uint32_t begin = i == 0 ? 0 : term_ends_[i - 1], end = term_ends_[i];
  const auto chars = term_chars_.Slice(begin, end);
  return {chars.data(), chars.size()};
}

std::size_t Bm25Index::LowerBound(std::string_view term) const {
  std::size_t lo = 0, hi = terms();
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (Term(mid) < term) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

std::size_t Bm25Index::Find(std::string_view term) const {
  const std::size_t at = LowerBound(term);
  return at < terms() && Term(at) == term ? at : terms();
}

uint64_t Bm25Index::ContentKey(const KnowledgeBase& kb) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  auto add = [&](std::string_view s) {
    uint64_t len = s.size();
    XXH3_64bits_update(st, &len, sizeof len);
    XXH3_64bits_update(st, s.data(), s.size());
  };
  add(kFormat);
  // The word rules are code, not data: their output on a probe text that
  // exercises each rule goes into the key, so an index built by other
  // rules is never read back, even when nobody remembered to bump kFormat.
  for (const std::string& term :
       Tokenize("ConnectionRefusedError: connecting to '/etc/hosts' failed; CUDNN_STATUS_BAD_PARAM at "
                "0x7f3b6e7236fc in torch.cuda (E0502, TS2307) 错误：显存不足（OOM）。 café")) {
    add(term);
  }
  // The records' whole content (see SignatureIndex::ContentKey).
  const uint64_t content = kb.content_key();
  XXH3_64bits_update(st, &content, sizeof content);
  uint64_t key = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return key;
}

namespace {

// One index term a query reaches: a word of the query, or a word it begins.
struct QueryTerm {
  std::size_t term = 0;
  uint32_t word = 0;  // the query word's position in the sorted query words
  double weight = 1;
  uint32_t df = 0;    // postings
  double idf = 0;
};

// Scores per document, in an open-addressing table with room for the
// posting budget. One per thread, reused: a search clears only the slots
// it filled, so its cost follows the query, not the index.
class Accumulator {
 public:
  struct Slot {
    uint32_t doc = kEmpty;
    double score = 0;
    uint64_t words = 0;
  };
  static constexpr uint32_t kEmpty = UINT32_MAX;

  Accumulator() {
    std::size_t capacity = 16;
    while (capacity < 2 * kPostingBudget) capacity <<= 1;
    slots_.resize(capacity);
  }
  // The slot of `doc`, added when absent.
  Slot& At(uint32_t doc) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = (doc * 0x9E3779B1u) & mask;; i = (i + 1) & mask) {
      if (slots_[i].doc == doc) return slots_[i];
      if (slots_[i].doc == kEmpty) {
        slots_[i].doc = doc;
        used_.push_back(static_cast<uint32_t>(i));
        return slots_[i];
      }
    }
  }
  // The filled slots, and the table emptied for the next search.
  std::vector<Slot> Take() {
    std::vector<Slot> out;
    out.reserve(used_.size());
    for (uint32_t i : used_) out.push_back(slots_[i]), slots_[i] = Slot{};
    used_.clear();
    return out;
  }

 private:
  std::vector<Slot> slots_;
  std::vector<uint32_t> used_;
};

}  // namespace

std::vector<Hit> Bm25Index::Search(std::string_view query, std::size_t top,
                                   const std::function<bool(std::size_t)>& keep) const {
  const double n = static_cast<double>(doc_length_.size() + (weighed_like_ ? weighed_like_->doc_length_.size() : 0));
  const double average_length = weighed_like_ ? weighed_like_->average_length_ : average_length_;
  std::vector<std::string> words = Tokenize(query);
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  std::vector<QueryTerm> reached;
  for (uint32_t w = 0; w < words.size(); ++w) {
    const std::string& word = words[w];
    if (std::size_t t = Find(word); t < terms()) {
      reached.push_back({t, w, 1, offsets_[t + 1] - offsets_[t]});
      continue;
    }
    if (word.size() < kMinPrefix || static_cast<unsigned char>(word[0]) >= 0x80) continue;
    // Not a word of any record: try the words it begins.
    for (std::size_t t = LowerBound(word), k = 0; t < terms() && Term(t).starts_with(word) && k < kMaxPrefixTerms;
         ++t, ++k) {
      reached.push_back({t, w, kPrefixWeight, offsets_[t + 1] - offsets_[t]});
    }
  }
  // Rarest first: they carry the most weight. Only the first kMaxQueryWords
  // words get a bit, the rest no longer change which records come first.
  std::stable_sort(reached.begin(), reached.end(), [](const auto& a, const auto& b) { return a.df < b.df; });
  std::vector<bool> has_bit(words.size(), false);
  std::size_t bits = 0;
  std::erase_if(reached, [&](const QueryTerm& q) {
    if (!has_bit[q.word] && bits < kMaxQueryWords) has_bit[q.word] = true, ++bits;
    return !has_bit[q.word];
  });
  std::vector<uint32_t> bit_of(words.size(), 0);
  for (uint32_t w = 0, b = 0; w < words.size(); ++w) bit_of[w] = has_bit[w] ? b++ : 0;
  // Terms scored over all their postings, while the budget lasts; the
  // others only refine the records those found (see the header).
  std::size_t full = 0, budget = 0;
  while (full < reached.size() && budget + reached[full].df <= kPostingBudget) budget += reached[full++].df;
  const bool truncated = full == 0 && !reached.empty();
  if (truncated) full = 1, budget = kPostingBudget;

  for (QueryTerm& q : reached) {
    double df = q.df;
    if (weighed_like_) {
      const std::size_t there = weighed_like_->Find(Term(q.term));
      if (there < weighed_like_->terms()) df += weighed_like_->offsets_[there + 1] - weighed_like_->offsets_[there];
    }
    q.idf = std::log(1 + (n - df + 0.5) / (df + 0.5));
  }
  auto term_score = [&](const QueryTerm& q, uint32_t doc, float tf) {
    const double norm = kK1 * (1 - kB + kB * doc_length_[doc] / average_length);
    return q.weight * q.idf * (tf * (kK1 + 1)) / (tf + norm);
  };
  thread_local Accumulator acc;
  for (std::size_t i = 0; i < full; ++i) {
    const QueryTerm& q = reached[i];
    // A truncated term stops after `budget` postings that pass `keep`.
    std::size_t left = kPostingBudget;
    const auto docs = docs_.Slice(offsets_[q.term], offsets_[q.term + 1]);
    const auto tfs = tfs_.Slice(offsets_[q.term], offsets_[q.term + 1]);
    for (std::size_t k = 0; k < docs.size() && (!truncated || left > 0); ++k) {
      const uint32_t doc = docs[k];
      if (keep && !keep(doc)) continue;
      --left;
      Accumulator::Slot& slot = acc.At(doc);
      slot.score += term_score(q, doc, tfs[k]);
      slot.words |= uint64_t{1} << bit_of[q.word];
    }
  }
  const auto& records = kb_->records();
  auto better = [&](const Accumulator::Slot& a, const Accumulator::Slot& b) {
    return a.score != b.score ? a.score > b.score : records[a.doc].id < records[b.doc].id;
  };
  std::vector<Accumulator::Slot> best = acc.Take();
  // The common terms refine a shortlist: their postings are sorted by
  // record, so each look-up is a binary search.
  if (full < reached.size() && !best.empty()) {
    const std::size_t shortlist = std::min(best.size(), std::max<std::size_t>(kRefineMin, 4 * top));
    std::partial_sort(best.begin(), best.begin() + static_cast<std::ptrdiff_t>(shortlist), best.end(), better);
    best.resize(shortlist);
    for (std::size_t i = full; i < reached.size(); ++i) {
      const QueryTerm& q = reached[i];
      const auto docs = docs_.Slice(offsets_[q.term], offsets_[q.term + 1]);
      for (auto& slot : best) {
        auto it = std::lower_bound(docs.begin(), docs.end(), slot.doc);
        if (it == docs.end() || *it != slot.doc) continue;
        slot.score += term_score(q, slot.doc, tfs_[offsets_[q.term] + static_cast<std::size_t>(it - docs.begin())]);
        slot.words |= uint64_t{1} << bit_of[q.word];
      }
    }
  }
  const std::size_t kept = std::min(best.size(), top);
  std::partial_sort(best.begin(), best.begin() + static_cast<std::ptrdiff_t>(kept), best.end(), better);
  std::vector<Hit> out;
  out.reserve(kept);
  for (std::size_t i = 0; i < kept; ++i) {
    Hit h{best[i].doc, best[i].score, {}};
    for (uint32_t w = 0; w < words.size(); ++w) {
      if (has_bit[w] && (best[i].words >> bit_of[w] & 1)) h.terms.push_back(words[w]);
    }
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace kedb::search
