#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "kedb/lint.h"

namespace kedb::cli {

void RegisterLint(CLI::App& app, int* exit_code) {
  struct Args {
    std::string kb;
    bool json = false, strict = false, no_shadowing = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("lint", "Check a knowledge base: schema, regexes, graph, content");
  AddKbOption(cmd, &args->kb);
  cmd->add_flag("--json", args->json, "Print JSON: counts per rule and every finding");
  cmd->add_flag("--strict", args->strict, "Warnings fail too (exit 2)");
  cmd->add_flag("--no-shadowing", args->no_shadowing, "Skip the shadowing rule (the slowest)");
  cmd->footer(
      "Exit status: 0 clean (or warnings only), 2 errors (or warnings under --strict).\n"
      "Example:\n  kedb lint --kb kb --strict");
  cmd->callback([args, exit_code]() {
    std::string path = args->kb.empty() ? DefaultKbPath() : args->kb;
    LoadReport load;
    auto kb = KnowledgeBase::Load(path, LoadOptions{}, &load);
    if (!kb.ok()) {
      PrintError(fmt::format("kedb lint: {}\n", kb.status().message()));
      *exit_code = kExitError;
      return;
    }
    if (load.documents == 0) {  // nothing to check is not "clean"
      PrintError(fmt::format("kedb lint: {}\n", NoRecordsMessage(path, load)));
      *exit_code = kExitError;
      return;
    }
    LintOptions options;
    options.check_shadowing = !args->no_shadowing;
    LintReport report = Lint(*kb, load, options);
    Print(args->json ? RenderLintJson(report) : RenderLintText(report));
    bool fail = report.errors() > 0 || (args->strict && report.warnings() > 0);
    *exit_code = fail ? kExitError : kExitOk;
  });
}

}  // namespace kedb::cli
