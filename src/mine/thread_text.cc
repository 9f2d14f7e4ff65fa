// Threads copied from a tracker as text or Markdown (thread.h): telling
// posts apart without markup that says where one ends.
#include <algorithm>
#include <optional>

#include "mine/post_parts.h"
#include "mine/thread.h"
#include "util/strings.h"

namespace kedb::mine {
namespace {

using util::Trim;

bool LoginChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

// A GitHub login at the start of `s` ("@" optional): its length, or 0.
std::size_t LoginAt(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && n < 39 && LoginChar(s[n])) ++n;
  return n > 0 && s[0] != '-' ? n : 0;
}

std::string_view StripPrefix(std::string_view s, std::string_view p) {
  return s.starts_with(p) ? s.substr(p.size()) : s;
}

// A header a tracker prints over a post, as copied: "alice commented on Jul
// 20, 2020", "**alice** commented:", "### @alice (Member) commented", "##
// @alice". The author and, when the header says it, the association; a
// header naming the thread's author as "Author" marks the reporter.
struct Header {
  std::string author;
  Association association = Association::kUnknown;
  bool author_label = false;
};

std::optional<Header> ReadHeader(std::string_view line) {
  std::string_view t = Trim(line);
  const bool heading = t.starts_with("#");
  while (t.starts_with("#")) t.remove_prefix(1);
  t = Trim(t);
  const bool bold = t.starts_with("**");
  t = StripPrefix(t, "**");
  const bool at = t.starts_with("@");
  t = StripPrefix(t, "@");
  const std::size_t n = LoginAt(t);
  if (n == 0) return std::nullopt;
  Header h;
  h.author = std::string(t.substr(0, n));
  std::string_view rest = Trim(StripPrefix(t.substr(n), "**"));
  // The association GitHub shows beside a name, in parentheses or not.
  for (auto [word, a] : {std::pair{"Member", Association::kMaintainer}, {"Owner", Association::kMaintainer},
                         {"Collaborator", Association::kMaintainer}, {"Contributor", Association::kContributor}}) {
    std::string plain(word), upper(word);
    std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
    for (const std::string& form : {"(" + plain + ")", "(" + upper + ")", plain}) {
      if (rest.starts_with(form)) {
        h.association = a;
        rest = Trim(rest.substr(form.size()));
      }
    }
  }
  for (std::string_view author : {"(Author)", "(AUTHOR)", "Author"}) {
    if (rest.starts_with(author)) {
      h.author_label = true;
      rest = Trim(rest.substr(author.size()));
    }
  }
  // "commented", "commented on Jul 20, 2020", "commented:"; not prose such
  // as "I commented out the line".
  const bool commented = rest == "commented" || rest.starts_with("commented on ") || rest.starts_with("commented:");
  // A heading that only names someone is a header when it says "@"; a plain
  // line needs "commented", or it is prose that starts with a name.
  if (commented || (heading && at && (rest.empty() || rest.starts_with("(")))) return h;
  if (bold && rest.empty()) return h;
  return std::nullopt;
}

bool IsRule(std::string_view line) {
  std::string_view t = Trim(line);
  if (t.size() < 3) return false;
  const char c = t[0];
  return (c == '-' || c == '*' || c == '_') && t.find_first_not_of(c) == std::string_view::npos;
}

// "@szha I've just tested ...": a line that opens by naming someone.
std::string AddressedAt(std::string_view line) {
  if (!line.starts_with("@")) return "";
  const std::size_t n = LoginAt(line.substr(1));
  if (n == 0 || (n + 1 < line.size() && line[n + 1] != ' ' && line[n + 1] != ',' && line[n + 1] != ':')) return "";
  return std::string(line.substr(1, n));
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines = util::SplitLines(text);
  for (std::string_view& line : lines) {
    if (line.ends_with('\r')) line.remove_suffix(1);
  }
  return lines;
}

// GitHub's page repeats its most upvoted reply under "Most helpful
// comment". The copy is dropped; the reply it repeats (the one sharing
// most of its lines) is credited as readers' choice.
void FoldMostHelpful(std::vector<std::string_view> copy, Thread* thread) {
  std::size_t best = 0, best_shared = 0;
  for (std::size_t i = 0; i < thread->posts.size(); ++i) {
    std::size_t shared = 0;
    for (std::string_view line : copy) {
      if (Trim(line).size() >= 20 && thread->posts[i].body.find(Trim(line)) != std::string::npos) ++shared;
    }
    if (shared > best_shared) {
      best = i;
      best_shared = shared;
    }
  }
  if (best_shared > 0) thread->posts[best].reactions.up += 10;
}

}  // namespace

Thread ReadTextThread(std::string_view text) {
  std::vector<std::string_view> lines = Lines(text);
  // Posts are split by headers and rules when the text has any; by lines
  // that address someone otherwise.
  bool marked = false;
  for (std::string_view line : lines) marked |= ReadHeader(line).has_value() || IsRule(line);

  Thread thread;
  thread.posts.emplace_back();
  thread.posts[0].by_reporter = true;
  // A Markdown title ("# Title") heading the text is the thread's title.
  std::size_t first = 0;
  while (first < lines.size() && Trim(lines[first]).empty()) ++first;
  if (first < lines.size() && lines[first].starts_with("# ")) {
    thread.title = std::string(Trim(lines[first].substr(2)));
    lines.erase(lines.begin(), lines.begin() + static_cast<long>(first) + 1);
  }
  const std::vector<bool> in_fence = FencedLines(lines);  // where nothing starts a post
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    const bool fenced = in_fence[i];
    if (!fenced && Trim(line) == "Most helpful comment") {
      FoldMostHelpful({lines.begin() + static_cast<long>(i) + 1, lines.end()}, &thread);
      break;
    }
    Post* current = &thread.posts.back();
    if (!fenced && marked) {
      std::optional<Header> h = ReadHeader(line);
      if (h || IsRule(line)) {
        // A header over the first post names the reporter, not a reply.
        // (Blank lines before it, as under a "# Title", are not a post.)
        if (current->body.find_first_not_of(" \t\r\n") != std::string::npos || !current->author.empty()) {
          thread.posts.emplace_back();
        } else {
          current->body.clear();
        }
        Post& p = thread.posts.back();
        if (h) {
          p.author = h->author;
          p.association = h->association;
          p.by_reporter = h->author_label;
        }
        continue;
      }
    } else if (!fenced) {
      const std::string addressed = AddressedAt(line);
      if (!addressed.empty() && !current->body.empty()) {
        thread.posts.emplace_back();
        // Who the reply names most likely wrote the post it answers.
        Post& answered = thread.posts[thread.posts.size() - 2];
        if (answered.author.empty()) {
          answered.author = addressed;
          answered.author_inferred = true;
        }
        current = &thread.posts.back();
      }
    }
    current->body.append(line);
    current->body.push_back('\n');
  }
  // A guessed name says who was answered, not who wrote the rest of a post
  // that may hold several people's replies: only named authors tell the
  // reporter's replies apart.
  const std::string reporter = thread.posts[0].author_inferred ? "" : thread.posts[0].author;
  for (std::size_t i = 0; i < thread.posts.size(); ++i) {
    Post& p = thread.posts[i];
    p.index = i;
    p.by_reporter = p.by_reporter || i == 0 || (!reporter.empty() && !p.author_inferred && p.author == reporter);
  }
  return thread;
}

}  // namespace kedb::mine
