// Listing the record files of a knowledge-base folder.
//
// Loading, the snapshot's freshness check and `lint` all read a folder
// through this one walk, so they agree on which files it holds. The walk
// is safe on any tree a user can point it at:
//   - each folder is read once, known by device and inode, so symlinks
//     that lead back up the tree cannot make it loop or grow;
//   - symlinks are followed only to places inside the root folder;
//   - what it does not follow (a loop, a link out of the tree, a broken
//     link named *.json, a second path to a folder or file already read) is
//     reported on that path, and everything else is still listed.
// Cost: one readdir per folder, one stat per record file and per link.
#pragma once

#include <sys/stat.h>

#include <optional>
#include <string>
#include <vector>

#include "kedb/diagnostic.h"

namespace kedb {

// A *.json file under the root (hidden files and folders left out), or a
// path the walk did not follow, with the reason in `problem`.
struct TreeEntry {
  std::string path;  // root + "/" + the path below it, as found
  struct stat st {};  // of the file a link leads to; unset for a problem
  std::optional<Diagnostic> problem;
};

// The entries under the folder `root`, sorted by path component by
// component (as std::filesystem::path orders them). False when `root`
// cannot be opened as a folder.
bool ListRecordFiles(const std::string& root, std::vector<TreeEntry>* out);

}  // namespace kedb
