#include "search/tokenizer.h"

#include "util/utf8.h"

namespace kedb::search {
namespace {

bool Cjk(char32_t c) {
  return (c >= 0x3040 && c <= 0x30FF) ||    // kana
         (c >= 0x3400 && c <= 0x4DBF) ||    // Han extension A
         (c >= 0x4E00 && c <= 0x9FFF) ||    // Han
         (c >= 0xAC00 && c <= 0xD7A3) ||    // Hangul syllables
         (c >= 0xF900 && c <= 0xFAFF) ||    // Han compatibility
         (c >= 0x20000 && c <= 0x2FFFF);    // Han extensions B-F
}

bool WordByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

// Adds `word` (lower-cased, trimmed of dots) and, for identifiers, its parts.
void AddWord(std::string_view word, std::vector<std::string>* out) {
  while (!word.empty() && word.front() == '.') word.remove_prefix(1);
  while (!word.empty() && word.back() == '.') word.remove_suffix(1);
  if (word.empty() || word.size() > 80) return;
  std::string lower(word);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  bool compound = lower.find_first_of("_.") != std::string::npos;
  out->push_back(lower);
  if (!compound) return;
  std::size_t b = 0;
  for (std::size_t i = 0; i <= lower.size(); ++i) {
    if (i == lower.size() || lower[i] == '_' || lower[i] == '.') {
      if (i > b) out->push_back(lower.substr(b, i - b));
      b = i + 1;
    }
  }
}

}  // namespace

std::vector<std::string> Tokenize(std::string_view text) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < text.size()) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (WordByte(text[i])) {
        std::size_t b = i;
        while (i < text.size() && WordByte(text[i])) ++i;
        AddWord(text.substr(b, i - b), &out);
      } else {
        ++i;
      }
      continue;
    }
    // A run of CJK characters becomes bigrams; other non-ASCII letters are
    // skipped (they rarely carry an error's identity).
    std::vector<std::string_view> run;
    while (i < text.size() && static_cast<unsigned char>(text[i]) >= 0x80) {
      char32_t cp = 0;
      std::size_t n = util::DecodeUtf8(text, i, &cp);
      if (n == 0) {
        ++i;
        break;
      }
      if (!Cjk(cp)) {
        i += n;
        break;
      }
      run.push_back(text.substr(i, n));
      i += n;
    }
    if (run.size() == 1) out.emplace_back(run[0]);
    for (std::size_t k = 0; k + 1 < run.size(); ++k) out.push_back(std::string(run[k]) + std::string(run[k + 1]));
  }
  return out;
}

}  // namespace kedb::search
