#include "app/scan_files.h"

#include <glob.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "app/outcomes.h"

namespace kedb::app {
namespace {

namespace fs = std::filesystem;

// One line a CI log can show: clean, or how many blocks kedb knows and not.
std::string ScanSummaryLine(const ScanSummary& s) {
  if (s.blocks == 0) return "kedb: clean: no error blocks\n";
  const std::size_t unknown = s.blocks - s.known;
  if (unknown == 0) return fmt::format("kedb: {} error block(s), all known\n", s.blocks);
  return fmt::format("kedb: {} error block(s): {} known, {} kedb does not know\n", s.blocks, s.known, unknown);
}

// How the answer is shaped: one log as the HTTP API and MCP send it, one
// log named by its file (the CLI), or several.
enum class Shape { kOne, kOneNamed, kMany };

// The rendered answer for scanned logs, with observed rates, hit counts
// and the summary line in its notes.
Answer Rendered(std::vector<ScannedLog>& logs, const std::vector<UnreadLog>& unread, const MatchQuery& q, Shape shape) {
  std::vector<const Record*> records;
  std::string note;
  for (const ScannedLog& log : logs) {
    std::vector<const Record*> identified;
    for (const ErrorBlock& b : log.result.blocks) {
      for (const Match& m : b.matches) records.push_back(m.record);
      // A log counts once for each known error it shows, however often it
      // repeats: a count is a job that hit the error.
      if (!b.matches.empty() &&
          std::find(identified.begin(), identified.end(), b.matches.front().record) == identified.end()) {
        identified.push_back(b.matches.front().record);
      }
    }
    if (q.record_hits) note += CountHits(q.store, identified);
  }
  const ObservedRates observed = ObservedFor(q.store, records, &note);
  for (const UnreadLog& u : unread) note += fmt::format("kedb scan: {}: {}\n", u.file, u.error);
  const ScanSummary total = TotalOf(logs);
  Answer a;
  a.found = ScanPasses(total, q.fail_on);
  a.unread = unread.size();
  if (shape == Shape::kMany) {
    a.json = RenderScansJson(logs, unread, q.lang, &observed);
  } else {
    a.json = RenderScanJson(logs[0].result, q.lang, &observed, shape == Shape::kOneNamed ? logs[0].file : "");
  }
  if (q.ci_format) {
    a.text = RenderScanCi(*q.ci_format, logs, q.lang, &observed);
  } else if (q.want_text) {
    a.text = shape == Shape::kMany ? RenderScansText(logs, unread, q.lang, &observed, q.style)
                                   : RenderScanText(logs[0].result, q.lang, &observed, q.style);
  }
  if (q.ci_format == CiFormat::kGithub) a.report = RenderScanMarkdown(logs, q.lang, &observed);
  if (q.ci_format == CiFormat::kGitlab) {
    const auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
    a.report = RenderGitlabSections(logs, q.lang, now.count(), &observed);
  }
  if (q.fail_on != MatchQuery::FailOn::kDefault || q.ci_format) note += ScanSummaryLine(total);
  a.notes = std::move(note);
  return a;
}

bool IsPattern(const std::string& arg) { return arg.find_first_of("*?[") != std::string::npos; }

// The files of folder `dir`, sorted, hidden ones left out.
void AddFolder(const fs::path& dir, bool recursive, LogPaths* out) {
  std::vector<std::string> found;
  std::error_code ec;
  auto add = [&](const fs::directory_entry& e) {
    std::error_code fec;
    if (e.is_regular_file(fec)) found.push_back(e.path().string());
  };
  auto hidden = [](const fs::path& p) { return p.filename().string().starts_with('.'); };
  if (recursive) {
    fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      if (hidden(it->path())) {
        if (it->is_directory()) it.disable_recursion_pending();
        continue;
      }
      add(*it);
    }
  } else {
    fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      if (!hidden(it->path())) add(*it);
    }
  }
  if (ec) {
    out->errors.push_back({dir.string(), fmt::format("cannot read the folder: {}", ec.message())});
  } else if (found.empty()) {
    out->errors.push_back({dir.string(), recursive ? "the folder holds no file to read"
                                                   : "the folder holds no file to read (-r reads its sub-folders)"});
  }
  std::sort(found.begin(), found.end());
  out->files.insert(out->files.end(), found.begin(), found.end());
}

