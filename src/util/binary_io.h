// Little binary writer and reader for the on-disk caches (compiled pattern
// database, knowledge base snapshot). Host byte order: a cache is only ever
// read back on the machine that wrote it, and every cache file carries a
// format number and a checksum, so a foreign or damaged file is rebuilt.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace kedb::util {

class BinaryWriter {
 public:
  void U64(uint64_t v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void F64(double v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void Bytes(std::string_view b) {
    U64(b.size());
    out_.append(b);
  }
  void U32s(const std::vector<uint32_t>& v) {
    U64(v.size());
    out_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(uint32_t));
  }
  void Raw(std::string_view b) { out_.append(b); }
  // Appends the checksum of everything written so far (see Unseal).
  void Seal();
  std::string& str() { return out_; }

 private:
  std::string out_;
};

// Every read fails (returns false) once the input runs short; callers check
// done() at the end so that trailing garbage is refused too.
class BinaryReader {
 public:
  explicit BinaryReader(std::string_view b) : b_(b) {}
  bool U64(uint64_t* v) { return Fixed(v); }
  bool F64(double* v) { return Fixed(v); }
  bool Bytes(std::string_view* v) {
    uint64_t n;
    if (!U64(&n) || b_.size() < n) return false;
    *v = b_.substr(0, n);
    b_.remove_prefix(n);
    return true;
  }
  bool String(std::string* v) {
    std::string_view s;
    if (!Bytes(&s)) return false;
    v->assign(s);
    return true;
  }
  bool U32s(std::vector<uint32_t>* v) {
    uint64_t n;
    if (!U64(&n) || n > b_.size() / sizeof(uint32_t)) return false;
    v->resize(n);
    // An empty vector's data() may be null, and memcpy from or to null is
    // undefined even for 0 bytes (UBSan stops on it).
    if (n > 0) std::memcpy(v->data(), b_.data(), n * sizeof(uint32_t));
    b_.remove_prefix(n * sizeof(uint32_t));
    return true;
  }
  bool done() const { return b_.empty(); }

 private:
  template <typename T>
  bool Fixed(T* v) {
    if (b_.size() < sizeof *v) return false;
    std::memcpy(v, b_.data(), sizeof *v);
    b_.remove_prefix(sizeof *v);
    return true;
  }
  std::string_view b_;
};

// Whether `bytes` ends in the checksum BinaryWriter::Seal wrote over the rest;
// if so, `*bytes` loses it. A damaged or foreign cache fails here.
bool Unseal(std::string_view* bytes);

// Writes `bytes` to `path` through a temporary file and a rename, so that a
// reader never sees half a file. False when it cannot (a cache that cannot be
// written only costs time).
//
// kReadInPlaces: the file will be mapped and read a few pages at a time
// (MappedFile::Access::kInPlaces). Its pages then leave the page cache once
// written: a large write leaves them in 2 MB folios, and the kernel maps a
// whole folio into a reader that touches one byte of it, so that reading
// ten records of a snapshot would count 20 MB toward the reader. Pages read
// back at random come in one at a time. Costs a flush to disk.
enum class WriteFor { kReadWhole, kReadInPlaces };
bool WriteFileAtomically(const std::string& path, std::string_view bytes, WriteFor use = WriteFor::kReadWhole);
// A file written piece by piece under a temporary name, renamed into
// place by Commit: for files too large to build in memory first. Readers
// never see half of it; one left uncommitted is removed.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(std::string path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
  // Appends; a failed write is remembered and fails Commit.
  void Write(std::string_view bytes);
  // Zero bytes up to the next multiple of 8.
  void PadTo8();
  // Overwrites bytes already written (a header filled in last).
  void WriteAt(uint64_t offset, std::string_view bytes);
  uint64_t size() const { return size_; }
  bool Commit(WriteFor use);

 private:
  std::string path_, tmp_;
  int fd_ = -1;
  uint64_t size_ = 0;
  bool ok_ = true;
  std::string buffer_;  // appends are gathered into large writes
  void Flush();
};

// Keeps at most `keep` files named `prefix`* in `dir` (the newest by
// modification time) and deletes the rest: caches must not grow without
// bound as a knowledge base is edited. Temporary files of such names left
// by a process that is gone are deleted too.
void PruneCacheFiles(const std::string& dir, const std::string& prefix, std::size_t keep);

// The process stops here when a cache file it has opened turns out to be
// damaged: `path` is removed (the next run builds it again) and a message
// names it, its `kind` ("cache file") and `what` changed ("block 3").
// Nothing read from such a file can be trusted, so no answer is given.
[[noreturn]] void StopOnDamagedCache(const std::string& kind, const std::string& path, const std::string& what);

// A read-only memory map of a whole file: no copy, and pages come from the
// page cache instead of fresh heap memory. Empty when the file cannot be
// mapped (or is empty).
class MappedFile {
 public:
  // kWhole: the caller reads every byte. kInPlaces: only what it touches
  // is read from disk and counts toward the process's memory.
  enum class Access { kWhole, kInPlaces };
  explicit MappedFile(const std::string& path, Access access = Access::kWhole);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::string_view bytes() const { return {data_, size_}; }
  // Asks the kernel to read [offset, offset + length) ahead, for a file
  // read in places that is about to read that part through.
  void WillRead(std::size_t offset, std::size_t length) const;

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace kedb::util
