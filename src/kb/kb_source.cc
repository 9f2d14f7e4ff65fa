#include "kb/kb_source.h"

#include "kb/tree_walk.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

#include <fmt/format.h>

namespace kedb {
namespace fs = std::filesystem;
namespace {

bool IsJsonl(const fs::path& p) {
  auto ext = p.extension().string();
  return ext == ".jsonl" || ext == ".ndjson";
}

Diagnostic ReadError(const std::string& file, int line, std::string message) {
  Diagnostic d;
  d.severity = Severity::kError;
  d.rule = "read";
  d.file = file;
  d.line = line;
  d.column = line > 0 ? 1 : 0;
  d.message = std::move(message);
  return d;
}

// Reads a whole record file, refusing files over the limit before reading.
SourceDocument ReadWholeFile(const fs::path& p, const LoadOptions& options) {
  SourceDocument doc;
  doc.origin.file = p.string();
  doc.origin.format = Origin::Format::kNative;
  std::error_code ec;
  auto size = fs::file_size(p, ec);
  if (ec) {
    doc.read_error = ReadError(doc.origin.file, 0, "cannot read: " + ec.message());
    return doc;
  }
  if (size > options.max_file_bytes) {
    doc.read_error = ReadError(doc.origin.file, 0,
                               fmt::format("file is {} bytes, over the {}-byte limit for one record", size,
                                           options.max_file_bytes));
    return doc;
  }
  std::ifstream in(p, std::ios::binary);
  doc.text.resize(size);
  if (!in.read(doc.text.data(), static_cast<std::streamsize>(size))) {
    doc.text.clear();
    doc.read_error = ReadError(doc.origin.file, 0, "cannot read the file");
  }
  return doc;
}

// Splits a JSONL file into lines without ever holding more than one line
// (bounded by max_line_bytes) in memory: an over-long line is reported and
// skipped, and the lines after it still load.
Status ReadJsonl(const fs::path& p, const LoadOptions& options,
                 const std::function<void(SourceDocument&&)>& each) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return Status::IoError(fmt::format("{}: cannot open", p.string()));
  const std::string file = p.string();
  std::vector<char> buf(1 << 16);
  std::string line;
  bool overflow = false;
  int line_no = 1;
  int64_t offset = 0, line_start = 0;
  auto finish_line = [&]() {
    if (overflow) {
      SourceDocument doc;
      doc.origin = {file, Origin::Format::kJsonl, line_start, line_no};
      doc.read_error = ReadError(file, line_no,
                                 fmt::format("line is longer than the {}-byte limit for one record",
                                             options.max_line_bytes));
      each(std::move(doc));
    } else if (line.find_first_not_of(" \t\r") != std::string::npos) {
      SourceDocument doc;
      doc.origin = {file, Origin::Format::kJsonl, line_start, line_no};
      doc.text = std::move(line);
      each(std::move(doc));
    }
    line.clear();
    overflow = false;
    ++line_no;
    line_start = offset;
  };
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    std::size_t n = static_cast<std::size_t>(in.gcount());
    std::size_t pos = 0;
    while (pos < n) {
      const char* nl = static_cast<const char*>(memchr(buf.data() + pos, '\n', n - pos));
      std::size_t end = nl ? static_cast<std::size_t>(nl - buf.data()) : n;
      if (!overflow) {
        if (line.size() + (end - pos) > options.max_line_bytes) {
          overflow = true;
          line.clear();
          line.shrink_to_fit();
        } else {
          line.append(buf.data() + pos, end - pos);
        }
      }
      offset += static_cast<int64_t>(end - pos);
      pos = end;
      if (nl) {
        ++offset;
        ++pos;
        finish_line();
      }
    }
  }
  if (in.bad()) return Status::IoError(fmt::format("{}: read error", file));
  if (!line.empty() || overflow) finish_line();
  return Status::Ok();
}

}  // namespace

Status ForEachDocument(const std::string& path, const LoadOptions& options,
                       const std::function<void(SourceDocument&&)>& each) {
  std::error_code ec;
  fs::path root(path);
  auto st = fs::status(root, ec);
  if (ec || !fs::exists(st)) return Status::NotFound(fmt::format("{}: no such file or directory", path));
  if (fs::is_regular_file(st)) {
    if (IsJsonl(root)) return ReadJsonl(root, options, each);
    each(ReadWholeFile(root, options));
    return Status::Ok();
  }
  if (!fs::is_directory(st)) return Status::InvalidArgument(fmt::format("{}: not a file or directory", path));

  std::vector<TreeEntry> entries;
  if (!ListRecordFiles(path, &entries)) return Status::IoError(fmt::format("{}: cannot read the folder", path));
  for (TreeEntry& e : entries) {
    if (!e.problem) {
      each(ReadWholeFile(e.path, options));
      continue;
    }
    SourceDocument doc;
    doc.origin.file = e.path;
    doc.origin.format = Origin::Format::kNative;
    doc.read_error = std::move(e.problem);
    each(std::move(doc));
  }
  return Status::Ok();
}

}  // namespace kedb
