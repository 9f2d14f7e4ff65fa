#include "kedb/record.h"

#include <charconv>

#include <fmt/format.h>

#include "record/json_text.h"
#include "record/record_write.h"

namespace kedb {
namespace {

bool IsLeap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

bool ParseDigits(std::string_view s, int* out) {
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

std::optional<Date> Date::Parse(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  Date d;
  if (!ParseDigits(text.substr(0, 4), &d.year) || !ParseDigits(text.substr(5, 2), &d.month) ||
      !ParseDigits(text.substr(8, 2), &d.day)) {
    return std::nullopt;
  }
  if (d.year < 1900 || d.month < 1 || d.month > 12 || d.day < 1 || d.day > DaysInMonth(d.year, d.month)) {
    return std::nullopt;
  }
  return d;
}

std::string Date::ToString() const { return fmt::format("{:04}-{:02}-{:02}", year, month, day); }

int64_t Date::DaysSinceEpoch() const {
  // Howard Hinnant's days_from_civil.
  int y = year - (month <= 2 ? 1 : 0);
  const int era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned mp = static_cast<unsigned>(month + (month > 2 ? -3 : 9));
  const unsigned doy = (153 * mp + 2) / 5 + static_cast<unsigned>(day) - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return static_cast<int64_t>(era) * 146097 + static_cast<int64_t>(doe) - 719468;
}

const char* ResolvableName(Resolvable r) {
  switch (r) {
    case Resolvable::kTrue: return "true";
    case Resolvable::kPartial: return "partial";
    case Resolvable::kFalse: return "false";
    case Resolvable::kUnknown: break;
  }
  return "unknown";
}

// The canonical file layout: 2-space indent, UTF-8 left unescaped, final
// newline. Invalid UTF-8 (possible only in a record built in code: the
// parser refuses it) is replaced rather than thrown on, since callers are
// writing a file or answering a request.
namespace {
std::string DumpRecordFile(const Json& doc) {
  return doc.dump(2, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace) + "\n";
}
}  // namespace

std::string FormatRecordFile(const Record& record) {
  // Built in code: the typed fields are all there is.
  if (record.json.empty()) return DumpRecordFile(RecordToJson(record));
  // Loaded: written from its own JSON value, which also holds what the typed
  // view drops (x_ extensions, unknown fields, the author's key order).
  // Text already in the canonical layout comes back byte for byte.
  Json doc;
  if (!ParseJson(record.json, JsonLimits{}, &doc).ok()) {
    // The text was produced or checked by the loader; it always parses.
    return record.json;
  }
  return DumpRecordFile(doc);
}

std::string RecordRelativePath(std::string_view id) { return std::string(id) + ".json"; }

}  // namespace kedb
