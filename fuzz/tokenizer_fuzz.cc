// Feeds the input as text to the word rules (util/text_words.h:
// MessageWords and MessageCodes, the words and identifiers records and
// messages are compared by, and Stem on each word) and to the search
// tokenizer built on them (search::Tokenize: BM25 terms, English and
// Chinese).
//
// A bug is a crash, a sanitizer report, an exception, or a broken promise:
//   - Tokenize: each term is one or two CJK characters, or a word of 2 to
//     64 bytes made of lower-case letters, digits, '_' and non-ASCII bytes;
//   - MessageWords and MessageCodes: sorted, each once, lower-case, no
//     one-byte words, made of word bytes only, but for the words of the
//     error families (util/error_phrases.h) a phrase of which the text holds;
//   - Stem leaves words with a digit or '_' and words of 4 bytes or fewer
//     as they are.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.h"
#include "search/tokenizer.h"
#include "util/error_phrases.h"
#include "util/text_words.h"

namespace {

bool IsCjk(char32_t c) {
  return (c >= 0x3040 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) ||
         (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x20000 && c <= 0x2FFFF);
}

bool IsWordByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}

void CheckSearchTerms(std::string_view text) {
  for (const std::string& t : kedb::search::Tokenize(text)) {
    // A CJK unigram or bigram ...
    std::size_t chars = 0;
    bool cjk = true;
    for (std::size_t i = 0; i < t.size() && cjk; ++chars) {
      char32_t c = 0;
      const std::size_t n = kedb::util::DecodeUtf8(t, i, &c);
      cjk = n > 0 && IsCjk(c);
      i += n;
    }
    if (cjk) {
      FUZZ_CHECK(chars == 1 || chars == 2);
      continue;
    }
    // ... or a word as the word rules give it.
    FUZZ_CHECK(t.size() >= 2 && t.size() <= 64);
    for (char c : t) FUZZ_CHECK(IsWordByte(c));
  }
}

// "~tls-untrusted", "=conn-refused": a family's word, as the list has it.
bool IsFamilyWord(const std::string& w) {
  static const std::string rules = "\n" + kedb::util::ErrorPhraseRules();
  return (w[0] == '~' || w[0] == '=') && rules.find("\n" + w + "|") != std::string::npos;
}

void CheckWordList(const std::vector<std::string>& words, bool families) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    FUZZ_CHECK(i == 0 || words[i - 1] < words[i]);
    FUZZ_CHECK(words[i].size() >= 2);
    if (families && IsFamilyWord(words[i])) continue;
    for (char c : words[i]) FUZZ_CHECK(IsWordByte(c));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  CheckSearchTerms(text);
  const std::vector<std::string> words = kedb::util::MessageWords(text);
  CheckWordList(words, /*families=*/true);
  CheckWordList(kedb::util::MessageCodes(text), /*families=*/false);
  for (const std::string& w : words) {
    if (IsFamilyWord(w)) continue;
    if (w.size() <= 4 || kedb::util::HasDigit(w) || w.find('_') != std::string::npos) {
      FUZZ_CHECK(kedb::util::Stem(w) == w);
    }
  }
  return 0;
}
