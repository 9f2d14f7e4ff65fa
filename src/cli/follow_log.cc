#include "cli/follow_log.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "app/live_scan.h"
#include "cli/common.h"

namespace kedb::cli {
namespace {

volatile std::sig_atomic_t g_stop = 0;
void OnStop(int) { g_stop = 1; }

using Clock = std::chrono::steady_clock;

// The input: a pipe or terminal is waited on with poll(); a file is read to
// its end and then checked for growth, truncation and rotation.
class Follower {
 public:
  explicit Follower(const std::string& path) : path_(path) {}
  ~Follower() {
    if (fd_ > 0) close(fd_);
  }

  Status Open() {
    if (path_ == "-") {
      fd_ = 0;
      struct stat st {};
      is_file_ = fstat(0, &st) == 0 && S_ISREG(st.st_mode);
      return Status::Ok();
    }
    fd_ = open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) return Status::IoError(fmt::format("cannot open: {}", std::strerror(errno)));
    struct stat st {};
    if (fstat(fd_, &st) != 0 || S_ISDIR(st.st_mode)) return Status::InvalidArgument("is a folder; give a log file");
    is_file_ = S_ISREG(st.st_mode);
    inode_ = st.st_ino;
    return Status::Ok();
  }

  // Up to `cap` bytes into *out, waiting at most kPollMs. Returns false
  // when the input has ended (a pipe closed); an empty *out means nothing
  // came yet.
  bool Read(std::string* out, std::size_t cap) {
    out->clear();
    if (!is_file_) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, kPollMs) <= 0) return true;  // nothing yet (or interrupted)
    }
    out->resize(cap);
    const ssize_t n = read(fd_, out->data(), cap);
    if (n > 0) {
      out->resize(static_cast<std::size_t>(n));
      offset_ += static_cast<std::size_t>(n);
      return true;
    }
    out->clear();
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
    if (!is_file_) return false;  // the pipe closed
    if (path_ == "-") return false;  // a file given as stdin does not grow into view
    std::this_thread::sleep_for(std::chrono::milliseconds(kPollMs));
    Reopen();
    return true;
  }

  // Set when the file was truncated or replaced since the last call.
  bool restarted() {
    const bool r = restarted_;
    restarted_ = false;
    return r;
  }

 private:
  // A file truncated in place is read from its start; a file renamed away
  // and created anew (log rotation) is opened again.
  void Reopen() {
    struct stat now {}, named {};
    if (fstat(fd_, &now) == 0 && static_cast<std::size_t>(now.st_size) < offset_) {
      lseek(fd_, 0, SEEK_SET);
      offset_ = 0;
      restarted_ = true;
    }
    if (stat(path_.c_str(), &named) == 0 && named.st_ino != inode_) {
      const int fd = open(path_.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) return;
      close(fd_);
      fd_ = fd;
      inode_ = named.st_ino;
      offset_ = 0;
      restarted_ = true;
    }
  }

  std::string path_;
  int fd_ = -1;
  bool is_file_ = false;
  ino_t inode_ = 0;
  std::size_t offset_ = 0;
  bool restarted_ = false;
};

// Prints one flush; false when it failed.
bool PrintFlush(const app::Answer& a, bool json, const std::string& what) {
  if (a.kind != app::Answer::Kind::kOk) {
    PrintError(fmt::format("{}: {}\n", what, a.message));
    return false;
  }
  if (!a.notes.empty()) PrintError(a.notes);
  if (a.found) Print(json ? a.json : a.text);
  std::fflush(stdout);
  return true;
}

}  // namespace

int FollowLog(const Engine& engine, const std::string& path, const app::MatchQuery& q, bool json) {
  const std::string what = "kedb scan: " + path;
  Follower input(path);
  if (Status st = input.Open(); !st.ok()) {
    PrintError(fmt::format("{}: {}\n", what, st.message()));
    return kExitError;
  }
  std::signal(SIGINT, OnStop);
  std::signal(SIGTERM, OnStop);
  app::LiveScan live(engine, q);
  std::string chunk;
  auto last_data = Clock::now();
  bool pending = false;  // lines came since the last quiet flush
  constexpr std::size_t kReadBytes = 1u << 20;
  while (!g_stop) {
    const bool open = input.Read(&chunk, kReadBytes);
    if (input.restarted()) PrintError(fmt::format("{}: the file was truncated or replaced; reading it from its start\n", what));
    if (!chunk.empty()) {
      live.Add(chunk);
      last_data = Clock::now();
      pending = true;
      if (!PrintFlush(live.Flush(false), json, what)) return kExitError;
      continue;
    }
    if (!open) break;
    if (pending && Clock::now() - last_data >= std::chrono::milliseconds(kQuietMs)) {
      if (!PrintFlush(live.Flush(true), json, what)) return kExitError;
      pending = false;
    }
  }
  if (!PrintFlush(live.Flush(true), json, what)) return kExitError;
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  const ScanSummary& s = live.total();
  PrintError(fmt::format("kedb: followed {} lines: {} error block(s), {} known\n", s.lines, s.blocks, s.known));
  return app::ScanPasses(s, q.fail_on) ? kExitOk : kExitNothing;
}

}  // namespace kedb::cli
