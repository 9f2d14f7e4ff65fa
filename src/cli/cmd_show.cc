#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "kedb/record.h"

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
    auto kb = LoadForQuery(args->kb);
    if (!kb) {
      *exit_code = kExitError;
      return;
    }
    const Record* r = kb->Find(args->id);
    if (!r) {
      PrintError(fmt::format("kedb show: no record has the id \"{}\"\n", args->id));
      *exit_code = kExitNothing;
      return;
    }
    Print(args->json ? FormatRecordFile(*r) : RenderRecordText(*r, ParseLang(args->lang), &*kb));
    *exit_code = kExitOk;
  });
}

}  // namespace kedb::cli
