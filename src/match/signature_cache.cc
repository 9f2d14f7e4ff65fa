// The signature index in the cache folder: what every start would otherwise
// rebuild by reading each record's signature, aliases and pattern.
//
// The file holds the words and error names by id and, per record, the ids
// of its phrases, of all its words and of its names; everything else (idf,
// weights, postings, domain cues) is derived again on loading, which costs
// a fraction of reading the records. It is keyed by the records' content
// key (KnowledgeBase::content_key) and
// by a fingerprint of the word rules (text_words.h) taken on a probe text,
// so that a change of those rules can never reuse an old file; a checksum
// and range checks refuse a damaged one, which is then rebuilt.
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "match/similarity.h"
#include "util/text_words.h"
#include "util/binary_io.h"

namespace kedb::match {

using util::ForEachWordAndCode;
using util::PatternText;

namespace {

constexpr std::string_view kFormat = "kedb-signatures-2";  // 2: signatures without their bracketed details
// Signature indexes kept per cache folder, as for pattern databases.
constexpr std::size_t kCachedIndexes = 8;

// What the word rules make of a text that exercises each of them.
std::string RulesFingerprint() {
  std::string out;
  const std::string_view probe =
      "ConnectionRefusedError: Connecting refused, denied files 'quoted' /a/b/c https://x.y/z 0x7f3b "
      "E0382 TS2307 CUDNN_STATUS_BAD_PARAM AADSTS700016 running statuses caches matches ERROR npm ERR! "
      "“typographic” java.lang.NullPointerException processes libraries";
  ForEachWordAndCode(
      probe, [&](std::string_view w) { (out += w) += ' '; }, [&](std::string_view c) { (out += c) += '|'; });
  out += PatternText(R"((?P<n>AADSTS\d+)|Application [a-z]{2} not found.*tenant)");
  return out;
}

void Add(XXH3_state_t* st, std::string_view s) {
  uint64_t len = s.size();
  XXH3_64bits_update(st, &len, sizeof len);
  XXH3_64bits_update(st, s.data(), s.size());
}

// Words in id order as one blob and the offsets where each ends.
template <class Map>
void WriteWords(const Map& ids, util::BinaryWriter* w) {
  std::vector<std::string_view> by_id(ids.size());
  for (const auto& [word, id] : ids) by_id[id] = word;
  std::string blob;
  std::vector<uint32_t> ends;
  for (std::string_view word : by_id) {
    blob += word;
    ends.push_back(static_cast<uint32_t>(blob.size()));
  }
  w->Bytes(blob);
  w->U32s(ends);
}

template <class Map>
bool ReadWords(util::BinaryReader* r, Map* ids) {
  std::string_view blob;
  std::vector<uint32_t> ends;
  if (!r->Bytes(&blob) || !r->U32s(&ends)) return false;
  if (!std::is_sorted(ends.begin(), ends.end()) || (!ends.empty() && ends.back() != blob.size())) return false;
  ids->reserve(ends.size());
  for (std::size_t i = 0, begin = 0; i < ends.size(); begin = ends[i++]) {
    if (!ids->emplace(std::string(blob.substr(begin, ends[i] - begin)), static_cast<uint32_t>(i)).second) return false;
  }
  return true;
}

// A list of ids split into runs by `begin` (n + 1 ascending offsets ending at
// the list's size), every id under `limit`.
bool Runs(const std::vector<uint32_t>& ids, const std::vector<uint32_t>& begin, std::size_t n, std::size_t limit) {
  return begin.size() == n + 1 && begin.front() == 0 && begin.back() == ids.size() &&
         std::is_sorted(begin.begin(), begin.end()) &&
         std::all_of(ids.begin(), ids.end(), [&](uint32_t id) { return id < limit; });
}

}  // namespace

uint64_t SignatureIndex::ContentKey(const KnowledgeBase& kb) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  Add(st, kFormat);
  Add(st, RulesFingerprint());
  // The records' whole content: read from a snapshot's header, so a cached
  // index is found without decoding every record.
  const uint64_t content = kb.content_key();
  XXH3_64bits_update(st, &content, sizeof content);
  uint64_t key = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return key;
}

