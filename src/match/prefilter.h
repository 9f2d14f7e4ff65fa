// Choosing a pattern's prefilter factor: a set of literals such that every
// match of the pattern contains at least one of them.
#pragma once

#include <string>
#include <vector>

#include "match/python_regex.h"

namespace kedb::match {

// The best factor of `info`, folded to lower case; empty when the pattern
// has none worth using (then it goes to the regex database). Prefers long
// literals and avoids words that fill ordinary logs ("error", "info"), since
// every literal hit costs a confirmation.
//
// Literals are cut to their longest piece that Hyperscan's ASCII-only
// caseless matching handles exactly: ASCII and uncased scripts (CJK,
// Hangul, kana, Arabic, Hebrew, Indic, Thai, Ethiopic). A pattern whose factor would need a cased non-ASCII letter
// (Cyrillic, accented Latin) uses the longest piece around it.
std::vector<std::string> ChooseFactor(const PatternInfo& info);

// Names the choices ChooseFactor makes; part of the prefilter cache key, so
// that changing them can never reuse a database built under the old ones.
inline constexpr char kFactorPolicy[] = "factor-v5:min-weight-2.5:common-words-v2/4:uncased-scripts:choices:identifier-tokens";

}  // namespace kedb::match
