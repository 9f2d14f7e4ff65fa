#include <iostream>
#include <iterator>

#include "app/mine.h"
#include "cli/commands.h"
#include "cli/common.h"

namespace kedb::cli {
namespace {

// Reads a whole document ("-": standard input), refusing one past the
// thread limit without holding it all.
Status ReadDocument(const std::string& path, std::string* text) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    if (Status st = OpenLog(path, &file); !st.ok()) return st;
    in = &file;
  }
  char buf[1 << 16];
  while (in->read(buf, sizeof buf) || in->gcount() > 0) {
    text->append(buf, static_cast<std::size_t>(in->gcount()));
    if (text->size() > app::kMaxThreadBytes) {
      return Status::InvalidArgument(fmt::format("more than {} bytes; mine one thread at a time", app::kMaxThreadBytes));
    }
  }
  if (in->bad()) return Status::IoError("read failed");
  return Status::Ok();
}

}  // namespace

void RegisterMine(CLI::App& app, int* exit_code) {
  struct Args {
    std::vector<std::string> files;
    std::string kb, lang = "en";
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("mine", "Turn an issue thread into a draft record for a curator");
  cmd->add_option("THREAD", args->files,
                  "The thread: text or Markdown as copied from a tracker, or GitHub's JSON (the issue object with "
                  "its comments, or the issue and the comments array as two files); '-' for standard input")
      ->required()
      ->expected(1, 2);
  AddKbOption(cmd, &args->kb);
  AddLangOption(cmd, &args->lang);
  cmd->add_flag("--json", args->json, "Print the draft record file (x_mined says where each field came from)");
  cmd->footer(
      "The draft has verification_tier \"mined\"; its rates are priors until outcomes are reported, and it has "
      "no Chinese text yet: `kedb lint` lists what still needs a person. Exit status: 0 a draft with a pattern, "
      "1 a draft without one (nothing in the thread reads as an error), 2 error.\n"
      "Examples:\n  kedb mine issue-1234.md --json > kb/mxnet/new-record.json\n"
      "  gh api repos/O/R/issues/N > issue.json; gh api repos/O/R/issues/N/comments > comments.json\n"
      "  kedb mine issue.json comments.json");
  cmd->callback([args, exit_code]() {
    app::MineQuery q;
    q.lang = ParseLang(args->lang);
    for (const std::string& path : args->files) {
      std::string text;
      if (Status st = ReadDocument(path, &text); !st.ok()) {
        PrintError(fmt::format("kedb mine: {}: {}\n", path, st.message()));
        *exit_code = kExitError;
        return;
      }
      q.documents.push_back(std::move(text));
    }
    auto engine = OpenForQuery(args->kb);
    if (!engine) {
      *exit_code = kExitError;
      return;
    }
    std::string what = "kedb mine: " + args->files.front();
    if (args->files.size() == 2) what += ", " + args->files.back();
    *exit_code = Emit(app::MineThread(*engine, q), args->json, what);
  });
}

}  // namespace kedb::cli
