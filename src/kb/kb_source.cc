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

bool IsJsonl(const fs::path& p) {
  auto ext = p.extension().string();
  return ext == ".jsonl" || ext == ".ndjson";
}

namespace {

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

Status ReadJsonl(const fs::path& p, const LoadOptions& options,
                 const std::function<void(SourceDocument&&)>& each) {
  const std::string file = p.string();
  return ForEachJsonlLine(file, options, [&](const JsonlLine& line) {
    SourceDocument doc;
    doc.origin = {file, Origin::Format::kJsonl, line.offset, line.number};
    if (line.too_long) {
      doc.read_error = ReadError(file, line.number,
                                 fmt::format("line is longer than the {}-byte limit for one record",
                                             options.max_line_bytes));
    } else {
      doc.text = std::string(line.text);
    }
    each(std::move(doc));
  });
}

}  // namespace

Status ForEachJsonlLine(const std::string& path, const LoadOptions& options,
                        const std::function<void(const JsonlLine&)>& each, int64_t begin, int64_t end_at,
                        int* lines) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IoError(fmt::format("{}: cannot open", path));
  if (begin > 0) in.seekg(begin);
  std::vector<char> buf(1 << 16);
  std::string held;      // a line begun in an earlier buffer
  bool holding = false, overflow = false;
  JsonlLine line;
  line.number = 1;
  line.offset = begin;
  int64_t offset = begin;
  auto finish = [&](std::string_view text) {
    line.too_long = overflow;
    line.text = overflow ? std::string_view() : text;
    if (overflow || text.find_first_not_of(" \t\r") != std::string_view::npos) each(line);
    held.clear();
    holding = overflow = false;
    ++line.number;
    line.offset = offset;
  };
  while (in && line.offset < end_at) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const std::size_t n = static_cast<std::size_t>(in.gcount());
    std::size_t pos = 0;
    while (pos < n && line.offset < end_at) {
      const char* nl = static_cast<const char*>(memchr(buf.data() + pos, '\n', n - pos));
      const std::size_t end = nl ? static_cast<std::size_t>(nl - buf.data()) : n;
      const std::string_view piece(buf.data() + pos, end - pos);
      if (!overflow && held.size() + piece.size() > options.max_line_bytes) {
        overflow = true;
        held.clear();
        held.shrink_to_fit();
      }
      offset += static_cast<int64_t>(piece.size());
      pos = end;
      if (nl) {
        ++offset;
        ++pos;
        // Most lines lie whole in one buffer and are passed without a copy.
        if (holding && !overflow) {
          held.append(piece);
          finish(held);
        } else {
          finish(piece);
        }
      } else if (!overflow) {
        held.append(piece);
        holding = true;
      }
    }
  }
  if (in.bad()) return Status::IoError(fmt::format("{}: read error", path));
  if ((holding || overflow) && line.offset < end_at) finish(held);
  if (lines) *lines = line.number - 1;
  return Status::Ok();
}

int64_t NextJsonlLineStart(const std::string& path, int64_t at) {
  std::ifstream in(path, std::ios::binary);
  in.seekg(at);
  int64_t offset = at;
  std::vector<char> buf(1 << 16);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const std::size_t n = static_cast<std::size_t>(in.gcount());
    if (const char* nl = static_cast<const char*>(memchr(buf.data(), '\n', n))) return offset + (nl - buf.data()) + 1;
    offset += static_cast<int64_t>(n);
  }
  return offset;
}

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
