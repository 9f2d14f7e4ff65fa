#include <ctime>

#include "app/outcomes.h"
#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {

void RegisterStats(CLI::App& app, int* exit_code) {
  struct Args {
    std::string kb, store;
    bool json = false, hits = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("stats", "Count records by domain, category, tier and resolvability");
  AddKbOption(cmd, &args->kb);
  cmd->add_flag("--json", args->json, "Print JSON");
  cmd->add_flag("--hits", args->hits,
                "How often each record was matched (scan/match --record-hits): last 24 h, 7 and 30 days, first and "
                "last seen, most this week first");
  AddStoreOption(cmd, &args->store);
  cmd->footer("Examples:\n  kedb stats --kb ../shared/corpora/deadends/canons --json\n  kedb stats --hits");
  cmd->callback([args, exit_code]() {
    auto engine = OpenForQuery(args->kb, /*records_only=*/true);
    if (!engine) {
      *exit_code = kExitError;
      return;
    }
    if (!args->hits) {
      *exit_code = Emit(app::Stats(*engine, ""), args->json, "kedb stats");
      return;
    }
    bool store_failed = false;
    auto store = OpenStoreFor(args->store, /*only_if_present=*/false, "kedb stats", &store_failed);
    if (!store) {
      *exit_code = kExitError;
      return;
    }
    *exit_code = Emit(app::HitStatistics(*engine, *store, static_cast<int64_t>(std::time(nullptr))), args->json,
                      "kedb stats");
  });
}

}  // namespace kedb::cli
