// OpenStore: which backend a spec names, and the default spec.
#include "store/store.h"

#include <cstdlib>
#include <filesystem>

#include "store/backends.h"

namespace kedb::store {

bool IsPostgresSpec(const std::string& spec) {
  return spec.starts_with("postgresql://") || spec.starts_with("postgres://");
}

Result<std::unique_ptr<OutcomeStore>> OpenStore(const std::string& spec) {
  if (spec.empty()) return Status::InvalidArgument("store: nothing named (a SQLite file or a postgresql:// URL)");
  if (IsPostgresSpec(spec)) return OpenPostgresStore(spec);
  return OpenSqliteStore(spec);
}

std::string RedactUrl(const std::string& url) {
  // scheme://user:password@host...: the password is between the first ':'
  // after "://" and the last '@' before the path.
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return url;
  const auto auth_start = scheme_end + 3;
  const auto path_start = url.find_first_of("/?", auth_start);
  const auto at = url.rfind('@', path_start == std::string::npos ? std::string::npos : path_start);
  if (at == std::string::npos || at < auth_start) return url;
  const auto colon = url.find(':', auth_start);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon + 1) + "***" + url.substr(at);
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
