#include "kb/snapshot.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <charconv>
#include <ctime>
#include <cstddef>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "kb/mapped_records.h"
#include "kb/record_codec.h"
#include "kb/tree_walk.h"
#include "util/binary_io.h"
#include "util/section_file.h"

namespace kedb {
namespace fs = std::filesystem;
namespace {

// Bump whenever Record, Diagnostic or LoadReport (or how they are written
// here) change.
// The format is in the magic: 3 maps records in place (kb/mapped_records.h),
// 5 keeps every record's regex apart as well, with its hash; 6 checks the
// tables in blocks as they are read (util::BlockChecks); 7 in blocks of
// 4 KB instead of 64; 8 keeps each record's source text hash in its entry.
constexpr uint64_t kSnapshotFormat = 8 * 100 + kRecordCodecVersion;
constexpr char kMagic[8] = {'K', 'E', 'D', 'B', 'S', 'N', 'P', '8'};

using util::BinaryReader;
using util::BinaryWriter;

// Size, modification time and inode of a file, hashed into `st` with its
// path.
void HashStat(const std::string& file, const struct stat& s, XXH3_state_t* st) {
  int64_t fields[] = {static_cast<int64_t>(s.st_size), static_cast<int64_t>(s.st_mtim.tv_sec),
                      static_cast<int64_t>(s.st_mtim.tv_nsec), static_cast<int64_t>(s.st_ino)};
  uint64_t len = file.size();
  XXH3_64bits_update(st, &len, sizeof len);
  XXH3_64bits_update(st, file.data(), file.size());
  XXH3_64bits_update(st, fields, sizeof fields);
}

// `path` made absolute, without "." or ".." and with symbolic links
// resolved: the same knowledge base named from another folder, or through
// a link, keeps its snapshot instead of compiling a second one.
std::string SameWherever(const std::string& path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path, ec);
  return ec ? path : canonical.string();
}

}  // namespace

std::optional<uint64_t> SnapshotKey(const std::string& given_path, const LoadOptions& options) {
  const std::string path = SameWherever(given_path);
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  std::string header = fmt::format("{}|{}|{}|{}|{}|{}|{}|", kSnapshotFormat, path, options.strict,
                                   options.max_file_bytes, options.max_line_bytes, options.max_string_bytes,
                                   options.max_depth);
  XXH3_64bits_update(st, header.data(), header.size());
  bool ok = true;
  struct stat top {};
  if (::stat(path.c_str(), &top) != 0) {
    ok = false;
  } else if (S_ISDIR(top.st_mode)) {
    std::vector<TreeEntry> entries;
    ok = ListRecordFiles(path, &entries);
    for (const TreeEntry& e : entries) {
      if (e.problem) {
        const std::string seen = e.path + "|" + e.problem->message;
        XXH3_64bits_update(st, seen.data(), seen.size());
      } else {
        HashStat(e.path, e.st, st);
      }
    }
  } else {
    HashStat(path, top, st);
  }
  uint64_t key = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  if (!ok) return std::nullopt;
  return key;
}

bool SourceSettled(const std::string& path) {
  constexpr int64_t kSettleSeconds = 3;
  struct stat top {};
  if (::stat(path.c_str(), &top) != 0) return false;
  std::vector<TreeEntry> files;
  if (S_ISDIR(top.st_mode)) {
    if (!ListRecordFiles(path, &files)) return false;
  } else {
    files.push_back(TreeEntry{path, top, std::nullopt});
  }
  const int64_t now = static_cast<int64_t>(::time(nullptr));
  return std::all_of(files.begin(), files.end(), [&](const TreeEntry& f) {
    return f.problem || static_cast<int64_t>(f.st.st_mtim.tv_sec) + kSettleSeconds < now;
  });
}

namespace {
std::string SnapshotPrefix(const std::string& given_path) {
  const std::string path = SameWherever(given_path);
  return fmt::format("kb-{:08x}-", static_cast<uint32_t>(XXH3_64bits(path.data(), path.size())));
}
}  // namespace

