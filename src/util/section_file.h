// SectionFile: a cache file of typed arrays, mapped and used in place.
//
// Why: an index over a million records is hundreds of megabytes. Reading it
// whole, or rebuilding hash maps from it, costs every command seconds and
// that much memory before it answers; a mapped file costs only the pages a
// query touches.
//
// Layout (host byte order, like every cache here):
//   header     magic[8], key, section count, block count, checksum
//   sections   offset and size of each, in bytes from the start of the file
//   blocks     XXH3 of each 4 KB block of the data that follows
//   data       the sections, each starting at a multiple of 8
// The header's checksum covers the header, the section table and the block
// checksums, and is checked on open with every section's bounds. The data
// is checked a block at a time: whole on open when the file is small, so
// that a damaged one is simply rebuilt, and otherwise each block the first
// time it is read (Array does it), so that opening a large file reads
// nothing but its tables. A block that fails its check then means the file
// changed under the process: it is removed and the process stops with a
// message naming it (exit 70), since nothing read from it can be trusted.
//
// Thread-safe once opened: reads may run concurrently.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kedb::util {

class MappedFile;
class SectionFile;

// Bytes checked in 4 KB blocks against stored XXH3 sums, each block the
// first time a read reaches it (or all at once). A block that fails stops
// the process: the file it lies in is removed, and a message names it.
class BlockChecks {
 public:
  // Small, because a lookup in a large table touches a few bytes in a
  // random place, and the first touch of a block reads all of it: with
  // 64 KB blocks, a thousand lookups read 60 MB.
  static constexpr std::size_t kBlockBytes = 4 << 10;
  BlockChecks() = default;
  // `sums` holds one uint64_t per block of `data`; `path` names the file
  // in the message ("" for bytes held in memory).
  BlockChecks(std::string_view data, std::string_view sums, std::string path);
  // The sums of `data`'s blocks, as stored.
  static std::string Sums(std::string_view data);
  static std::size_t Blocks(std::size_t bytes) { return (bytes + kBlockBytes - 1) / kBlockBytes; }

  // Checks the blocks under [p, p + n) (inside the data) not checked yet.
  // Inline for the common case (one block, checked before): every read of
  // a mapped array goes through here.
  [[gnu::always_inline]] void Check(const void* p, std::size_t n) const {
    if (n == 0 || all_checked_) return;
    const std::size_t at = static_cast<std::size_t>(static_cast<const char*>(p) - data_.data());
    const std::size_t first = at / kBlockBytes, last = (at + n - 1) / kBlockBytes;
    if (first == last && Checked(first)) return;
    CheckRange(first, last);
  }
  // Every block now; false (nothing marked) when one fails.
  bool CheckAll();

 private:
  bool Checked(std::size_t b) const {
    return (checked_[b / 64].load(std::memory_order_relaxed) >> (b % 64)) & 1;
  }
  void CheckRange(std::size_t first, std::size_t last) const;  // out of line: the slow path
  void CheckBlock(std::size_t b) const;  // stops the process when it fails
  bool BlockOk(std::size_t b) const;

  std::string_view data_, sums_;
  std::string path_;
  bool all_checked_ = false;
  std::unique_ptr<std::atomic<uint64_t>[]> checked_;  // a bit per block
};

// Section i of a SectionFile as n values of T. Reading an element (or a
// slice) checks the blocks under it the first time.
template <typename T>
class Array {
 public:
  Array() = default;
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T operator[](std::size_t i) const;
  // Elements [begin, end): one check for all of them.
  std::span<const T> Slice(std::size_t begin, std::size_t end) const;
  std::span<const T> All() const { return Slice(0, size_); }
  // Elements [begin, end) as an array of their own, checked as they are
  // read (empty when the range is not inside this one).
  Array Part(std::size_t begin, std::size_t end) const {
    Array part;
    if (begin > end || end > size_) return part;
    part.data_ = data_ + begin;
    part.size_ = end - begin;
    part.file_ = file_;
    return part;
  }

 private:
  friend class SectionFile;
  const T* data_ = nullptr;
  std::size_t size_ = 0;
  const SectionFile* file_ = nullptr;
};

class SectionWriter {
 public:
  template <typename T>
  void Add(const std::vector<T>& values) {
    static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= 8);
    AddBytes({reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)});
  }
  void AddBytes(std::string_view bytes);
  // Adds `other`'s sections after these, in order.
  void Append(SectionWriter&& other) {
    for (std::string& s : other.sections_) sections_.push_back(std::move(s));
    other.sections_.clear();
  }
  std::size_t sections() const { return sections_.size(); }
  // The whole file.
  std::string Finish(std::string_view magic, uint64_t key) const;

 private:
  std::vector<std::string> sections_;
};

