#include "kb/jsonl_changes.h"

#include <xxhash.h>

#include <algorithm>
#include <future>
#include <climits>
#include <bit>
#include <optional>
#include <filesystem>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "kb/kb_source.h"
#include "kb/read_record.h"

namespace kedb {
namespace fs = std::filesystem;

namespace {

// A JSONL file, as a load tells one.
bool IsJsonlFile(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && IsJsonl(path);
}

// Records by the hash of the text each was read from, in one open-addressed
// table: at a million records a std::unordered_map spent most of a reload
// allocating and freeing its nodes. Hash 0 (no text) is never stored.
class RecordsByText {
 public:
  explicit RecordsByText(std::size_t records) : slots_(std::bit_ceil(2 * records + 2)), mask_(slots_.size() - 1) {}

  // False when `hash` is 0 or taken: a record not read from text (a store,
  // a record made in memory), or two records read from the same text.
  bool Add(uint64_t hash, std::size_t record) {
    if (hash == 0) return false;
    for (std::size_t at = hash & mask_;; at = (at + 1) & mask_) {
      if (slots_[at].hash == hash) return false;
      if (slots_[at].hash == 0) {
        slots_[at] = {hash, record};
        return true;
      }
    }
  }

  std::optional<std::size_t> Find(uint64_t hash) const {
    for (std::size_t at = hash & mask_; slots_[at].hash != 0; at = (at + 1) & mask_) {
      if (slots_[at].hash == hash) return slots_[at].record;
    }
    return std::nullopt;
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    std::size_t record = 0;
  };
  std::vector<Slot> slots_;
  std::size_t mask_;
};

// What one reader of a part of the file found.
struct Half {
  Status status;
  std::vector<std::size_t> seen;         // base records whose text it met
  std::vector<SourceDocument> changed;   // lines no record was read from
  int lines = 0;                         // lines that started in it
  bool stopped = false;  // too many changes, or a line over the limit
};

void ReadHalf(const RecordsByText& by_text, const std::string& path, const LoadOptions& options,
              std::size_t max_changes, int64_t begin, int64_t end, Half* half) {
  half->status = ForEachJsonlLine(
      path, options,
      [&](const JsonlLine& line) {
        if (half->stopped) return;
        if (line.too_long || half->changed.size() > max_changes) {
          half->stopped = true;
          return;
        }
        if (auto record = by_text.Find(XXH3_64bits(line.text.data(), line.text.size()))) {
          half->seen.push_back(*record);
          return;
        }
        SourceDocument doc;
        doc.origin = {path, Origin::Format::kJsonl, line.offset, line.number};
        doc.text = std::string(line.text);
        half->changed.push_back(std::move(doc));
      },
      begin, end, &half->lines);
}

}  // namespace

Result<std::optional<KnowledgeBase::Changes>> FindJsonlChanges(const KnowledgeBase& base, const std::string& path,
                                                                const LoadOptions& options, std::size_t max_changes,
                                                                LoadReport* report) {
  LoadReport local;
  LoadReport* rep = report ? report : &local;
  if (!IsJsonlFile(path)) return std::optional<KnowledgeBase::Changes>();
  RecordsByText by_text(base.size());
  for (std::size_t i = 0; i < base.size(); ++i) {
    if (!by_text.Add(base.text_hash(i), i)) return std::optional<KnowledgeBase::Changes>();
  }
  // The file is read in two halves, one per core: hashing its lines is
  // most of a reload at a million records.
  std::error_code ec;
  const int64_t size = static_cast<int64_t>(fs::file_size(path, ec));
  const int64_t middle = ec || size < (int64_t{1} << 20) ? INT64_MAX : NextJsonlLineStart(path, size / 2);
  Half first, second;
  auto read_second = std::async(std::launch::async, [&] {
    if (middle < size) ReadHalf(by_text, path, options, max_changes, middle, INT64_MAX, &second);
  });
  ReadHalf(by_text, path, options, max_changes, 0, middle, &first);
  read_second.get();
  if (!first.status.ok()) return first.status;
  if (!second.status.ok()) return second.status;
  for (SourceDocument& doc : second.changed) {
    doc.origin.line += first.lines;
    first.changed.push_back(std::move(doc));
  }
  std::vector<SourceDocument>& changed_lines = first.changed;
  // A line twice is a duplicate id; an over-long line is reported by a
  // full load.
  if (first.stopped || second.stopped || changed_lines.size() > max_changes) {
    return std::optional<KnowledgeBase::Changes>();
  }
  std::vector<bool> seen(base.size(), false);
  for (const Half* half : {&first, &second}) {
    for (std::size_t record : half->seen) {
      if (seen[record]) return std::optional<KnowledgeBase::Changes>();
      seen[record] = true;
    }
  }

  KnowledgeBase::Changes changes;
  std::unordered_set<std::string> ids;
  std::size_t replaced_gone = 0;
  for (SourceDocument& doc : changed_lines) {
    ++rep->documents;
    std::optional<Record> record = ReadRecord(doc, options, rep);
    if (!record) {
      ++rep->rejected;
      continue;
    }
    if (!ids.insert(record->id).second) return std::optional<KnowledgeBase::Changes>();
    std::optional<std::size_t> at = base.IndexOf(record->id);
    if (!at) {
      changes.added.push_back(std::move(*record));
    } else if (seen[*at]) {
      return std::optional<KnowledgeBase::Changes>();  // the id is also on an unchanged line
    } else {
      ++replaced_gone;
      changes.replaced.emplace_back(*at, std::move(*record));
    }
  }
  if (rep->rejected > 0 && options.strict) {
    const Diagnostic& first_error = *std::find_if(rep->diagnostics.begin(), rep->diagnostics.end(),
                                            [](const Diagnostic& d) { return d.severity == Severity::kError; });
    return Status::Corrupt(fmt::format("{}: refusing the knowledge base: {} changed line(s) with errors, the first: {}",
                                       path, rep->rejected, first_error.ToString()));
  }
  // Every base record must still be there, unchanged or replaced.
  const std::size_t unchanged = static_cast<std::size_t>(std::count(seen.begin(), seen.end(), true));
  if (unchanged + replaced_gone != base.size()) return std::optional<KnowledgeBase::Changes>();
  for (const Record& r : changes.added) (r.origin.format == Origin::Format::kDeadends ? rep->deadends : rep->native)++;
  for (const auto& [at, r] : changes.replaced) (r.origin.format == Origin::Format::kDeadends ? rep->deadends : rep->native)++;
  return std::optional<KnowledgeBase::Changes>(std::move(changes));
}

}  // namespace kedb
