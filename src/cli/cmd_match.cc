#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/bounded_input.h"
#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {
namespace {

// --batch: JSON Lines in ({"text": ...}), one result object per line out,
// same order, each what `match --json` prints for that text. A bad input
// line gets {"error": ...} in its place.
int RunBatch(const Engine& engine, app::MatchQuery q) {
  q.want_text = false;
  std::string line;
  std::size_t line_no = 0;
  bool any_match = false, any_error = false, too_long = false;
  auto print_error = [&](const std::string& why) {
    any_error = true;
    nlohmann::json err{{"error", fmt::format("stdin:{}: {}", line_no, why)},
                       {"matches", nlohmann::json::array()},
                       {"abstained", true}};
    Print(err.dump() + "\n");
  };
  while (ReadBoundedLine(std::cin, kMaxMatchBytes, &line, &too_long)) {
    ++line_no;
    if (too_long) {
      print_error(fmt::format("line over {} MiB, not read", kMaxMatchBytes >> 20));
      continue;
    }
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto doc = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("text") || !doc["text"].is_string()) {
      print_error("expected a JSON object with a string \"text\"");
      continue;
    }
    q.text = doc["text"].get<std::string>();
    app::Answer answer = app::MatchText(engine, q);
    any_match |= answer.found;
    Print(answer.json);
  }
  return any_error ? kExitError : any_match ? kExitOk : kExitNothing;
}

// Where `kedb match TEXT` reads its message from. "-" is stdin, as for
// `kedb scan`. A TEXT of one word that names a regular file is that file:
// an error message is never a bare existing path, and matching the path's
// characters would answer "no known error" about a file nobody read.
enum class MatchSource { kText, kStdin, kFile };

MatchSource SourceOf(const std::string& text) {
  if (text.empty() || text == "-") return MatchSource::kStdin;
  if (text.find_first_of(" \t\n") != std::string::npos) return MatchSource::kText;
  std::error_code ec;
  return std::filesystem::is_regular_file(text, ec) ? MatchSource::kFile : MatchSource::kText;
}

// Reads at most the last kMaxMatchBytes of `in` into `text`, with a note
// when there was more.
void ReadMessage(std::istream& in, std::string* text) {
  const std::size_t read = ReadTail(in, kMaxMatchBytes, text);
  if (read > kMaxMatchBytes) {
    PrintError(fmt::format("kedb match: the input has {} bytes; only its last {} MiB were matched "
                           "(kedb scan reads a log of any size)\n",
                           read, kMaxMatchBytes >> 20));
  }
}

}  // namespace

void RegisterMatch(CLI::App& app, int* exit_code) {
  struct Args {
    std::string text, kb, env, lang = "en", store, color = "auto";
    bool record_hits = false, json = false, batch = false;
    std::size_t top = app::kMatchTop;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("match", "Find the known errors in one message (TEXT, or stdin)");
  cmd->add_option("TEXT", args->text,
                  "The error message, or a file holding it; read from stdin when absent or \"-\"");
  AddKbOption(cmd, &args->kb);
  AddLangOption(cmd, &args->lang);
  AddColorOption(cmd, &args->color);
  AddEnvOption(cmd, &args->env);
  AddStoreOption(cmd, &args->store);
  cmd->add_flag("--record-hits", args->record_hits,
                "Count what was identified in the store's hit statistics (kedb stats --hits)");
  cmd->add_flag("--json", args->json, "Print one JSON object: {\"matches\":[...],\"abstained\":bool}");
  cmd->add_option("--top", args->top, "How many matches to show")->check(CLI::Range(std::size_t{1}, app::kMaxTop));
  cmd->add_flag("--batch", args->batch, "Read JSON Lines {\"text\": ...} from stdin; write one result per line");
  cmd->footer(
      "Input: at most 16 MiB is matched. From longer input on stdin, the last 16 MiB\n"
      "(from a line start) are matched and a note goes to stderr; `kedb scan` reads\n"
      "a log of any size. With --batch, a line over 16 MiB gets an error result.\n"
      "Exit status: 0 a known error matched, 1 none, 2 error.\n"
      "Examples:\n"
      "  kedb match 'RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM'\n"
      "  kedb match traceback.txt        (a file holding the message; kedb scan FILE for a log)\n"
      "  python train.py 2>&1 | tail -50 | kedb match --json --env torch=2.2,os=linux");
  cmd->callback([args, exit_code]() {
    auto engine = OpenForQuery(args->kb);
    if (!engine) {
      *exit_code = kExitError;
      return;
    }
    // Observed rates, when outcomes were reported (a missing default store
    // means none were).
    bool store_failed = false;
    auto store = OpenStoreFor(args->store, /*only_if_present=*/!args->record_hits, "kedb match", &store_failed);
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
    if (args->batch) {
      *exit_code = RunBatch(*engine, std::move(q));
      return;
    }
    switch (SourceOf(args->text)) {
      case MatchSource::kText:
        q.text = args->text;
        break;
      case MatchSource::kStdin:
        ReadMessage(std::cin, &q.text);
        break;
      case MatchSource::kFile: {
        std::ifstream file(args->text, std::ios::binary);
        if (!file) {
          PrintError(fmt::format("kedb match: cannot read the file {}\n", args->text));
          *exit_code = kExitError;
          return;
        }
        ReadMessage(file, &q.text);
        if (file.bad()) {
          PrintError(fmt::format("kedb match: read error in {}\n", args->text));
          *exit_code = kExitError;
          return;
        }
        break;
      }
    }
    q.want_text = !args->json;
    *exit_code = Emit(app::MatchText(*engine, q), args->json, "kedb match");
  });
}

}  // namespace kedb::cli
