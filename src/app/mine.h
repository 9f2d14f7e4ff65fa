// `kedb mine`, POST /v1/mine and the MCP tool mine_thread: an issue thread
// in, a draft record out (mine/draft.h says what the draft holds).
//
// The thread's posts are scanned as logs are, so its error lines are the
// decisive lines of the error blocks a scan finds; the known errors those
// blocks match, and the records a search for the thread's title and first
// error finds, are its related records, so a curator merges instead of
// adding a duplicate.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/queries.h"
#include "mine/draft.h"

namespace kedb::app {

struct MineQuery {
  // One document (text, Markdown or GitHub JSON), or two: the GitHub issue
  // object and its comments array.
  std::vector<std::string> documents;
  Lang lang = Lang::kEn;
  // `kedb mine --llm CMD`: sends a prompt to a model and returns its answer
  // (mine/model_answer.h). Unset: mining is deterministic. Only the CLI
  // sets it; a server never runs commands.
  std::function<Result<std::string>(const std::string& prompt)> ask_model;
  std::string model_command;  // recorded in x_mined.model
};

// The most a thread may hold, all documents together.
inline constexpr std::size_t kMaxThreadBytes = 16u << 20;

// JSON: the draft record file. Text: a summary for a person. kInvalid, with
// the line and column, when a JSON document does not parse or a field has
// the wrong type. `found`: the draft has an error line or symptom to match.
// A model answer that fails its checks is left out, and `notes` says why.
Answer MineThread(const Engine& engine, const MineQuery& q);

// The draft alone, from one or two documents as MineQuery holds them;
// `thread` receives the thread as read. InvalidArgument (with line and
// column for JSON) when the documents cannot be read.
Result<mine::Draft> DraftFromThread(const Engine& engine, const std::vector<std::string>& documents,
                                    mine::Thread* thread);

}  // namespace kedb::app
