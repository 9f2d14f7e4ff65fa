#include "util/binary_io.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace kedb::util {
namespace fs = std::filesystem;

void BinaryWriter::Seal() { U64(XXH3_64bits(out_.data(), out_.size())); }

bool Unseal(std::string_view* bytes) {
  if (bytes->size() < sizeof(uint64_t)) return false;
  uint64_t checksum;
  std::memcpy(&checksum, bytes->data() + bytes->size() - sizeof checksum, sizeof checksum);
  bytes->remove_suffix(sizeof checksum);
  return XXH3_64bits(bytes->data(), bytes->size()) == checksum;
}

bool WriteFileAtomically(const std::string& path, std::string_view bytes, WriteFor use) {
  AtomicFileWriter out(path);
  out.Write(bytes);
  return out.Commit(use);
}

AtomicFileWriter::AtomicFileWriter(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  fs::create_directories(fs::path(path_).parent_path(), ec);
  tmp_ = path_ + ".tmp" + std::to_string(::getpid());
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ok_ = fd_ >= 0;
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(tmp_.c_str());
  }
}

void AtomicFileWriter::Flush() {
  for (std::size_t done = 0; ok_ && done < buffer_.size();) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n <= 0) {
      ok_ = false;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  buffer_.clear();
}

void AtomicFileWriter::Write(std::string_view bytes) {
  if (!ok_) return;
  size_ += bytes.size();
  constexpr std::size_t kGather = 4u << 20;
  if (bytes.size() >= kGather) {  // written as it is, not copied first
    Flush();
    for (std::size_t done = 0; ok_ && done < bytes.size();) {
      const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
      ok_ = n > 0;
      done += ok_ ? static_cast<std::size_t>(n) : 0;
    }
    return;
  }
  buffer_ += bytes;
  if (buffer_.size() >= kGather) Flush();
}

void StopOnDamagedCache(const std::string& kind, const std::string& path, const std::string& what) {
  ::unlink(path.c_str());
  std::fprintf(stderr,
               "kedb: the %s %s is damaged (%s changed after it was opened); it has been removed and is built "
               "again on the next run\n",
               kind.c_str(), path.c_str(), what.c_str());
  std::exit(70);  // EX_SOFTWARE
}

void AtomicFileWriter::PadTo8() { Write(std::string((8 - size_ % 8) % 8, '\0')); }

void AtomicFileWriter::WriteAt(uint64_t offset, std::string_view bytes) {
  Flush();
  if (ok_ && ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset)) !=
                 static_cast<ssize_t>(bytes.size())) {
    ok_ = false;
  }
}

bool AtomicFileWriter::Commit(WriteFor use) {
  Flush();
  if (fd_ < 0) return false;
  if (use == WriteFor::kReadInPlaces && ok_) {
    ::fdatasync(fd_);
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED);
  }
  ok_ = ::close(fd_) == 0 && ok_;
  fd_ = -1;
  std::error_code ec;
  if (ok_) fs::rename(tmp_, path_, ec);
  if (!ok_ || ec) {
    fs::remove(tmp_, ec);
    return false;
  }
  return true;
}


namespace {

// Whether `name` is a temporary file ("<name>.tmp<pid>") of a process that
// is gone: one stopped while writing it (killed, or a server that ended
// without waiting for a compile behind it).
bool Abandoned(const std::string& name) {
  const std::size_t at = name.rfind(".tmp");
  if (at == std::string::npos || at + 4 == name.size()) return false;
  pid_t pid = 0;
  auto [end, err] = std::from_chars(name.data() + at + 4, name.data() + name.size(), pid);
  if (err != std::errc() || end != name.data() + name.size() || pid <= 0) return false;
  return ::kill(pid, 0) != 0 && errno == ESRCH;
}

}  // namespace

void PruneCacheFiles(const std::string& dir, const std::string& prefix, std::size_t keep) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    if (name.find(".tmp") != std::string::npos) {
      std::error_code removed;
      if (Abandoned(name)) fs::remove(it->path(), removed);
      continue;
    }
    files.emplace_back(it->last_write_time(ec), it->path());
  }
  if (files.size() <= keep) return;
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = keep; i < files.size(); ++i) fs::remove(files[i].second, ec);
}

MappedFile::MappedFile(const std::string& path, Access access) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size > 0) {
    // A file read whole has its pages mapped in one go rather than faulted
    // in one by one; a file read in places only pays for those.
    const int flags = MAP_PRIVATE | (access == Access::kWhole ? MAP_POPULATE : 0);
    void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, flags, fd, 0);
    if (p != MAP_FAILED) {
      // Read in places: no read-ahead around each touch, and no 2 MB
      // mappings of the page cache's large folios, either of which would
      // bring in (and count toward the process) pages nobody asked for.
      if (access == Access::kInPlaces) {
        ::madvise(p, static_cast<std::size_t>(st.st_size), MADV_RANDOM);
        ::madvise(p, static_cast<std::size_t>(st.st_size), MADV_NOHUGEPAGE);
      }
      data_ = static_cast<const char*>(p);
      size_ = static_cast<std::size_t>(st.st_size);
    }
  }
  ::close(fd);
}

void MappedFile::WillRead(std::size_t offset, std::size_t length) const {
  if (!data_ || offset >= size_) return;
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t begin = offset / page * page, end = std::min(size_, offset + length);
  ::madvise(const_cast<char*>(data_) + begin, end - begin, MADV_WILLNEED);
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<char*>(data_), size_);
}

}  // namespace kedb::util
