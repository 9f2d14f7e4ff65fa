// Placing a finding about a record at a line and column of its file.
#pragma once

#include "kedb/diagnostic.h"
#include "kedb/record.h"
#include "record/json_text.h"

namespace kedb {

// Builds a diagnostic about `field` of the record read from `origin`,
// re-reading the document to find the field's line and column. When the
// field is absent from the file, the nearest enclosing value is used; when
// the file cannot be read, line and column stay 0. Costs one read and one
// parse of the document: for findings, not for hot paths.
Diagnostic DiagnosticAt(const Origin& origin, const JsonPath& field, Severity severity, std::string rule,
                        std::string record_id, std::string message);

// Same, for a document already in memory (the loader has the text at hand).
Diagnostic DiagnosticInText(const Origin& origin, std::string_view text, const JsonPath& field,
                            Severity severity, std::string rule, std::string record_id, std::string message);

}  // namespace kedb
