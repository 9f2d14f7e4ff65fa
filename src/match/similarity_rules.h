// Rules the signature index is built and queried by (similarity.cc,
// signature_build.cc): kept in one place so that both read words alike.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace kedb::match::similarity_rules {

// The family of a numbered code: its letters before the first digit
// ("ts2307" -> "ts", "e0382" -> "e"); empty when it has no number.
inline std::string_view CodeFamily(std::string_view code) {
  std::size_t letters = 0;
  while (letters < code.size() && code[letters] >= 'a' && code[letters] <= 'z') ++letters;
  if (letters == 0 || letters == code.size() || code[letters] < '0' || code[letters] > '9') return {};
  return code.substr(0, letters);
}

// A word in more records than this carries little meaning for retrieval;
// it still counts in the measures through its (low) weight, but does not
// propose candidates. Capped, so that finding candidates costs about the
// same at a million records as at ten thousand: a word in more than 1,000
// records names no error by itself, and the words of a line that do are
// rarer.
inline std::size_t MaxCandidateDf(std::size_t records) { return std::clamp<std::size_t>(records / 20, 50, 1000); }

// What a word of the text that no record has adds to the text's weight:
// about what the commonest words weigh. Such words are mostly names and
// values; those with a digit count nothing.
constexpr double kUnknownWordWeight = 1.0;

}  // namespace kedb::match::similarity_rules
