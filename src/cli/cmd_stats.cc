#include "cli/commands.h"
#include "cli/common.h"
#include "kb/stats.h"

namespace kedb::cli {

void RegisterStats(CLI::App& app, int* exit_code) {
  struct Args {
    std::string kb;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("stats", "Count records by domain, category, tier and resolvability");
  AddKbOption(cmd, &args->kb);
  cmd->add_flag("--json", args->json, "Print JSON");
  cmd->footer("Example:\n  kedb stats --kb ../shared/corpora/deadends/canons --json");
  cmd->callback([args, exit_code]() {
    auto kb = LoadForQuery(args->kb);
    if (!kb) {
      *exit_code = kExitError;
      return;
    }
    KbStats stats = ComputeStats(*kb);
    Print(args->json ? RenderStatsJson(stats) : RenderStatsText(stats));
    *exit_code = kExitOk;
  });
}

}  // namespace kedb::cli
