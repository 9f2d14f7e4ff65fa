// One function per subcommand: registers it on the app. The callback stores
// the exit code in *exit_code.
#pragma once

#include <CLI/CLI.hpp>

namespace kedb::cli {

void RegisterShow(CLI::App& app, int* exit_code);
void RegisterStats(CLI::App& app, int* exit_code);
void RegisterLint(CLI::App& app, int* exit_code);
void RegisterImport(CLI::App& app, int* exit_code);
void RegisterMatch(CLI::App& app, int* exit_code);
void RegisterScan(CLI::App& app, int* exit_code);
void RegisterSearch(CLI::App& app, int* exit_code);
void RegisterCluster(CLI::App& app, int* exit_code);
void RegisterChain(CLI::App& app, int* exit_code);
void RegisterServe(CLI::App& app, int* exit_code);
void RegisterMcp(CLI::App& app, int* exit_code);
void RegisterMine(CLI::App& app, int* exit_code);
void RegisterReport(CLI::App& app, int* exit_code);
void RegisterExport(CLI::App& app, int* exit_code);
void RegisterConsume(CLI::App& app, int* exit_code);
void RegisterNew(CLI::App& app, int* exit_code);
// `completion` and `man`: register them last; they describe the others.
void RegisterCompletion(CLI::App& app, int* exit_code);

}  // namespace kedb::cli
