#include "app/upkeep.h"
#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {

void RegisterLint(CLI::App& app, int* exit_code) {
  struct Args {
    std::string kb;
    std::vector<std::string> clean_logs;
    bool json = false, strict = false, no_shadowing = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("lint", "Check a knowledge base: schema, regexes, graph, content");
  AddKbOption(cmd, &args->kb);
  cmd->add_flag("--json", args->json, "Print JSON: counts per rule and every finding");
  cmd->add_flag("--strict", args->strict, "Warnings fail too (exit 2)");
  cmd->add_flag("--no-shadowing", args->no_shadowing, "Skip the shadowing rule (the slowest)");
  cmd->add_option("--clean-logs", args->clean_logs,
                  "Logs of runs that succeeded (files or folders): records whose patterns fire on them are "
                  "flagged (fires-on-clean-log)")
      ->type_name("PATH");
  cmd->footer(
      "Exit status: 0 clean (or warnings only), 2 errors (or warnings under --strict).\n"
      "Examples:\n  kedb lint --kb kb --strict\n  kedb lint --clean-logs ci-logs/passed/");
  cmd->callback([args, exit_code]() {
    LintOptions options;
    options.check_shadowing = !args->no_shadowing;
    app::Answer answer =
        app::LintKnowledgeBase(args->kb.empty() ? DefaultKbPath() : args->kb, options, args->strict, args->clean_logs);
    // A failed check is exit 2 (a build step must stop), not "nothing found".
    *exit_code = Emit(answer, args->json, "kedb lint") == kExitOk ? kExitOk : kExitError;
  });
}

}  // namespace kedb::cli
