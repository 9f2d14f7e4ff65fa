#include "logs/triggers.h"

#include <algorithm>
#include <string>

#include "logs/line_chunker.h"
#include "match/hs_database.h"

namespace kedb::logs {
namespace {

// Case-insensitive. Every start condition in blocks.cc contains one.
const std::vector<std::string>& TriggerWords() {
  static const std::vector<std::string> words = {
      "error", "exception", "traceback", "panic", "fatal", "critical", "severe", "failed", "failure",
      "fault", "throwable", "interrupt", "exit", "cuda", "cudnn", "cublas", "cusolver", "cufft", "nccl",
      "watchdog", "device-side", "npm err", "___", "caused by", "terminate called"};
  return words;
}

const match::HsDatabase* Database() {
  static const auto db = [] {
    auto compiled = match::HsDatabase::CompileLiterals(TriggerWords());
    return compiled.ok() ? new match::HsDatabase(std::move(compiled).value()) : nullptr;
  }();
  return db;
}

}  // namespace

void MarkTriggerLines(std::string_view text, const std::vector<std::size_t>& starts, std::vector<uint8_t>* flags) {
  flags->assign(starts.size(), 0);
  const match::HsDatabase* db = Database();
  if (!db) {  // cannot happen with a working Hyperscan; then test every line
    flags->assign(starts.size(), 1);
    return;
  }
  LineCursor lines(starts);
  db->Scan(text, [&](unsigned, unsigned long long end) { (*flags)[lines.LineOfEnd(end)] = 1; });
}

}  // namespace kedb::logs
