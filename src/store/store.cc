// OpenStore: which backend a spec names, and the default spec.
#include "store/store.h"

#include <cstdlib>
#include <filesystem>
#include <unordered_set>

#include <fmt/format.h>

#include "store/backends.h"

namespace kedb::store {

bool IsPostgresSpec(const std::string& spec) {
  return spec.starts_with("postgresql://") || spec.starts_with("postgres://");
}

namespace {

// A SQLite store may be named "sqlite:PATH", as messages name it.
std::string SqlitePath(const std::string& spec) { return spec.starts_with("sqlite:") ? spec.substr(7) : spec; }

constexpr const char* kNothingNamed = "store: nothing named (a SQLite file or a postgresql:// URL)";

}  // namespace

Result<std::unique_ptr<OutcomeStore>> OpenStore(const std::string& spec) {
  if (SqlitePath(spec).empty()) return Status::InvalidArgument(kNothingNamed);
  if (IsPostgresSpec(spec)) return OpenPostgresStore(spec);
  return OpenSqliteStore(SqlitePath(spec));
}

Result<std::unique_ptr<RecordStore>> OpenRecordStore(const std::string& spec) {
  if (SqlitePath(spec).empty()) return Status::InvalidArgument(kNothingNamed);
  if (IsPostgresSpec(spec)) return OpenPostgresRecordStore(spec);
  return OpenSqliteRecordStore(SqlitePath(spec));
}

Result<std::unique_ptr<RecordWatcher>> OpenRecordWatcher(const std::string& spec) {
  if (SqlitePath(spec).empty()) return Status::InvalidArgument(kNothingNamed);
  if (IsPostgresSpec(spec)) return OpenPostgresRecordWatcher(spec);
  return OpenSqliteRecordWatcher(SqlitePath(spec));
}

std::string CheckRecordsToStore(const std::vector<StoredRecord>& records) {
  std::unordered_set<std::string_view> seen;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const StoredRecord& r = records[i];
    if (r.id.empty()) return fmt::format("records[{}]: no id", i);
    if (!seen.insert(r.id).second) return fmt::format("records[{}] ({}): the id is given twice", i, r.id);
    if (r.json.size() > kMaxStoredRecordBytes) {
      return fmt::format("records[{}] ({}): {} bytes, at most {}", i, r.id, r.json.size(), kMaxStoredRecordBytes);
    }
  }
  return "";
}

std::string RedactUrl(const std::string& url) {
  std::string out = url;
  // scheme://user:password@host...: the password is between the first ':'
  // after "://" and the last '@' before the path.
  const auto scheme_end = out.find("://");
  if (scheme_end == std::string::npos) return out;
  const auto auth_start = scheme_end + 3;
  const auto path_start = out.find_first_of("/?", auth_start);
  const auto at = out.rfind('@', path_start == std::string::npos ? std::string::npos : path_start);
  if (at != std::string::npos && at >= auth_start) {
    const auto colon = out.find(':', auth_start);
    if (colon != std::string::npos && colon < at) out = out.substr(0, colon + 1) + "***" + out.substr(at);
  }
  // ...?password=...: libpq takes it as a parameter too.
  const auto query = out.find('?');
  if (query == std::string::npos) return out;
  for (auto p = out.find("password=", query); p != std::string::npos; p = out.find("password=", p + 1)) {
    if (out[p - 1] != '?' && out[p - 1] != '&') continue;  // another parameter's name ends so
    const auto value = p + 9, end = out.find('&', value);
    out.replace(value, (end == std::string::npos ? out.size() : end) - value, "***");
  }
  return out;
}

std::string DefaultStoreSpec() {
  if (const char* s = std::getenv("KEDB_STORE"); s != nullptr && *s != '\0') return s;
  std::filesystem::path base;
  if (const char* x = std::getenv("XDG_DATA_HOME"); x != nullptr && *x != '\0') {
    base = x;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    base = std::filesystem::path(home) / ".local" / "share";
  } else {
    base = ".";
  }
  return (base / "kedb" / "outcomes.sqlite").string();
}

}  // namespace kedb::store
