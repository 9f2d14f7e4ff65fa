#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "app/new_record.h"
#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {

void RegisterNew(CLI::App& app, int* exit_code) {
  struct Args {
    std::string text, kb, id, domain, out;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("new", "Start a record from an error text: signature, a checked regex, a domain");
  cmd->add_option("TEXT", args->text, "The error as printed (default, or \"-\": standard input)");
  AddKbOption(cmd, &args->kb);
  cmd->add_option("--id", args->id, "The record's id (default: proposed from the domain and the message)");
  cmd->add_option("--domain", args->domain, "The record's domain (default: guessed)");
  cmd->add_option("--out", args->out, "Write DIR/<id>.json (never over an existing file) instead of standard output")
      ->type_name("DIR");
  cmd->footer(
      "Prints the skeleton record (JSON) on standard output and, on standard error, what was proposed and\n"
      "the records the text already matches. Exit status: 0 a new error, 1 the text matches a known\n"
      "record (the skeleton is written anyway), 2 no error line to build on.\n"
      "Example:\n"
      "  kedb new 'RuntimeError: CUDA error: an illegal memory access was encountered' --out kb/");
  cmd->callback([args, exit_code]() {
    app::NewRecordQuery q;
    q.text = args->text;
    if (q.text.empty() || q.text == "-") {
      q.text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    }
    q.id = args->id;
    q.domain = args->domain;
    auto engine = OpenForQuery(args->kb);
    if (!engine) {
      *exit_code = kExitError;
      return;
    }
    app::Answer a = app::NewRecordSkeleton(*engine, q);
    if (a.kind != app::Answer::Kind::kOk) {
      *exit_code = Emit(a, false, "kedb new");
      return;
    }
    std::string file_note;
    if (!args->out.empty()) {
      const std::string id = nlohmann::json::parse(a.json)["id"];
      const std::filesystem::path target = std::filesystem::path(args->out) / (id + ".json");
      std::error_code ec;
      if (std::filesystem::exists(target, ec)) {
        PrintError(fmt::format("kedb new: {} exists; give another --id, or edit that record\n", target.string()));
        *exit_code = kExitError;
        return;
      }
      std::filesystem::create_directories(target.parent_path(), ec);
      std::ofstream file(target, std::ios::binary);
      file << a.json;
      file.close();
      if (!file) {
        PrintError(fmt::format("kedb new: {}: cannot write\n", target.string()));
        *exit_code = kExitError;
        return;
      }
      file_note = fmt::format("Wrote {}\n", target.string());
    } else {
      Print(a.json);
    }
    PrintError(a.text + file_note);
    *exit_code = a.found ? kExitOk : kExitNothing;
  });
}

}  // namespace kedb::cli
