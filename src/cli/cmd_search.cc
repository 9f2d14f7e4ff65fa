#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {

void RegisterSearch(CLI::App& app, int* exit_code) {
  struct Args {
    std::string kb, lang = "en", domain;
    std::vector<std::string> words;
    std::size_t top = app::kSearchTop;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("search", "Find records by words, in English or Chinese");
  cmd->add_option("QUERY", args->words, "Words to look for (signature, error code, root cause, tags, zh fields)")
      ->required();
  AddKbOption(cmd, &args->kb);
  AddLangOption(cmd, &args->lang);
  cmd->add_option("--top", args->top, "How many records to show")->check(CLI::PositiveNumber);
  cmd->add_option("--domain", args->domain, "Only records of this domain, e.g. cuda");
  cmd->add_flag("--json", args->json, "Print one JSON object: {\"hits\":[...]}");
  cmd->footer(
      "Exit status: 0 records found, 1 none, 2 error.\nExamples:\n  kedb search batch norm epsilon zero\n"
      "  kedb search --lang zh 批量归一化 epsilon");
  cmd->callback([args, exit_code]() {
    auto engine = OpenForQuery(args->kb, /*records_only=*/true);
    if (!engine) {
      *exit_code = kExitError;
      return;
    }
    app::SearchQuery q;
    for (const auto& w : args->words) q.query += (q.query.empty() ? "" : " ") + w;
    q.limit = args->top;
    q.domain = args->domain;
    q.lang = ParseLang(args->lang);
    *exit_code = Emit(app::SearchRecords(*engine, q), args->json, "kedb search");
  });
}

}  // namespace kedb::cli
