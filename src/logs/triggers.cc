#include "logs/triggers.h"

#include <algorithm>
#include <string>

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
  std::size_t line = 0;
  db->Scan(text, [&](unsigned, unsigned long long end) {
    std::size_t at = end > 0 ? end - 1 : 0;
    if (!(starts[line] <= at && (line + 1 >= starts.size() || at < starts[line + 1]))) {
      line = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), at) - starts.begin()) - 1;
    }
    (*flags)[line] = 1;
  });
}

}  // namespace kedb::logs
