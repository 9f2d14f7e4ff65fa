#include "kb/locate.h"

#include <fstream>
#include <string>

#include "kb/deadends_import.h"

namespace kedb {
namespace {

// Reads the document `origin` points at: the whole file, or one JSONL line.
Result<std::string> ReadDocument(const Origin& origin) {
  std::ifstream in(origin.file, std::ios::binary);
  if (!in) return Status::IoError(origin.file + ": cannot open");
  if (origin.format == Origin::Format::kJsonl) {
    in.seekg(origin.offset);
    std::string line;
    if (!std::getline(in, line)) return Status::IoError(origin.file + ": no line at the record's offset");
    return line;
  }
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The diagnostic without a position.
Diagnostic Unplaced(const Origin& origin, const JsonPath& field, Severity severity, std::string rule,
                    std::string record_id, std::string message) {
  Diagnostic d;
  d.severity = severity;
  d.rule = std::move(rule);
  d.file = origin.file;
  d.record_id = std::move(record_id);
  d.field = FormatPath(field);
  d.message = std::move(message);
  return d;
}

}  // namespace

Diagnostic DiagnosticInText(const Origin& origin, std::string_view text, const JsonPath& field,
                            Severity severity, std::string rule, std::string record_id, std::string message) {
  Diagnostic d = Unplaced(origin, field, severity, std::move(rule), std::move(record_id), std::move(message));
  JsonPath path = origin.format == Origin::Format::kDeadends ? NativePathToDeadends(field) : field;
  // Fall back to enclosing values when the exact one is not in the file
  // (a missing required field points at its object).
  for (;;) {
    if (auto offset = LocateJsonPath(text, path)) {
      LineColumn lc = OffsetToLineColumn(text, *offset);
      d.line = origin.line + lc.line - 1;
      d.column = lc.column;
      break;
    }
    if (path.empty()) break;
    path.pop_back();
  }
  return d;
}

Diagnostic DiagnosticAt(const Origin& origin, const JsonPath& field, Severity severity, std::string rule,
                        std::string record_id, std::string message) {
  auto text = ReadDocument(origin);
  if (!text.ok()) return Unplaced(origin, field, severity, std::move(rule), std::move(record_id), std::move(message));
  return DiagnosticInText(origin, *text, field, severity, std::move(rule), std::move(record_id),
                          std::move(message));
}

}  // namespace kedb
