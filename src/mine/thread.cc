#include "mine/thread.h"

#include <algorithm>

#include <fmt/format.h>

#include "record/json_text.h"
#include "util/strings.h"

namespace kedb::mine {
namespace {

// --- GitHub's JSON -----------------------------------------------------------

// Reads the optional field `key` of `obj` as a string: "" when absent or
// null, an error naming `where.key` when it holds anything else.
Status StringField(const Json& obj, const char* key, const std::string& where, std::string* out) {
  out->clear();
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return Status::Ok();
  if (!it->is_string()) return Status::InvalidArgument("expected a string").In(where + key);
  *out = it->get<std::string>();
  return Status::Ok();
}

Association AssociationOf(std::string_view s) {
  if (s == "OWNER" || s == "MEMBER" || s == "COLLABORATOR") return Association::kMaintainer;
  if (s == "CONTRIBUTOR") return Association::kContributor;
  if (s.empty()) return Association::kUnknown;
  return Association::kNone;  // NONE, FIRST_TIMER, FIRST_TIME_CONTRIBUTOR, MANNEQUIN
}

Reactions ReactionsOf(const Json& obj) {
  Reactions r;
  auto it = obj.find("reactions");
  if (it == obj.end() || !it->is_object()) return r;
  auto count = [&](const char* key) {
    auto c = it->find(key);
    return c != it->end() && c->is_number_integer() ? c->get<int>() : 0;
  };
  r.up = count("+1");
  r.down = count("-1") + count("confused");
  r.positive = count("heart") + count("hooray") + count("rocket");
  return r;
}

// One issue or comment object as a post; `where` prefixes field names in
// errors ("comments[3].").
Status ReadPost(const Json& obj, const std::string& where, Post* post) {
  if (!obj.is_object()) return Status::InvalidArgument("expected an object").In(where.substr(0, where.size() - 1));
  if (Status s = StringField(obj, "body", where, &post->body); !s.ok()) return s;
  if (Status s = StringField(obj, "html_url", where, &post->url); !s.ok()) return s;
  std::string association;
  if (Status s = StringField(obj, "author_association", where, &association); !s.ok()) return s;
  post->association = AssociationOf(association);
  auto user = obj.find("user");
  if (user != obj.end() && !user->is_null()) {
    if (!user->is_object()) return Status::InvalidArgument("expected an object").In(where + "user");
    if (Status s = StringField(*user, "login", where + "user.", &post->author); !s.ok()) return s;
  }
  post->reactions = ReactionsOf(obj);
  return Status::Ok();
}

Status ReadIssue(const Json& issue, const std::string& where, Thread* thread) {
  Post post;
  if (Status s = ReadPost(issue, where, &post); !s.ok()) return s;
  if (Status s = StringField(issue, "title", where, &thread->title); !s.ok()) return s;
  if (Status s = StringField(issue, "state", where, &thread->state); !s.ok()) return s;
  if (Status s = StringField(issue, "state_reason", where, &thread->state_reason); !s.ok()) return s;
  thread->url = post.url;
  if (auto labels = issue.find("labels"); labels != issue.end() && labels->is_array()) {
    for (const Json& l : *labels) {
      if (l.is_string()) thread->labels.push_back(l.get<std::string>());
      if (l.is_object() && l.contains("name") && l["name"].is_string()) thread->labels.push_back(l["name"]);
    }
  }
  post.by_reporter = true;
  thread->posts.insert(thread->posts.begin(), std::move(post));
  return Status::Ok();
}

Status ReadComments(const Json& comments, const std::string& where, Thread* thread) {
  if (!comments.is_array()) return Status::InvalidArgument("expected an array of comments").In(where);
  for (std::size_t i = 0; i < comments.size(); ++i) {
    Post post;
    if (Status s = ReadPost(comments[i], fmt::format("{}[{}].", where, i), &post); !s.ok()) return s;
    thread->posts.push_back(std::move(post));
  }
  return Status::Ok();
}

// Numbers the posts and marks the reporter's replies.
void Finish(Thread* thread) {
  const std::string reporter = thread->posts.empty() ? "" : thread->posts[0].author;
  for (std::size_t i = 0; i < thread->posts.size(); ++i) {
    Post& p = thread->posts[i];
    p.index = i;
    p.by_reporter = i == 0 || (!reporter.empty() && p.author == reporter);
  }
}

Result<Json> Parse(std::string_view text) {
  Json doc;
  if (Status s = ParseJson(text, JsonLimits{.max_depth = 64, .max_string_bytes = 64u << 20}, &doc); !s.ok()) return s;
  return doc;
}

bool LooksLikeJson(std::string_view text) {
  const std::size_t at = text.find_first_not_of(" \t\r\n");
  return at != std::string_view::npos && (text[at] == '{' || text[at] == '[');
}

}  // namespace

Result<Thread> ReadThread(std::string_view text) {
  if (!LooksLikeJson(text)) return ReadTextThread(text);
  Result<Json> doc = Parse(text);
  if (!doc.ok()) return doc.status();
  Thread thread;
  const Json& d = doc.value();
  if (d.is_array()) {
    if (Status s = ReadComments(d, "", &thread); !s.ok()) return s;
  } else if (d.contains("issue")) {
    if (Status s = ReadIssue(d["issue"], "issue.", &thread); !s.ok()) return s;
    if (d.contains("comments")) {
      if (Status s = ReadComments(d["comments"], "comments", &thread); !s.ok()) return s;
    }
  } else if (d.contains("body") || d.contains("title")) {
    if (Status s = ReadIssue(d, "", &thread); !s.ok()) return s;
  } else {
    return Status::InvalidArgument(
        "not a GitHub issue: expected an issue object (\"title\", \"body\"), a comments array, or "
        "{\"issue\": ..., \"comments\": [...]}");
  }
  Finish(&thread);
  return thread;
}

// The same failure, saying which of two documents it is in.
Status InDocument(const char* which, const Status& s) {
  Status named = Status::InvalidArgument(fmt::format("{}: {}", which, s.message()));
  if (s.offset() != Status::kNoOffset) named = std::move(named).At(s.offset());
  if (!s.field().empty()) named = std::move(named).In(s.field());
  return named;
}

Result<Thread> ReadGitHubIssue(std::string_view issue, std::string_view comments) {
  Result<Json> i = Parse(issue);
  if (!i.ok()) return InDocument("the issue", i.status());
  Result<Json> c = Parse(comments);
  if (!c.ok()) return InDocument("the comments", c.status());
  Thread thread;
  if (Status s = ReadIssue(i.value(), "", &thread); !s.ok()) return InDocument("the issue", s);
  if (Status s = ReadComments(c.value(), "", &thread); !s.ok()) return InDocument("the comments", s);
  Finish(&thread);
  return thread;
}

const char* AssociationName(Association a) {
  switch (a) {
    case Association::kMaintainer: return "maintainer";
    case Association::kContributor: return "contributor";
    case Association::kNone: return "none";
    case Association::kUnknown: break;
  }
  return "unknown";
}

}  // namespace kedb::mine
