#include <fstream>

#include "cli/commands.h"
#include "cli/common.h"
#include "logs/cluster.h"

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
  cmd->add_option("LOG", args->logs, "Logs to read ('-' for standard input)")->required();
  AddKbOption(cmd, &args->kb);
  cmd->add_option("--top", args->top, "How many templates to show")->check(CLI::PositiveNumber);
  cmd->add_option("--min-count", args->min_count, "Leave out templates seen fewer times");
  cmd->add_flag("--json", args->json, "Print one JSON object: {\"templates\":[...]}");
  cmd->footer(
      "Each log is cut into error blocks as `kedb scan` does; the decisive lines of blocks no known error "
      "matched are masked (numbers, hex, UUIDs, IPs, paths, quoted names) and grouped. Exit status: 0 templates "
      "found, 1 none, 2 error.\nExample:\n  kedb cluster ci-logs/*.log --min-count 2");
  cmd->callback([args, exit_code]() {
    auto engine = OpenForMatching(args->kb);
    if (!engine) {
      *exit_code = kExitError;
      return;
    }
    logs::Clusterer clusterer;
    for (const auto& path : args->logs) {
      std::ifstream file;
      std::istream* in = &std::cin;
      if (path != "-") {
        if (auto why = OpenLog(path, &file)) {
          PrintError(fmt::format("kedb cluster: {}: {}\n", path, *why));
          *exit_code = kExitError;
          return;
        }
        in = &file;
      }
      ScanResult result;
      if (Status st = engine->Scan(*in, ScanOptions{}, &result); !st.ok()) {
        PrintError(fmt::format("kedb cluster: {}: {}\n", path, st.message()));
        *exit_code = kExitError;
        return;
      }
      for (const auto& block : result.blocks) {
        if (block.matches.empty() && !block.decisive.empty()) clusterer.Add(block.decisive, block.count);
      }
    }
    std::vector<logs::Template> templates = clusterer.Finish();
    std::erase_if(templates, [&](const logs::Template& t) { return t.count < args->min_count; });
    if (templates.size() > args->top) templates.resize(args->top);
    Print(args->json ? RenderClusterJson(templates) : RenderClusterText(templates));
    *exit_code = templates.empty() ? kExitNothing : kExitOk;
  });
}

}  // namespace kedb::cli
