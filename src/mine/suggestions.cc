#include "mine/suggestions.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "util/strings.h"

namespace kedb::mine {
namespace {

struct Cue {
  std::string_view phrase;  // lower case
  Role role;
  double weight;
};

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

enum class Verdict { kWorked, kFailed };

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

// A sentence's cue of the other role makes a second candidate when at
// least this strong ("..., because" alone does not).
constexpr double kSecondRoleWeight = 0.6;

constexpr std::string_view kHedges[] = {"i suspect", "maybe", "perhaps", "not sure", "i guess", "i think",
                                        "probably", "might be", "could be"};

std::string Lower(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    // Typographic apostrophes, as pasted text has them, read as ASCII ones.
    if (s.substr(i, 3) == "\xE2\x80\x99") {
      out.push_back('\'');
      i += 2;
      continue;
    }
    const char c = s[i];
    out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c);
  }
  return out;
}

bool Has(const std::string& lower, std::string_view phrase) { return lower.find(phrase) != std::string::npos; }

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

std::optional<Verdict> VerdictOf(const std::string& lower) {
  for (auto [phrase, verdict] : kVerdicts) {
    if (Has(lower, phrase)) return verdict;
  }
  if (SaysUnchanged(lower)) return Verdict::kFailed;
  return std::nullopt;
}

// "I tried X", "Tried the barrier", "I set timeout=...", "Upgraded, and
// ...": the poster reports doing something.
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

// A command that changes something, as a fix is given: a tool and what it
// is told to do ("pip install -U x", "helm rollback radarr 14", "rustup
// update"), not a query ("conda version", "pip list").
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

// Whether a sentence names what was done: inline code, or a gerund of
// doing ("using 3.11", "removing the version hashes", "pinning numpy").
bool NamesAction(std::string_view text, const std::string& lower) {
  if (text.find('`') != std::string_view::npos) return true;
  static constexpr std::string_view kDoing[] = {"using ",     "updating ",  "installing ", "upgrading ", "downgrading ",
                                                "switching ", "pinning ",   "running ",    "removing ",  "adding ",
                                                "setting ",   "changing ",  "deleting ",   "reinstalling ", "replacing ",
                                                // "It works now after I upgraded to Node.js 20."
                                                "upgraded ",  "updated ",   "downgraded ", "switched ",   "reinstalled ",
                                                "removed ",   "pinned ",    "replaced ",   "changed "};
  for (std::string_view d : kDoing) {
    const std::size_t at = lower.find(d);
    if (at == std::string::npos || (at > 0 && lower[at - 1] != ' ')) continue;
    // "I am using a Mac M1 and it worked" says what the poster has.
    const std::string_view before = std::string_view(lower).substr(0, at);
    if (d == "using " && (before.ends_with("am ") || before.ends_with("i'm ") || before.ends_with("are ") ||
                          before.ends_with("was ") || before.ends_with("we're "))) {
      continue;
    }
    return true;
  }
  return false;
}

// Whether two texts share a word of five letters or more (case aside):
// a reply and the suggestion it names.
bool SharesWord(std::string_view a, std::string_view b) {
  auto words = [](std::string_view t) {
    std::vector<std::string> out;
    std::string w;
    for (std::size_t i = 0; i <= t.size(); ++i) {
      const bool letter = i < t.size() && (std::isalnum(static_cast<unsigned char>(t[i])) || t[i] == '_' || t[i] == '-');
      if (letter) {
        w.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(t[i]))));
      } else {
        if (w.size() >= 5) out.push_back(w);
        w.clear();
      }
    }
    return out;
  };
  const std::vector<std::string> in_b = words(b);
  for (const std::string& w : words(a)) {
    if (std::find(in_b.begin(), in_b.end(), w) != in_b.end()) return true;
  }
  return false;
}

