// kedb: a known-error database. This file only wires subcommands together;
// each lives in its own cmd_*.cc.
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <csignal>
#include <string_view>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/common.h"

namespace {

// Loading a large knowledge base fills tens of megabytes of heap with small
// strings, and faulting that in 4 KiB page by page was a third of a cold
// start. The heap is grown in large steps and marked for transparent huge
// pages, so it faults in 2 MiB at a time where the kernel allows (THP
// "madvise" or "always"); elsewhere this changes nothing.
void PrepareHeap() {
  constexpr std::size_t kReserve = 96u << 20;
  // The block comes from the heap (not a separate mapping), goes back to
  // the heap's top when freed, and stays there (not trimmed), so the
  // allocations that follow reuse the advised range.
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kReserve + (1u << 20)));
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * kReserve));
  void* block = std::malloc(kReserve);
  if (!block) return;
  const std::uintptr_t huge = 2u << 20;
  auto begin = (reinterpret_cast<std::uintptr_t>(block) + huge - 1) & ~(huge - 1);
  auto end = (reinterpret_cast<std::uintptr_t>(block) + kReserve) & ~(huge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  std::free(block);
}

}  // namespace

int main(int argc, char** argv) {
  // Only for commands that start, answer and exit: the servers start once,
  // and there a heap kept whole in 2 MiB pages would only cost memory.
  const std::string_view command = argc > 1 ? argv[1] : "";
  if (command != "serve" && command != "mcp") PrepareHeap();
  std::signal(SIGPIPE, SIG_IGN);  // `kedb ... | head` must not die mid-write
  CLI::App app{"kedb: find known errors in text and logs, and say what fixes them", "kedb"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("kedb ") + kedb::cli::kVersion);
  app.footer("Run `kedb COMMAND --help` for a command's options and an example.");
  int exit_code = kedb::cli::kExitOk;
  kedb::cli::RegisterMatch(app, &exit_code);
  kedb::cli::RegisterScan(app, &exit_code);
  kedb::cli::RegisterSearch(app, &exit_code);
  kedb::cli::RegisterCluster(app, &exit_code);
  kedb::cli::RegisterShow(app, &exit_code);
  kedb::cli::RegisterChain(app, &exit_code);
  kedb::cli::RegisterStats(app, &exit_code);
  kedb::cli::RegisterLint(app, &exit_code);
  kedb::cli::RegisterImport(app, &exit_code);
  kedb::cli::RegisterMine(app, &exit_code);
  kedb::cli::RegisterNew(app, &exit_code);
  kedb::cli::RegisterReport(app, &exit_code);
  kedb::cli::RegisterExport(app, &exit_code);
  kedb::cli::RegisterServe(app, &exit_code);
  kedb::cli::RegisterMcp(app, &exit_code);
  kedb::cli::RegisterConsume(app, &exit_code);
  kedb::cli::RegisterCompletion(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kedb::cli::kExitError;
  } catch (const std::exception& e) {
    kedb::cli::PrintError(fmt::format("kedb: internal error: {}\n", e.what()));
    return kedb::cli::kExitError;
  }
  return exit_code;
}
