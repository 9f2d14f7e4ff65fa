#include "search/bm25.h"

#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "search/tokenizer.h"
#include "util/binary_io.h"

namespace kedb::search {
namespace {

constexpr double kK1 = 1.2;
constexpr double kB = 0.75;
constexpr std::size_t kMinPrefix = 4;
constexpr double kPrefixWeight = 0.5;
constexpr std::size_t kMaxPrefixTerms = 64;

}  // namespace

Bm25Index::Bm25Index(const KnowledgeBase& kb) : kb_(&kb) {
  const auto& records = kb.records();
  doc_length_.resize(records.size());
  std::unordered_map<std::string, std::vector<std::pair<uint32_t, float>>> postings;
  postings.reserve(records.size() * 8);
  double total = 0;
  // Per document: its weighted words, sorted and summed, then posted once.
  std::vector<std::pair<std::string, float>> words;
  for (uint32_t d = 0; d < records.size(); ++d) {
    const Record& r = records[d];
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
    doc_length_[d] = length;
    total += length;
  }
  average_length_ = records.empty() ? 1 : std::max(1.0, total / static_cast<double>(records.size()));
  terms_.reserve(postings.size());
  for (const auto& [term, _] : postings) terms_.push_back(term);
  std::sort(terms_.begin(), terms_.end());
  offsets_.reserve(terms_.size() + 1);
  offsets_.push_back(0);
  for (const auto& term : terms_) {
    for (auto [doc, tf] : postings[term]) {
      docs_.push_back(doc);
      tfs_.push_back(tf);
    }
    offsets_.push_back(static_cast<uint32_t>(docs_.size()));
  }
}

std::size_t Bm25Index::Find(std::string_view term) const {
  auto it = std::lower_bound(terms_.begin(), terms_.end(), term);
  return it != terms_.end() && *it == term ? static_cast<std::size_t>(it - terms_.begin()) : terms_.size();
}

namespace {

// Bump when the layout below or the tokenizer changes.
constexpr char kFormat[] = "KEDBBM25:1:tokenizer-2";

std::vector<uint32_t> FloatBits(const std::vector<float>& v) {
  std::vector<uint32_t> out(v.size());
  std::memcpy(out.data(), v.data(), v.size() * sizeof(float));
  return out;
}

std::vector<float> BitFloats(const std::vector<uint32_t>& v) {
  std::vector<float> out(v.size());
  std::memcpy(out.data(), v.data(), v.size() * sizeof(float));
  return out;
}

}  // namespace

std::string Bm25Index::Serialize() const {
  util::BinaryWriter w;
  w.Bytes(kFormat);
  std::string blob;
  std::vector<uint32_t> ends;
  for (const auto& t : terms_) {
    blob += t;
    ends.push_back(static_cast<uint32_t>(blob.size()));
  }
  w.Bytes(blob);
  w.U32s(ends);
  w.U32s(offsets_);
  w.U32s(docs_);
  w.U32s(FloatBits(tfs_));
  w.U32s(FloatBits(doc_length_));
  w.F64(average_length_);
  w.Seal();
  return std::move(w.str());
}

std::unique_ptr<Bm25Index> Bm25Index::Deserialize(const KnowledgeBase& kb, std::string_view bytes) {
  if (!util::Unseal(&bytes)) return nullptr;
  util::BinaryReader r(bytes);
  std::string_view format, blob;
  std::vector<uint32_t> ends, tfs, lengths;
  std::unique_ptr<Bm25Index> index(new Bm25Index(&kb));
  if (!r.Bytes(&format) || format != kFormat || !r.Bytes(&blob) || !r.U32s(&ends) || !r.U32s(&index->offsets_) ||
      !r.U32s(&index->docs_) || !r.U32s(&tfs) || !r.U32s(&lengths) || !r.F64(&index->average_length_) ||
      !r.done()) {
    return nullptr;
  }
  // Every index must stay in range whatever the file says.
  const std::size_t n = kb.size();
  bool ok = lengths.size() == n && index->offsets_.size() == ends.size() + 1 && index->offsets_.front() == 0 &&
            index->offsets_.back() == index->docs_.size() && tfs.size() == index->docs_.size() &&
            std::is_sorted(index->offsets_.begin(), index->offsets_.end()) &&
            std::is_sorted(ends.begin(), ends.end()) && (ends.empty() || ends.back() == blob.size()) &&
            std::all_of(index->docs_.begin(), index->docs_.end(), [&](uint32_t d) { return d < n; });
  if (!ok) return nullptr;
  index->terms_.reserve(ends.size());
  for (std::size_t i = 0, begin = 0; i < ends.size(); begin = ends[i++]) {
    index->terms_.emplace_back(blob.substr(begin, ends[i] - begin));
  }
  index->tfs_ = BitFloats(tfs);
  index->doc_length_ = BitFloats(lengths);
  return index;
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
  for (const Record& r : kb.records()) {
    add(r.signature);
    for (const auto& a : r.aliases) add(a);
    add(r.error_code);
    add(r.signature_zh);
    for (const auto& t : r.tags) add(t);
    add(r.root_cause);
    add(r.root_cause_zh);
    for (const auto& w : r.workarounds_zh) add(w);
    add("\x1e");  // record separator: moving a field to the next record changes the key
  }
  uint64_t key = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return key;
}

std::vector<Hit> Bm25Index::Search(std::string_view query, std::size_t top) const {
  const double n = static_cast<double>(doc_length_.size());
  std::vector<std::string> words = Tokenize(query);
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  std::unordered_map<uint32_t, Hit> hits;
  auto score_term = [&](std::size_t term, const std::string& query_word, double weight) {
    const uint32_t begin = offsets_[term], end = offsets_[term + 1];
    const double count = static_cast<double>(end - begin);
    double idf = std::log(1 + (n - count + 0.5) / (count + 0.5));
    for (uint32_t k = begin; k < end; ++k) {
      const uint32_t doc = docs_[k];
      const double tf = tfs_[k];
      double norm = kK1 * (1 - kB + kB * doc_length_[doc] / average_length_);
      double s = weight * idf * (tf * (kK1 + 1)) / (tf + norm);
      Hit& h = hits[doc];
      h.record = doc;
      h.score += s;
      if (std::find(h.terms.begin(), h.terms.end(), query_word) == h.terms.end()) h.terms.push_back(query_word);
    }
  };
  for (const auto& w : words) {
    if (std::size_t t = Find(w); t < terms_.size()) {
      score_term(t, w, 1);
      continue;
    }
    if (w.size() < kMinPrefix || static_cast<unsigned char>(w[0]) >= 0x80) continue;
    // Not a word of any record: try the words it begins.
    auto it = std::lower_bound(terms_.begin(), terms_.end(), w);
    for (std::size_t k = 0; it != terms_.end() && it->compare(0, w.size(), w) == 0 && k < kMaxPrefixTerms;
         ++it, ++k) {
      score_term(static_cast<std::size_t>(it - terms_.begin()), w, kPrefixWeight);
    }
  }
  std::vector<Hit> out;
  out.reserve(hits.size());
  for (auto& [_, h] : hits) out.push_back(std::move(h));
  const auto& records = kb_->records();
  std::sort(out.begin(), out.end(), [&](const Hit& a, const Hit& b) {
    return a.score != b.score ? a.score > b.score : records[a.record].id < records[b.record].id;
  });
  if (out.size() > top) out.resize(top);
  return out;
}

}  // namespace kedb::search
