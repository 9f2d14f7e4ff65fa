#include "app/upkeep.h"
#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {

void RegisterImport(CLI::App& app, int* exit_code) {
  struct Args {
    std::string format, src, out, into;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "import", "Convert records to native files, one per record (DIR/<id>.json), or put them into a store");
  cmd->add_option("FORMAT", args->format,
                  "deadends: a deadends.dev canon tree; native: a native tree, JSONL or record file")
      ->required()
      ->check(CLI::IsMember({"deadends", "native"}));
  cmd->add_option("SRC", args->src, "Folder or file to read, or a store (postgresql://... or sqlite:PATH)")
      ->required()
      ->type_name("PATH");
  auto* out = cmd->add_option("--out", args->out, "Folder to write native records into")->type_name("DIR");
  auto* into = cmd->add_option(
      "--into", args->into,
      "Store to put the records into instead (postgresql://... or sqlite:PATH), in one transaction; servers "
      "whose --kb names it pick the change up without a restart");
  out->excludes(into);
  cmd->footer(
      "Documents with errors are reported (as `kedb lint` would) and not written; the rest are.\n"
      "Exit status: 0 all imported, 2 some documents failed.\n"
      "Examples:\n  kedb import deadends ../shared/corpora/deadends/canons --out /tmp/corpus\n"
      "  kedb import native kb --into postgresql://kedb@db.internal/kedb\n"
      "  kedb serve --kb postgresql://kedb@db.internal/kedb --store postgresql://kedb@db.internal/kedb");
  cmd->callback([args, exit_code]() {
    if (args->out.empty() && args->into.empty()) {
      PrintError("kedb import: say where the records go: --out DIR or --into STORE\n");
      *exit_code = kExitError;
      return;
    }
    auto format = args->format == "deadends" ? app::ImportFormat::kDeadends : app::ImportFormat::kNative;
    app::Answer answer = app::ImportRecords(format, args->src, args->out, args->into);
    // Documents left out are exit 2, as lint would fail them.
    *exit_code = Emit(answer, /*json=*/false, "kedb import") == kExitOk ? kExitOk : kExitError;
  });
}

}  // namespace kedb::cli
