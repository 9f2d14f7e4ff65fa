#include "app/mine.h"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "mine/draft.h"
#include "mine/model_answer.h"
#include "record/json_text.h"
#include "util/strings.h"

namespace kedb::app {
namespace {

constexpr std::size_t kMaxRelated = 8;
constexpr std::size_t kSearchRelated = 5;
// A search hit counts for less than a pattern or a resemblance: its score
// is scaled to at most this.
constexpr double kSearchWeight = 0.5;

// "line 3, column 14: ..." for a document that failed to read.
std::string Located(const std::vector<std::string>& documents, const Status& s) {
  std::string where;
  if (s.offset() != Status::kNoOffset) {
    // The failing document is the last one when the message does not say.
    const std::string& doc = s.message().starts_with("the issue") ? documents.front() : documents.back();
    LineColumn lc = OffsetToLineColumn(doc, s.offset());
    where = fmt::format("line {}, column {}: ", lc.line, lc.column);
  }
  std::string field = s.field().empty() ? "" : fmt::format(" (field {})", s.field());
  return where + s.message() + field;
}

void AddRelated(mine::RelatedRecord r, std::vector<mine::RelatedRecord>* out) {
  auto it = std::find_if(out->begin(), out->end(), [&](const mine::RelatedRecord& o) { return o.id == r.id; });
  if (it == out->end()) {
    out->push_back(std::move(r));
  } else if (r.score > it->score) {
    *it = std::move(r);
  }
}

void AddMatches(const std::vector<Match>& matches, std::vector<mine::RelatedRecord>* out) {
  for (const Match& m : matches) {
    AddRelated({m.record->id, m.record->signature, m.record->domain, m.confidence,
                m.kind == MatchKind::kRegex ? "pattern" : "resemblance"},
               out);
  }
}

// "RuntimeError:" with its message on the next line, as some libraries
// print it: the two lines as one.
std::string WithMessage(std::string_view post, const ErrorBlock& b) {
  std::string line = b.decisive;
  if (!line.ends_with(":")) return line;
  const std::string_view next = util::NextNonBlankLine(post, b.decisive_line);
  return next.empty() ? line : line + " " + std::string(next);
}

// Scans each post as a log: the decisive line of each error block (a
// failed step's exit status aside) is an error line of the thread.
std::vector<mine::ThreadLine> ScanPosts(const Engine& engine, const mine::ThreadText& text,
                                        std::vector<mine::RelatedRecord>* related) {
  std::vector<mine::ThreadLine> errors;
  ScanOptions options;
  options.match.top = 3;
  for (std::size_t p = 0; p < text.scan_text.size(); ++p) {
    std::istringstream in(text.scan_text[p]);
    ScanResult result;
    if (!engine.Scan(in, options, &result).ok()) continue;  // a string stream does not fail
    for (const ErrorBlock& b : result.blocks) {
      if (b.kind == BlockKind::kStep) continue;
      const bool weak = b.kind == BlockKind::kErrorLine || b.kind == BlockKind::kMatch;
      errors.push_back({WithMessage(text.scan_text[p], b), p, b.decisive_line, weak ? 1 : 2});
      AddMatches(b.matches, related);
    }
  }
  return errors;  // in root-first order; MineThread puts them in thread order
}

// What the thread is about in words: its title, else the opening post's
// first sentences; and its first error line.
std::string SearchQueryFor(const mine::Thread& thread, const mine::ThreadText& text,
                           const std::vector<mine::ThreadLine>& errors) {
  std::string q = thread.title;
  if (q.empty() && !text.parts.empty()) {
    for (std::size_t i = 0; i < text.parts[0].sentences.size() && i < 2; ++i) (q += ' ') += text.parts[0].sentences[i].text;
  }
  if (!errors.empty()) (q += ' ') += errors[0].text;
  return q;
}

}  // namespace

Result<mine::Draft> DraftFromThread(const Engine& engine, const std::vector<std::string>& documents, mine::Thread* thread_out) {
  std::size_t bytes = 0;
  for (const std::string& d : documents) bytes += d.size();
  if (documents.empty() || documents.size() > 2) {
    return Status::InvalidArgument("give one thread, or a GitHub issue and its comments");
  }
  if (bytes > kMaxThreadBytes) {
    return Status::InvalidArgument(
        fmt::format("the thread is {} bytes; the most mined at once is {}", bytes, kMaxThreadBytes));
  }
  Result<mine::Thread> read = documents.size() == 2 ? mine::ReadGitHubIssue(documents[0], documents[1])
                                                      : mine::ReadThread(documents[0]);
  if (!read.ok()) return Status::InvalidArgument(Located(documents, read.status()));
  *thread_out = std::move(read).value();
  const mine::Thread& thread = *thread_out;
  const mine::ThreadText text = mine::ReadPosts(thread);

  std::vector<mine::RelatedRecord> related;
  std::vector<mine::ThreadLine> errors = ScanPosts(engine, text, &related);
  // Output lines that say something failed stand beside the blocks (a tool
  // prints its message under a header the scan takes for the error:
  // webpack's "ERROR in ./src/x.ts 26:26-41"); lines that recur and say
  // something is wrong (a NaN, a False) when there is nothing else.
  for (mine::ThreadLine& f : mine::FailureLines(text.output_lines)) {
    const bool known = std::any_of(errors.begin(), errors.end(), [&](const mine::ThreadLine& e) {
      return e.post == f.post && e.line == f.line;
    });
    if (!known) errors.push_back(std::move(f));
  }
  // Blocks come root first; the thread reads in order.
  std::stable_sort(errors.begin(), errors.end(), [](const mine::ThreadLine& a, const mine::ThreadLine& b) {
    return a.post != b.post ? a.post < b.post : a.line < b.line;
  });
  const bool from_symptoms = errors.empty();
  if (from_symptoms) {
    errors = mine::SymptomLines(text.output_lines);
    MatchOptions options;
    options.top = 3;
    for (const mine::ThreadLine& s : errors) AddMatches(engine.Match(s.text, options).matches, &related);
  }
  SearchOptions search;
  search.top = kSearchRelated;
  SearchResult hits = engine.Search(SearchQueryFor(thread, text, errors), search);
  for (const SearchHit& h : hits.hits) {
    const double scaled = kSearchWeight * h.score / hits.hits[0].score;
    AddRelated({h.record->id, h.record->signature, h.record->domain, scaled, "search"}, &related);
  }
  std::stable_sort(related.begin(), related.end(),
                   [](const mine::RelatedRecord& a, const mine::RelatedRecord& b) { return a.score > b.score; });
  if (related.size() > kMaxRelated) related.resize(kMaxRelated);

  return mine::BuildDraft(thread, text, errors, from_symptoms, std::move(related));
}

Answer MineThread(const Engine& engine, const MineQuery& q) {
  mine::Thread thread;
  Result<mine::Draft> drafted = DraftFromThread(engine, q.documents, &thread);
  if (!drafted.ok()) return Answer::Error(Answer::Kind::kInvalid, drafted.status().message());
  mine::Draft& draft = drafted.value();
  Answer a;
  if (q.ask_model) {
    Result<std::string> reply = q.ask_model(mine::ModelPrompt(thread, draft));
    Status merged = reply.ok() ? mine::MergeModelAnswer(reply.value(), q.model_command, &draft) : reply.status();
    if (!merged.ok()) {
      std::string field = merged.field().empty() ? "" : merged.field() + ": ";
      a.notes = fmt::format("the model's answer was left out: {}{}", field, merged.message());
    }
  }
  a.json = draft.file;
  a.text = RenderDraftText(draft, q.lang);
  a.found = !draft.signatures.regex.empty();
  return a;
}

}  // namespace kedb::app
