// JsonWriter: JSON text written as it is produced, with no document tree.
//
// The renderers on the hot path (a match, a scan) used to build an
// nlohmann::ordered_json tree and dump it; for a typical /v1/match reply
// that took ten times longer than the match itself, almost all of it in
// allocating and freeing nodes. This writer appends to one string instead.
// Its output is what `ordered_json::dump(-1, ' ', false, replace)` gives for
// the same values: compact, UTF-8 left as is, control characters escaped,
// numbers formatted by nlohmann's own shortest round-trip routine (so 1.0
// stays "1.0"), and each invalid UTF-8 byte replaced by U+FFFD.
//
// Calls must nest correctly (a Key before each value in an object); the
// writer does not check, as a renderer's shape is fixed by its code.
#ifndef KEDB_UTIL_JSON_WRITER_H_
#define KEDB_UTIL_JSON_WRITER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kedb::util {

class JsonWriter {
 public:
  JsonWriter() { out_.reserve(4096); }  // a typical reply, without regrowing

  JsonWriter& BeginObject() { return Open('{'); }
  JsonWriter& EndObject() { return Close('}'); }
  JsonWriter& BeginArray() { return Open('['); }
  JsonWriter& EndArray() { return Close(']'); }
  JsonWriter& Key(std::string_view key);

  JsonWriter& String(std::string_view s);
  JsonWriter& Double(double v);  // NaN and infinities are written as null, as nlohmann does
  JsonWriter& Int(int64_t v);
  JsonWriter& UInt(uint64_t v);
  JsonWriter& Bool(bool v);
  JsonWriter& Null();
  JsonWriter& OptionalDouble(const std::optional<double>& v) { return v ? Double(*v) : Null(); }
  // One whole JSON value written elsewhere (by a JsonWriter or by
  // nlohmann's dump, compact or indented), spliced in as it is apart from
  // the blanks between its tokens, which are dropped: the result stays
  // compact and on one line, as a JSON-RPC message over stdio must be.
  // This is how a front end wraps an answer it was handed as text without
  // parsing it back. Not checked: pass only JSON this program wrote.
  // Cost: one pass over `json`.
  JsonWriter& Raw(std::string_view json);

  // Key(key) then the value.
  JsonWriter& Field(std::string_view key, std::string_view s) { return Key(key).String(s); }
  JsonWriter& Field(std::string_view key, const char* s) { return Key(key).String(s); }
  JsonWriter& Field(std::string_view key, const std::string& s) { return Key(key).String(s); }
  JsonWriter& Field(std::string_view key, double v) { return Key(key).Double(v); }
  JsonWriter& Field(std::string_view key, bool v) { return Key(key).Bool(v); }
  JsonWriter& Field(std::string_view key, int v) { return Key(key).Int(v); }
  JsonWriter& Field(std::string_view key, int64_t v) { return Key(key).Int(v); }
  JsonWriter& Field(std::string_view key, uint64_t v) { return Key(key).UInt(v); }

  // The text so far; the writer is empty afterwards.
  std::string Take();

 private:
  JsonWriter& Open(char c);
  JsonWriter& Close(char c);
  void BeforeValue();  // the comma between elements

  std::string out_;
  std::vector<bool> has_element_;  // one per open object or array
  bool after_key_ = false;
};

}  // namespace kedb::util

#endif  // KEDB_UTIL_JSON_WRITER_H_
