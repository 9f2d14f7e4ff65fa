#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {

void RegisterCluster(CLI::App& app, int* exit_code) {
  struct Args {
    std::string kb;
    std::vector<std::string> logs;
    std::size_t top = 20;
    std::size_t min_count = 1;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("cluster", "Group the errors no record knows into templates with a proposed regex");
  cmd->add_option("LOG", args->logs, "Logs to read ('-' for standard input)")->required()->type_name("FILE");
  AddKbOption(cmd, &args->kb);
  cmd->add_option("--top", args->top, "How many templates to show")->check(CLI::PositiveNumber);
  cmd->add_option("--min-count", args->min_count, "Leave out templates seen fewer times");
  cmd->add_flag("--json", args->json, "Print one JSON object: {\"templates\":[...]}");
  cmd->footer(
      "Each log is cut into error blocks as `kedb scan` does; the decisive lines of blocks no known error "
      "matched are masked (numbers, hex, UUIDs, IPs, paths, quoted names) and grouped. Exit status: 0 templates "
      "found, 1 none, 2 error.\nExample:\n  kedb cluster ci-logs/*.log --min-count 2");
  cmd->callback([args, exit_code]() {
    auto engine = OpenForQuery(args->kb);
    if (!engine) {
      *exit_code = kExitError;
      return;
    }
    app::UnknownErrors unknown(*engine);
    for (const auto& path : args->logs) {
      std::ifstream file;
      std::istream* in = &std::cin;
      if (path != "-") {
        if (Status st = OpenLog(path, &file); !st.ok()) {
          PrintError(fmt::format("kedb cluster: {}: {}\n", path, st.message()));
          *exit_code = kExitError;
          return;
        }
        in = &file;
      }
      if (Status st = unknown.Add(*in); !st.ok()) {
        PrintError(fmt::format("kedb cluster: {}: {}\n", path, st.message()));
        *exit_code = kExitError;
        return;
      }
    }
    app::ClusterQuery q;
    q.top = args->top;
    q.min_count = args->min_count;
    *exit_code = Emit(unknown.Templates(q), args->json, "kedb cluster");
  });
}

}  // namespace kedb::cli
