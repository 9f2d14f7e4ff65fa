#include "util/section_file.h"

#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "util/binary_io.h"

namespace kedb::util {
namespace {

struct Header {
  char magic[8];
  uint64_t key;
  uint64_t sections;
  uint64_t blocks;
  uint64_t checksum;  // of the header before it, the section table and the block sums
};
struct SectionEntry {
  uint64_t offset, size;
};

uint64_t TablesChecksum(const Header& h, std::string_view tables) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  XXH3_64bits_update(st, &h, offsetof(Header, checksum));
  XXH3_64bits_update(st, tables.data(), tables.size());
  const uint64_t sum = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return sum;
}

std::size_t RoundUp8(std::size_t n) { return (n + 7) / 8 * 8; }

}  // namespace

void SectionWriter::AddBytes(std::string_view bytes) { sections_.emplace_back(bytes); }

std::string SectionWriter::Finish(std::string_view magic, uint64_t key) const {
  Header h{};
  std::memcpy(h.magic, magic.data(), std::min(magic.size(), sizeof h.magic));
  h.key = key;
  h.sections = sections_.size();
  // The data: each section at a multiple of 8 from the start of the data,
  // which itself starts at a multiple of 8.
  std::string data;
  std::vector<SectionEntry> entries;
  for (const std::string& s : sections_) {
    data.resize(RoundUp8(data.size()), '\0');
    entries.push_back({data.size(), s.size()});
    data += s;
  }
  h.blocks = BlockChecks::Blocks(data.size());
  const std::size_t data_start = RoundUp8(sizeof h + entries.size() * sizeof(SectionEntry) + h.blocks * 8);
  for (SectionEntry& e : entries) e.offset += data_start;
  std::string tables(reinterpret_cast<const char*>(entries.data()), entries.size() * sizeof(SectionEntry));
  tables += BlockChecks::Sums(data);
  h.checksum = TablesChecksum(h, tables);
  std::string out(reinterpret_cast<const char*>(&h), sizeof h);
  out += tables;
  out.resize(data_start, '\0');
  out += data;
  return out;
}

std::unique_ptr<SectionFile> SectionFile::Open(const std::string& path, std::string_view magic, uint64_t key,
                                               std::size_t check_whole_below) {
  std::unique_ptr<SectionFile> f(new SectionFile());
  f->path_ = path;
  f->mapped_ = std::make_unique<MappedFile>(path, MappedFile::Access::kInPlaces);
  f->bytes_ = f->mapped_->bytes();
  if (!f->Parse(magic, key)) return nullptr;
  if (f->bytes_.size() <= check_whole_below) {
    f->mapped_->WillRead(0, f->bytes_.size());
    if (!f->checks_.CheckAll()) return nullptr;
  }
  return f;
}

std::unique_ptr<SectionFile> SectionFile::FromBytes(std::string bytes, std::string_view magic, uint64_t key) {
  std::unique_ptr<SectionFile> f(new SectionFile());
  f->held_ = std::move(bytes);
  f->bytes_ = f->held_;
  if (!f->Parse(magic, key) || !f->checks_.CheckAll()) return nullptr;
  return f;
}

SectionFile::~SectionFile() = default;

bool SectionFile::Parse(std::string_view magic, uint64_t key) {
  Header h;
  if (bytes_.size() < sizeof h || reinterpret_cast<uintptr_t>(bytes_.data()) % 8 != 0) return false;
  std::memcpy(&h, bytes_.data(), sizeof h);
  char want[8] = {};
  std::memcpy(want, magic.data(), std::min(magic.size(), sizeof want));
  if (std::memcmp(h.magic, want, sizeof want) != 0 || h.key != key) return false;
  const uint64_t size = bytes_.size();
  if (h.sections > size / sizeof(SectionEntry) || h.blocks > size / 8) return false;
  const std::size_t tables_size = h.sections * sizeof(SectionEntry) + h.blocks * 8;
  if (tables_size > size - sizeof h) return false;
  const std::string_view tables = bytes_.substr(sizeof h, tables_size);
  if (TablesChecksum(h, tables) != h.checksum) return false;
  const std::size_t data_start = RoundUp8(sizeof h + tables_size);
  if (data_start > size || h.blocks != BlockChecks::Blocks(size - data_start)) return false;
  const std::string_view sums = tables.substr(h.sections * sizeof(SectionEntry));
  for (uint64_t i = 0; i < h.sections; ++i) {
    SectionEntry e;
    std::memcpy(&e, tables.data() + i * sizeof e, sizeof e);
    if (e.offset < data_start || e.offset % 8 != 0 || e.offset > size || e.size > size - e.offset) return false;
    sections_.push_back(bytes_.substr(e.offset, e.size));
  }
  checks_ = BlockChecks(bytes_.substr(data_start), sums, path_);
  return true;
}

