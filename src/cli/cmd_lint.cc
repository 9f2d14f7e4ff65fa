#include "app/upkeep.h"
#include "cli/commands.h"
#include "cli/common.h"

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
    LintOptions options;
    options.check_shadowing = !args->no_shadowing;
    app::Answer answer = app::LintKnowledgeBase(args->kb.empty() ? DefaultKbPath() : args->kb, options, args->strict);
    // A failed check is exit 2 (a build step must stop), not "nothing found".
    *exit_code = Emit(answer, args->json, "kedb lint") == kExitOk ? kExitOk : kExitError;
  });
}

}  // namespace kedb::cli
