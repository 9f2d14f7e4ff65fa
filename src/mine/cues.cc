#include "mine/cues.h"

#include <algorithm>
#include <array>

#include "mine/post_parts.h"
#include "util/strings.h"
#include "util/text_words.h"

namespace kedb::mine {
namespace {

// Phrases that propose a cause or a fix. A sentence takes the role of its
// strongest cue.
constexpr Cue kCues[] = {
    {"root cause", Role::kRootCause, 1.0},      {"the reason is", Role::kRootCause, 1.0},
    {"the cause is", Role::kRootCause, 1.0},    {"the cause was", Role::kRootCause, 1.0},
    {"cause of this", Role::kRootCause, 0.9},
    {"the reason for this", Role::kRootCause, 1.0}, {"the reason why", Role::kRootCause, 0.9},
    {"is caused by", Role::kRootCause, 0.9},    {"was caused by", Role::kRootCause, 0.9},
    {"caused by", Role::kRootCause, 0.8},       {"the culprit", Role::kRootCause, 0.9},
    {"the problem is", Role::kRootCause, 0.8},  {"the problem here", Role::kRootCause, 0.8},
    {"the issue is", Role::kRootCause, 0.8},    {"the issue here", Role::kRootCause, 0.8},
    {"is due to", Role::kRootCause, 0.8},       {"due to", Role::kRootCause, 0.6},
    {"happens because", Role::kRootCause, 0.8}, {"happens when", Role::kRootCause, 0.7},
    {"occurs when", Role::kRootCause, 0.7},     {"explain why", Role::kRootCause, 0.7},
    {"explains why", Role::kRootCause, 0.8},    {"that explains", Role::kRootCause, 0.7},
    {"turns out", Role::kRootCause, 0.7},       {"turned out", Role::kRootCause, 0.7},
    {"is a bug in", Role::kRootCause, 0.8},     {"regression in", Role::kRootCause, 0.7},
    {"introduced in", Role::kRootCause, 0.6},   {"not compatible with", Role::kRootCause, 0.6},
    {"incompatible with", Role::kRootCause, 0.6}, {"because", Role::kRootCause, 0.5},
    // What changed under the user: how a cause is often said without "the reason is".
    {"was removed", Role::kRootCause, 0.6},     {"has been removed", Role::kRootCause, 0.6},
    {"were removed", Role::kRootCause, 0.6},    {"was renamed", Role::kRootCause, 0.6},
    {"no longer", Role::kRootCause, 0.5},       {"is deprecated", Role::kRootCause, 0.5},
    {"was deprecated", Role::kRootCause, 0.5},  {"too old", Role::kRootCause, 0.6},
    {"only supports", Role::kRootCause, 0.5},   {"not supported", Role::kRootCause, 0.5},
    {"does not support", Role::kRootCause, 0.5}, {"doesn't support", Role::kRootCause, 0.5},
    {"is removed", Role::kRootCause, 0.6},      {"are removed", Role::kRootCause, 0.6},
    {"removed from", Role::kRootCause, 0.6},    {"removed in", Role::kRootCause, 0.5},
    {"buggy", Role::kRootCause, 0.6},           {"broken release", Role::kRootCause, 0.6},
    {"out of date", Role::kRootCause, 0.5},     {"outdated", Role::kRootCause, 0.5},
    {"old version", Role::kRootCause, 0.6},     {"older version", Role::kRootCause, 0.5},
    {"not compatible", Role::kRootCause, 0.6},  {"not be compatible", Role::kRootCause, 0.6},
    {"incompatible", Role::kRootCause, 0.5},
    {"compiled for", Role::kRootCause, 0.6},    {"compiled against", Role::kRootCause, 0.6},
    {"built for", Role::kRootCause, 0.6},       {"built against", Role::kRootCause, 0.6},
    {"by default", Role::kRootCause, 0.5},      {"the default for", Role::kRootCause, 0.6},
    {"is related to", Role::kRootCause, 0.6},   {"an issue with", Role::kRootCause, 0.6},
    {"a problem with", Role::kRootCause, 0.5},  {"found the problem", Role::kRootCause, 0.9},
    {"found out the problem", Role::kRootCause, 0.9}, {"the problem:", Role::kRootCause, 0.8},
    {"is missing", Role::kRootCause, 0.5},      {"not installed", Role::kRootCause, 0.5},
    // What the user has, said to them: "You're running Node 10."
    {"you're running", Role::kRootCause, 0.6},  {"you are running", Role::kRootCause, 0.6},
    {"you're on ", Role::kRootCause, 0.5},      {"you are on ", Role::kRootCause, 0.5},
    {"you're using", Role::kRootCause, 0.5},    {"you are using", Role::kRootCause, 0.5},
    {"workaround", Role::kWorkaround, 1.0},     {"work around", Role::kWorkaround, 0.9},
    {"the fix is", Role::kWorkaround, 1.0},     {"the fix was", Role::kWorkaround, 1.0},
    {"the solution is", Role::kWorkaround, 1.0}, {"the solution was", Role::kWorkaround, 1.0},
    {"fixed by", Role::kWorkaround, 1.0},       {"fixed it by", Role::kWorkaround, 1.0},
    {"solved by", Role::kWorkaround, 1.0},      {"solved it by", Role::kWorkaround, 1.0},
    {"resolved by", Role::kWorkaround, 1.0},    {"fixed in #", Role::kWorkaround, 0.9},
    {"resolved it by", Role::kWorkaround, 1.0}, {"fixed this by", Role::kWorkaround, 1.0},
    {"solved this by", Role::kWorkaround, 1.0}, {"resolved this by", Role::kWorkaround, 1.0},
    {"fixed in v", Role::kWorkaround, 0.9},     {"fixed in version", Role::kWorkaround, 0.9},
    {"you need to", Role::kWorkaround, 0.6},    {"you have to", Role::kWorkaround, 0.6},
    {"you should", Role::kWorkaround, 0.5},     {"you can", Role::kWorkaround, 0.5},
    {"you could", Role::kWorkaround, 0.5},      {"try to", Role::kWorkaround, 0.4},
    {"try ", Role::kWorkaround, 0.5},           {"setting ", Role::kWorkaround, 0.5},
    {"set ", Role::kWorkaround, 0.4},           {"upgrade", Role::kWorkaround, 0.5},
    {"downgrad", Role::kWorkaround, 0.5},       {"reinstall", Role::kWorkaround, 0.5},
    {"pin ", Role::kWorkaround, 0.4},           {"latest master", Role::kWorkaround, 0.6},
    {"way out", Role::kWorkaround, 0.5},        {"quick fix", Role::kWorkaround, 0.5},
    {"latest version", Role::kWorkaround, 0.6}, {"latest release", Role::kWorkaround, 0.6},
    {"i pushed", Role::kWorkaround, 0.7},       {"pushed a fix", Role::kWorkaround, 0.8},
    {"to resolve", Role::kWorkaround, 0.7},     {"to fix this,", Role::kWorkaround, 0.7},
    {"to fix it,", Role::kWorkaround, 0.7},     {"way to fix", Role::kWorkaround, 0.8},
    {"the solution to", Role::kWorkaround, 1.0}, {"solution is", Role::kWorkaround, 0.9},
    {"you need ", Role::kWorkaround, 0.5},      {"it is possible to", Role::kWorkaround, 0.5},
};

// Phrases a reply uses to say how a suggestion went.
constexpr std::pair<std::string_view, Verdict> kVerdicts[] = {
    {"that fixed it", Verdict::kWorked},   {"this fixed it", Verdict::kWorked},  {"fixed it for me", Verdict::kWorked},
    {"fixed my issue", Verdict::kWorked},  {"fixed the issue for me", Verdict::kWorked},
    {"works for me", Verdict::kWorked},    {"worked for me", Verdict::kWorked},  {"this worked", Verdict::kWorked},
    {"that worked", Verdict::kWorked},     {"it works now", Verdict::kWorked},   {"that did it", Verdict::kWorked},
    {"did the trick", Verdict::kWorked},   {"solved my problem", Verdict::kWorked}, {"solved it for me", Verdict::kWorked},
    {"can confirm", Verdict::kWorked},     {"problem solved", Verdict::kWorked}, {"solves the problem", Verdict::kWorked},
    {"fixed it", Verdict::kWorked},        {"fixed the problem", Verdict::kWorked}, {"fixed the issue", Verdict::kWorked},
    {"solved the issue", Verdict::kWorked}, {"resolved the issue", Verdict::kWorked}, {"that solved it", Verdict::kWorked},
    {"it worked", Verdict::kWorked},       {"works now", Verdict::kWorked},      {"is working now", Verdict::kWorked},
    {"works fine", Verdict::kWorked},      {"works ok", Verdict::kWorked},       {"working fine", Verdict::kWorked},
    {"works well", Verdict::kWorked},      {"works perfectly", Verdict::kWorked}, {"now works", Verdict::kWorked},
    {"builds fine", Verdict::kWorked},     {"installed fine", Verdict::kWorked}, {"works great", Verdict::kWorked},
    {"didn't help", Verdict::kFailed},     {"did not help", Verdict::kFailed},   {"doesn't help", Verdict::kFailed},
    {"does not help", Verdict::kFailed},   {"didn't work", Verdict::kFailed},    {"did not work", Verdict::kFailed},
    {"doesn't work", Verdict::kFailed},    {"does not work", Verdict::kFailed},  {"still fails", Verdict::kFailed},
    {"still failing", Verdict::kFailed},   {"still get", Verdict::kFailed},      {"still happens", Verdict::kFailed},
    {"still occurs", Verdict::kFailed},    {"still see", Verdict::kFailed},      {"same problem", Verdict::kFailed},
    {"same error", Verdict::kFailed},      {"same issue", Verdict::kFailed},     {"no luck", Verdict::kFailed},
    {"no effect", Verdict::kFailed},       {"no difference", Verdict::kFailed},  {"didn't fix", Verdict::kFailed},
    {"did not fix", Verdict::kFailed},     {"doesn't fix", Verdict::kFailed},    {"does not fix", Verdict::kFailed},
    {"didn't solve", Verdict::kFailed},    {"did not solve", Verdict::kFailed},  {"still broken", Verdict::kFailed},
    {"correct workaround", Verdict::kWorked}, {"seems to work", Verdict::kWorked}, {"seem to work", Verdict::kWorked},
    {"worked with the", Verdict::kWorked}, {"worked like a charm", Verdict::kWorked}, {"worked!", Verdict::kWorked},
    {"fixes it", Verdict::kWorked},        {"fixes the issue", Verdict::kWorked}, {"fixes the problem", Verdict::kWorked},
    {"not a real fix", Verdict::kFailed},  {"not a fix", Verdict::kFailed},      {"not a solution", Verdict::kFailed},
};

constexpr std::string_view kHedges[] = {"i suspect", "maybe", "perhaps", "not sure", "i guess", "i think",
                                        "probably", "might be", "could be"};

// "the same error", "identical output", "still hangs": the forms a reply
// takes to say nothing changed, beyond the fixed phrases above.
bool SaysUnchanged(const std::string& lower) {
  static constexpr std::string_view kWhat[] = {"error",   "problem", "issue",     "conflict", "output", "message",
                                               "crash",   "result",  "exception", "failure",  "traceback",
                                               "behavio", "thing",   "hang",      "e0",     "denied",
                                               "timeout", "exit code", "status"};
  for (std::string_view lead : {"same ", "identical "}) {
    for (std::size_t at = lower.find(lead); at != std::string::npos; at = lower.find(lead, at + 1)) {
      const std::string_view rest = std::string_view(lower).substr(at + lead.size(), 24);
      for (std::string_view w : kWhat) {
        if (rest.find(w) != std::string_view::npos) return true;
      }
    }
  }
  for (std::string_view still : {"still fail", "still crash", "still hang", "still die", "still times out",
                                 "still runs out", "still stuck", "still broken", "still the same", "exactly the same"}) {
    if (Has(lower, still)) return true;
  }
  return false;
}

// A sentence that tells the reader to do something: "Put a barrier ...",
// "Maybe pass a bigger timeout ...".
bool IsImperative(const std::string& lower) {
  static constexpr std::string_view kVerbs[] = {
      "add",    "call",    "change",  "check",   "clear",   "delete",  "disable", "downgrade", "drop",  "edit",
      "enable", "export",  "increase", "install", "lower",   "move",    "pass",    "pin",       "put",   "raise",
      "rebuild", "reduce", "reinstall", "remove", "replace", "restart", "run",     "set",       "switch", "uninstall",
      "update", "upgrade", "use",     "wrap"};
  std::string_view s = lower;
  // "@alice please update your driver": the name says who is told.
  while (s.starts_with("@")) {
    const std::size_t space = s.find(' ');
    s = space == std::string_view::npos ? std::string_view() : util::TrimLeft(s.substr(space));
  }
  if (s.starts_with(", ")) s.remove_prefix(2);
  for (std::string_view lead : {"maybe ", "perhaps ", "just ", "then ", "also ", "first, ", "first ", "please ", "so ",
                                "you need to ", "you have to ", "you should ", "need to "}) {
    if (s.starts_with(lead)) s.remove_prefix(lead.size());
  }
  const std::string_view first = s.substr(0, s.find_first_of(" ,`"));
  if (std::find(std::begin(kVerbs), std::end(kVerbs), first) != std::end(kVerbs)) return true;
  // "That's the usual step: add yourself to the group ...".
  const std::size_t colon = lower.find(": ");
  return colon != std::string::npos && colon + 2 < lower.size() && IsImperative(lower.substr(colon + 2));
}

// Whether `phrase` occurs in `lower` as the poster's own doing ("when I try
// to push", "we set it to 0"): it then proposes nothing.
bool FirstPerson(const std::string& lower, std::string_view phrase) {
  for (std::size_t at = lower.find(phrase); at != std::string::npos; at = lower.find(phrase, at + 1)) {
    const std::string_view before = std::string_view(lower).substr(0, at);
    if (!(before.ends_with("i ") || before.ends_with("we ") || before.ends_with("i also ") ||
          before.ends_with("i then "))) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string LowerText(std::string_view s) {
  // Typographic apostrophes, as pasted text has them, read as ASCII ones.
  std::string plain;
  plain.reserve(s.size());
  for (std::size_t at = 0;;) {
    const std::size_t next = s.find("\xE2\x80\x99", at);
    plain.append(s.substr(at, next == std::string_view::npos ? s.npos : next - at));
    if (next == std::string_view::npos) break;
    plain.push_back('\'');
    at = next + 3;
  }
  return util::AsciiLower(plain);
}

bool Has(const std::string& lower, std::string_view phrase) { return lower.find(phrase) != std::string::npos; }

std::optional<Verdict> VerdictOf(const std::string& lower) {
  for (auto [phrase, verdict] : kVerdicts) {
    if (Has(lower, phrase)) return verdict;
  }
  if (SaysUnchanged(lower)) return Verdict::kFailed;
  return std::nullopt;
}

bool SaysTried(const std::string& lower) {
  if (Has(lower, "tried")) return true;
  std::string_view s = lower;
  if (s.starts_with("i ")) s.remove_prefix(2);
  if (s.starts_with("also ")) s.remove_prefix(5);
  while (s.starts_with("(")) s.remove_prefix(1);
  const std::string_view first = s.substr(0, s.find_first_of(" ,"));
  // "Worked for me", "Fixed now" judge; they do not say what was done.
  if (first == "worked" || first == "fixed" || first == "solved" || first == "resolved") return false;
  return (first.size() > 3 && first.ends_with("ed")) || first == "set" || first == "put" || first == "ran";
}

bool IsFixCommand(std::string_view line) {
  std::string lower(util::Trim(line));
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  std::string_view s = lower;
  for (std::string_view lead : {"$ ", "sudo ", "!", "python -m ", "python3 -m "}) {
    if (s.starts_with(lead)) s.remove_prefix(lead.size());
  }
  const std::size_t space = s.find(' ');
  if (space == std::string_view::npos) return false;
  std::string_view rest = s.substr(space + 1);
  const std::string_view verb = rest.substr(0, rest.find(' '));
  static constexpr std::string_view kVerbs[] = {
      "install", "uninstall", "update", "upgrade", "remove", "add", "i", "ci", "get", "mod", "env", "config",
      "rollback", "apply", "delete", "rollout", "edit", "build", "run", "pull", "default", "toolchain", "use",
      "rebuild", "clean", "cache", "create", "set", "enable", "disable", "restart"};
  if (s.starts_with("export ")) return true;
  return std::find(std::begin(kVerbs), std::end(kVerbs), verb) != std::end(kVerbs) && IsCommandLine(line);
}

bool NamesStep(std::string_view lower) {
  static constexpr std::string_view kDoing[] = {"using ",     "updating ",  "installing ", "upgrading ", "downgrading ",
                                                "switching ", "pinning ",   "running ",    "removing ",  "adding ",
                                                "setting ",   "changing ",  "deleting ",   "reinstalling ", "replacing ",
                                                // "It works now after I upgraded to Node.js 20."
                                                "upgraded ",  "updated ",   "downgraded ", "switched ",   "reinstalled ",
                                                "removed ",   "pinned ",    "replaced ",   "changed "};
  for (std::string_view d : kDoing) {
    const std::size_t at = lower.find(d);
    if (at == std::string_view::npos || (at > 0 && lower[at - 1] != ' ')) continue;
    // "I am using a Mac M1 and it worked" says what the poster has.
    const std::string_view before = lower.substr(0, at);
    if (d == "using " && (before.ends_with("am ") || before.ends_with("i'm ") || before.ends_with("are ") ||
                          before.ends_with("was ") || before.ends_with("we're "))) {
      continue;
    }
    return true;
  }
  return false;
}

bool SharesWord(std::string_view a, std::string_view b) {
  std::vector<std::string> in_b;
  util::ForEachWordWithValues(b, [&](std::string_view w) {
    if (w.size() >= 5) in_b.emplace_back(w);
  });
  bool shared = false;
  util::ForEachWordWithValues(a, [&](std::string_view w) {
    shared = shared || (w.size() >= 5 && std::find(in_b.begin(), in_b.end(), w) != in_b.end());
  });
  return shared;
}

bool QuotesOutput(std::string_view text) {
  if (!text.starts_with("`")) return false;
  const std::size_t close = text.find('`', 1);
  const std::string quoted = LowerText(text.substr(1, close == std::string_view::npos ? text.npos : close - 1));
  return quoted.size() > 20 && (Has(quoted, "error") || Has(quoted, "exception") || Has(quoted, "failed"));
}

const Cue* StrongestCue(const std::string& lower, std::optional<Role> role) {
  static constexpr Cue kImperative{"an instruction", Role::kWorkaround, 0.5};
  const Cue* best = (!role || *role == Role::kWorkaround) && IsImperative(lower) ? &kImperative : nullptr;
  for (const Cue& c : kCues) {
    if ((role && c.role != *role) || !Has(lower, c.phrase) || (best && c.weight <= best->weight)) continue;
    if (c.role == Role::kWorkaround && c.weight < 0.6 && FirstPerson(lower, c.phrase)) continue;
    best = &c;
  }
  return best;
}

std::string_view HedgeIn(const std::string& lower) {
  for (std::string_view h : kHedges) {
    if (Has(lower, h)) return h;
  }
  return {};
}

}  // namespace kedb::mine
