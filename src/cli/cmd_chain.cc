#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {

void RegisterChain(CLI::App& app, int* exit_code) {
  struct Args {
    std::string id, kb, lang = "en";
    int depth = app::kChainDepth;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("chain", "Show what an error leads to, follows from, and is confused with");
  cmd->add_option("ID", args->id, "Record id, e.g. cuda/cudnn-bn-epsilon-nan")->required();
  AddKbOption(cmd, &args->kb);
  AddLangOption(cmd, &args->lang);
  cmd->add_option("--depth", args->depth, "Edges to follow from the record")->check(CLI::Range(1, app::kMaxChainDepth));
  cmd->add_flag("--json", args->json, "Print {\"id\",\"depth\",\"nodes\":[...],\"edges\":[...]}");
  cmd->footer("Exit status: 0 related errors found, 1 none, 2 error.\nExample:\n  kedb chain nccl/watchdog-timeout --depth 2");
  cmd->callback([args, exit_code]() {
    auto engine = OpenForQuery(args->kb, /*records_only=*/true);
    if (!engine) {
      *exit_code = kExitError;
      return;
    }
    *exit_code = Emit(app::ChainById(*engine, args->id, args->depth, ParseLang(args->lang)), args->json, "kedb chain");
  });
}

}  // namespace kedb::cli
