#include <algorithm>
#include <fstream>
#include <iostream>
#include <thread>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {

void RegisterScan(CLI::App& app, int* exit_code) {
  struct Args {
    std::string file, kb, env, lang = "en", store;
    bool record_hits = false, json = false, all_lines = false;
    std::size_t top = app::kScanTop;
    std::size_t threads = 0;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("scan", "Find every known error in a log of any size, region by region");
  cmd->add_option("FILE", args->file, "Log file, or - for stdin")->required();
  AddKbOption(cmd, &args->kb);
  AddLangOption(cmd, &args->lang);
  AddEnvOption(cmd, &args->env);
  AddStoreOption(cmd, &args->store);
  cmd->add_flag("--record-hits", args->record_hits,
                "Count what was identified in the store's hit statistics (kedb stats --hits)");
  cmd->add_flag("--json", args->json, "Print one JSON object: {\"blocks\":[...],\"summary\":{...}}, blocks root error first");
  cmd->add_option("--top", args->top, "Matches shown per region")->check(CLI::Range(std::size_t{1}, app::kMaxTop));
  cmd->add_flag("--all-lines", args->all_lines,
                "Try broad patterns on every line, not only on lines that read as a problem (slower)");
  cmd->add_option("--threads", args->threads,
                  "Parts of the log matched at once (default: one per core, at most 8); the result is the same")
      ->check(CLI::Range(1, 64));
  cmd->footer(
      "The log is streamed: memory stays bounded whatever its size. Exit status: 0 known errors found, 1 none, 2 "
      "error.\nExample:\n  kedb scan examples/train-cudnn.log --env torch=2.2");
  cmd->callback([args, exit_code]() {
    const std::string what = "kedb scan: " + args->file;
    std::ifstream file;
    std::istream* in = &std::cin;
    if (args->file != "-") {
      if (Status st = OpenLog(args->file, &file); !st.ok()) {
        PrintError(fmt::format("{}: {}\n", what, st.message()));
        *exit_code = kExitError;
        return;
      }
      in = &file;
    }
    auto engine = OpenForQuery(args->kb);
    if (!engine) {
      *exit_code = kExitError;
      return;
    }
    // Observed rates, when outcomes were reported (a missing default store
    // means none were).
    bool store_failed = false;
    auto store = OpenStoreFor(args->store, /*only_if_present=*/!args->record_hits, "kedb scan", &store_failed);
    if (store_failed) {
      *exit_code = kExitError;
      return;
    }
    app::MatchQuery q;
    q.store = store.get();
    q.record_hits = args->record_hits;
    q.top = args->top;
    q.env = args->env;
    q.lang = ParseLang(args->lang);
    q.all_lines = args->all_lines;
    q.threads = args->threads > 0 ? args->threads : std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
    q.want_text = !args->json;
    *exit_code = Emit(app::ScanLog(*engine, *in, q), args->json, what);
  });
}

}  // namespace kedb::cli