std::string SnapshotPath(const std::string& cache_dir, const std::string& path, uint64_t key) {
  return (fs::path(cache_dir) / fmt::format("{}{:016x}.bin", SnapshotPrefix(path), key)).string();
}

std::optional<std::pair<std::string, uint64_t>> LatestSnapshot(const std::string& cache_dir, const std::string& path) {
  const std::string prefix = SnapshotPrefix(path);
  DIR* d = ::opendir(cache_dir.c_str());
  if (!d) return std::nullopt;
  std::optional<std::pair<std::string, uint64_t>> found;
  while (struct dirent* e = ::readdir(d)) {
    std::string_view name = e->d_name;
    // "kb-<path hash>-<16 hex digits>.bin"
    if (name.size() != prefix.size() + 20 || name.substr(0, prefix.size()) != prefix || !name.ends_with(".bin")) continue;
    uint64_t key = 0;
    auto hex = name.substr(prefix.size(), 16);
    auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), key, 16);
    if (ec != std::errc() || end != hex.data() + hex.size()) continue;
    found.emplace((fs::path(cache_dir) / std::string(name)).string(), key);
    break;
  }
  ::closedir(d);
  return found;
}

namespace {

// The fixed header at the start of a snapshot file; every offset is from
// the start of the file.
struct Header {
  char magic[8];
  uint64_t key;             // the source's key (SnapshotKey)
  uint64_t count;           // records
  uint64_t content_key;     // KnowledgeBase::content_key()
  uint64_t meta_offset, meta_size;        // the load report
  uint64_t records_offset, records_size;  // every record's encoding
  uint64_t entries_offset;  // count x Mapped::Entry
  uint64_t ids_offset;      // count x Mapped::IdSlot, sorted
  uint64_t patterns_offset, patterns_size;  // every record's regex
  uint64_t pattern_entries_offset;          // count x Mapped::PatternEntry
  // The three tables lie back to back from entries_offset; the XXH3 of
  // each 4 KB block of them follows them, from here.
  uint64_t table_sums_offset;
  uint64_t checksum;        // XXH3 of the header before this field, the meta and the block sums
};
static_assert(sizeof(Header) == 120);

using Entry = KnowledgeBase::Mapped::Entry;
using IdSlot = KnowledgeBase::Mapped::IdSlot;
using PatternEntry = KnowledgeBase::Mapped::PatternEntry;

uint64_t HeaderChecksum(const Header& h, std::string_view meta, std::string_view table_sums) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  XXH3_64bits_update(st, &h, offsetof(Header, checksum));
  XXH3_64bits_update(st, meta.data(), meta.size());
  XXH3_64bits_update(st, table_sums.data(), table_sums.size());
  const uint64_t sum = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return sum;
}

void PutReport(BinaryWriter* w, const LoadReport& report) {
  w->U64(report.documents), w->U64(report.rejected), w->U64(report.native), w->U64(report.deadends);
  w->U64(report.diagnostics.size());
  for (const Diagnostic& d : report.diagnostics) {
    w->U64(static_cast<uint64_t>(d.severity));
    w->Bytes(d.rule), w->Bytes(d.file);
    w->U64(static_cast<uint64_t>(d.line)), w->U64(static_cast<uint64_t>(d.column));
    w->Bytes(d.record_id), w->Bytes(d.field), w->Bytes(d.message);
  }
}

bool ReadReport(std::string_view bytes, LoadReport* out) {
  BinaryReader in(bytes);
  RecordDecoder r(&in);
  LoadReport rep;
  rep.documents = r.Int(), rep.rejected = r.Int(), rep.native = r.Int(), rep.deadends = r.Int();
  rep.diagnostics.resize(r.Count());
  for (Diagnostic& d : rep.diagnostics) {
    d.severity = r.Int() == 0 ? Severity::kError : Severity::kWarning;
    r.Str(&d.rule), r.Str(&d.file);
    d.line = static_cast<int>(r.Int()), d.column = static_cast<int>(r.Int());
    r.Str(&d.record_id), r.Str(&d.field), r.Str(&d.message);
  }
  if (!r.ok() || !in.done()) return false;
  *out = std::move(rep);
  return true;
}

