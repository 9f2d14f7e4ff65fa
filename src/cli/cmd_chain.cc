#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "kedb/graph.h"

namespace kedb::cli {

void RegisterChain(CLI::App& app, int* exit_code) {
  struct Args {
    std::string id, kb, lang = "en";
    int depth = 2;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("chain", "Show what an error leads to, follows from, and is confused with");
  cmd->add_option("ID", args->id, "Record id, e.g. cuda/cudnn-bn-epsilon-nan")->required();
  AddKbOption(cmd, &args->kb);
  AddLangOption(cmd, &args->lang);
  cmd->add_option("--depth", args->depth, "Edges to follow from the record")->check(CLI::Range(1, 5));
  cmd->add_flag("--json", args->json, "Print {\"id\",\"depth\",\"nodes\":[...],\"edges\":[...]}");
  cmd->footer("Exit status: 0 related errors found, 1 none, 2 error.\nExample:\n  kedb chain nccl/watchdog-timeout --depth 2");
  cmd->callback([args, exit_code]() {
    auto kb = LoadForQuery(args->kb);
    if (!kb) {
      *exit_code = kExitError;
      return;
    }
    auto chain = ChainOf(*kb, args->id, args->depth);
    if (!chain) {
      PrintError(fmt::format("kedb chain: no record has the id \"{}\"\n", args->id));
      *exit_code = kExitNothing;
      return;
    }
    Lang lang = ParseLang(args->lang);
    Print(args->json ? RenderChainJson(*chain, lang) : RenderChainText(*chain, lang));
    *exit_code = chain->edges.empty() ? kExitNothing : kExitOk;
  });
}

}  // namespace kedb::cli
