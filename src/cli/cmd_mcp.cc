#include <iostream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "serve/mcp_stdio.h"

namespace kedb::cli {

void RegisterMcp(CLI::App& app, int* exit_code) {
  auto kb = std::make_shared<std::string>(), store_spec = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("mcp", "Serve the known errors to AI agents over MCP (stdio)");
  AddKbOption(cmd, kb.get());
  AddStoreOption(cmd, store_spec.get());
  cmd->footer(
      "Reads JSON-RPC messages from stdin, one per line, and answers on stdout. Tools: lookup_error, scan_log,\n"
      "batch_lookup, get_error_detail, get_error_chain, search_errors, list_error_domains,\n"
      "list_errors_by_domain, get_domain_stats, mine_thread, report_outcome (writes to the outcome store).\n"
      "Records are resources at kedb://errors/{id}.\n"
      "Example agent configuration:\n"
      "  {\"mcpServers\": {\"kedb\": {\"command\": \"/path/to/kedb\", \"args\": [\"mcp\"]}}}");
  cmd->callback([kb, store_spec, exit_code]() {
    std::string path = kb->empty() ? DefaultKbPath() : *kb;
    serve::EngineSlot slot(path, CacheDirFor(path));
    if (Status st = slot.Reload(); !st.ok()) {
      PrintError(fmt::format("kedb mcp: {}\n", st.message()));
      *exit_code = kExitError;
      return;
    }
    // A store named on the command line must open; the default one is
    // optional (reads work without it, reports are then refused).
    bool store_failed = false;
    auto store = OpenStoreFor(*store_spec, /*only_if_present=*/false, "kedb mcp", &store_failed);
    if (!store && !store_spec->empty()) {
      *exit_code = kExitError;
      return;
    }
    slot.AttachStore(store.get(), "");  // over stdio the user's own process may write
    bool follow_failed = false;
    auto follower = FollowStore(slot, "kedb mcp", &follow_failed);
    if (follow_failed) {
      *exit_code = kExitError;
      return;
    }
    std::ios::sync_with_stdio(false);
    serve::McpServer server(slot);
    serve::RunMcpStdio(server, std::cin, std::cout);
    *exit_code = kExitOk;
  });
}

}  // namespace kedb::cli
