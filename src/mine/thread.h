// An issue thread as the miner reads it: an opening post and the replies,
// each with who wrote it, how their project knows them and how readers
// received it.
//
// Three inputs give a Thread:
//   - a GitHub issue as the REST API returns it: the issue object
//     (`GET /repos/O/R/issues/N`) and its comments array
//     (`GET .../issues/N/comments`), as two documents, or as one object
//     {"issue": {...}, "comments": [...]};
//   - Markdown or plain text copied from a tracker. Posts are told apart by
//     a header line a tracker prints over each one ("alice commented on Jul
//     20, 2020", "### @alice (MEMBER)", "**alice** commented:") or by a
//     horizontal rule; failing those, a paragraph that opens by naming
//     someone ("@szha I've just tested ...") starts a reply. Authors are
//     known only where a header names them.
// Line numbers are 1-based within the post's body, so a finding can be
// traced back to the comment it came from.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "kedb/status.h"

namespace kedb::mine {

// How the project knows a post's author, as GitHub's author_association
// says it. kMaintainer covers OWNER, MEMBER and COLLABORATOR.
enum class Association { kUnknown, kNone, kContributor, kMaintainer };

struct Reactions {
  int up = 0;        // +1
  int down = 0;      // -1 and confused
  int positive = 0;  // heart, hooray, rocket
};

struct Post {
  std::size_t index = 0;    // 0: the opening post
  std::string author;       // login, or "" when the input does not say
  // Text input only: the author was not named by a header but guessed
  // from a later reply that addresses them ("@szha I've tested ...").
  bool author_inferred = false;
  Association association = Association::kUnknown;
  bool by_reporter = false;  // written by whoever opened the thread
  std::string body;
  Reactions reactions;
  std::string url;           // html_url of the comment, when known
};

struct Thread {
  std::string title;
  std::string url;           // html_url of the issue, when known
  std::string state;         // "open", "closed" or ""
  std::string state_reason;  // "completed", "not_planned" or ""
  std::vector<std::string> labels;
  std::vector<Post> posts;   // posts[0] is the opening post
};

// Reads one document: JSON (a GitHub issue, a comments array, or both in
// one object) or text. A comments array alone gives a thread without an
// opening post's title. Errors name the line and column of bad JSON and
// the field that has the wrong type.
Result<Thread> ReadThread(std::string_view text);

// The GitHub issue object `issue` with the comments array `comments`, each
// one JSON document.
Result<Thread> ReadGitHubIssue(std::string_view issue, std::string_view comments);

// Text or Markdown alone (no JSON detection).
Thread ReadTextThread(std::string_view text);

const char* AssociationName(Association a);  // "maintainer", "contributor", "none", "unknown"

}  // namespace kedb::mine
