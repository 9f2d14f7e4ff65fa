// Feeds the input as text to the two word splitters behind search and
// resemblance: search::Tokenize (BM25 terms, English and Chinese) and
// match::MessageWords / MessageCodes (the words and identifiers records
// and messages are compared by), plus match::Stem on each word.
//
// A bug is a crash, a sanitizer report, an exception, or a broken promise:
//   - Tokenize: terms come in text order (an identifier's parts right
//     after it); Latin terms are lower-case runs of [a-z0-9_.] that neither
//     start nor end with '.', at most 80 bytes; CJK terms are one or two
//     CJK characters; each is found in the (ASCII lower-cased) text;
//   - MessageWords and MessageCodes: sorted, each once, lower-case, no
//     one-byte words, made of word bytes only;
//   - Stem leaves words with a digit or '_' and words of 4 bytes or fewer
//     as they are.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.h"
#include "match/text_words.h"
#include "search/tokenizer.h"

namespace {

bool IsCjk(char32_t c) {
  return (c >= 0x3040 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) ||
         (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x20000 && c <= 0x2FFFF);
}

std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
  return out;
}

void CheckSearchTerms(std::string_view text) {
  // Lower-casing ASCII keeps byte offsets, so CJK terms are found in it too.
  const std::string lower = AsciiLower(text);
  // Each term starts at or after the one before it (a part of an identifier
  // at or after the identifier): searching from there checks the order and
  // keeps the check linear.
  std::size_t from = 0;
  for (const std::string& t : kedb::search::Tokenize(text)) {
    FUZZ_CHECK(!t.empty());
    const std::size_t at = lower.find(t, from);
    FUZZ_CHECK(at != std::string::npos);
    from = at;
    if (static_cast<unsigned char>(t[0]) < 0x80) {
      FUZZ_CHECK(t.size() <= 80 && t.front() != '.' && t.back() != '.');
      for (char c : t) FUZZ_CHECK((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.');
      continue;
    }
    std::size_t chars = 0;
    for (std::size_t i = 0; i < t.size(); ++chars) {
      char32_t c = 0;
      std::size_t n = kedb::util::DecodeUtf8(t, i, &c);
      FUZZ_CHECK(n > 0 && IsCjk(c));
      i += n;
    }
    FUZZ_CHECK(chars == 1 || chars == 2);
  }
}

bool IsWordByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}

void CheckWordList(const std::vector<std::string>& words) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    FUZZ_CHECK(i == 0 || words[i - 1] < words[i]);
    FUZZ_CHECK(words[i].size() >= 2);
    for (char c : words[i]) FUZZ_CHECK(IsWordByte(c));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  CheckSearchTerms(text);
  const std::vector<std::string> words = kedb::match::MessageWords(text);
  CheckWordList(words);
  CheckWordList(kedb::match::MessageCodes(text));
  for (const std::string& w : words) {
    if (w.size() <= 4 || kedb::match::HasDigit(w) || w.find('_') != std::string::npos) {
      FUZZ_CHECK(kedb::match::Stem(w) == w);
    }
  }
  return 0;
}
