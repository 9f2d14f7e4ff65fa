// The words of an error message that say which error it is.
//
// Two reports of one error share their wording, not their values: paths,
// addresses, quoted names, hashes and ports differ from machine to machine,
// and a record's signature holds placeholders ('X', 'myuser') where a real
// message holds values. Words are also inflected differently across
// versions and tools ("could not connect" / "connection refused" /
// "refusing connections"). So both sides are read the same way:
//   - values are masked: URLs, paths (two or more separators), quoted
//     names without a blank ('express-session', "conf.yaml"), hex
//     (0x7f3b6e7236fc) and long hex runs (commit and content hashes);
//   - the rest is cut into words of letters, digits and '_' (every byte of
//     a multi-byte character counts as a letter), lower-cased, one-letter
//     words dropped; an identifier also gives its parts
//     (ConnectionRefusedError -> connection, refused, error;
//     CUDNN_STATUS_BAD_PARAM -> cudnn, status, bad, param; AADSTS700016 ->
//     aadsts, 700016), so that a phrase finds the identifier that spells it;
//   - plain words of letters lose their inflection ("connection" and
//     "connecting" -> "connect", "denied" -> "deny", "files" -> "fil");
//   - a phrase of a family of phrases that name one error in different
//     tools' words adds the family's word ("~tls-untrusted" after "x509:
//     certificate signed by unknown authority": error_phrases.h).
//
// Cost: one pass over the text, no regular expressions; ForEachWord
// allocates nothing.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kedb::util {

// Calls `emit(std::string_view)` with each word of `text` as above, in
// order, repeats included. The view is valid only during the call.
template <class Emit>
void ForEachWord(std::string_view text, Emit&& emit);
// The same pass also giving each code (ForEachCode) to `emit_code`.
template <class Emit, class EmitCode>
void ForEachWordAndCode(std::string_view text, Emit&& emit, EmitCode&& emit_code);

// The words as ForEachWord gives them, but with values left in (a path's
// or URL's parts, a quoted name's words) and no families' words: for
// full-text search, where the value may be what is asked for. Hex values
// are still dropped.
template <class Emit>
void ForEachWordWithValues(std::string_view text, Emit&& emit);

// The words of `text` as above, sorted, each once.
std::vector<std::string> MessageWords(std::string_view text);

// The identifiers an error is named by, lower-cased, sorted, each once:
// status and errno names (ERESOLVE, EACCES, CUDNN_STATUS_BAD_PARAM), codes
// with digits (E0382, TS2307, CS0246, AADSTS700016 and its family
// "aadsts") and exception classes (ConnectionRefusedError,
// java.lang.NullPointerException -> "nullpointerexception"). Two messages
// naming different ones are most likely different errors.
template <class Emit>
void ForEachCode(std::string_view text, Emit&& emit);
std::vector<std::string> MessageCodes(std::string_view text);

// The text a Python regex spells out literally (metacharacters, escapes
// such as \d, group names, flags, classes and repeat counts become blanks),
// case kept: `(AADSTS\d+|Application not found.*tenant)` gives
// " AADSTS  Application not found  tenant ".
std::string PatternText(std::string_view python_regex);
// MessageWords(PatternText(python_regex)).
std::vector<std::string> PatternWords(std::string_view python_regex);

// A word's stem: the inflection rules above, for one lower-case word.
// Words with a digit or '_' and words of 4 letters or fewer are returned
// as they are.
std::string Stem(std::string_view word);

// Whether a word holds a digit (a code such as "e11000" or a value).
bool HasDigit(std::string_view word);

}  // namespace kedb::util

#include "util/text_words_inl.h"
