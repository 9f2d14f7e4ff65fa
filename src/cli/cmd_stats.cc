#include "cli/commands.h"
#include "cli/common.h"

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
    auto engine = OpenForQuery(args->kb);
    if (!engine) {
      *exit_code = kExitError;
      return;
    }
    *exit_code = Emit(app::Stats(*engine, ""), args->json, "kedb stats");
  });
}

}  // namespace kedb::cli
