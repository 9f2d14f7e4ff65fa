// Choosing a pattern's prefilter factor: a set of literals such that every
// match of the pattern contains at least one of them.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "regex/python_regex.h"

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
std::vector<std::string> ChooseFactor(const regex::PatternInfo& info);

// The top-level alternatives of a Python pattern, each a pattern of its
// own: `a|b.*c` and `(?:a|b.*c)` both give {"a", "b.*c"}. Every match of the
// pattern is a match of one of them, so a pattern without a factor of its
// own can still be prefiltered branch by branch, leaving only the branches
// without one to the regex database.
//
// Empty when the pattern is not an alternation at its top (or one group
// holding one), or when a branch read alone could mean something else:
// inline flags, back-references, conditionals.
std::vector<std::string> TopLevelBranches(std::string_view pattern);

// Whether a factor literal is rare enough in ordinary logs to be looked for
// on every line: 8 bytes or more and not a common word, or an identifier
// or non-ASCII text of 6 bytes or more ("e11000", "cuda_error", "六四").
// The others ("mode", "ack", "201", "exception") are looked for only on
// lines that read as a problem (PatternSet::Scan).
bool IsDistinctiveLiteral(std::string_view literal);

// How the prefilter reaches one pattern: literals that lead to it (each
// distinctive or broad, see IsDistinctiveLiteral), and regexes (PCRE2
// dialect, with their Hyperscan flags) for the regex database. A pattern
// whose factor has a broad literal is reached branch by branch when that
// gives it a distinctive literal; one without a factor sends only its
// branches without one to the regex database. `unreachable`: Hyperscan
// takes none of it, and PCRE2 must try every (marked) line.
struct PrefilterPlan {
  std::vector<std::string> literals;
  std::vector<std::pair<std::string, unsigned>> regexes;
  bool unreachable = false;
};
PrefilterPlan PlanPrefilter(const std::string& python_pattern, const regex::PatternInfo& info);

// Whether a line holding a match (folded with regex::FoldLiteralCase) is found by a
// log scan even when it reads as no problem: it holds one of the plan's
// distinctive literals.
bool FoundOnAnyLine(const PrefilterPlan& plan, std::string_view folded_line);

// Names the choices ChooseFactor makes; part of the prefilter cache key, so
// that changing them can never reuse a database built under the old ones.
inline constexpr char kFactorPolicy[] = "factor-v6:min-weight-2.5:common-words-v3/4:rarer-phrases-and-codes:uncased-scripts:choices:identifier-tokens:split-branches:distinctive-8/6:split-broad";

}  // namespace kedb::match
