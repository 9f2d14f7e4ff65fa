#include "kb/tree_walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <utility>

#include <fmt/format.h>

namespace kedb {
namespace {

// Real folders nest at most this deep; deeper ones are reported.
constexpr int kMaxDepth = 64;

using FileId = std::pair<dev_t, ino_t>;

bool EndsWithJson(std::string_view name) { return name.size() > 5 && name.ends_with(".json"); }

std::string RealPath(const std::string& path) {
  char buf[PATH_MAX];
  return ::realpath(path.c_str(), buf) ? std::string(buf) : std::string();
}

// Whether `path` is `dir` or lies below it (both real paths).
bool Within(const std::string& path, const std::string& dir) {
  return path == dir || (path.size() > dir.size() && path.starts_with(dir) && (dir == "/" || path[dir.size()] == '/'));
}

// Orders paths component by component: '/' sorts before every other byte.
bool PathLess(const std::string& a, const std::string& b) {
  auto key = [](char c) { return c == '/' ? 0 : static_cast<unsigned char>(c) + 1; };
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                      [&](char x, char y) { return key(x) < key(y); });
}

class TreeWalker {
 public:
  explicit TreeWalker(const std::string& root) : root_(root), root_real_(RealPath(root)) {}

  bool Run(std::vector<TreeEntry>* out) {
    struct stat s {};
    if (root_real_.empty() || ::stat(root_.c_str(), &s) != 0 || !S_ISDIR(s.st_mode)) return false;
    folders_.emplace(FileId{s.st_dev, s.st_ino}, root_);
    const std::string base = root_.size() > 1 && root_.back() == '/' ? root_.substr(0, root_.size() - 1) : root_;
    Walk(::open(root_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC), base, s.st_dev, 0);
    // Links last, so that a folder's own path is the one it is read by.
    for (std::size_t i = 0; i < links_.size(); ++i) FollowLink(links_[i]);
    // The walk of sorted folders is already in path order; links add out
    // of order.
    if (!links_.empty()) {
      std::sort(entries_.begin(), entries_.end(),
                [](const TreeEntry& a, const TreeEntry& b) { return PathLess(a.path, b.path); });
    }
    *out = std::move(entries_);
    return true;
  }

 private:
  void Problem(const std::string& path, Severity severity, std::string message) {
    TreeEntry e;
    e.path = path;
    Diagnostic d;
    d.severity = severity;
    d.rule = "tree";
    d.file = path;
    d.message = std::move(message);
    e.problem = std::move(d);
    entries_.push_back(std::move(e));
  }

  void AddFile(std::string path, const struct stat& s) {
    TreeEntry e;
    e.path = std::move(path);
    e.st = s;
    entries_.push_back(std::move(e));
  }

  // A file reached by a link: listed unless the tree holds it already.
  void AddLinkedFile(const std::string& path, const struct stat& s) {
    for (const TreeEntry& e : entries_) {
      if (!e.problem && e.st.st_dev == s.st_dev && e.st.st_ino == s.st_ino) {
        Problem(path, Severity::kWarning, fmt::format("the same file as {}; read once", e.path));
        return;
      }
    }
    AddFile(path, s);
  }

  // Reads the folder open as `fd` (which it closes), known as `dir`, on
  // device `dev`.
  void Walk(int fd, const std::string& dir, dev_t dev, int depth) {
    if (fd < 0) {
      Problem(dir, Severity::kError, fmt::format("cannot open the folder: {}", std::strerror(errno)));
      return;
    }
    if (depth > kMaxDepth) {
      ::close(fd);
      Problem(dir, Severity::kError, fmt::format("folders nested deeper than {}; not read", kMaxDepth));
      return;
    }
    DIR* d = ::fdopendir(fd);
    if (!d) {
      ::close(fd);
      return;
    }
    struct Name {
      std::string name;
      unsigned char type;
      ino_t ino;
      bool operator<(const Name& o) const { return name < o.name; }
    };
    std::vector<Name> names;
    while (struct dirent* e = ::readdir(d)) {
      if (e->d_name[0] != '.') names.push_back({e->d_name, e->d_type, e->d_ino});  // ".", "..", hidden entries
    }
    std::sort(names.begin(), names.end());
    for (const auto& [name, type, ino] : names) {
      std::string path = dir + "/" + name;
      if (type == DT_LNK) {
        links_.push_back(path);
        continue;
      }
      if (type == DT_DIR) {
        // A folder is known by its device and inode without a stat: the
        // parent's device and readdir's inode. (At a mount point the inode
        // is the one beneath it, so a link to a mount point may read that
        // folder twice, once; every folder reached by a link is stat'ed.)
        auto [it, added] = folders_.emplace(FileId{dev, ino}, std::move(path));
        if (!added) continue;
        Walk(::openat(::dirfd(d), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), it->second, dev,
             depth + 1);
        continue;
      }
      // Record files need a stat; without d_type (some file systems) it
      // also tells what an entry is.
      if (type != DT_UNKNOWN && !(type == DT_REG && EndsWithJson(name))) continue;
      struct stat s {};
      if (::fstatat(::dirfd(d), name.c_str(), &s, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone since readdir
      if (S_ISLNK(s.st_mode)) {
        links_.push_back(path);
      } else if (S_ISDIR(s.st_mode)) {
        auto [it, added] = folders_.emplace(FileId{s.st_dev, s.st_ino}, std::move(path));
        if (!added) continue;
        Walk(::openat(::dirfd(d), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), it->second,
             s.st_dev, depth + 1);
      } else if (S_ISREG(s.st_mode) && EndsWithJson(name)) {
        AddFile(std::move(path), s);
      }
    }
    ::closedir(d);
  }

  void FollowLink(const std::string& path) {
    const std::string name = path.substr(path.rfind('/') + 1);
    struct stat s {};
    if (::stat(path.c_str(), &s) != 0) {
      if (errno == ELOOP) {
        Problem(path, Severity::kError, "a symlink loop; not followed");
      } else if (EndsWithJson(name)) {
        Problem(path, Severity::kError, fmt::format("a broken symlink: {}", std::strerror(errno)));
      }
      return;
    }
    const bool folder = S_ISDIR(s.st_mode);
    if (!folder && !(S_ISREG(s.st_mode) && EndsWithJson(name))) return;
    const std::string target = RealPath(path);
    if (!Within(target, root_real_)) {
      Problem(path, Severity::kError,
              fmt::format("a symlink that leads out of the knowledge base (to {}); not followed", target));
      return;
    }
    if (!folder) {
      AddLinkedFile(path, s);
      return;
    }
    auto [it, added] = folders_.emplace(FileId{s.st_dev, s.st_ino}, path);
    if (!added) {
      const std::string parent = RealPath(path.substr(0, path.rfind('/')));
      const bool loop = Within(parent, target);
      Problem(path, loop ? Severity::kError : Severity::kWarning,
              loop ? fmt::format("a symlink loop: leads back to {}, which holds it; not followed", it->second)
                   : fmt::format("leads to {}, already read; not read twice", it->second));
      return;
    }
    Walk(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC), it->second, s.st_dev, 1);
  }

  std::string root_, root_real_;
  std::map<FileId, std::string> folders_;  // read so far, by the path first seen
  std::vector<std::string> links_;                 // symlinks met, followed after the tree
  std::vector<TreeEntry> entries_;
};

}  // namespace

bool ListRecordFiles(const std::string& root, std::vector<TreeEntry>* out) {
  return TreeWalker(root).Run(out);
}

}  // namespace kedb
