#include "util/json_writer.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/utf8.h"

namespace kedb::util {
namespace {

void AppendEscaped(std::string* out, std::string_view s) {
  out->push_back('"');
  std::size_t i = 0;
  while (i < s.size()) {
    // Runs of plain ASCII are copied whole: most text is nothing but.
    std::size_t run = i;
    while (run < s.size()) {
      auto c = static_cast<unsigned char>(s[run]);
      if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80) break;
      ++run;
    }
    out->append(s.data() + i, run - i);
    i = run;
    if (i == s.size()) break;
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      char32_t cp;
      std::size_t n = DecodeUtf8(s, i, &cp);
      if (n == 0) {
        out->append("\xEF\xBF\xBD");  // U+FFFD for the one bad byte
        ++i;
      } else {
        out->append(s.data() + i, n);
        i += n;
      }
      continue;
    }
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default: fmt::format_to(std::back_inserter(*out), "\\u{:04x}", c);
    }
    ++i;
  }
  out->push_back('"');
}

}  // namespace

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_element_.empty()) {
    if (has_element_.back()) out_.push_back(',');
    has_element_.back() = true;
  }
}

JsonWriter& JsonWriter::Open(char c) {
  BeforeValue();
  out_.push_back(c);
  has_element_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::Close(char c) {
  out_.push_back(c);
  has_element_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  BeforeValue();
  AppendEscaped(&out_, key);
  out_.push_back(':');
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view s) {
  BeforeValue();
  AppendEscaped(&out_, s);
  return *this;
}

JsonWriter& JsonWriter::Double(double v) {
  if (!std::isfinite(v)) return Null();
  BeforeValue();
  char buf[64];
  char* end = nlohmann::detail::to_chars(buf, buf + sizeof(buf), v);
  out_.append(buf, end);
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t v) {
  BeforeValue();
  fmt::format_to(std::back_inserter(out_), "{}", v);
  return *this;
}

JsonWriter& JsonWriter::UInt(uint64_t v) {
  BeforeValue();
  fmt::format_to(std::back_inserter(out_), "{}", v);
  return *this;
}

JsonWriter& JsonWriter::Bool(bool v) {
  BeforeValue();
  out_.append(v ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::Null() {
  BeforeValue();
  out_.append("null");
  return *this;
}

JsonWriter& JsonWriter::Raw(std::string_view json) {
  BeforeValue();
  out_.reserve(out_.size() + json.size());
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      out_.push_back(c);
      if (c == '\\' && i + 1 < json.size()) {
        out_.push_back(json[++i]);  // an escaped quote does not end the string
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
      out_.push_back(c);
      in_string = c == '"';
    }
  }
  return *this;
}

std::string JsonWriter::Take() {
  has_element_.clear();
  after_key_ = false;
  return std::move(out_);
}

}  // namespace kedb::util
