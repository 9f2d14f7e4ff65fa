// A draft record mined from an issue thread: what `kedb mine` answers.
//
// Mining runs in two halves, because finding error lines and related
// records takes the engine, which this layer sits below:
//   1. ReadPosts splits every post into prose, code and quotes, and gives
//      the text the engine should scan (quotes blanked: they repeat other
//      posts) and the lines the pattern is checked against;
//   2. the caller scans each post and looks up related records
//      (app/mine.h), then BuildDraft puts everything together.
//
// The draft is a native record with verification_tier "mined", and an
// `x_mined` object that says where each field came from (post, author,
// line), the ranked candidates behind it, the environment, links, code
// snippets, the related records and how the pattern was checked. Rates are
// placeholders until outcomes are reported; `kedb lint` says so.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kedb/record.h"
#include "mine/environment.h"
#include "mine/post_parts.h"
#include "mine/signatures.h"
#include "mine/suggestions.h"
#include "mine/thread.h"

namespace kedb::mine {

struct ThreadText {
  std::vector<PostParts> parts;          // per post
  std::vector<std::string> scan_text;    // per post: the body with quoted lines blanked
  std::vector<ThreadLine> output_lines;  // lines of code and program output
  std::vector<ThreadLine> other_lines;   // every line but quotes and blanks (error lines included)
};

ThreadText ReadPosts(const Thread& thread);

// A record the thread is about, as the caller found it.
struct RelatedRecord {
  std::string id;
  std::string signature;
  std::string domain;
  double score = 0;  // the match's confidence, or the search score scaled to [0,1]
  std::string via;   // "pattern", "resemblance" or "search"
};

struct Draft {
  Record record;
  std::string file;  // the record file: FormatRecordFile's layout, x_mined last
  Signatures signatures;
  Candidates candidates;
  std::vector<EnvFact> environment;
  std::vector<RelatedRecord> related;
  std::vector<Link> official_links, related_links;
  double confidence = 0;
};

// `errors`: the error lines the caller's scan found (or SymptomLines when it
// found none, with `from_symptoms`); `related`: best first.
Draft BuildDraft(const Thread& thread, const ThreadText& text, const std::vector<ThreadLine>& errors,
                 bool from_symptoms, std::vector<RelatedRecord> related);

}  // namespace kedb::mine
