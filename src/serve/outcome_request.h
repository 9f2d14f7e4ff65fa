// Outcome reports over the wire (POST /v1/outcomes and the MCP tool
// report_outcome take the same fields) and the token that guards them.
//
//   {"error_id": "cuda/oom", "action": "workaround" | "dead_end",
//    "index": 1, "outcome": "worked" | "failed" | "partial",
//    "env": {"os": "linux", "torch": "2.2"} or "os=linux,torch=2.2",
//    "note": "...", "event_id": "..."}
//
// error_id, index and outcome are required; action defaults to
// "workaround"; event_id, when given, makes a retry count once.
#pragma once

#include <string>
#include <string_view>

#include "app/outcomes.h"
#include "record/json_text.h"

namespace kedb::serve {

// Reads `body` into `q` (q->now is left as it is); "" when it is a valid
// report request, otherwise what is wrong, naming the field.
std::string OutcomeFromJson(const Json& body, app::OutcomeRequest* q);

// The JSON Schema of that object, for the MCP tool's inputSchema.
Json OutcomeSchemaProperties();

// Whether an Authorization header ("Bearer TOKEN") carries `token`.
// Compared in time that does not depend on where the two differ, so the
// token cannot be guessed a byte at a time. Always false when `token` is
// empty (writes are off).
bool TokenMatches(std::string_view authorization, std::string_view token);

// Seconds since the epoch, for a report's time.
int64_t NowSeconds();

}  // namespace kedb::serve