// A sentence that opens with a program's message in inline code.
bool QuotesOutput(std::string_view text) {
  if (!text.starts_with("`")) return false;
  const std::size_t close = text.find('`', 1);
  const std::string quoted = Lower(text.substr(1, close == std::string_view::npos ? text.npos : close - 1));
  return quoted.size() > 20 && (Has(quoted, "error") || Has(quoted, "exception") || Has(quoted, "failed"));
}

// The sentence's strongest cue, of `role` only when one is given.
const Cue* StrongestCue(const std::string& lower, std::optional<Role> role = std::nullopt) {
  static constexpr Cue kImperative{"an instruction", Role::kWorkaround, 0.5};
  const Cue* best = (!role || *role == Role::kWorkaround) && IsImperative(lower) ? &kImperative : nullptr;
  for (const Cue& c : kCues) {
    if ((role && c.role != *role) || !Has(lower, c.phrase) || (best && c.weight <= best->weight)) continue;
    if (c.role == Role::kWorkaround && c.weight < 0.6 && FirstPerson(lower, c.phrase)) continue;
    best = &c;
  }
  return best;
}

double AuthorWeight(const Post& post, Role role, std::vector<std::string>* evidence) {
  double w = 1.0;
  if (post.association == Association::kMaintainer) {
    w = 1.5;
    evidence->push_back("said by a maintainer");
  } else if (post.association == Association::kContributor) {
    w = 1.2;
    evidence->push_back("said by a contributor");
  }
  if (post.by_reporter && (post.index > 0 || role == Role::kRootCause)) {
    // The reporter's cause is a guess (in the report itself, often the
    // error restated); the reporter's own fix is tried.
    w *= role == Role::kWorkaround ? 1.3 : 0.8;
    evidence->push_back("said by the reporter");
  }
  return w;
}

// The code snippet right under the sentence's line, as its `how`; for a
// sentence that ends in a colon ("I resolved it by adding:"), the line
// after it whatever it is.
std::string HowAfter(const PostParts& parts, std::string_view body, const Sentence& s) {
  for (const CodeSnippet& c : parts.code) {
    if (c.line > s.line && c.line <= s.line + 2) {
      std::string text = c.text.substr(0, 600);
      while (!text.empty() && text.back() == '\n') text.pop_back();
      return text;
    }
  }
  if (!s.text.ends_with(":")) return "";
  return std::string(util::NextNonBlankLine(body, s.line).substr(0, 600));
}

// A sentence proposing a cause or a fix (by `cue`), scored by who said it,
// how surely, and how readers took its post.
Candidate Proposal(const Post& post, const PostParts& parts, const Sentence& s, const std::string& lower,
                   const Cue& cue) {
  Candidate c;
  c.role = cue.role;
  c.text = s.text;
  c.post = post.index;
  c.line = s.line;
  c.author = post.author;
  c.association = post.association;
  c.by_reporter = post.by_reporter;
  c.evidence.push_back(fmt::format("cue \"{}\"", cue.phrase));
  c.score = cue.weight * AuthorWeight(post, cue.role, &c.evidence);
  if (post.index == 0 && c.role == Role::kWorkaround) {
    c.score *= 0.5;  // the report's own steps and attempts, not a fix it found
    c.evidence.push_back("in the opening post");
  }
  for (std::string_view h : kHedges) {
    if (Has(lower, h)) {
      c.score *= 0.7;
      c.evidence.push_back(fmt::format("hedged (\"{}\")", h));
      break;
    }
  }
  if (s.text.ends_with("?")) {
    c.score *= 0.6;
    c.evidence.push_back("asked, not stated");
  }
  const Reactions& r = post.reactions;
  if (r.up + r.positive > 0) {
    c.score *= 1 + 0.25 * std::log2(1.0 + r.up + r.positive);
    c.evidence.push_back(fmt::format("{} approving reaction(s) on its post", r.up + r.positive));
  }
  if (r.down > 0) {
    c.score /= 1 + 0.25 * r.down;
    c.evidence.push_back(fmt::format("{} disapproving reaction(s) on its post", r.down));
  }
  if (c.role == Role::kWorkaround) {
    c.how = HowAfter(parts, post.body, s);
    // A step one can take as written ("Try `./update.sh`") over advice.
    if (!c.how.empty() || s.text.find('`') != std::string::npos) {
      c.score *= 1.2;
      c.evidence.push_back("names a concrete step");
    }
  }
  return c;
}

