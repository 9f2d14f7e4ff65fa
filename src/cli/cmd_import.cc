#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "kedb/knowledge_base.h"

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
    LoadReport report;
    auto kb = KnowledgeBase::Load(args->src, LoadOptions{}, &report);
    if (!kb.ok()) {
      PrintError(fmt::format("kedb import: {}\n", kb.status().message()));
      *exit_code = kExitError;
      return;
    }
    for (const auto& d : report.diagnostics) {
      if (d.severity == Severity::kError) PrintError(d.ToString() + "\n");
    }
    if (args->format == "deadends" && report.native > 0) {
      PrintError(fmt::format("kedb import: {} of the records in {} are already native; imported as they are\n",
                             report.native, args->src));
    }
    Status st = WriteNativeTree(*kb, args->out);
    if (!st.ok()) {
      PrintError(fmt::format("kedb import: {}\n", st.message()));
      *exit_code = kExitError;
      return;
    }
    Print(fmt::format("imported {} records into {} ({} documents read, {} rejected)\n", kb->size(), args->out,
                      report.documents, report.rejected));
    *exit_code = report.rejected > 0 ? kExitError : kExitOk;
  });
}

}  // namespace kedb::cli
