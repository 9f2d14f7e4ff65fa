#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <thread>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/follow_log.h"

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
    std::vector<std::string> files;
    std::string kb, env, lang = "en", store, format = "text", fail_on = "default", color = "auto";
    bool record_hits = false, json = false, all_lines = false, recursive = false, follow = false;
    std::size_t top = app::kScanTop;
    std::size_t threads = 0;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("scan", "Find every known error in logs of any size, region by region");
  cmd->add_option("FILE", args->files,
                  "Log files (gzip and zstd are read decompressed), folders, quoted patterns ('ci/*.log'), or - for "
                  "stdin")
      ->required();
  cmd->add_flag("-r,--recursive", args->recursive, "Read the logs in folders' sub-folders too");
  cmd->add_flag("-f,--follow", args->follow,
                "Read one log as it is written and print each error block once it is closed (6 more lines, or 1 s "
                "of quiet): FILE as tail -f does (until interrupted), or - until the pipe closes. Root order and "
                "chains are then decided per batch of blocks; --json prints a line per batch");
  AddKbOption(cmd, &args->kb);
  AddLangOption(cmd, &args->lang);
  AddColorOption(cmd, &args->color);
  AddEnvOption(cmd, &args->env);
  AddStoreOption(cmd, &args->store);
  cmd->add_flag("--record-hits", args->record_hits,
                "Count what was identified in the store's hit statistics (kedb stats --hits)");
  cmd->add_flag("--json", args->json, "Print one JSON object: {\"blocks\":[...],\"summary\":{...}}, blocks root error first");
  cmd->add_option("--format", args->format,
                  "text (for people), json (as --json), github (workflow annotations; the job summary goes to "
                  "$GITHUB_STEP_SUMMARY when set), gitlab (a Code Quality report; the job log gets a collapsible section per "
                  "block on stderr), sarif (SARIF 2.1.0), junit (JUnit XML)")
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
      "Each log is streamed: memory stays bounded whatever its size. A folder stands for the files in it (hidden "
      "ones left out).\nWith several logs, a folder or a pattern, the answer is per file (JSON: {\"files\":[...]}) "
      "and a log that\ncannot be read is named on stderr and skipped.\nExit status: 0 known errors found, 1 none, 2 "
      "error or a log not read (--fail-on changes 0 and 1\nfor a CI step).\nExamples:\n"
      "  kedb scan examples/train-cudnn.log --env torch=2.2\n"
      "  kedb scan build.log --format github --fail-on unknown\n"
      "  kedb scan -r ci-logs/ --format sarif > kedb.sarif\n"
      "  kedb scan 'artifacts/*.log.gz' --json\n"
      "  python train.py 2>&1 | kedb scan --follow -");
  cmd->callback([args, exit_code]() {
    const bool json = args->json || args->format == "json";
    if (args->follow && (args->files.size() != 1 || (args->format != "text" && args->format != "json"))) {
      PrintError("kedb scan: --follow reads one log (a FILE or -) and prints text or JSON\n");
      *exit_code = kExitError;
      return;
    }
    const app::LogPaths paths = app::ExpandLogPaths(args->files, args->recursive);
    const std::string what = paths.many ? "kedb scan" : "kedb scan: " + args->files.front();
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
    q.style = StyleFor(args->color);
    q.all_lines = args->all_lines;
    q.threads = args->threads > 0 ? args->threads : std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
    q.want_text = !json;
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
    if (args->follow) {
      q.source = args->files.front();
      *exit_code = FollowLog(*engine, args->files.front(), q, json);
      return;
    }
    app::Answer answer = app::ScanFiles(*engine, paths, std::cin, q);
    // GitHub shows the summary on the run's page; GitLab shows stderr in the
    // job log, beside the report on stdout.
    if (!answer.report.empty() && q.ci_format == CiFormat::kGithub) AppendStepSummary(answer.report);
    if (!answer.report.empty() && q.ci_format == CiFormat::kGitlab) PrintError(answer.report);
    *exit_code = Emit(answer, json, what);
    if (answer.unread > 0) *exit_code = kExitError;
  });
}

}  // namespace kedb::cli