// The post a reply answers: the latest earlier post by the one it names
// first ("@alice ..."), else the post before it.
std::size_t AnsweredPost(const Thread& thread, std::size_t reply) {
  const std::string& body = thread.posts[reply].body;
  if (body.starts_with("@")) {
    std::size_t n = 1;
    while (n < body.size() && (std::isalnum(static_cast<unsigned char>(body[n])) || body[n] == '-' || body[n] == '_')) ++n;
    const std::string named = body.substr(1, n - 1);
    for (std::size_t i = reply; i-- > 0;) {
      if (thread.posts[i].author == named) return i;
    }
  }
  return reply - 1;
}

}  // namespace

const char* RoleName(Role role) {
  switch (role) {
    case Role::kRootCause: return "root_cause";
    case Role::kWorkaround: return "workaround";
    case Role::kDeadEnd: break;
  }
  return "dead_end";
}

Candidates FindCandidates(const Thread& thread, const std::vector<PostParts>& parts) {
  std::vector<Candidate> all;
  // Verdicts to apply once every post's candidates are known: (reply post,
  // sentence, verdict).
  struct Reply {
    std::size_t post;
    const Sentence* sentence;
    Verdict verdict;
    bool tried;     // the reply says what its poster did
    bool own_fix;   // ... and that it worked: a candidate of its own
  };
  auto self_report = [&](std::size_t p, const Sentence& s) {
    const Post& post = thread.posts[p];
    // "I tried X, but it didn't help": a dead end in one sentence.
    all.push_back(Candidate{Role::kDeadEnd, s.text, "", s.text, p, s.line, post.author, post.association,
                            post.by_reporter, 1.0, {"the poster tried it and it failed"}});
  };
  std::vector<Reply> replies;
  for (std::size_t p = 0; p < thread.posts.size() && p < parts.size(); ++p) {
    const Post& post = thread.posts[p];
    for (const Sentence& s : parts[p].sentences) {
      const std::string lower = Lower(s.text);
      // "If it still fails, ..." sets a condition; it reports nothing.
      std::optional<Verdict> verdict = lower.starts_with("if ") ? std::nullopt : VerdictOf(lower);
      const bool tried = SaysTried(lower);
      if (verdict && (p > 0 || *verdict == Verdict::kWorked)) {
        // "Using 3.11 worked", "`rustup update` fixed it", "I found that
        // removing the hashes fixes it": the fix and its confirmation in one
        // sentence.
        const bool own_fix = *verdict == Verdict::kWorked && (tried || NamesAction(s.text, lower)) && s.text.size() >= 16;
        // Inline code alone ("the correct workaround for `typescript@2.0`")
        // may name the version rather than a step: the reply still judges
        // the post it answers.
        const bool names_step = tried || NamesAction(s.text.substr(0, s.text.find('`')), lower.substr(0, s.text.find('`')));
        if (p > 0) replies.push_back({p, &s, *verdict, tried, own_fix && names_step});
        if (own_fix) {
          Candidate c{Role::kWorkaround, s.text, HowAfter(parts[p], post.body, s), "", p, s.line, post.author,
                      post.association, post.by_reporter, 0.9, {"the poster reports it worked"}};
          if (p == 0) {
            c.score *= 0.7;  // found before anyone answered; the thread may know better
            c.evidence.push_back("in the opening post");
          }
          all.push_back(std::move(c));
        }
        continue;
      }
      if (verdict == Verdict::kFailed && tried) {
        self_report(p, s);
        continue;
      }
      const Cue* cue = StrongestCue(lower);
      if (!cue || s.text.size() < 12) continue;
      // "`error ...: The engine "node" is incompatible ...`" is the error
      // quoted, not a view of its cause.
      if (cue->role == Role::kRootCause && QuotesOutput(s.text)) continue;
      all.push_back(Proposal(post, parts[p], s, lower, *cue));
      // "You need to set X, as the default is Y": a fix and its cause in one
      // sentence, each a candidate of its own.
      const Role other = cue->role == Role::kRootCause ? Role::kWorkaround : Role::kRootCause;
      const Cue* second = StrongestCue(lower, other);
      if (second && second->weight >= kSecondRoleWeight && !(other == Role::kRootCause && QuotesOutput(s.text))) {
        all.push_back(Proposal(post, parts[p], s, lower, *second));
      }
    }
  }

  // A reply that gives a command with no sentence proposing it ("```pip
  // install sentencepiece```") proposes that command.
  for (std::size_t p = 1; p < thread.posts.size() && p < parts.size(); ++p) {
    const Post& post = thread.posts[p];
    for (const CodeSnippet& code : parts[p].code) {
      const std::string first = code.text.substr(0, code.text.find('\n'));
      if (!IsFixCommand(first)) continue;
      const bool said = std::any_of(all.begin(), all.end(), [&](const Candidate& c) {
        return c.post == p && (c.how == code.text.substr(0, c.how.size()) || c.text.find(first) != std::string::npos);
      });
      if (said) continue;
      Candidate c;
      c.role = Role::kWorkaround;
      c.text = first;
      c.how = code.text.substr(0, 600);
      while (!c.how.empty() && c.how.back() == '\n') c.how.pop_back();
      c.post = p;
      c.line = code.line;
      c.author = post.author;
      c.association = post.association;
      c.by_reporter = post.by_reporter;
      c.evidence.push_back("a command given in a reply");
      c.score = 0.4 * AuthorWeight(post, Role::kWorkaround, &c.evidence);
      all.push_back(std::move(c));
    }
  }

  // Replies judge the strongest suggestion of the post they answer.
  for (const Reply& reply : replies) {
    const std::size_t answered = AnsweredPost(thread, reply.post);
    Candidate* target = nullptr;
    for (Candidate& c : all) {
      if (c.post == answered && c.role == Role::kWorkaround && (!target || c.score > target->score)) target = &c;
    }
    if (!target) {
      // Nothing proposed to judge (or already judged): the reply's own attempt.
      if (reply.verdict == Verdict::kFailed && reply.tried) self_report(reply.post, *reply.sentence);
      continue;
    }
    // "It works now after I upgraded to 2.1" credits what it names, not
    // whatever the post before proposed.
    if (reply.own_fix && !SharesWord(reply.sentence->text, target->text + " " + target->how)) continue;
    if (reply.verdict == Verdict::kWorked) {
      target->score *= 2;
      target->evidence.push_back(fmt::format("reported to work in post {}", reply.post));
    } else {
      target->role = Role::kDeadEnd;
      target->why_fails = reply.sentence->text;
      // Tried by someone and reported back: firmer than a poster's own
      // "I tried X, it didn't help", however tentatively it was offered.
      target->score = std::max(target->score, 1.0) * 1.2;
      target->evidence.push_back(fmt::format("reported not to help in post {}", reply.post));
    }
  }

  // A thread closed as done was most likely closed by what its last posts say.
  const bool completed = thread.state == "closed" && thread.state_reason != "not_planned";
  for (Candidate& c : all) {
    if (completed && c.role == Role::kWorkaround && c.post + 2 >= thread.posts.size()) {
      c.score *= 1.3;
      c.evidence.push_back("the thread was closed as completed after it");
    }
  }

  Candidates out;
  std::stable_sort(all.begin(), all.end(), [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
  for (Candidate& c : all) {
    auto& list = c.role == Role::kRootCause ? out.root_causes : c.role == Role::kWorkaround ? out.workarounds : out.dead_ends;
    const bool repeat = std::any_of(list.begin(), list.end(), [&](const Candidate& o) { return o.text == c.text; });
    if (!repeat) list.push_back(std::move(c));
  }
  return out;
}

}  // namespace kedb::mine
