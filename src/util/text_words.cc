#include "util/text_words.h"

#include <algorithm>
#include <array>

namespace kedb::util {
namespace text_words_internal {
namespace {

bool Hex(char c) { return Digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// Suffixes here are a few letters: compared in line, not through memcmp.
bool EndsWith(std::string_view s, std::string_view p) {
  if (s.size() < p.size()) return false;
  const char* tail = s.data() + (s.size() - p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (tail[i] != p[i]) return false;
  }
  return true;
}

// Quote marks, ASCII and the typographic ones pasted text is full of, at
// the start (or end) of `s`: their length in bytes, or 0.
std::size_t QuoteAt(std::string_view s, bool at_end) {
  if (s.empty()) return 0;
  char c = at_end ? s.back() : s.front();
  if (c == '\'' || c == '"' || c == '`') return 1;
  if (static_cast<unsigned char>(c) < 0x80) return 0;
  for (std::string_view q : {"\xE2\x80\x98", "\xE2\x80\x99", "\xE2\x80\x9C", "\xE2\x80\x9D"}) {  // ‘ ’ “ ”
    if (at_end ? EndsWith(s, q) : s.substr(0, q.size()) == q) return q.size();
  }
  return 0;
}

}  // namespace

bool IsValue(std::string_view chunk) {
  // Most runs are plain words: one pass over the byte classes tells.
  unsigned char classes = 0;
  for (char c : chunk) classes |= ClassOf(c);
  if (!(classes & kValueMark)) return false;
  std::size_t separators = 0;
  for (std::size_t i = 0; i < chunk.size(); ++i) {
    if (chunk[i] == '/' || chunk[i] == '\\') ++separators;
    if (chunk[i] == ':' && chunk.substr(i, 3) == "://") return true;
  }
  if (separators >= 2) return true;
  // Brackets and punctuation around a quoted name: ('x'), "y".
  while (!chunk.empty() && (chunk.front() == '(' || chunk.front() == '[' || chunk.front() == '<' || chunk.front() == '{')) {
    chunk.remove_prefix(1);
  }
  while (!chunk.empty() && (chunk.back() == ')' || chunk.back() == ']' || chunk.back() == '>' || chunk.back() == '}' ||
                            chunk.back() == '.' || chunk.back() == ',' || chunk.back() == ';' || chunk.back() == ':')) {
    chunk.remove_suffix(1);
  }
  std::size_t open = QuoteAt(chunk, false), close = QuoteAt(chunk, true);
  return open > 0 && close > 0 && chunk.size() > open + close;
}

std::string_view QuotedIdentifier(std::string_view chunk, std::array<char, 64>* buf) {
  // The run's word bytes, if it has no others but its quotes, brackets
  // and trailing punctuation.
  std::size_t b = 0, e = chunk.size();
  while (b < e && !WordByte(chunk[b])) ++b;
  while (e > b && !WordByte(chunk[e - 1])) --e;
  const std::string_view core = chunk.substr(b, e - b);
  if (core.size() < 3 || core.size() > buf->size()) return {};
  for (char c : core) {
    if (!WordByte(c) || static_cast<unsigned char>(c) >= 0x80) return {};
  }
  if (!IsCode(core)) return {};
  for (std::size_t k = 0; k < core.size(); ++k) (*buf)[k] = LowerByte(core[k]);
  return std::string_view(buf->data(), StemInPlace(buf->data(), core.size()));  // as EmitWord gives it
}

bool IsHexValue(std::string_view w) {
  if (w.size() > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X')) {
    return std::all_of(w.begin() + 2, w.end(), Hex);
  }
  return w.size() >= 12 && std::all_of(w.begin(), w.end(), Hex) && std::any_of(w.begin(), w.end(), Digit);
}

std::size_t StemInPlace(char* buf, std::size_t n) {
  // Every rule below ends in one of these letters; most words are done here.
  const char last = n > 4 ? buf[n - 1] : 0;
  if (last != 's' && last != 'd' && last != 'g' && last != 'n' && last != 'e') return n;
  if (!std::all_of(buf, buf + n, Lower)) return n;
  std::string_view w(buf, n);
  auto strip = [&](std::string_view suffix, std::size_t keep_at_least, std::string_view replace = "") {
    if (!EndsWith(w, suffix) || w.size() - suffix.size() < keep_at_least) return false;
    std::size_t m = w.size() - suffix.size();
    std::copy(replace.begin(), replace.end(), buf + m);
    w = std::string_view(buf, m + replace.size());
    return true;
  };
  // Plurals and third persons.
  if (!strip("ies", 3, "y") && !strip("sses", 3, "ss")) {
    if (EndsWith(w, "ches") || EndsWith(w, "shes") || EndsWith(w, "xes")) {
      strip("es", 3);
    } else if (!EndsWith(w, "ss") && !EndsWith(w, "us") && !EndsWith(w, "is")) {
      strip("s", 3);
    }
  }
  // Tenses, then nouns made of verbs; then a final silent e.
  if (!strip("ied", 3, "y") && !strip("ing", 4)) strip("ed", 4);
  strip("ion", 4);
  strip("e", 3);
  return w.size();
}

bool IsCode(std::string_view w) {
  if (w.size() < 3 || w.size() > 64) return false;
  unsigned char classes = 0;
  for (char c : w) classes |= ClassOf(c);
  const bool upper = classes & kUpper, lower = classes & kLower, digit = classes & kDigit;
  if (upper && digit && !lower) return true;  // E0382, TS2307, HY000
  if (upper && !lower && !digit) {            // ERESOLVE, EACCES, CUDNN_STATUS_BAD_PARAM; not a log level
    static constexpr std::array<std::string_view, 16> kShouted = {
        "ERROR", "ERRORS", "FATAL",  "WARNING", "WARNINGS", "NOTICE", "SEVERE",  "CRITICAL",
        "DEBUG", "TRACE",  "FAILED", "FAILURE", "PANIC",    "ALERT",  "ABORTED", "SUCCESS"};
    return w.size() >= 5 && std::find(kShouted.begin(), kShouted.end(), w) == kShouted.end();
  }
  // Exception classes: CamelCase ending in a kind of failure.
  if (!upper || !lower || !Upper(w[0])) return false;
  for (std::string_view suffix : {"Error", "Exception", "Fault", "Failure"}) {
    if (w.size() > suffix.size() && EndsWith(w, suffix)) return true;
  }
  return false;
}

}  // namespace text_words_internal

namespace {

template <class Each>
std::vector<std::string> Collect(std::string_view text, Each each) {
  std::vector<std::string> out;
  each(text, [&out](std::string_view w) { out.emplace_back(w); });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::vector<std::string> MessageWords(std::string_view text) {
  return Collect(text, [](std::string_view t, auto&& emit) { ForEachWord(t, emit); });
}

std::vector<std::string> MessageCodes(std::string_view text) {
  return Collect(text, [](std::string_view t, auto&& emit) { ForEachCode(t, emit); });
}

bool HasDigit(std::string_view word) { return std::any_of(word.begin(), word.end(), text_words_internal::Digit); }

std::string Stem(std::string_view word) {
  std::string w(word);
  if (w.size() > 64) return w;
  w.resize(text_words_internal::StemInPlace(w.data(), w.size()));
  return w;
}

std::vector<std::string> PatternWords(std::string_view re) { return MessageWords(PatternText(re)); }

std::string PatternText(std::string_view re) {
  std::string text;
  text.reserve(re.size());
  for (std::size_t i = 0; i < re.size(); ++i) {
    char c = re[i];
    if (c == '\\' && i + 1 < re.size()) {
      // A class or an assertion (\d \w \s \b \A \Z) is no word; an escaped
      // character is itself.
      char e = re[++i];
      text += text_words_internal::Lower(e) || text_words_internal::Upper(e) || text_words_internal::Digit(e) ? ' ' : e;
      continue;
    }
    if (c == '(' && i + 1 < re.size() && re[i + 1] == '?') {
      // (?:  (?i)  (?P<name>  (?P=name)  (?<=  (?!
      std::size_t close = re.find_first_of(":)>=!", i + 2);
      i = close != std::string_view::npos && (re[close] == '>' || re[close] == ')') ? close : i + 1;
      text += ' ';
      continue;
    }
    if (c == '[' || c == '{') {  // a class's letters are alternatives; a count is a count
      std::size_t close = re.find(c == '[' ? ']' : '}', i + 1);
      if (close != std::string_view::npos) {
        i = close;
        text += ' ';
        continue;
      }
    }
    text += text_words_internal::WordByte(c) ? c : ' ';
  }
  return text;
}

}  // namespace kedb::util
