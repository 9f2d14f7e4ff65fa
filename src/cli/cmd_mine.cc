#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <sys/wait.h>

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

constexpr std::size_t kMaxModelAnswer = 1u << 20;

// Runs `command` through the shell with `prompt` on its standard input and
// returns what it prints. The prompt goes through a private temporary file
// so a command that prints before it reads cannot deadlock on a pipe.
Result<std::string> AskModel(const std::string& command, const std::string& prompt) {
  char path[] = "/tmp/kedb-mine-prompt-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return Status::IoError("cannot create a temporary file for the prompt");
  const bool written = write(fd, prompt.data(), prompt.size()) == static_cast<ssize_t>(prompt.size());
  close(fd);
  if (!written) {
    unlink(path);
    return Status::IoError("cannot write the prompt");
  }
  FILE* pipe = popen(fmt::format("{} < '{}'", command, path).c_str(), "r");
  if (!pipe) {
    unlink(path);
    return Status::IoError(fmt::format("cannot run {}", command));
  }
  std::string out;
  char buf[1 << 14];
  std::size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0 && out.size() < kMaxModelAnswer) out.append(buf, n);
  const int status = pclose(pipe);
  unlink(path);
  if (out.size() >= kMaxModelAnswer) return Status::InvalidArgument("the command printed more than 1 MiB");
  if (status != 0) {
    return Status::IoError(fmt::format("the command failed (exit status {})", WIFEXITED(status) ? WEXITSTATUS(status) : -1));
  }
  return out;
}

}  // namespace

void RegisterMine(CLI::App& app, int* exit_code) {
  struct Args {
    std::vector<std::string> files;
    std::string kb, lang = "en", llm;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("mine", "Turn an issue thread into a draft record for a curator");
  cmd->add_option("THREAD", args->files,
                  "The thread: text or Markdown as copied from a tracker, or GitHub's JSON (the issue object with "
                  "its comments, or the issue and the comments array as two files); '-' for standard input")
      ->required()
      ->expected(1, 2)
      ->type_name("FILE");
  AddKbOption(cmd, &args->kb);
  AddLangOption(cmd, &args->lang);
  cmd->add_flag("--json", args->json, "Print the draft record file (x_mined says where each field came from)");
  cmd->add_option("--llm", args->llm,
                  "A shell command that reads a prompt on stdin and prints a JSON object (a local model runner): its "
                  "answer fills the cause, fixes, dead ends, Chinese text and category once it passes the record "
                  "schema, and x_mined.model says which fields it gave");
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
    if (!args->llm.empty()) {
      q.model_command = args->llm;
      q.ask_model = [command = args->llm](const std::string& prompt) { return AskModel(command, prompt); };
    }
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
