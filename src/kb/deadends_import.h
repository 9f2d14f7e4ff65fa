// The deadends.dev "ErrorCanon" layout, mapped to and from native records.
//
// The mapping is lossless: every canon field lands in a native field, and
// whatever has no native home (url, schema_version, environment.hardware,
// metadata.generated_by, ...) is kept under the extension field
// "x_deadends" in the canon's own nesting. ConvertNativeToDeadends inverts
// ConvertDeadendsCanon exactly (as a JSON value).
//
//   canon                                  native
//   id                                     id
//   error.signature/regex/domain/category  signature/regex/domain/category
//   error.first_seen/last_confirmed        first_seen/last_confirmed
//   verdict.summary                        root_cause
//   verdict.resolvable/fix_success_rate/   resolvable/fix_success_rate/
//          confidence/last_updated                confidence/last_updated
//   environment.runtime{name,version_range} versions[0].version "name range"
//   environment.os                         os_specific {os: null}; "any" -> {}
//   dead_ends, workarounds (+tradeoff),    the same, object for object
//   transition_graph
//   metadata.review_status                 verification_tier
//   metadata.evidence_count                evidence_count
#pragma once

#include "record/json_text.h"

namespace kedb {

// True when `doc` has the canon layout: an "error" object and no top-level
// "signature".
bool IsDeadendsCanon(const Json& doc);

// The native document for a canon document. Values are moved over as they
// are, whatever their type, so that the native validator reports bad types.
Json ConvertDeadendsCanon(Json canon);

// The canon document a converted native document came from.
Json ConvertNativeToDeadends(const Json& native);

// Where a native field of a converted record lives in its canon file, so
// that findings point into the file the user has.
JsonPath NativePathToDeadends(const JsonPath& native_path);

}  // namespace kedb
