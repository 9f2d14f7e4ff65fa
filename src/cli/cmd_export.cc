#include "app/export.h"
#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {

void RegisterExport(CLI::App& app, int* exit_code) {
  struct Args {
    std::string kb, store, out;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "export", "Write the knowledge base as files with reported outcomes folded into its rates, for review in git");
  cmd->add_option("--out", args->out, "Folder to write <id>.json files into")->required()->type_name("DIR");
  AddKbOption(cmd, &args->kb);
  AddStoreOption(cmd, &args->store);
  cmd->add_flag("--json", args->json, "Print {\"records\",\"folded\",\"out\"}");
  cmd->footer("Example:\n  kedb export --kb kb --out kb && git diff kb/");
  cmd->callback([args, exit_code]() {
    auto engine = OpenForQuery(args->kb, /*records_only=*/true);
    if (!engine) {
      *exit_code = kExitError;
      return;
    }
    bool store_failed = false;
    auto store = OpenStoreFor(args->store, /*only_if_present=*/true, "kedb export", &store_failed);
    if (store_failed) {
      *exit_code = kExitError;
      return;
    }
    *exit_code = Emit(app::ExportRecords(*engine, store.get(), args->out), args->json, "kedb export");
  });
}

}  // namespace kedb::cli
