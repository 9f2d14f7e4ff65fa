// The MCP tools: names, input schemas and what each one does. Names and
// argument names follow the deadends.dev MCP server where the two overlap
// (lookup_error takes `error_message`, get_error_detail takes `error_id`,
// ...), so an agent set up for that server works here unchanged.
#pragma once

#include <string>
#include <vector>

#include "kedb/engine.h"
#include "record/json_text.h"
#include "store/store.h"

namespace kedb::serve {

struct ToolResult {
  std::string text;  // for the model to read: the text renderer's output
  // For programs: the JSON renderer's output, an object, as text (spliced
  // into the reply as it is, never parsed back).
  std::string structured;
  bool is_error = false;  // the tool ran but could not answer (unknown id, ...)
};

// Every tool as tools/list publishes it: {"name","title","description",
// "inputSchema","outputSchema","annotations"}. The outputSchema is the
// schema of the same answer in the published OpenAPI document.
const Json& ToolList();

// The input schema of `name`, or nullptr when there is no such tool.
const Json* ToolSchema(const std::string& name);

// Whether tool `name` writes (report_outcome): over HTTP it needs the
// server's token.
bool IsWriteTool(const std::string& name);

// What tools use beyond the engine.
struct ToolContext {
  // Outcome reports and hit statistics (null: none): report_outcome writes
  // there, and answers show what it observed.
  store::OutcomeStore* store = nullptr;
  bool record_hits = false;  // count what lookup_error, batch_lookup and scan_log identify
};

// Runs a tool on arguments already checked against its schema.
ToolResult CallTool(const Engine& engine, const ToolContext& context, const std::string& name, const Json& arguments);

}  // namespace kedb::serve
