#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <thread>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {
namespace {

// GitHub Actions shows what a step appends to $GITHUB_STEP_SUMMARY on the
// run's page.
void AppendStepSummary(const std::string& markdown) {
  const char* path = std::getenv("GITHUB_STEP_SUMMARY");
  if (path == nullptr || *path == '\0') return;
  std::ofstream out(path, std::ios::app);
  out << markdown << "\n";
  if (!out) PrintError(fmt::format("kedb scan: cannot append the job summary to {}\n", path));
}

}  // namespace

void RegisterScan(CLI::App& app, int* exit_code) {
  struct Args {
    std::string file, kb, env, lang = "en", store, format = "text", fail_on = "default";
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
  cmd->add_option("--format", args->format,
                  "text (for people), json (as --json), github (workflow annotations; the job summary goes to "
                  "$GITHUB_STEP_SUMMARY when set), gitlab (a Code Quality report), sarif (SARIF 2.1.0), junit (JUnit XML)")
      ->check(CLI::IsMember({"text", "json", "github", "gitlab", "sarif", "junit"}));
  cmd->add_option("--fail-on", args->fail_on,
                  "Exit 1 when the log has: known (an error a record knows), unknown (an error block no record "
                  "knows), any (any error block), never; else 0. default: grep's 0 found, 1 none")
      ->check(CLI::IsMember({"default", "known", "unknown", "any", "never"}));
  cmd->add_option("--top", args->top, "Matches shown per region")->check(CLI::Range(std::size_t{1}, app::kMaxTop));
  cmd->add_flag("--all-lines", args->all_lines,
                "Try broad patterns on every line, not only on lines that read as a problem (slower)");
  cmd->add_option("--threads", args->threads,
                  "Parts of the log matched at once (default: one per core, at most 8); the result is the same")
      ->check(CLI::Range(1, 64));
  cmd->footer(
      "The log is streamed: memory stays bounded whatever its size. Exit status: 0 known errors found, 1 none, 2 "
      "error\n(--fail-on changes 0 and 1 for a CI step).\nExamples:\n  kedb scan examples/train-cudnn.log --env torch=2.2\n"
      "  kedb scan build.log --format github --fail-on unknown");
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
    const bool json = args->json || args->format == "json";
    q.want_text = !json;
    q.source = args->file;
    if (args->format == "github") q.ci_format = CiFormat::kGithub;
    if (args->format == "gitlab") q.ci_format = CiFormat::kGitlab;
    if (args->format == "sarif") q.ci_format = CiFormat::kSarif;
    if (args->format == "junit") q.ci_format = CiFormat::kJunit;
    using FailOn = app::MatchQuery::FailOn;
    q.fail_on = args->fail_on == "known"     ? FailOn::kKnown
                : args->fail_on == "unknown" ? FailOn::kUnknown
                : args->fail_on == "any"     ? FailOn::kAny
                : args->fail_on == "never"   ? FailOn::kNever
                                             : FailOn::kDefault;
    app::Answer answer = app::ScanLog(*engine, *in, q);
    if (!answer.report.empty()) AppendStepSummary(answer.report);
    *exit_code = Emit(answer, json, what);
  });
}

}  // namespace kedb::cli
