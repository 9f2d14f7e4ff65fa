#include "record/json_text.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

namespace kedb {
namespace {

// An input iterator over a byte buffer that publishes how far the parser has
// read. nlohmann's SAX events carry no positions; this is how a handler
// learns where in the text an event happened.
class TrackingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackingIterator() = default;
  TrackingIterator(const char* p, const char** tracker) : p_(p), tracker_(tracker) {}
  reference operator*() const { return *p_; }
  TrackingIterator& operator++() {
    ++p_;
    if (tracker_ != nullptr) *tracker_ = p_;
    return *this;
  }
  TrackingIterator operator++(int) {
    TrackingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const TrackingIterator& o) const { return p_ == o.p_; }

 private:
  const char* p_ = nullptr;
  const char** tracker_ = nullptr;
};

// Skips whitespace and the separators between tokens; lands on the first
// byte of the next token.
std::size_t SkipToToken(std::string_view text, std::size_t pos) {
  while (pos < text.size()) {
    char c = text[pos];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':') {
      ++pos;
    } else {
      break;
    }
  }
  return pos;
}

// Keeps the path of the value being parsed. Shared by the building parser
// and the locator.
class PathTracker {
 public:
  // Call before every value (scalar or container start).
  void BeforeValue() {
    if (!frames_.empty() && frames_.back().is_array) {
      path_.back() = frames_.back().next_index++;
    }
  }
  void Open(bool is_array) {
    frames_.push_back({is_array, 0});
    // Placeholder until the first key or element; an empty key is not printed.
    if (is_array) {
      path_.emplace_back(std::size_t{0});
    } else {
      path_.emplace_back(std::string());
    }
  }
  void Close() {
    frames_.pop_back();
    path_.pop_back();
  }
  void Key(const std::string& key) { path_.back() = key; }
  std::size_t depth() const { return frames_.size(); }
  // The path of the value just announced (containers: of the container).
  const JsonPath& path() const { return path_; }

 private:
  struct Frame {
    bool is_array;
    std::size_t next_index;
  };
  std::vector<Frame> frames_;
  JsonPath path_;  // one segment per open container; the last is the current member
};

using DomParser = nlohmann::detail::json_sax_dom_parser<Json>;

// Builds the document through nlohmann's DOM builder while enforcing limits
// and recording where a failure happened.
class GuardedSax {
 public:
  GuardedSax(Json& out, const JsonLimits& limits, std::string_view text, const char** tracker)
      : dom_(out, /*allow_exceptions=*/false), limits_(limits), base_(text.data()), size_(text.size()),
        tracker_(tracker) {}

  bool null() { return Scalar() && dom_.null(); }
  bool boolean(bool v) { return Scalar() && dom_.boolean(v); }
  bool number_integer(Json::number_integer_t v) { return Scalar() && dom_.number_integer(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return Scalar() && dom_.number_unsigned(v); }
  bool number_float(Json::number_float_t v, const std::string& s) { return Scalar() && dom_.number_float(v, s); }
  bool string(std::string& v) {
    if (!Scalar()) return false;
    if (v.size() > limits_.max_string_bytes) {
      return Fail(fmt::format("string of {} bytes is longer than the {}-byte limit", v.size(),
                              limits_.max_string_bytes));
    }
    return dom_.string(v);
  }
  bool binary(Json::binary_t& v) { return Scalar() && dom_.binary(v); }
  bool start_object(std::size_t n) { return Open(false) && dom_.start_object(n); }
  bool key(std::string& k) {
    if (k.size() > limits_.max_string_bytes) {
      return Fail(fmt::format("key of {} bytes is longer than the {}-byte limit", k.size(),
                              limits_.max_string_bytes));
    }
    paths_.Key(k);
    return dom_.key(k);
  }
  bool end_object() {
    paths_.Close();
    return dom_.end_object();
  }
  bool start_array(std::size_t n) { return Open(true) && dom_.start_array(n); }
  bool end_array() {
    paths_.Close();
    return dom_.end_array();
  }
  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& ex) {
    if (error_.ok()) {
      // `position` counts the characters read; the offending token ends there.
      // Point at its first byte, where a person would look.
      // At the end of input the count includes the end itself.
      // The lexer's token can begin before the fault ("3,\n  o" when the `o`
      // is wrong), so only its part after the last whitespace counts.
      position = std::min(position, size_);
      std::string_view token = last_token;
      if (auto ws = token.find_last_of(" \t\r\n"); ws != std::string_view::npos) token.remove_prefix(ws + 1);
      std::size_t start = position >= token.size() ? position - token.size() : 0;
      error_ = Status::InvalidArgument(CleanMessage(ex.what())).At(start).In(FormatPath(paths_.path()));
    }
    return false;
  }

  const Status& error() const { return error_; }  // OK when none

