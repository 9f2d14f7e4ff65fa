#include "app/clean_logs.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "match/rank.h"

namespace kedb::app {
namespace {

namespace fs = std::filesystem;

// The files under `paths`, in a stable order.
Result<std::vector<fs::path>> LogFiles(const std::vector<std::string>& paths) {
  std::vector<fs::path> files;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<fs::path> found;
      for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!name.empty() && name[0] == '.') {
          if (it->is_directory()) it.disable_recursion_pending();
          continue;
        }
        if (it->is_regular_file()) found.push_back(it->path());
      }
      if (ec) return Status::IoError(fmt::format("--clean-logs {}: {}", p, ec.message()));
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(p, ec)) {
      files.emplace_back(p);
    } else {
      return Status::IoError(fmt::format("--clean-logs {}: no such file or folder", p));
    }
  }
  return files;
}

struct Firing {
  std::size_t lines = 0, reported_lines = 0;
  std::vector<std::string> logs;  // each once, in order
  std::string first;              // "file:line: text"
};

}  // namespace

Result<CleanLogFindings> CheckCleanLogs(const Engine& engine, const std::vector<std::string>& paths) {
  auto files = LogFiles(paths);
  if (!files.ok()) return files.status();
  ScanOptions options;
  // Every candidate a pattern confirmed, however weak: a loose pattern is
  // one that fires, whether or not the ranking then withheld it.
  options.match.min_confidence = 0;
  options.match.list_confidence = 0;
  options.match.top = 20;
  CleanLogFindings out;
  std::map<std::string, Firing> firing;  // by record id
  for (const fs::path& file : *files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return Status::IoError(fmt::format("--clean-logs {}: cannot be read", file.string()));
    ScanResult result;
    if (Status st = engine.Scan(in, options, &result); !st.ok()) {
      return Status::IoError(fmt::format("--clean-logs {}: {}", file.string(), st.message()));
    }
    ++out.logs;
    out.lines += result.summary.lines;
    out.bytes += result.summary.bytes;
    for (const ErrorBlock& b : result.blocks) {
      for (std::size_t i = 0; i < b.matches.size(); ++i) {
        const Match& m = b.matches[i];
        if (m.kind != MatchKind::kRegex) continue;
        Firing& f = firing[m.record->id];
        f.lines += b.count;
        // What `kedb scan` shows: the block's first answer, when it clears
        // the default threshold.
        if (i == 0 && m.confidence >= match::DefaultMinConfidence()) f.reported_lines += b.count;
        if (f.logs.empty() || f.logs.back() != file.string()) f.logs.push_back(file.string());
        if (f.first.empty()) f.first = fmt::format("{}:{}: {}", file.string(), b.decisive_line, b.decisive.substr(0, 200));
      }
    }
  }
  for (const auto& [id, f] : firing) {
    const Record* r = engine.kb().Find(id);
    Diagnostic d;
    d.severity = Severity::kWarning;
    d.rule = "fires-on-clean-log";
    d.file = r ? r->origin.file : "";
    d.line = r ? r->origin.line : 0;
    d.record_id = id;
    d.field = "regex";
    d.message = fmt::format("fired on {} line(s) in {} of {} clean log(s){}; first: {}", f.lines, f.logs.size(),
                            out.logs,
                            f.reported_lines > 0 ? fmt::format(", reported as the answer on {}", f.reported_lines)
                                                 : ", never reported (below the confidence threshold)",
                            f.first);
    out.reported += f.reported_lines > 0 ? 1 : 0;
    out.diagnostics.push_back(std::move(d));
  }
  return out;
}

}  // namespace kedb::app
