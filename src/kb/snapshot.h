// Knowledge base snapshots: the parsed records and load report of a
// knowledge base, kept in one binary file in the cache folder.
//
// Why: parsing and validating 2,522 JSON files takes about 0.4 s, most of
// it in the JSON library; a snapshot loads in a few tens of milliseconds,
// so a command-line call on an unchanged knowledge base starts fast.
//
// A snapshot is read in place: the file is mapped and a record is decoded
// the first time it is touched (kb/mapped_records.h), so commands that
// touch a few records cost about the same at any size. The header and the
// load report carry a checksum checked on every open; the tables carry one
// per 4 KB block, and records and regexes one each. Snapshots of up to
// 64 MB of records are checked whole on open (a damaged one is rebuilt);
// above that each block, record and regex is checked when first read.
// The file is written as it is encoded, never held whole in memory, and
// leaves the page cache once written (util::WriteFor::kReadInPlaces).

// A snapshot is keyed by the source's file list with each file's size and
// modification time (nanoseconds), the load options and the snapshot
// format. Any change to a file gives a new key; a snapshot with another
// key, a bad checksum or a short read is ignored and the source is loaded
// and validated again. Snapshots never change what a load returns.
//
// Layout (format 8), every offset from the start of the file: a fixed
// header (magic, key, record count, content key, section offsets,
// checksum), the load report, every record's encoding back to back, every
// record's regex back to back, then, aligned to 8 bytes, a table of
// {offset, size, checksum, source text hash} per record, a table of {id hash, record} sorted
// by hash, a table of {offset, hash, size} per regex, and the XXH3 of each
// 4 KB block of those three tables.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "kedb/knowledge_base.h"

namespace kedb {

// The key of the knowledge base at `path` loaded with `options`; nullopt
// when the source cannot be listed (then no snapshot is used). Paths that
// name the same place ("kb", "./kb", "/abs/kb", a link to it) share a key.
std::optional<uint64_t> SnapshotKey(const std::string& path, const LoadOptions& options);

// Whether every source file was last modified more than a few seconds ago.
// Only then is a snapshot written: on a file system with coarse timestamps
// a file edited twice within one tick keeps its size and time, and a
// snapshot taken between the edits would be served stale.
bool SourceSettled(const std::string& path);

// The snapshot file for the knowledge base at `path` with `key` in
// `cache_dir`: "kb-<hash of path>-<key>.bin", the path made canonical.
std::string SnapshotPath(const std::string& cache_dir, const std::string& path, uint64_t key);

// The snapshot kept for the knowledge base at `path` in `cache_dir`,
// whatever its key (older ones are pruned, so there is at most one), and
// the key its name carries; nullopt when there is none. Lets the snapshot
// be read while the source is still being listed for the current key.
std::optional<std::pair<std::string, uint64_t>> LatestSnapshot(const std::string& cache_dir, const std::string& path);

// Writes a snapshot and deletes older snapshots of the same knowledge base;
// false when it cannot (a missing snapshot only costs time).
bool SaveSnapshot(const std::string& file, uint64_t key, const KnowledgeBase& kb, const LoadReport& report);

// Reads a snapshot written under `key`; nullopt when absent, stale or damaged.
// Snapshots with at most `check_whole_below` bytes of records are checked
// whole on open; larger ones as they are read.
constexpr uint64_t kSnapshotCheckWholeBelow = 64u << 20;
std::optional<KnowledgeBase> LoadSnapshot(const std::string& file, uint64_t key, LoadReport* report,
                                          uint64_t check_whole_below = kSnapshotCheckWholeBelow);

}  // namespace kedb