std::string SignatureIndex::Serialize() const {
  util::BinaryWriter w;
  w.Bytes(kFormat);
  WriteWords(ids_, &w);
  WriteWords(code_ids_, &w);
  for (const auto* v : {&phrase_ids_, &phrase_begin_, &record_phrases_, &all_ids_, &all_begin_, &domain_word_,
                        &code_df_, &code_ids_list_, &code_begin_, &bare_ids_, &bare_begin_}) {
    w.U32s(*v);
  }
  // Each record's domain, as an index into the domain names.
  const auto& names = cues_.names();
  std::string blob;
  std::vector<uint32_t> ends, record_domain;
  for (const auto& name : names) {
    blob += name;
    ends.push_back(static_cast<uint32_t>(blob.size()));
  }
  for (std::size_t i = 0; i + 1 < all_begin_.size(); ++i) record_domain.push_back(static_cast<uint32_t>(cues_.DomainOf(i)));
  w.Bytes(blob);
  w.U32s(ends);
  w.U32s(record_domain);
  w.Seal();
  return std::move(w.str());
}

std::unique_ptr<SignatureIndex> SignatureIndex::Deserialize(const KnowledgeBase& kb, std::string_view bytes) {
  if (!util::Unseal(&bytes)) return nullptr;
  util::BinaryReader r(bytes);
  std::unique_ptr<SignatureIndex> index(new SignatureIndex());
  SignatureIndex& x = *index;
  std::string_view format, names_blob;
  std::vector<uint32_t> name_ends, record_domain;
  if (!r.Bytes(&format) || format != kFormat || !ReadWords(&r, &x.ids_) || !ReadWords(&r, &x.code_ids_)) return nullptr;
  for (auto* v : {&x.phrase_ids_, &x.phrase_begin_, &x.record_phrases_, &x.all_ids_, &x.all_begin_, &x.domain_word_,
                  &x.code_df_, &x.code_ids_list_, &x.code_begin_, &x.bare_ids_, &x.bare_begin_}) {
    if (!r.U32s(v)) return nullptr;
  }
  if (!r.Bytes(&names_blob) || !r.U32s(&name_ends) || !r.U32s(&record_domain) || !r.done()) return nullptr;
  // Every index must stay in range whatever the file says.
  const std::size_t n = kb.size(), words = x.ids_.size(), codes = x.code_ids_.size();
  const std::size_t phrases = x.phrase_begin_.empty() ? 0 : x.phrase_begin_.size() - 1;
  bool ok = Runs(x.phrase_ids_, x.phrase_begin_, phrases, words) && Runs(x.all_ids_, x.all_begin_, n, words) &&
            Runs(x.code_ids_list_, x.code_begin_, n, codes) && Runs(x.bare_ids_, x.bare_begin_, n, words) &&
            x.record_phrases_.size() == n + 1 &&
            x.record_phrases_.front() == 0 && x.record_phrases_.back() == phrases &&
            std::is_sorted(x.record_phrases_.begin(), x.record_phrases_.end()) && x.domain_word_.size() == n &&
            std::all_of(x.domain_word_.begin(), x.domain_word_.end(),
                        [&](uint32_t d) { return d == UINT32_MAX || d < words; }) &&
            x.code_df_.size() == codes && record_domain.size() == n && std::is_sorted(name_ends.begin(), name_ends.end()) &&
            (name_ends.empty() ? names_blob.empty() : name_ends.back() == names_blob.size()) &&
            std::all_of(record_domain.begin(), record_domain.end(), [&](uint32_t d) { return d < name_ends.size(); });
  if (!ok) return nullptr;
  std::vector<std::string> domains;
  domains.reserve(n);
  for (uint32_t d : record_domain) {
    const uint32_t begin = d == 0 ? 0 : name_ends[d - 1];
    domains.emplace_back(names_blob.substr(begin, name_ends[d] - begin));
  }
  x.Derive(domains);
  x.DeriveCounters(kb);
  return index;
}

std::unique_ptr<SignatureIndex> SignatureIndex::Open(const KnowledgeBase& kb, const std::string& cache_dir) {
  std::string path;
  if (!cache_dir.empty()) {
    path = (std::filesystem::path(cache_dir) / fmt::format("signatures-{:016x}.bin", ContentKey(kb))).string();
    std::string bytes;
    if (util::ReadWholeFile(path, &bytes)) {
      if (auto index = Deserialize(kb, bytes)) return index;
    }
  }
  auto index = std::make_unique<SignatureIndex>(kb);
  // An unwritable cache only costs time.
  if (!path.empty() && util::WriteFileAtomically(path, index->Serialize())) {
    util::PruneCacheFiles(cache_dir, "signatures-", kCachedIndexes);
  }
  return index;
}

}  // namespace kedb::match