template <typename T>
std::string_view AsBytes(const std::vector<T>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)};
}

}  // namespace

bool SaveSnapshot(const std::string& file, uint64_t key, const KnowledgeBase& kb, const LoadReport& report) {
  BinaryWriter meta;
  PutReport(&meta, report);
  std::vector<Entry> entries;
  std::vector<IdSlot> ids;
  std::vector<PatternEntry> pattern_entries;
  entries.reserve(kb.size());
  pattern_entries.reserve(kb.size());
  ids.reserve(kb.size());
  // Written as it is encoded: a million records make gigabytes, which
  // must not be held in memory as well as the records.
  util::AtomicFileWriter out(file);
  out.Write(std::string(sizeof(Header), '\0'));  // filled in last
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.key = key;
  h.count = kb.size();
  h.content_key = kb.content_key();
  h.meta_offset = out.size();
  h.meta_size = meta.str().size();
  out.Write(meta.str());
  out.PadTo8();
  h.records_offset = out.size();
  BinaryWriter one;
  for (std::size_t i = 0; i < kb.size(); ++i) {
    const Record& r = kb.record(i);
    one.str().clear();
    EncodeRecord(r, &one);
    const std::string& bytes = one.str();
    entries.push_back(
        {out.size() - h.records_offset, bytes.size(), XXH3_64bits(bytes.data(), bytes.size()), r.origin.text_hash});
    ids.push_back({KnowledgeBase::Mapped::IdHash(r.id), i});
    out.Write(bytes);
  }
  h.records_size = out.size() - h.records_offset;
  h.patterns_offset = out.size();
  for (std::size_t i = 0; i < kb.size(); ++i) {
    const std::string_view pattern = kb.pattern(i);
    pattern_entries.push_back({out.size() - h.patterns_offset, KnowledgeBase::PatternHash(pattern), pattern.size()});
    out.Write(pattern);
  }
  h.patterns_size = out.size() - h.patterns_offset;
  out.PadTo8();
  std::sort(ids.begin(), ids.end(), [](const IdSlot& a, const IdSlot& b) {
    return a.hash != b.hash ? a.hash < b.hash : a.record < b.record;
  });
  h.entries_offset = out.size();
  out.Write(AsBytes(entries));
  h.ids_offset = out.size();
  out.Write(AsBytes(ids));
  h.pattern_entries_offset = out.size();
  out.Write(AsBytes(pattern_entries));
  std::string tables;
  tables.reserve(out.size() - h.entries_offset);
  (((tables += AsBytes(entries)) += AsBytes(ids)) += AsBytes(pattern_entries));
  const std::string sums = util::BlockChecks::Sums(tables);
  h.table_sums_offset = out.size();
  out.Write(sums);
  h.checksum = HeaderChecksum(h, meta.str(), sums);
  out.WriteAt(0, std::string_view(reinterpret_cast<const char*>(&h), sizeof h));
  if (!out.Commit(util::WriteFor::kReadInPlaces)) return false;
  // Only the newest snapshot of a knowledge base is ever read again.
  const std::string name = fs::path(file).filename().string();
  util::PruneCacheFiles(fs::path(file).parent_path().string(), name.substr(0, name.rfind('-') + 1), 1);
  return true;
}

