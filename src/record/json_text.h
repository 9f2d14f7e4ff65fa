// JSON text utilities for record files: a guarded parse that reports where
// a document breaks, field paths, and mapping a field path back to its line
// and column in the text.
//
// All JSON values are nlohmann::ordered_json so that object keys keep the
// order they were written in.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "kedb/status.h"

namespace kedb {

using Json = nlohmann::ordered_json;

// A path to a value inside a document: object keys and array indexes.
using PathSegment = std::variant<std::string, std::size_t>;
using JsonPath = std::vector<PathSegment>;

// "dead_ends[1].fail_rate"
std::string FormatPath(const JsonPath& path);

struct JsonLimits {
  std::size_t max_depth = 64;             // deeper nesting is refused, not recursed into
  std::size_t max_string_bytes = 1 << 20; // one string value or key
};

// Parses one JSON document. Never throws and never recurses on the input's
// nesting. Trailing content other than whitespace is an error. A failure's
// offset() is the byte where parsing stopped, and its field() the path in
// the document when known ("workarounds[0].how").
Status ParseJson(std::string_view text, const JsonLimits& limits, Json* out);

struct LineColumn {
  int line = 1;    // 1-based
  int column = 1;  // 1-based, counted in bytes
};
LineColumn OffsetToLineColumn(std::string_view text, std::size_t offset);

// The byte offset where the value at `path` starts in `text` (for a key of
// an object, the value after it). nullopt when the path is not in the text
// or the text does not parse. Costs one parse of the text: use on error
// paths only.
std::optional<std::size_t> LocateJsonPath(std::string_view text, const JsonPath& path);

}  // namespace kedb
