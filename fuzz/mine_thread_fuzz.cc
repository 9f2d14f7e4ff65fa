// Feeds the input to the miner as a thread (text, Markdown or GitHub JSON)
// and drafts a record from it, without an engine: error lines are the
// output lines that say something failed, else the symptom lines.
//
// A bug is a crash, a sanitizer report, an exception, or a broken promise:
//   - ReadThread either fails with a message or gives posts numbered in
//     order, the first by the reporter;
//   - every sentence and snippet points at a line of its post;
//   - the draft file is JSON that reads back as a record without an error
//     (a draft is always a record a curator can load and lint), with
//     verification_tier "mined" and a confidence in [0, 0.7];
//   - a pattern the draft says it checked compiles.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "mine/draft.h"
#include "mine/model_answer.h"
#include "record/json_text.h"
#include "record/record_parse.h"
#include "regex/pcre2_regex.h"

namespace {

std::size_t LineCount(const std::string& body) {
  std::size_t n = 0;
  for (char c : body) n += c == '\n';
  return n + (body.empty() || body.back() == '\n' ? 0 : 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto read = kedb::mine::ReadThread(text);
  if (!read.ok()) {
    FUZZ_CHECK(!read.status().message().empty());
    return 0;
  }
  const kedb::mine::Thread& thread = read.value();
  FUZZ_CHECK(!thread.posts.empty());
  FUZZ_CHECK(thread.posts[0].by_reporter);
  for (std::size_t i = 0; i < thread.posts.size(); ++i) FUZZ_CHECK(thread.posts[i].index == i);

  const kedb::mine::ThreadText posts = kedb::mine::ReadPosts(thread);
  FUZZ_CHECK(posts.parts.size() == thread.posts.size());
  for (std::size_t p = 0; p < posts.parts.size(); ++p) {
    const std::size_t lines = LineCount(thread.posts[p].body);
    for (const auto& s : posts.parts[p].sentences) FUZZ_CHECK(s.line >= 1 && s.line <= lines);
    for (const auto& c : posts.parts[p].code) FUZZ_CHECK(c.line >= 1 && c.line <= lines + 1);
  }

  std::vector<kedb::mine::ThreadLine> errors = kedb::mine::FailureLines(posts.output_lines);
  const bool symptoms = errors.empty();
  if (symptoms) errors = kedb::mine::SymptomLines(posts.output_lines);
  kedb::mine::Draft draft = kedb::mine::BuildDraft(thread, posts, errors, symptoms, {});

  kedb::Json doc;
  FUZZ_CHECK(kedb::ParseJson(draft.file, kedb::JsonLimits{}, &doc).ok());
  kedb::Record record;
  std::vector<kedb::FieldIssue> issues;
  FUZZ_CHECK(kedb::RecordFromJson(doc, &record, &issues));
  FUZZ_CHECK(record.verification_tier == "mined");
  FUZZ_CHECK(record.confidence && *record.confidence >= 0 && *record.confidence <= 0.7);
  if (!draft.signatures.regex.empty()) FUZZ_CHECK(kedb::regex::CompilePython(draft.signatures.regex).ok());
  FUZZ_CHECK(!kedb::mine::ModelPrompt(thread, draft).empty());
  return 0;
}
