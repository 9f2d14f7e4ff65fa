// kedb: a known-error database. This file only wires subcommands together;
// each lives in its own cmd_*.cc.
#include <csignal>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/common.h"

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // `kedb ... | head` must not die mid-write
  CLI::App app{"kedb: find known errors in text and logs, and say what fixes them", "kedb"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "kedb 0.1.0");
  app.footer("Run `kedb COMMAND --help` for a command's options and an example.");
  int exit_code = kedb::cli::kExitOk;
  kedb::cli::RegisterMatch(app, &exit_code);
  kedb::cli::RegisterScan(app, &exit_code);
  kedb::cli::RegisterSearch(app, &exit_code);
  kedb::cli::RegisterCluster(app, &exit_code);
  kedb::cli::RegisterShow(app, &exit_code);
  kedb::cli::RegisterChain(app, &exit_code);
  kedb::cli::RegisterStats(app, &exit_code);
  kedb::cli::RegisterLint(app, &exit_code);
  kedb::cli::RegisterImport(app, &exit_code);
  kedb::cli::RegisterServe(app, &exit_code);
  kedb::cli::RegisterMcp(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kedb::cli::kExitError;
  } catch (const std::exception& e) {
    kedb::cli::PrintError(fmt::format("kedb: internal error: {}\n", e.what()));
    return kedb::cli::kExitError;
  }
  return exit_code;
}