class SectionFile {
 public:
  static constexpr std::size_t kBlockBytes = BlockChecks::kBlockBytes;
  static constexpr std::size_t kCheckWholeBelow = 16u << 20;

  // `path` mapped in place, or null when it is missing, short, of another
  // magic or key, or fails a check on open. Files up to
  // `check_whole_below` bytes have all their data checked now.
  static std::unique_ptr<SectionFile> Open(const std::string& path, std::string_view magic, uint64_t key,
                                           std::size_t check_whole_below = kCheckWholeBelow);
  // A file's bytes held in memory (one just built), checked whole; null
  // when they do not parse or fail a check.
  static std::unique_ptr<SectionFile> FromBytes(std::string bytes, std::string_view magic, uint64_t key);
  ~SectionFile();
  SectionFile(const SectionFile&) = delete;
  SectionFile& operator=(const SectionFile&) = delete;

  std::size_t sections() const { return sections_.size(); }
  std::string_view bytes() const { return bytes_; }  // the whole file
  // Section i as values of T; false when there is no such section or its
  // size is not a multiple of T.
  template <typename T>
  bool Get(std::size_t i, Array<T>* out) const {
    if (i >= sections_.size() || sections_[i].size() % sizeof(T) != 0) return false;
    out->data_ = reinterpret_cast<const T*>(sections_[i].data());
    out->size_ = sections_[i].size() / sizeof(T);
    out->file_ = this;
    return true;
  }

  // Checks the blocks under [p, p + n) that were not checked yet.
  [[gnu::always_inline]] void Check(const void* p, std::size_t n) const { checks_.Check(p, n); }

 private:
  SectionFile() = default;
  bool Parse(std::string_view magic, uint64_t key);

  std::string path_;  // "" when held in memory
  std::unique_ptr<MappedFile> mapped_;
  std::string held_;
  std::string_view bytes_;
  std::vector<std::string_view> sections_;
  BlockChecks checks_;  // of the data after the tables
};

// Inlined always: a lookup in a mapped table is a handful of these, and a
// call for each cost a tenth of a match at a million records.
template <typename T>
[[gnu::always_inline]] inline T Array<T>::operator[](std::size_t i) const {
  file_->Check(data_ + i, sizeof(T));
  return data_[i];
}

template <typename T>
std::span<const T> Array<T>::Slice(std::size_t begin, std::size_t end) const {
  if (begin >= end) return {};
  file_->Check(data_ + begin, (end - begin) * sizeof(T));
  return {data_ + begin, end - begin};
}

// Strings by number, used in place. Two sections: the strings back to
// back, and where each ends.
class StringList {
 public:
  static void Write(const std::vector<std::string_view>& strings, SectionWriter* w);
  // Binds the two sections from `first`; false when they do not fit
  // together.
  bool Bind(const SectionFile& file, std::size_t first);
  std::size_t size() const { return ends_.size(); }
  // String i; "" when there is none (or the list is damaged there).
  std::string_view At(std::size_t i) const;

 private:
  Array<char> blob_;
  Array<uint32_t> ends_;  // string i is blob[ends[i-1] (0 for i = 0) .. ends[i])
};

// Strings by id, and ids by string through an open-addressing hash table:
// a word table used in place, where an unordered_map would be rebuilt at
// every start. Three sections: a StringList, and the hash slots.
class StringTable {
 public:
  // Writes `by_id` (string i has id i) as three sections.
  static void Write(const std::vector<std::string_view>& by_id, SectionWriter* w);
  // Binds the three sections from `first`; false when they do not fit
  // together (the slots are then checked as they are used).
  bool Bind(const SectionFile& file, std::size_t first);

  std::size_t size() const { return strings_.size(); }
  // The id of `s`, or -1.
  int64_t Find(std::string_view s) const;
  // The same for a caller that has Hash(s) already.
  int64_t Find(std::string_view s, uint64_t hash) const;
  static uint64_t Hash(std::string_view s);
  std::string_view At(uint32_t id) const { return strings_.At(id); }

 private:
  StringList strings_;
  Array<uint32_t> slots_;  // a power of two; 0 empty, else id + 1
};

}  // namespace kedb::util
