#include "app/upkeep.h"
#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {

void RegisterImport(CLI::App& app, int* exit_code) {
  struct Args {
    std::string format, src, out;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("import", "Convert records to native files, one per record (DIR/<id>.json)");
  cmd->add_option("FORMAT", args->format,
                  "deadends: a deadends.dev canon tree; native: a native tree, JSONL or record file")
      ->required()
      ->check(CLI::IsMember({"deadends", "native"}));
  cmd->add_option("SRC", args->src, "Folder or file to read")->required();
  cmd->add_option("--out", args->out, "Folder to write native records into")->required();
  cmd->footer(
      "Documents with errors are reported (as `kedb lint` would) and not written; the rest are.\n"
      "Exit status: 0 all imported, 2 some documents failed.\n"
      "Example:\n  kedb import deadends ../shared/corpora/deadends/canons --out /tmp/corpus");
  cmd->callback([args, exit_code]() {
    auto format = args->format == "deadends" ? app::ImportFormat::kDeadends : app::ImportFormat::kNative;
    app::Answer answer = app::ImportRecords(format, args->src, args->out);
    // Documents left out are exit 2, as lint would fail them.
    *exit_code = Emit(answer, /*json=*/false, "kedb import") == kExitOk ? kExitOk : kExitError;
  });
}

}  // namespace kedb::cli
