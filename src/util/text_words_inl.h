// The word and code scanners of text_words.h, as templates: they run over
// every line a message or a log block holds and over every record at each
// start, and a call through std::function per word cost a third of it.
// Include text_words.h, not this.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include "util/error_phrases.h"

namespace kedb::util::text_words_internal {

// Each byte's classes, looked up once: every byte of a message passes
// through these tests several times (words, parts, codes, values).
enum ByteClass : unsigned char {
  kLower = 1,
  kUpper = 2,
  kDigit = 4,
  kBlank = 8,
  kWordOther = 16,
  // A byte that may make a run of text a value (IsValue): a path or URL
  // separator, a quote mark, or part of a typographic one.
  kValueMark = 32,
};
struct ByteClasses {
  std::array<unsigned char, 256> of{};
  constexpr ByteClasses() {
    for (int c = 'a'; c <= 'z'; ++c) of[static_cast<std::size_t>(c)] = kLower;
    for (int c = 'A'; c <= 'Z'; ++c) of[static_cast<std::size_t>(c)] = kUpper;
    for (int c = '0'; c <= '9'; ++c) of[static_cast<std::size_t>(c)] = kDigit;
    for (char c : {' ', '\t', '\n', '\r'}) of[static_cast<unsigned char>(c)] = kBlank;
    of['_'] = kWordOther;
    for (std::size_t c = 0x80; c < 256; ++c) of[c] = kWordOther;
    of[0xE2] |= kValueMark;  // the first byte of ‘ ’ “ ”
    for (char c : {'/', '\\', ':', '\'', '"', '`'}) of[static_cast<unsigned char>(c)] |= kValueMark;
  }
};
inline constexpr ByteClasses kByteClasses;
// Each byte in lower case (ASCII letters only), looked up, not tested.
struct LowerBytes {
  std::array<char, 256> of{};
  constexpr LowerBytes() {
    for (std::size_t c = 0; c < 256; ++c) of[c] = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  }
};
inline constexpr LowerBytes kLowerBytes;
inline char LowerByte(char c) { return kLowerBytes.of[static_cast<unsigned char>(c)]; }
inline unsigned char ClassOf(char c) { return kByteClasses.of[static_cast<unsigned char>(c)]; }

inline bool Lower(char c) { return ClassOf(c) & kLower; }
inline bool Upper(char c) { return ClassOf(c) & kUpper; }
inline bool Digit(char c) { return ClassOf(c) & kDigit; }
inline bool Blank(char c) { return ClassOf(c) & kBlank; }
// Letters, digits, '_' and every byte of a multi-byte character.
inline bool WordByte(char c) { return ClassOf(c) & (kLower | kUpper | kDigit | kWordOther); }

// A run of text between blanks that is a value, not words: a URL, a path
// with two or more separators, or a quoted name.
bool IsValue(std::string_view chunk);
// A hex value: 0x7f3b..., or a hash-like run of 12+ hex digits with a digit.
bool IsHexValue(std::string_view word);
// Stem() in place on a lower-case word in buf[0, n): the new length.
std::size_t StemInPlace(char* buf, std::size_t n);
// Whether a word as written names an error (see ForEachCode).
bool IsCode(std::string_view word);

// One word as emitted: lower case, stemmed, 2 to 64 bytes.
template <class Emit>
void EmitWord(std::string_view w, Emit& emit) {
  if (w.size() < 2 || w.size() > 64) return;
  std::array<char, 64> buf;
  for (std::size_t i = 0; i < w.size(); ++i) buf[i] = LowerByte(w[i]);
  emit(std::string_view(buf.data(), StemInPlace(buf.data(), w.size())));
}

// One word of the text: itself, and the parts an identifier is made of.
template <class Emit>
void EmitWordAndParts(std::string_view w, Emit& emit) {
  if (IsHexValue(w)) return;
  EmitWord(w, emit);
  std::array<std::string_view, 16> parts;
  std::size_t count = 0, start = 0;
  for (std::size_t i = 1; i <= w.size() && count < parts.size(); ++i) {
    bool cut = i == w.size() || w[i] == '_' || (Digit(w[i]) != Digit(w[i - 1]) && w[i - 1] != '_') ||
               (Upper(w[i]) && Lower(w[i - 1])) ||
               (Upper(w[i]) && Upper(w[i - 1]) && i + 1 < w.size() && Lower(w[i + 1]));
    if (!cut) continue;
    std::string_view piece = w.substr(start, i - start);
    if (!piece.empty() && piece != "_") parts[count++] = piece;
    start = i < w.size() && w[i] == '_' ? i + 1 : i;
  }
  if (count < 2) return;
  for (std::size_t k = 0; k < count; ++k) EmitWord(parts[k], emit);
}

template <class Emit>
void EmitCodes(std::string_view text, Emit& emit) {
  std::array<char, 64> buf;
  for (std::size_t i = 0; i < text.size();) {
    while (i < text.size() && !WordByte(text[i])) ++i;
    std::size_t b = i;
    while (i < text.size() && WordByte(text[i])) ++i;
    std::string_view w = text.substr(b, i - b);
    if (!IsCode(w)) continue;
    for (std::size_t k = 0; k < w.size(); ++k) buf[k] = LowerByte(w[k]);
    std::string_view code(buf.data(), w.size());
    // "AADSTS700016" is also the family its pattern names, `AADSTS\d+`.
    std::size_t letters = 0;
    while (letters < code.size() && Lower(code[letters])) ++letters;
    if (letters >= 4 && letters < code.size() && Digit(code[letters])) emit(code.substr(0, letters));
    emit(code);
  }
}

struct NoCodes {
  void operator()(std::string_view) const {}
};

// What a run of text masked as a value names, when it is an identifier in
// quotes or brackets ('UNABLE_TO_VERIFY_LEAF_SIGNATURE'): lower case, in
// `buf`; empty otherwise.
std::string_view QuotedIdentifier(std::string_view chunk, std::array<char, 64>* buf);

// Gives `window` the next word; emits the families whose phrase it ends.
template <class Emit>
void PushWord(PhraseWindow* window, std::string_view w, Emit& emit) {
  std::array<std::string_view, PhraseWindow::kMaxFound> found;
  const std::size_t n = window->Push(w, &found);
  for (std::size_t k = 0; k < n; ++k) emit(found[k]);
}

// The one pass behind ForEachWordAndCode and ForEachWordWithValues. With
// kPhrases, each word that ends a phrase of an error family
// (error_phrases.h) is followed by the family's word; an identifier masked
// as a quoted value still counts as a phrase's word.
template <bool kMaskValues, bool kPhrases, class Emit, class EmitCode>
void ScanWords(std::string_view text, Emit& emit, EmitCode& emit_code) {
  constexpr bool kCodes = !std::is_same_v<std::decay_t<EmitCode>, NoCodes>;
  [[maybe_unused]] PhraseWindow window;
  auto each_word = [&](std::string_view w) {
    emit(w);
    if constexpr (kPhrases) PushWord(&window, w, emit);
  };
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && Blank(text[i])) ++i;
    std::size_t b = i;
    while (i < text.size() && !Blank(text[i])) ++i;
    std::string_view chunk = text.substr(b, i - b);
    if (chunk.empty()) continue;
    // Codes are names, not values: a quoted status still names the error.
    if constexpr (kCodes) EmitCodes(chunk, emit_code);
    if constexpr (kMaskValues) {
      if (IsValue(chunk)) {
        if constexpr (kPhrases) {
          std::array<char, 64> buf;
          if (std::string_view id = QuotedIdentifier(chunk, &buf); !id.empty()) PushWord(&window, id, emit);
        }
        continue;
      }
    }
    for (std::size_t k = 0; k < chunk.size();) {
      while (k < chunk.size() && !WordByte(chunk[k])) ++k;
      std::size_t wb = k;
      while (k < chunk.size() && WordByte(chunk[k])) ++k;
      if (k > wb) EmitWordAndParts(chunk.substr(wb, k - wb), each_word);
    }
  }
}

}  // namespace kedb::util::text_words_internal

namespace kedb::util {

template <class Emit, class EmitCode>
void ForEachWordAndCode(std::string_view text, Emit&& emit, EmitCode&& emit_code) {
  text_words_internal::ScanWords<true, true>(text, emit, emit_code);
}

template <class Emit>
void ForEachWordWithValues(std::string_view text, Emit&& emit) {
  text_words_internal::NoCodes no_codes;
  text_words_internal::ScanWords<false, false>(text, emit, no_codes);
}

template <class Emit>
void ForEachWord(std::string_view text, Emit&& emit) {
  ForEachWordAndCode(text, emit, text_words_internal::NoCodes());
}

template <class Emit>
void ForEachCode(std::string_view text, Emit&& emit) {
  text_words_internal::EmitCodes(text, emit);
}

}  // namespace kedb::util
