// Diagnostic: one finding about the knowledge base, precise enough to fix
// without searching: file, line, column, record, field path and rule.
#pragma once

#include <string>
#include <vector>

namespace kedb {

enum class Severity { kError, kWarning };

struct Diagnostic {
  Severity severity = Severity::kError;
  std::string rule;       // stable rule id, e.g. "schema", "json-syntax", "regex-compile"
  std::string file;       // as given on the command line or found in the tree
  int line = 0;           // 1-based; 0 when the position is unknown
  int column = 0;         // 1-based, in bytes; 0 when unknown
  std::string record_id;  // empty when the document had no readable id
  std::string field;      // path inside the native record, e.g. "dead_ends[1].fail_rate"
  std::string message;

  // "kb/x.json:14:7: error[schema] cuda/x: dead_ends[1].fail_rate: 1.7 is not in [0,1]"
  std::string ToString() const;
  bool operator==(const Diagnostic&) const = default;
};

const char* SeverityName(Severity s);

// Counts per rule, in first-seen order of rules.
struct RuleCount {
  std::string rule;
  Severity severity;
  int count;
};
std::vector<RuleCount> CountByRule(const std::vector<Diagnostic>& diags);

}  // namespace kedb
