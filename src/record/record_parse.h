// Reading a native record document into the typed Record, checking every
// field's type and range on the way.
#pragma once

#include <string>
#include <vector>

#include "kedb/diagnostic.h"
#include "kedb/record.h"
#include "record/json_text.h"

namespace kedb {

// One problem with one field, before it is placed in a file.
struct FieldIssue {
  Severity severity = Severity::kError;
  std::string rule;  // "schema" or "unknown-field"
  JsonPath path;
  std::string message;
};

// Fills `out` from `doc` and appends what is wrong to `issues`. Returns true
// when there is no error (warnings allowed). Does not set out->json or
// out->origin. Fields whose name starts with "x_" are extensions and are
// kept without comment; other unknown fields are warned about, since they
// are usually typos of known ones.
bool RecordFromJson(const Json& doc, Record* out, std::vector<FieldIssue>* issues);

}  // namespace kedb
