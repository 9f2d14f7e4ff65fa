#include "search/tokenizer.h"

#include "util/text_words.h"
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

// Punctuation that Chinese and Japanese text uses in place of ASCII's
// (。，：（） and the fullwidth forms), and typographic dashes, quotes and
// dots: gaps between words, never words of their own.
bool Punctuation(char32_t c) {
  return (c >= 0x2000 && c <= 0x206F) ||  // general punctuation: — ‘ ’ “ ” …
         (c >= 0x3000 && c <= 0x303F) ||  // CJK symbols and punctuation
         (c >= 0xFF00 && c <= 0xFF0F) || (c >= 0xFF1A && c <= 0xFF20) || (c >= 0xFF3B && c <= 0xFF40) ||
         (c >= 0xFF5B && c <= 0xFF65);    // fullwidth punctuation, not fullwidth letters
}

enum class Char { kOther, kCjk, kGap };

// What the character at text[i] is, and its length in bytes.
Char ClassAt(std::string_view text, std::size_t i, std::size_t* length) {
  *length = 1;
  if (static_cast<unsigned char>(text[i]) < 0x80) return Char::kOther;
  char32_t cp = 0;
  const std::size_t n = util::DecodeUtf8(text, i, &cp);
  if (n == 0) return Char::kOther;
  *length = n;
  return Cjk(cp) ? Char::kCjk : Punctuation(cp) ? Char::kGap : Char::kOther;
}

void AddBigrams(const std::vector<std::string_view>& run, std::vector<std::string>* out) {
  if (run.size() == 1) out->emplace_back(run[0]);
  for (std::size_t k = 0; k + 1 < run.size(); ++k) out->push_back(std::string(run[k]) + std::string(run[k + 1]));
}

}  // namespace

std::vector<std::string> Tokenize(std::string_view text) {
  std::vector<std::string> out;
  auto add_word = [&out](std::string_view w) { out.emplace_back(w); };
  std::vector<std::string_view> run;
  std::size_t i = 0, n = 0;
  while (i < text.size()) {
    // Text up to the next CJK character or gap goes through the word rules.
    std::size_t other_end = i;
    while (other_end < text.size() && ClassAt(text, other_end, &n) == Char::kOther) other_end += n;
    util::ForEachWordWithValues(text.substr(i, other_end - i), add_word);
    i = other_end;
    run.clear();
    for (; i < text.size() && ClassAt(text, i, &n) == Char::kCjk; i += n) run.push_back(text.substr(i, n));
    AddBigrams(run, &out);
    while (i < text.size() && ClassAt(text, i, &n) == Char::kGap) i += n;
  }
  return out;
}

}  // namespace kedb::search
