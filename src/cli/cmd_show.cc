#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {

void RegisterShow(CLI::App& app, int* exit_code) {
  struct Args {
    std::string id, kb, lang = "en";
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("show", "Show one known error: root cause, fixes, dead ends, versions");
  cmd->add_option("ID", args->id, "Record id, e.g. cuda/cudnn-bn-epsilon-nan")->required();
  AddKbOption(cmd, &args->kb);
  AddLangOption(cmd, &args->lang);
  cmd->add_flag("--json", args->json, "Print the record's native JSON");
  cmd->footer("Example:\n  kedb show cuda/cudnn-bn-epsilon-nan --lang zh");
  cmd->callback([args, exit_code]() {
    auto engine = OpenForQuery(args->kb);
    if (!engine) {
      *exit_code = kExitError;
      return;
    }
    *exit_code = Emit(app::RecordById(*engine, args->id, ParseLang(args->lang)), args->json, "kedb show");
  });
}

}  // namespace kedb::cli
