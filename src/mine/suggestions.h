// Root causes, workarounds and dead ends proposed in a thread, ranked.
//
// A sentence becomes a candidate by its cue phrases: "the reason is",
// "caused by", "the problem here is" (a cause); "workaround", "fixed by",
// "you can", "try", "setting" (a fix); hedges ("I suspect", "maybe") and
// questions weigh less. Then the thread's own judgement ranks them:
//   - who said it: a maintainer (OWNER, MEMBER, COLLABORATOR) over a
//     contributor over anyone else; the reporter's own cause is a guess,
//     but "I fixed it by ..." from the reporter is strong;
//   - how it was received: reactions on its post, a later reply saying it
//     worked ("thanks, that fixed it", "works for me"), the thread closed
//     as completed after it, a pull request or "fixed in #NNNN";
//   - a later reply saying a suggestion did not help ("it has the same
//     problem", "still fails", "didn't help") turns that suggestion into a
//     dead end, with the reply as why_fails. The reply answers the post it
//     names ("@alice ...") or else the one before it.
// Each candidate keeps the evidence its rank rests on, so a curator sees
// why it came first.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "mine/post_parts.h"
#include "mine/thread.h"

namespace kedb::mine {

enum class Role { kRootCause, kWorkaround, kDeadEnd };
const char* RoleName(Role role);  // "root_cause", "workaround", "dead_end"

struct Candidate {
  Role role = Role::kRootCause;
  std::string text;       // the sentence; for a dead end, the suggestion that failed
  std::string how;        // a workaround's command or code, when the post gives one right after it
  std::string why_fails;  // dead ends: the reply that says it did not help
  std::size_t post = 0, line = 0;  // where `text` is
  std::string author;
  Association association = Association::kUnknown;
  bool by_reporter = false;
  double score = 0;
  std::vector<std::string> evidence;  // "cue \"the reason is\"", "maintainer", "confirmed in post 5", ...
};

struct Candidates {
  // Each best first.
  std::vector<Candidate> root_causes;
  std::vector<Candidate> workarounds;
  std::vector<Candidate> dead_ends;
};

// `parts[i]` is SplitPost(thread.posts[i].body).
Candidates FindCandidates(const Thread& thread, const std::vector<PostParts>& parts);

}  // namespace kedb::mine
