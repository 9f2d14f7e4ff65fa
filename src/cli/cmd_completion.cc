// `kedb completion` and `kedb man`: the shell completion scripts and the
// man page, made from the command definitions themselves, so they cannot
// fall behind a new command or option.
#include "app/queries.h"
#include "cli/cli_docs.h"
#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {
namespace {

// `completion ids`: what the scripts offer for a record id.
int PrintRecordIds(const std::string& kb) {
  auto engine = OpenForQuery(kb);
  if (!engine) return kExitError;
  std::string out;
  for (const auto& id : app::RecordIds(*engine)) out += id + "\n";
  Print(out);
  return out.empty() ? kExitNothing : kExitOk;
}

}  // namespace

void RegisterCompletion(CLI::App& app, int* exit_code) {
  struct Args {
    std::string what, kb;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("completion", "Print the shell completion script for bash, zsh or fish");
  cmd->add_option("SHELL", args->what,
                  "bash, zsh or fish; ids prints the knowledge base's record ids instead, one a line (what the "
                  "scripts offer for an ID)")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish", "ids"}));
  AddKbOption(cmd, &args->kb);
  cmd->footer(
      "`cmake --install` puts the scripts where bash-completion, zsh and fish look for them. To load one into\n"
      "the running shell instead:\n"
      "  source <(kedb completion bash)\n"
      "  kedb completion zsh > ~/.zfunc/_kedb   # a folder on $fpath, before compinit\n"
      "  kedb completion fish | source");
  // The callback reads the whole command tree, so it runs after every
  // command is registered, whatever the order of registration.
  cmd->callback([&app, args, exit_code]() {
    if (args->what == "ids") {
      *exit_code = PrintRecordIds(args->kb);
      return;
    }
    const ProgramDoc doc = DescribeProgram(app, kVersion);
    Print(args->what == "bash" ? BashCompletion(doc) : args->what == "zsh" ? ZshCompletion(doc) : FishCompletion(doc));
    *exit_code = kExitOk;
  });

  CLI::App* man = app.add_subcommand("man", "Print the manual page, kedb(1), as roff");
  man->footer("Example:\n  kedb man | man -l -");
  man->callback([&app, exit_code]() {
    Print(ManPage(DescribeProgram(app, kVersion)));
    *exit_code = kExitOk;
  });
}

}  // namespace kedb::cli