 private:
  bool Scalar() {
    paths_.BeforeValue();
    return true;
  }
  bool Open(bool is_array) {
    paths_.BeforeValue();
    if (paths_.depth() >= limits_.max_depth) {
      return Fail(fmt::format("nesting deeper than {} levels", limits_.max_depth));
    }
    paths_.Open(is_array);
    return true;
  }
  bool Fail(std::string message) {
    std::size_t offset = static_cast<std::size_t>(*tracker_ - base_);
    error_ = Status::InvalidArgument(std::move(message)).At(offset > 0 ? offset - 1 : 0).In(FormatPath(paths_.path()));
    return false;
  }
  // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax
  // error while parsing value - invalid literal; last read: 'tru,'" -> the part
  // after the position, which is what a person needs.
  static std::string CleanMessage(std::string what) {
    auto colon = what.find(": ");
    if (what.rfind("[json.exception", 0) == 0 && colon != std::string::npos) what = what.substr(colon + 2);
    return what;
  }

  DomParser dom_;
  const JsonLimits& limits_;
  PathTracker paths_;
  const char* base_;
  std::size_t size_;
  const char** tracker_;
  Status error_;
};

// Finds the offset where the value at a given path starts.
class LocatorSax : public nlohmann::json_sax<Json> {
 public:
  LocatorSax(std::string_view text, const JsonPath& target, const char** tracker)
      : text_(text), target_(target), tracker_(tracker) {}

  bool null() override { return Value(); }
  bool boolean(bool) override { return Value(); }
  bool number_integer(number_integer_t) override { return Value(); }
  bool number_unsigned(number_unsigned_t) override { return Value(); }
  bool number_float(number_float_t, const string_t&) override { return Value(); }
  bool string(string_t&) override { return Value(); }
  bool binary(binary_t&) override { return Value(); }
  bool start_object(std::size_t) override {
    if (!Value()) return false;
    paths_.Open(false);
    return true;
  }
  bool key(string_t& k) override {
    paths_.Key(k);
    prev_end_ = Now();
    return true;
  }
  bool end_object() override { return Close(); }
  bool start_array(std::size_t) override {
    if (!Value()) return false;
    paths_.Open(true);
    return true;
  }
  bool end_array() override { return Close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

  std::optional<std::size_t> found() const { return found_; }

 private:
  std::size_t Now() const { return static_cast<std::size_t>(*tracker_ - text_.data()); }
  bool Close() {
    paths_.Close();
    prev_end_ = Now();
    return true;
  }
  // Called when a value's token has just been read. Its first byte is the
  // first token byte after the previous event.
  bool Value() {
    paths_.BeforeValue();
    std::size_t start = SkipToToken(text_, prev_end_);
    prev_end_ = Now();
    if (paths_.path() == target_) {
      found_ = start;
      return false;  // done: stop parsing
    }
    return true;
  }

  std::string_view text_;
  const JsonPath& target_;
  const char** tracker_;
  PathTracker paths_;
  std::size_t prev_end_ = 0;
  std::optional<std::size_t> found_;
};

}  // namespace

std::string FormatPath(const JsonPath& path) {
  std::string out;
  for (const auto& seg : path) {
    if (const auto* key = std::get_if<std::string>(&seg)) {
      if (key->empty()) continue;
      if (!out.empty()) out += '.';
      out += *key;
    } else {
      out += fmt::format("[{}]", std::get<std::size_t>(seg));
    }
  }
  return out;
}

Status ParseJson(std::string_view text, const JsonLimits& limits, Json* out) {
  const char* tracker = text.data();
  TrackingIterator first(text.data(), &tracker);
  TrackingIterator last(text.data() + text.size(), nullptr);
  *out = Json();
  GuardedSax sax(*out, limits, text, &tracker);
  bool ok = Json::sax_parse(first, last, &sax, nlohmann::detail::input_format_t::json, /*strict=*/true);
  if (ok && sax.error().ok()) return Status::Ok();
  *out = Json();
  if (!sax.error().ok()) return sax.error();
  return Status::InvalidArgument("malformed JSON").At(static_cast<std::size_t>(tracker - text.data()));
}

LineColumn OffsetToLineColumn(std::string_view text, std::size_t offset) {
  LineColumn lc;
  if (offset > text.size()) offset = text.size();
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++lc.line;
      lc.column = 1;
    } else {
      ++lc.column;
    }
  }
  return lc;
}

std::optional<std::size_t> LocateJsonPath(std::string_view text, const JsonPath& path) {
  const char* tracker = text.data();
  TrackingIterator first(text.data(), &tracker);
  TrackingIterator last(text.data() + text.size(), nullptr);
  LocatorSax sax(text, path, &tracker);
  Json::sax_parse(first, last, &sax, nlohmann::detail::input_format_t::json, /*strict=*/false);
  return sax.found();
}

}  // namespace kedb
