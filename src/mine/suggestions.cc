#include "mine/suggestions.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "mine/cues.h"
#include "util/strings.h"

namespace kedb::mine {
namespace {

// A sentence's cue of the other role makes a second candidate when at
// least this strong ("..., because" alone does not).
constexpr double kSecondRoleWeight = 0.6;

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
  if (const std::string_view h = HedgeIn(lower); !h.empty()) {
    c.score *= 0.7;
    c.evidence.push_back(fmt::format("hedged (\"{}\")", h));
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

// Reads a thread's sentences into candidates, then lets the replies and
// the thread's closing judge them (suggestions.h).
class CandidateFinder {
 public:
  CandidateFinder(const Thread& thread, const std::vector<PostParts>& parts) : thread_(thread), parts_(parts) {}

  // A sentence of post `p`: a verdict on an earlier suggestion (and maybe a
  // fix of its own), an attempt that failed, or a proposal by its cues.
  void ReadSentence(std::size_t p, const Sentence& s) {
    const Post& post = thread_.posts[p];
    const std::string lower = LowerText(s.text);
    // "If it still fails, ..." sets a condition; it reports nothing.
    const std::optional<Verdict> verdict = lower.starts_with("if ") ? std::nullopt : VerdictOf(lower);
    const bool worked = verdict == Verdict::kWorked, failed = verdict == Verdict::kFailed;
    const bool tried = SaysTried(lower);
    if (worked || (failed && p > 0)) {
      // "Using 3.11 worked", "`rustup update` fixed it", "I found that
      // removing the hashes fixes it": the fix and its confirmation in one
      // sentence.
      // Inline code alone ("the correct workaround for `typescript@2.0`")
      // may name the version rather than a step: the reply still judges
      // the post it answers.
      const std::size_t code = s.text.find('`');
      const bool names_step = tried || NamesStep(std::string_view(lower).substr(0, code));
      const bool own_fix =
          worked && (names_step || code != std::string::npos || NamesStep(lower)) && s.text.size() >= 16;
      if (p > 0) replies_.push_back({p, &s, worked ? Verdict::kWorked : Verdict::kFailed, tried, own_fix && names_step});
      if (own_fix) {
        Candidate c{Role::kWorkaround, s.text, HowAfter(parts_[p], post.body, s), "", p, s.line, post.author,
                    post.association, post.by_reporter, 0.9, {"the poster reports it worked"}};
        if (p == 0) {
          c.score *= 0.7;  // found before anyone answered; the thread may know better
          c.evidence.push_back("in the opening post");
        }
        all_.push_back(std::move(c));
      }
      return;
    }
    if (failed && tried) {
      SelfReport(p, s);
      return;
    }
    const Cue* cue = StrongestCue(lower);
    if (!cue || s.text.size() < 12) return;
    // "`error ...: The engine "node" is incompatible ...`" is the error
    // quoted, not a view of its cause.
    if (cue->role == Role::kRootCause && QuotesOutput(s.text)) return;
    all_.push_back(Proposal(post, parts_[p], s, lower, *cue));
    // "You need to set X, as the default is Y": a fix and its cause in one
    // sentence, each a candidate of its own.
    const Role other = cue->role == Role::kRootCause ? Role::kWorkaround : Role::kRootCause;
    const Cue* second = StrongestCue(lower, other);
    if (second && second->weight >= kSecondRoleWeight && !(other == Role::kRootCause && QuotesOutput(s.text))) {
      all_.push_back(Proposal(post, parts_[p], s, lower, *second));
    }
  }

  // A reply that gives a command with no sentence proposing it ("```pip
  // install sentencepiece```") proposes that command.
  void AddReplyCommands() {
    for (std::size_t p = 1; p < thread_.posts.size() && p < parts_.size(); ++p) {
      for (const CodeSnippet& code : parts_[p].code) {
        const std::string first = code.text.substr(0, code.text.find('\n'));
        if (!IsFixCommand(first)) continue;
        const bool said = std::any_of(all_.begin(), all_.end(), [&](const Candidate& c) {
          return c.post == p && (c.how == code.text.substr(0, c.how.size()) || c.text.find(first) != std::string::npos);
        });
        if (!said) all_.push_back(CommandProposal(thread_.posts[p], code, first));
      }
    }
  }

  // Replies judge the strongest suggestion of the post they answer.
  void ApplyVerdicts() {
    for (const Reply& reply : replies_) {
      const std::size_t answered = AnsweredPost(thread_, reply.post);
      Candidate* target = nullptr;
      for (Candidate& c : all_) {
        if (c.post == answered && c.role == Role::kWorkaround && (!target || c.score > target->score)) target = &c;
      }
      if (!target) {
        // Nothing proposed to judge (or already judged): the reply's own attempt.
        if (reply.verdict == Verdict::kFailed && reply.tried) SelfReport(reply.post, *reply.sentence);
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
  }

  // A thread closed as done was most likely closed by what its last posts say.
  void CreditTheClosing() {
    if (thread_.state != "closed" || thread_.state_reason == "not_planned") return;
    for (Candidate& c : all_) {
      if (c.role == Role::kWorkaround && c.post + 2 >= thread_.posts.size()) {
        c.score *= 1.3;
        c.evidence.push_back("the thread was closed as completed after it");
      }
    }
  }

  // Each role's candidates, best first, each text once.
  Candidates Ranked() {
    Candidates out;
    std::stable_sort(all_.begin(), all_.end(), [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    for (Candidate& c : all_) {
      auto& list = c.role == Role::kRootCause ? out.root_causes : c.role == Role::kWorkaround ? out.workarounds : out.dead_ends;
      const bool repeat = std::any_of(list.begin(), list.end(), [&](const Candidate& o) { return o.text == c.text; });
      if (!repeat) list.push_back(std::move(c));
    }
    return out;
  }

 private:
  // A verdict to apply once every post's candidates are known.
  struct Reply {
    std::size_t post;
    const Sentence* sentence;
    Verdict verdict;
    bool tried;    // the reply says what its poster did
    bool own_fix;  // ... and that it worked: a candidate of its own
  };

  // "I tried X, but it didn't help": a dead end in one sentence.
  void SelfReport(std::size_t p, const Sentence& s) {
    const Post& post = thread_.posts[p];
    all_.push_back(Candidate{Role::kDeadEnd, s.text, "", s.text, p, s.line, post.author, post.association,
                             post.by_reporter, 1.0, {"the poster tried it and it failed"}});
  }

  static Candidate CommandProposal(const Post& post, const CodeSnippet& code, const std::string& first) {
    Candidate c;
    c.role = Role::kWorkaround;
    c.text = first;
    c.how = code.text.substr(0, 600);
    while (!c.how.empty() && c.how.back() == '\n') c.how.pop_back();
    c.post = post.index;
    c.line = code.line;
    c.author = post.author;
    c.association = post.association;
    c.by_reporter = post.by_reporter;
    c.evidence.push_back("a command given in a reply");
    c.score = 0.4 * AuthorWeight(post, Role::kWorkaround, &c.evidence);
    return c;
  }

  const Thread& thread_;
  const std::vector<PostParts>& parts_;
  std::vector<Candidate> all_;
  std::vector<Reply> replies_;
};

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
  CandidateFinder finder(thread, parts);
  for (std::size_t p = 0; p < thread.posts.size() && p < parts.size(); ++p) {
    for (const Sentence& s : parts[p].sentences) finder.ReadSentence(p, s);
  }
  finder.AddReplyCommands();
  finder.ApplyVerdicts();
  finder.CreditTheClosing();
  return finder.Ranked();
}

}  // namespace kedb::mine
