// The signature index as a file in the cache folder, used in place: what
// every start would otherwise rebuild by reading each record's signature,
// aliases and pattern.
//
// The file (util/section_file.h) holds every table the index reads, words
// and error names included as hash tables, so opening it reads only its
// section table. It is keyed by the records' content key
// (KnowledgeBase::content_key) and by a fingerprint of the word rules
// (text_words.h) taken on a probe text, so that a change of those rules
// can never reuse an old file; checksums and range checks refuse a damaged
// one, which is then rebuilt.
#include <xxhash.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "match/signature_layout.h"
#include "match/similarity.h"
#include "util/binary_io.h"
#include "util/error_phrases.h"
#include "util/text_words.h"

namespace kedb::match {

using util::ForEachWordAndCode;
using util::PatternText;
namespace layout = signature_layout;

namespace {

// 3: the tables used in place. 4: checked in 4 KB blocks.
constexpr std::string_view kFormat = "kedb-signatures-5";
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
  out += util::ErrorPhraseRules();
  return out;
}

void Add(XXH3_state_t* st, std::string_view s) {
  uint64_t len = s.size();
  XXH3_64bits_update(st, &len, sizeof len);
  XXH3_64bits_update(st, s.data(), s.size());
}

// A list split into n runs by `begin` (n + 1 offsets, from 0 to the list's
// size). Only the ends are checked here, which costs nothing to read. The
// values between are trusted as written: every block of the file is
// checked against its checksum before it is read, which catches a damaged
// file (a cache in the user's own folder is not an attack surface).
bool Runs(const util::Array<uint32_t>& ids, const util::Array<uint32_t>& begin, std::size_t n) {
  return begin.size() == n + 1 && begin[0] == 0 && begin[n] == ids.size();
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

SignatureIndex::SignatureIndex() = default;
SignatureIndex::SignatureIndex(SignatureIndex&&) noexcept = default;
SignatureIndex& SignatureIndex::operator=(SignatureIndex&&) noexcept = default;
SignatureIndex::~SignatureIndex() = default;

SignatureIndex::SignatureIndex(const KnowledgeBase& kb) {
  const uint64_t key = ContentKey(kb);
  Bind(util::SectionFile::FromBytes(BuildFile(kb, key), layout::kMagic, key), kb.size());
}

SignatureIndex::SignatureIndex(const KnowledgeBase& kb, const SignatureIndex& weighed_like)
    : weighed_like_(&weighed_like) {
  const uint64_t key = ContentKey(kb);
  Bind(util::SectionFile::FromBytes(BuildFile(kb, key, &weighed_like), layout::kMagic, key), kb.size());
}

bool SignatureIndex::Bind(std::unique_ptr<util::SectionFile> file, std::size_t records) {
  if (!file || file->sections() != layout::kSectionCount) return false;
  const util::SectionFile& f = *file;
  bool ok = words_.Bind(f, layout::kWords) && codes_.Bind(f, layout::kCodes) &&
            families_.Bind(f, layout::kFamilies) && f.Get(layout::kIdf, &idf_);
  std::size_t s = layout::kPhraseIds;
  for (auto* a : {&phrase_ids_, &phrase_begin_, &record_phrases_, &all_ids_, &all_begin_}) ok = ok && f.Get(s++, a);
  ok = ok && f.Get(s++, &phrase_weight_) && f.Get(s++, &all_weight_) && f.Get(s++, &bare_ids_) &&
       f.Get(s++, &bare_begin_) && f.Get(s++, &bare_weight_);
  for (auto* a : {&domain_word_, &code_df_, &code_ids_list_, &code_begin_, &code_family_, &postings_begin_,
                  &postings_, &counter_ids_, &counter_begin_, &record_counters_}) {
    ok = ok && f.Get(s++, a);
  }
  ok = ok && f.Get(s++, &counter_weight_) && s == layout::kSectionCount &&
       cues_.Bind(f, layout::kCues, idf_, records);
  if (!ok) return false;
  // The shapes must agree, or an index read from a file could step out of
  // its tables; the values inside are checked where they are used.
  const std::size_t words = words_.size(), phrases = phrase_begin_.empty() ? 0 : phrase_begin_.size() - 1;
  const std::size_t counters = counter_begin_.empty() ? 0 : counter_begin_.size() - 1;
  ok = idf_.size() == words && Runs(phrase_ids_, phrase_begin_, phrases) && Runs(all_ids_, all_begin_, records) &&
       Runs(code_ids_list_, code_begin_, records) && Runs(bare_ids_, bare_begin_, records) &&
       record_phrases_.size() == records + 1 && record_phrases_[0] == 0 && record_phrases_[records] == phrases &&
       phrase_weight_.size() == phrases && all_weight_.size() == records && bare_weight_.size() == records &&
       domain_word_.size() == records && code_df_.size() == codes_.size() && code_family_.size() == codes_.size() &&
       Runs(postings_, postings_begin_, words) && Runs(counter_ids_, counter_begin_, counters) &&
       counter_weight_.size() == counters && record_counters_.size() == records + 1 && record_counters_[0] == 0 &&
       record_counters_[records] == counters;
  if (!ok) return false;
  file_ = std::move(file);
  records_ = records;
  return true;
}

std::unique_ptr<SignatureIndex> SignatureIndex::Open(const KnowledgeBase& kb, const std::string& cache_dir) {
  const uint64_t key = ContentKey(kb);
  std::string path;
  if (!cache_dir.empty()) {
    path = (std::filesystem::path(cache_dir) / fmt::format("signatures-{:016x}.bin", key)).string();
    std::unique_ptr<SignatureIndex> index(new SignatureIndex());
    if (index->Bind(util::SectionFile::Open(path, layout::kMagic, key), kb.size())) return index;
  }
  std::string bytes = BuildFile(kb, key);
  // An unwritable cache only costs time.
  if (!path.empty() && !bytes.empty() && util::WriteFileAtomically(path, bytes, util::WriteFor::kReadInPlaces)) {
    util::PruneCacheFiles(cache_dir, "signatures-", kCachedIndexes);
  }
  std::unique_ptr<SignatureIndex> index(new SignatureIndex());
  if (!index->Bind(util::SectionFile::FromBytes(std::move(bytes), layout::kMagic, key), kb.size())) {
    // Cannot happen (the file was just built), but a broken index must not
    // be left to crash a query.
    std::fprintf(stderr, "kedb: internal error: the signature index built for %zu records does not read back\n",
                 kb.size());
    std::abort();
  }
  return index;
}

}  // namespace kedb::match