BlockChecks::BlockChecks(std::string_view data, std::string_view sums, std::string path)
    : data_(data), sums_(sums), path_(std::move(path)) {
  const std::size_t words = (sums_.size() / 8 + 63) / 64;
  checked_.reset(new std::atomic<uint64_t>[words]);
  for (std::size_t w = 0; w < words; ++w) checked_[w].store(0, std::memory_order_relaxed);
}

std::string BlockChecks::Sums(std::string_view data) {
  std::string sums;
  for (std::size_t begin = 0; begin < data.size(); begin += kBlockBytes) {
    const uint64_t sum = XXH3_64bits(data.data() + begin, std::min(kBlockBytes, data.size() - begin));
    sums.append(reinterpret_cast<const char*>(&sum), sizeof sum);
  }
  return sums;
}

bool BlockChecks::CheckAll() {
  for (std::size_t b = 0; b < sums_.size() / 8; ++b) {
    if (!BlockOk(b)) return false;
  }
  all_checked_ = true;
  return true;
}

bool BlockChecks::BlockOk(std::size_t b) const {
  const std::size_t begin = b * kBlockBytes;
  uint64_t want;
  std::memcpy(&want, sums_.data() + b * 8, sizeof want);
  if (XXH3_64bits(data_.data() + begin, std::min(kBlockBytes, data_.size() - begin)) != want) return false;
  checked_[b / 64].fetch_or(uint64_t{1} << (b % 64), std::memory_order_relaxed);
  return true;
}

void BlockChecks::CheckRange(std::size_t first, std::size_t last) const {
  for (std::size_t b = first; b <= last; ++b) {
    if (!Checked(b)) CheckBlock(b);
  }
}

void BlockChecks::CheckBlock(std::size_t b) const {
  if (!BlockOk(b)) StopOnDamagedCache("cache file", path_, "block " + std::to_string(b));
}

void StringList::Write(const std::vector<std::string_view>& strings, SectionWriter* w) {
  std::string blob;
  std::vector<uint32_t> ends;
  ends.reserve(strings.size());
  for (std::string_view s : strings) {
    blob += s;
    ends.push_back(static_cast<uint32_t>(blob.size()));
  }
  w->AddBytes(blob);
  w->Add(ends);
}

bool StringList::Bind(const SectionFile& file, std::size_t first) {
  if (!file.Get(first, &blob_) || !file.Get(first + 1, &ends_)) return false;
  return ends_.size() < UINT32_MAX && (ends_.empty() ? blob_.empty() : ends_[ends_.size() - 1] == blob_.size());
}

std::string_view StringList::At(std::size_t i) const {
  if (i >= ends_.size()) return {};
  const uint32_t begin = i == 0 ? 0 : ends_[i - 1], end = ends_[i];
  if (begin > end || end > blob_.size()) return {};  // a damaged list answers nothing
  const auto chars = blob_.Slice(begin, end);
  return {chars.data(), chars.size()};
}

void StringTable::Write(const std::vector<std::string_view>& by_id, SectionWriter* w) {
  StringList::Write(by_id, w);
  std::vector<uint32_t> slots(std::bit_ceil(std::max<std::size_t>(2 * by_id.size(), 2)), 0);
  const std::size_t mask = slots.size() - 1;
  for (std::size_t id = 0; id < by_id.size(); ++id) {
    std::size_t at = Hash(by_id[id]) & mask;
    while (slots[at] != 0) at = (at + 1) & mask;
    slots[at] = static_cast<uint32_t>(id + 1);
  }
  w->Add(slots);
}

bool StringTable::Bind(const SectionFile& file, std::size_t first) {
  if (!strings_.Bind(file, first) || !file.Get(first + 2, &slots_)) return false;
  // A power of two, larger than the count: every probe ends at an empty slot.
  const std::size_t n = slots_.size();
  return n >= 2 && (n & (n - 1)) == 0 && n > strings_.size();
}

uint64_t StringTable::Hash(std::string_view s) { return XXH3_64bits(s.data(), s.size()); }

int64_t StringTable::Find(std::string_view s) const { return Find(s, Hash(s)); }

int64_t StringTable::Find(std::string_view s, uint64_t hash) const {
  const std::size_t mask = slots_.size() - 1;
  std::size_t at = hash & mask;
  for (std::size_t probes = 0; probes < slots_.size(); ++probes, at = (at + 1) & mask) {
    const uint32_t slot = slots_[at];
    if (slot == 0) return -1;
    if (slot <= strings_.size() && At(slot - 1) == s) return slot - 1;
  }
  return -1;
}

}  // namespace kedb::util