std::optional<KnowledgeBase> LoadSnapshot(const std::string& file, uint64_t key, LoadReport* report,
                                          uint64_t check_whole_below) {
  auto mapped = std::make_unique<util::MappedFile>(file, util::MappedFile::Access::kInPlaces);
  const std::string_view bytes = mapped->bytes();
  Header h;
  if (bytes.size() < sizeof h) return std::nullopt;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.key != key) return std::nullopt;
  // Every section inside the file, the tables aligned and of their size.
  const uint64_t size = bytes.size();
  auto inside = [&](uint64_t offset, uint64_t length) { return offset <= size && length <= size - offset; };
  if (h.count > size / sizeof(Entry) || !inside(h.meta_offset, h.meta_size) ||
      !inside(h.records_offset, h.records_size) || h.entries_offset % 8 != 0 || h.ids_offset % 8 != 0 ||
      !inside(h.entries_offset, h.count * sizeof(Entry)) || !inside(h.ids_offset, h.count * sizeof(IdSlot)) ||
      !inside(h.patterns_offset, h.patterns_size) || h.pattern_entries_offset % 8 != 0 ||
      !inside(h.pattern_entries_offset, h.count * sizeof(PatternEntry))) {
    return std::nullopt;
  }
  // The tables lie back to back, their block sums after them.
  const uint64_t tables_size = h.count * (sizeof(Entry) + sizeof(IdSlot) + sizeof(PatternEntry));
  const uint64_t sums_size = util::BlockChecks::Blocks(tables_size) * sizeof(uint64_t);
  if (h.ids_offset != h.entries_offset + h.count * sizeof(Entry) ||
      h.pattern_entries_offset != h.ids_offset + h.count * sizeof(IdSlot) ||
      h.table_sums_offset != h.entries_offset + tables_size || !inside(h.table_sums_offset, sums_size)) {
    return std::nullopt;
  }
  const std::string_view meta = bytes.substr(h.meta_offset, h.meta_size);
  const std::string_view tables = bytes.substr(h.entries_offset, tables_size);
  if (HeaderChecksum(h, meta, bytes.substr(h.table_sums_offset, sums_size)) != h.checksum) return std::nullopt;
  util::BlockChecks table_checks(tables, bytes.substr(h.table_sums_offset, sums_size), file);
  // A small snapshot is checked whole now: a damaged one is then simply
  // rebuilt. A large one has its tables checked a block at a time, and
  // each record and regex when it is first read, or opening it would read
  // every page of it.
  if (h.records_size <= check_whole_below) {
    mapped->WillRead(0, bytes.size());
    if (!table_checks.CheckAll()) return std::nullopt;
    for (std::size_t i = 0; i < h.count; ++i) {
      Entry e;
      IdSlot s;
      PatternEntry p;
      std::memcpy(&e, tables.data() + i * sizeof e, sizeof e);
      std::memcpy(&s, bytes.data() + h.ids_offset + i * sizeof s, sizeof s);
      std::memcpy(&p, bytes.data() + h.pattern_entries_offset + i * sizeof p, sizeof p);
      if (e.offset > h.records_size || e.size > h.records_size - e.offset || s.record >= h.count ||
          p.offset > h.patterns_size || p.size > h.patterns_size - p.offset ||
          XXH3_64bits(bytes.data() + h.records_offset + e.offset, e.size) != e.checksum ||
          KnowledgeBase::PatternHash(bytes.substr(h.patterns_offset + p.offset, p.size)) != p.hash) {
        return std::nullopt;
      }
    }
  }
  LoadReport rep;
  if (!ReadReport(meta, &rep)) return std::nullopt;
  KnowledgeBase::Mapped::Sections sections;
  sections.records = bytes.substr(h.records_offset, h.records_size);
  sections.patterns = bytes.substr(h.patterns_offset, h.patterns_size);
  sections.entries = bytes.data() + h.entries_offset;
  sections.ids = bytes.data() + h.ids_offset;
  sections.pattern_entries = bytes.data() + h.pattern_entries_offset;
  sections.count = h.count;
  sections.content_key = h.content_key;
  auto in_place = std::make_shared<const KnowledgeBase::Mapped>(std::move(mapped), file, sections,
                                                                std::move(table_checks));
  if (report) *report = std::move(rep);
  return KnowledgeBase::FromMapped(std::move(in_place));
}

}  // namespace kedb
