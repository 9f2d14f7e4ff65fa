#include <cstdlib>
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "serve/http_server.h"

namespace kedb::cli {

void RegisterServe(CLI::App& app, int* exit_code) {
  struct Args {
    std::string kb, host = "127.0.0.1", store, token_file;
    int port = 8080, threads = 0, max_connections = 0, header_timeout = 10, body_timeout = 30, write_rate = 600;
    std::size_t max_body_mib = 16;
    bool allow_empty = false, record_hits = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("serve", "Serve the HTTP API, MCP at /mcp and the web page at /");
  AddKbOption(cmd, &args->kb);
  cmd->add_option("--host", args->host, "Address to listen on");
  cmd->add_option("--port", args->port, "Port; 0 picks a free one")->check(CLI::Range(0, 65535));
  cmd->add_option("--max-body", args->max_body_mib, "Largest request body in MiB; larger ones get 413")
      ->check(CLI::Range(1, 4096));
  cmd->add_flag("--allow-empty", args->allow_empty,
                "Start (and reload) with a knowledge base that holds no record; without it that is an error");
  AddStoreOption(cmd, &args->store);
  cmd->add_flag("--record-hits", args->record_hits,
                "Count every match and scan answered in the store's hit statistics (GET /v1/stats/hits); each "
                "answer then waits for one more durable write");
  cmd->add_option("--token-file", args->token_file,
                  "File holding the token writes must carry (Authorization: Bearer TOKEN); default: $KEDB_TOKEN. "
                  "Without one, the server takes no reports")
      ->type_name("FILE");
  cmd->add_option("--write-rate", args->write_rate,
                  "Writes (reports, records) one client address may send a minute, after a burst of a sixth of "
                  "that; past it, 429 with Retry-After. 0: no limit")
      ->check(CLI::Range(0, 1000000));
  cmd->add_option("--threads", args->threads, "Threads answering requests (default: one per core)")
      ->check(CLI::Range(0, 1024));
  cmd->add_option("--max-connections", args->max_connections,
                  "Connections open at once; past it a new one gets 503 (default: 10000, or what the open-file limit "
                  "allows)")
      ->check(CLI::Range(0, 1000000));
  cmd->add_option("--header-timeout", args->header_timeout,
                  "Seconds a connection has to send a request's headers, or to start its next one")
      ->check(CLI::Range(1, 3600));
  cmd->add_option("--body-timeout", args->body_timeout, "Seconds a request has to send its body after its headers")
      ->check(CLI::Range(1, 3600));
  cmd->footer(
      "Prints \"listening on http://HOST:PORT\" once ready. SIGHUP reloads the knowledge base; a broken one is\n"
      "refused and the old one keeps serving. A knowledge base kept in a store (--kb postgresql://... or\n"
      "--kb sqlite:PATH, filled by `kedb import ... --into`) is reloaded whenever the store changes.\n"
      "SIGINT or SIGTERM stops.\n"
      "Example:\n"
      "  kedb serve --port 8080 &\n"
      "  curl -s localhost:8080/v1/match -d '{\"text\":\"CUDNN_STATUS_BAD_PARAM\"}'\n"
      "  curl -s localhost:8080/v1/outcomes -H \"Authorization: Bearer $KEDB_TOKEN\" \\\n"
      "    -d '{\"error_id\":\"cuda/cudnn-bn-epsilon-nan\",\"index\":1,\"outcome\":\"worked\"}'");
  cmd->callback([args, exit_code]() {
    std::string path = args->kb.empty() ? DefaultKbPath() : args->kb;
    serve::EngineSlot slot(path, CacheDirFor(path), args->allow_empty);
    if (Status st = slot.Reload(); !st.ok()) {
      PrintError(fmt::format("kedb serve: {}\n", st.message()));
      *exit_code = kExitError;
      return;
    }
    auto token = WriteToken(args->token_file);
    if (!token.ok()) {
      PrintError(fmt::format("kedb serve: {}\n", token.status().message()));
      *exit_code = kExitError;
      return;
    }
    // A store named on the command line must open; the default one is
    // optional (reads work without it, reports are then refused).
    bool store_failed = false;
    auto store = OpenStoreFor(args->store, /*only_if_present=*/false, "kedb serve", &store_failed);
    if (!store && !args->store.empty()) {
      *exit_code = kExitError;
      return;
    }
    slot.AttachStore(store.get(), *token, args->record_hits);
    if (args->write_rate > 0) slot.LimitWrites(std::make_unique<serve::WriteLimiter>(args->write_rate));
    bool follow_failed = false;
    auto follower = FollowStore(slot, "kedb serve", &follow_failed);
    if (follow_failed) {
      *exit_code = kExitError;
      return;
    }
    // Records kept in a store may be written over the API (with the token).
    std::unique_ptr<store::RecordStore> records;
    if (slot.from_store()) {
      auto opened = store::OpenRecordStore(path);
      if (!opened.ok()) {
        PrintError(fmt::format("kedb serve: {}\n", opened.status().message()));
        *exit_code = kExitError;
        return;
      }
      records = std::move(opened).value();
      slot.AttachRecords(records.get());
    }
    serve::ServeOptions options;
    options.host = args->host;
    options.port = args->port;
    options.engine_threads = args->threads;
    options.max_connections = args->max_connections;
    options.header_timeout_seconds = args->header_timeout;
    options.body_timeout_seconds = args->body_timeout;
    options.max_body_bytes = args->max_body_mib << 20;
    Status st = serve::RunHttpServer(slot, options, [&](int port) {
      std::cout << fmt::format("listening on http://{}:{}\n", args->host, port) << std::flush;
      std::cerr << fmt::format("kedb serve: {} records from {}{}\n", slot.info().records, store::RedactUrl(path),
                               follower ? fmt::format(" (revision {}, following its changes)", slot.info().revision) : "");
      if (slot.info().records == 0) std::cerr << "kedb serve: warning: the knowledge base is empty; nothing will match\n";
      if (slot.store() == nullptr) {
        std::cerr << "kedb serve: no outcome store: reports are off\n";
      } else {
        std::cerr << fmt::format("kedb serve: outcomes in {}; {}\n", slot.store()->Name(),
                                 slot.write_token().empty() ? "reports are off (no token)" : "reports need the token");
      }
    });
    if (!st.ok()) {
      PrintError(fmt::format("kedb serve: {}\n", st.message()));
      *exit_code = kExitError;
      return;
    }
    if (slot.info().full_compile_running) {
      // The compile behind a layered knowledge base can take a minute at a
      // million records. Dropping it loses nothing (the next start compiles
      // what it needs, and a half-written cache file is deleted then), so
      // the server stops now rather than wait.
      std::cerr << "kedb serve: stopped; the full compile running behind the layered knowledge base is dropped\n";
      std::cout.flush();
      std::cerr.flush();
      std::_Exit(kExitOk);
    }
    *exit_code = kExitOk;
  });
}

}  // namespace kedb::cli
