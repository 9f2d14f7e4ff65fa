// Checking request arguments against a JSON Schema, so that the HTTP API
// and the MCP tools refuse bad input with the same precise messages, and
// the schemas they publish are the ones they enforce.
#pragma once

#include <optional>
#include <string>

#include "record/json_text.h"

namespace kedb::serve {

// The first way `value` breaks `schema`, naming the field:
// "\"top\": must be an integer from 1 to 100". nullopt when it conforms.
//
// Supports the subset the API's schemas use: type (one name or a list),
// properties, required, additionalProperties: false, enum, minimum,
// maximum, minLength, maxLength, items, minItems, maxItems. Anything else
// in the schema is ignored (description, default, examples).
// OK, or InvalidArgument saying which field is wrong and how
// ("\"xs[1]\": must be a string").
Status CheckAgainstSchema(const Json& value, const Json& schema);

}  // namespace kedb::serve