void AddPattern(const std::string& pattern, bool recursive, LogPaths* out) {
  glob_t g{};
  const int rc = glob(pattern.c_str(), 0, nullptr, &g);
  if (rc != 0) {
    out->errors.push_back({pattern, "no file matches this pattern"});
    globfree(&g);
    return;
  }
  std::vector<std::string> matches(g.gl_pathv, g.gl_pathv + g.gl_pathc);  // sorted by glob
  globfree(&g);
  for (const std::string& m : matches) {
    std::error_code ec;
    if (fs::is_directory(m, ec)) {
      AddFolder(m, recursive, out);
    } else {
      out->files.push_back(m);
    }
  }
}

}  // namespace

bool ScanPasses(const ScanSummary& s, MatchQuery::FailOn fail_on) {
  const std::size_t unknown = s.blocks - s.known;
  switch (fail_on) {
    case MatchQuery::FailOn::kDefault: return s.known > 0;
    case MatchQuery::FailOn::kKnown: return s.known == 0;
    case MatchQuery::FailOn::kUnknown: return unknown == 0;
    case MatchQuery::FailOn::kAny: return s.blocks == 0;
    case MatchQuery::FailOn::kNever: return true;
  }
  return true;
}

Status ScanOptionsOf(const MatchQuery& q, ScanOptions* options) {
  options->all_lines = q.all_lines;
  options->threads = q.threads;
  return MatchOptionsOf(q, &options->match);
}

Status OpenLog(const std::string& path, std::ifstream* file) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Status::InvalidArgument("is a folder; give the log files inside it");
  errno = 0;
  file->open(path, std::ios::binary);
  if (*file) return Status::Ok();
  return Status::IoError(fmt::format("cannot open: {}", errno ? std::strerror(errno) : "unknown reason"));
}

LogPaths ExpandLogPaths(const std::vector<std::string>& args, bool recursive) {
  LogPaths out;
  out.many = args.size() > 1;
  for (const std::string& arg : args) {
    std::error_code ec;
    const fs::file_status st = fs::status(arg, ec);
    if (arg == "-" || (!ec && !fs::is_directory(st))) {
      out.files.push_back(arg);  // missing files too: opening them says why
    } else if (!ec) {
      out.many = true;
      AddFolder(arg, recursive, &out);
    } else if (IsPattern(arg)) {
      out.many = true;
      AddPattern(arg, recursive, &out);
    } else {
      out.files.push_back(arg);
    }
  }
  return out;
}

Answer ScanLog(const Engine& engine, std::istream& in, const MatchQuery& q) {
  ScanOptions options;
  if (Status st = ScanOptionsOf(q, &options); !st.ok()) return Answer::Error(Answer::Kind::kInvalid, st.message());
  std::vector<ScannedLog> logs(1);
  logs[0].file = q.source;
  Status st = engine.Scan(in, options, &logs[0].result);
  if (!st.ok()) return Answer::Error(Answer::Kind::kInvalid, st.message());
  return Rendered(logs, {}, q, Shape::kOne);
}

Answer ScanFiles(const Engine& engine, const LogPaths& paths, std::istream& standard_input, const MatchQuery& q) {
  ScanOptions options;
  if (Status st = ScanOptionsOf(q, &options); !st.ok()) return Answer::Error(Answer::Kind::kInvalid, st.message());
  std::vector<ScannedLog> logs;
  std::vector<UnreadLog> unread = paths.errors;
  for (const std::string& file : paths.files) {
    std::ifstream f;
    std::istream* in = &standard_input;
    if (file != "-") {
      if (Status st = OpenLog(file, &f); !st.ok()) {
        unread.push_back({file, st.message()});
        continue;
      }
      in = &f;
    }
    ScannedLog log{file, {}};
    if (Status st = engine.Scan(*in, options, &log.result); !st.ok()) {
      unread.push_back({file, st.message()});
      continue;
    }
    logs.push_back(std::move(log));
  }
  if (!paths.many) {
    if (!unread.empty()) return Answer::Error(Answer::Kind::kInvalid, unread.front().error);
    return Rendered(logs, {}, q, Shape::kOneNamed);
  }
  return Rendered(logs, unread, q, Shape::kMany);
}

}  // namespace kedb::app
