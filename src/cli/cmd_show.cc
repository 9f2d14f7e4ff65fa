#include "app/outcomes.h"
#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {

void RegisterShow(CLI::App& app, int* exit_code) {
  struct Args {
    std::string id, kb, lang = "en", store;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("show", "Show one known error: root cause, fixes, dead ends, versions");
  cmd->add_option("ID", args->id, "Record id, e.g. cuda/cudnn-bn-epsilon-nan")->required();
  AddKbOption(cmd, &args->kb);
  AddLangOption(cmd, &args->lang);
  AddStoreOption(cmd, &args->store);
  cmd->add_flag("--json", args->json,
                "Print the record's native JSON (with an \"observed\" member when outcomes were reported)");
  cmd->footer("Example:\n  kedb show cuda/cudnn-bn-epsilon-nan --lang zh");
  cmd->callback([args, exit_code]() {
    auto engine = OpenForQuery(args->kb, /*records_only=*/true);
    if (!engine) {
      *exit_code = kExitError;
      return;
    }
    bool store_failed = false;
    auto store = OpenStoreFor(args->store, /*only_if_present=*/true, "kedb show", &store_failed);
    if (store_failed) {
      *exit_code = kExitError;
      return;
    }
    const Lang lang = ParseLang(args->lang);
    *exit_code = Emit(store ? app::RecordWithEvidence(*engine, *store, args->id, lang)
                            : app::RecordById(*engine, args->id, lang),
                      args->json, "kedb show");
  });
}

}  // namespace kedb::cli
