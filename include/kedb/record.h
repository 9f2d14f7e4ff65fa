// Record: one known error, typed.
//
// The native format is one JSON object per record (see kb/ and the seed
// records). Every field of that format has a typed home here. The record
// also keeps its own native JSON text, which is the source of truth when the
// record is written back: load-then-save is lossless, unknown fields and
// their order included.
//
// Nullable strings are kept as empty strings in the typed view; the JSON
// text still tells null from "".
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kedb {

// A calendar date, written "YYYY-MM-DD".
struct Date {
  int year = 0, month = 0, day = 0;

  static std::optional<Date> Parse(std::string_view text);  // nullopt unless a real date
  std::string ToString() const;
  int64_t DaysSinceEpoch() const;  // days since 1970-01-01; for comparisons and ages
  auto operator<=>(const Date&) const = default;
};

// Whether the error can be fixed: a tri-state, written "true"|"partial"|"false".
enum class Resolvable { kUnknown, kTrue, kPartial, kFalse };
const char* ResolvableName(Resolvable r);  // "true", "partial", "false", "unknown"

struct VersionEntry {
  std::string version;  // product and version or range: "cuDNN 8.9", "cuda >=12.0,<13.0"
  std::string introduced, deprecated, removed, behavior_change;
  std::string status;   // "active", ...

  bool operator==(const VersionEntry&) const = default;
};

// Something people try that does not fix the error.
struct DeadEnd {
  std::string action;
  std::string why_fails;
  double fail_rate = 0;  // in [0,1]
  std::string condition;
  std::vector<std::string> sources;
  std::string common_misconception;  // optional
  std::string tradeoff;              // optional

  bool operator==(const DeadEnd&) const = default;
};

struct Workaround {
  std::string action;
  double success_rate = 0;  // in [0,1]
  std::string how;
  std::string condition;
  std::vector<std::string> sources;
  std::string tradeoff;  // optional: what the fix costs

  bool operator==(const Workaround&) const = default;
};

// An edge of the transition graph: a plain id, or an object with details.
struct Edge {
  std::string error_id;
  bool plain = false;                // written as a bare id string
  std::optional<double> probability; // in [0,1]
  std::string condition;
  std::string distinction;           // for frequently_confused_with
  std::string typical_delay;

  bool operator==(const Edge&) const = default;
};

// A real text of an error as a program printed it, and the public address
// where it was seen (an issue thread, a line of source code, a docs page).
// A record's `occurrences` back its signature and aliases; its
// `counterexamples` are texts of other errors its regex must not match.
struct Occurrence {
  std::string text;        // whole lines, as printed
  std::string source;      // an http(s) address
  std::string belongs_to;  // counterexamples: the record the text is instead (optional)
  std::string note;        // optional

  bool operator==(const Occurrence&) const = default;
};

struct TransitionGraph {
  std::vector<Edge> leads_to;
  std::vector<Edge> preceded_by;
  std::vector<Edge> frequently_confused_with;

  bool operator==(const TransitionGraph&) const = default;
};

// Where a record came from, so that findings can point into the file.
struct Origin {
  enum class Format { kNative, kJsonl, kDeadends };
  std::string file;
  Format format = Format::kNative;
  int64_t offset = 0;  // byte offset of the document in the file (JSONL: its line)
  int line = 1;        // 1-based line of that offset
  // XXH3 of the document's text as read (0 for a record not read from
  // text): tells which lines of a JSONL file changed since it was loaded.
  uint64_t text_hash = 0;

  bool operator==(const Origin&) const = default;
};

struct Record {
  std::string id;
  std::string signature, signature_zh;
  std::string regex;  // Python `re` syntax, applied case-insensitively
  std::string domain, category, subcategory;
  std::string root_cause, root_cause_type, root_cause_zh;
  std::vector<VersionEntry> versions;
  std::vector<std::pair<std::string, std::string>> os_specific;  // os -> note, in file order
  std::vector<DeadEnd> dead_ends;
  std::vector<Workaround> workarounds;
  std::vector<std::string> workarounds_zh;
  TransitionGraph transition_graph;
  std::string official_doc_url, official_doc_section;
  std::string error_code;
  std::string verification_tier;   // "ai_generated", "source_verified", ...
  std::string verification_note;   // what was checked against sources, or why it could not be
  std::optional<double> confidence;        // in [0,1]
  std::optional<double> fix_success_rate;  // in [0,1]
  Resolvable resolvable = Resolvable::kUnknown;
  std::optional<Date> first_seen, last_confirmed, last_updated;
  int64_t evidence_count = 0;
  std::vector<std::string> tags;
  std::string locale;
  std::vector<std::string> aliases;
  std::vector<std::string> sources;          // http(s) addresses the record's facts come from
  std::vector<Occurrence> occurrences;       // real texts of this error
  std::vector<Occurrence> counterexamples;   // real texts of other errors the regex must not match

  std::string attribution;  // who to credit when showing it ("deadends.dev (CC BY 4.0)"), or ""

  std::string json;  // the record's native JSON text (compact or pretty)
  Origin origin;

  bool operator==(const Record&) const = default;
};

// The canonical file form of a record: its JSON, 2-space indented, with a
// final newline. Deterministic: the same record always gives the same bytes.
std::string FormatRecordFile(const Record& record);

// Relative path of a record's file in a native tree: "<id>.json", the id's
// slashes becoming folders.
std::string RecordRelativePath(std::string_view id);

}  // namespace kedb
