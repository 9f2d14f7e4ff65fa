#include <ctime>

#include "app/outcomes.h"
#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {

void RegisterReport(CLI::App& app, int* exit_code) {
  struct Args {
    std::string id, kb, store;
    app::OutcomeRequest request;
    int workaround = 0, dead_end = 0;
    bool worked = false, failed = false, partial = false, json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("report", "Report whether a workaround or dead end worked, so rates follow what happens");
  cmd->add_option("ID", args->id, "Record id, e.g. cuda/cudnn-bn-epsilon-nan")->required();
  auto* w = cmd->add_option("--workaround", args->workaround, "The workaround tried, numbered from 1 as `kedb show --json` lists them");
  auto* d = cmd->add_option("--dead-end", args->dead_end, "The dead end tried, numbered from 1");
  w->excludes(d);
  auto* ok = cmd->add_flag("--worked", args->worked, "It fixed the error");
  auto* bad = cmd->add_flag("--failed", args->failed, "It did not");
  auto* part = cmd->add_flag("--partial", args->partial, "It helped in part");
  ok->excludes(bad)->excludes(part);
  bad->excludes(part);
  AddEnvOption(cmd, &args->request.env);
  cmd->add_option("--note", args->request.note, "What happened, in a sentence (at most 4 KB)");
  cmd->add_option("--id", args->request.event_id,
                  "The report's own id (letters, digits, - _ . :); sending the same id again counts once");
  AddKbOption(cmd, &args->kb);
  AddStoreOption(cmd, &args->store);
  cmd->add_flag("--json", args->json, "Print the report as stored, and the action's rate now, as JSON");
  cmd->footer(
      "Example:\n  kedb report cuda/cudnn-bn-epsilon-nan --workaround 1 --worked --env os=linux,torch=2.2\n"
      "Exit status: 0 stored (or already stored), 1 no such record, 2 invalid or not stored.");
  cmd->callback([args, exit_code]() {
    app::OutcomeRequest& q = args->request;
    q.record_id = args->id;
    if ((args->workaround == 0) == (args->dead_end == 0)) {
      PrintError("kedb report: say which action: --workaround N or --dead-end N\n");
      *exit_code = kExitError;
      return;
    }
    if (!args->worked && !args->failed && !args->partial) {
      PrintError("kedb report: say what happened: --worked, --failed or --partial\n");
      *exit_code = kExitError;
      return;
    }
    q.kind = args->workaround != 0 ? "workaround" : "dead_end";
    q.position = args->workaround != 0 ? args->workaround : args->dead_end;
    q.outcome = args->worked ? "worked" : args->failed ? "failed" : "partial";
    q.now = static_cast<int64_t>(std::time(nullptr));
    auto engine = OpenForQuery(args->kb, /*records_only=*/true);
    if (!engine) {
      *exit_code = kExitError;
      return;
    }
    bool store_failed = false;
    auto store = OpenStoreFor(args->store, /*only_if_present=*/false, "kedb report", &store_failed);
    if (!store) {
      *exit_code = kExitError;
      return;
    }
    *exit_code = Emit(app::ReportOutcome(*engine, *store, q), args->json, "kedb report");
  });
}

}  // namespace kedb::cli
