// Families of phrases that name one error in different tools' words.
//
// A TLS client that does not trust a server's certificate says so in every
// language's own terms: Go's "x509: certificate signed by unknown
// authority", OpenSSL's "unable to get local issuer certificate", Java's
// "PKIX path building failed", Node's "UNABLE_TO_VERIFY_LEAF_SIGNATURE".
// A record written from one of them shares no rare word with the others,
// so a message in another tool's words was never found. Each family here
// is such a set of phrases; a text that holds one of them also holds the
// family's own word ("~tls-untrusted"), which the record written from
// another phrase of the family has too.
//
// Some families name a symptom rather than an error ("connection refused",
// "no space left on device"): their word starts with '=' instead, and only
// makes the phrases read alike (IsErrorFamily tells them apart).
//
// Phrases are read with the word rules of text_words.h (stemmed, values
// masked), and found when their words come in order with at most
// kPhraseSlack other words among them: "The connection to the server
// localhost:8080 was refused" holds "connection to the server was
// refused". Only errors whose phrases say the same thing wherever they
// appear are listed; "ENOSPC" is not (disk full, or Node's file watchers
// limit), nor "permission denied" (a family of its own in every tool).
//
// Cost: a hash of each word and, for the few words that end a phrase, a
// look at the words before it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kedb::util {

inline constexpr std::size_t kPhraseSlack = 3;

// The words of a text seen so far, for finding the phrases they end.
class PhraseWindow {
 public:
  static constexpr std::size_t kMaxFound = 4;
  // Adds the next word (as the word rules emit it). Returns how many
  // families a phrase ending with it belongs to, their words in *found.
  std::size_t Push(std::string_view word, std::array<std::string_view, kMaxFound>* found);

 private:
  static constexpr std::size_t kWindow = 16;  // longest phrase plus its slack
  std::array<uint64_t, kWindow> recent_{};
  std::size_t count_ = 0;
};

// Whether `word` is the word of a family that names one error (not a
// symptom): "~tls-untrusted", not "=conn-refused".
inline bool IsErrorFamily(std::string_view word) { return !word.empty() && word[0] == '~'; }

// Every family and its phrases, as text: what the word rules' fingerprint
// (a cache key) includes, so that a changed list rebuilds what was read
// with the old one.
std::string ErrorPhraseRules();

}  // namespace kedb::util
