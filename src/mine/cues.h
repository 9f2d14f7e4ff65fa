// The words a thread's sentences propose, judge and hedge with, and what
// they tell: the phrase tables and readers behind FindCandidates
// (suggestions.h). Every reader takes a sentence lower-cased by LowerText.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "mine/suggestions.h"

namespace kedb::mine {

// A phrase that proposes a cause or a fix ("the reason is", "fixed by",
// "you're running"), and how strongly.
struct Cue {
  std::string_view phrase;  // lower case
  Role role;
  double weight;
};

enum class Verdict { kWorked, kFailed };

// `s` in lower case (ASCII), typographic apostrophes read as ASCII ones.
std::string LowerText(std::string_view s);

bool Has(const std::string& lower, std::string_view phrase);

// The sentence's strongest cue, of `role` only when one is given; an
// instruction ("Set X", "@alice please update your driver") is a fix.
// Cues of a weak fix said of the poster's own doing ("when I try to push")
// do not count. nullptr when there is none.
const Cue* StrongestCue(const std::string& lower, std::optional<Role> role = std::nullopt);

// How a reply says a suggestion went: "that fixed it", "seems to work"; "no
// luck", "the same error", "still hangs". nullopt when it says neither.
std::optional<Verdict> VerdictOf(const std::string& lower);

// "I tried X", "Tried the barrier", "I set timeout=...", "Upgraded, and
// ...": the poster reports doing something ("Worked for me" judges).
bool SaysTried(const std::string& lower);

// A command that changes something, as a fix is given: a tool and what it
// is told to do ("pip install -U x", "helm rollback radarr 14", "rustup
// update"), not a query ("conda version", "pip list").
bool IsFixCommand(std::string_view line);

// Whether a lower-cased sentence names a step taken: a gerund of doing
// ("using 3.11", "removing the version hashes") or a past step ("after I
// upgraded to Node.js 20"); "I am using a Mac" says what one has.
bool NamesStep(std::string_view lower);

// Whether two texts share a word of five letters or more (case aside):
// a reply and the suggestion it names.
bool SharesWord(std::string_view a, std::string_view b);

// A sentence that opens with a program's message in inline code: the
// error quoted, not a view of its cause.
bool QuotesOutput(std::string_view text);

// The hedge a sentence holds ("i suspect", "maybe", "might be"), or "".
std::string_view HedgeIn(const std::string& lower);

}  // namespace kedb::mine
