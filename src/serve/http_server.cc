#include "serve/http_server.h"

#include <pthread.h>
#include <sys/socket.h>
#include <signal.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <iostream>
#include <thread>

#include <fmt/format.h>
#include <httplib.h>

#include "serve/api.h"
#include "serve/assets.h"
#include "serve/mcp.h"

namespace kedb::serve {
namespace {

// A fixed set of workers with a bounded queue: when every worker is busy and
// the queue is full, the accepting thread waits, so the kernel's backlog
// absorbs a burst instead of our memory.
class BoundedPool : public httplib::TaskQueue {
 public:
  BoundedPool(std::size_t workers, std::size_t max_queued) : max_queued_(max_queued) {
    for (std::size_t i = 0; i < workers; ++i) threads_.emplace_back([this] { Work(); });
  }
  void enqueue(std::function<void()> fn) override {
    std::unique_lock<std::mutex> lock(mu_);
    room_.wait(lock, [&] { return jobs_.size() < max_queued_ || shutdown_; });
    if (shutdown_) return;
    jobs_.push_back(std::move(fn));
    ready_.notify_one();
  }
  void shutdown() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      shutdown_ = true;
    }
    ready_.notify_all();
    room_.notify_all();
    for (auto& t : threads_) t.join();
  }

 private:
  void Work() {
    for (;;) {
      std::function<void()> fn;
      {
        std::unique_lock<std::mutex> lock(mu_);
        ready_.wait(lock, [&] { return !jobs_.empty() || shutdown_; });
        if (jobs_.empty()) return;  // shut down and drained
        fn = std::move(jobs_.front());
        jobs_.pop_front();
      }
      room_.notify_one();
      fn();
    }
  }
  const std::size_t max_queued_;
  std::mutex mu_;
  std::condition_variable ready_, room_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  bool shutdown_ = false;
};

void Send(httplib::Response& res, const ApiReply& reply) {
  res.status = reply.status;
  if (!reply.allow.empty()) res.set_header("Allow", reply.allow);
  res.set_content(reply.body, reply.content_type.c_str());
}

ApiRequest ToApiRequest(const httplib::Request& req, std::string body = {}) {
  ApiRequest r;
  r.method = req.method;
  r.path = req.path;
  for (const auto& [k, v] : req.params) r.query.emplace_back(k, v);
  r.content_type = req.get_header_value("Content-Type");
  r.body = body.empty() ? req.body : std::move(body);
  return r;
}

// Bodies are read through a content reader rather than by the library: it
// would refuse an application/x-www-form-urlencoded body over 8 KiB with
// 413 (curl -d sends that type), and parse it as a form. The body limit
// (--max-body) still applies while reading; false when the read failed, and
// then the library has set the status.
bool ReadBody(const httplib::ContentReader& reader, std::string* body) {
  return reader([&](const char* data, std::size_t n) {
    body->append(data, n);
    return true;
  });
}

// The Streamable HTTP transport asks servers to refuse pages from other
// sites (DNS rebinding): an Origin, when sent, must be this host or loopback.
bool OriginAllowed(const httplib::Request& req) {
  if (!req.has_header("Origin")) return true;
  std::string origin = req.get_header_value("Origin");
  std::string host = req.get_header_value("Host");
  auto strip = [](std::string s) {
    if (auto p = s.find("://"); p != std::string::npos) s = s.substr(p + 3);
    if (s.rfind('[', 0) == 0) return s.substr(0, s.find(']') + 1);
    return s.substr(0, s.find(':'));
  };
  std::string o = strip(origin);
  return o == "localhost" || o == "127.0.0.1" || o == "[::1]" || o == strip(host);
}

void HandleMcp(const McpServer& mcp, const httplib::Request& req, httplib::Response& res, std::string_view body) {
  if (!OriginAllowed(req)) {
    Send(res, ErrorReply(403, "forbidden_origin", "Origin is not this server"));
    return;
  }
  if (req.method != "POST") {
    // No server-initiated stream: every reply comes back on its POST.
    ApiReply r = ErrorReply(405, "method_not_allowed", "this server answers MCP on POST only");
    r.allow = "POST";
    Send(res, r);
    return;
  }
  std::string version = req.get_header_value("MCP-Protocol-Version");
  if (!version.empty() && !IsSupportedMcpVersion(version)) {
    Send(res, ErrorReply(400, "bad_request", fmt::format("MCP-Protocol-Version {} is not supported", version)));
    return;
  }
  std::optional<std::string> reply = mcp.Handle(body);
  if (!reply) {
    res.status = 202;  // a notification or a reply: accepted, nothing to say
    return;
  }
  res.status = 200;
  res.set_content(*reply, "application/json");
}

// Waits for SIGHUP, SIGINT and SIGTERM (blocked in every thread, so only
// this one sees them) and acts outside any signal handler.
void SignalLoop(EngineSlot& slot, httplib::Server& server, const sigset_t& set) {
  for (;;) {
    int sig = 0;
    if (sigwait(&set, &sig) != 0) continue;
    if (sig == SIGHUP) {
      Status st = slot.Reload();
      if (st.ok()) {
        std::cerr << fmt::format("kedb serve: reloaded {} ({} records)\n", slot.info().kb_path, slot.info().records);
      } else {
        std::cerr << fmt::format("kedb serve: reload refused, still serving the previous knowledge base: {}\n",
                                 st.message());
      }
      continue;
    }
    server.stop();
    return;
  }
}

}  // namespace

Status RunHttpServer(EngineSlot& slot, const ServeOptions& options, const std::function<void(int)>& on_listening) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGHUP);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);  // before any thread starts, so all inherit it

  httplib::Server server;
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  // A worker holds a keep-alive connection for its whole life, so workers
  // bound the connections served at once, not the CPU used (the cores do
  // that); too few and the connections past them wait seconds.
  const std::size_t workers =
      options.threads > 0 ? static_cast<std::size_t>(options.threads) : std::max<std::size_t>(64, 16 * cores);
  server.new_task_queue = [workers] { return new BoundedPool(workers, 4 * workers); };
  server.set_payload_max_length(options.max_body_bytes);
  // Replies go out in two writes (headers, body); without TCP_NODELAY the
  // second waits for the client's delayed ACK, 40 ms a request.
  server.set_tcp_nodelay(true);
  // The library's default adds SO_REUSEPORT, which lets a second server bind
  // a port already served and quietly take half its connections. Only
  // SO_REUSEADDR, so a restart still binds while old sockets linger.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  server.set_keep_alive_max_count(100);  // then the connection makes way for waiting ones
  server.set_read_timeout(30);
  server.set_write_timeout(30);

  McpServer mcp(slot);
  auto api = [&slot](const httplib::Request& req, httplib::Response& res) { Send(res, HandleApi(slot, ToApiRequest(req))); };
  auto api_with_body = [&slot](const httplib::Request& req, httplib::Response& res,
                               const httplib::ContentReader& reader) {
    std::string body;
    if (!ReadBody(reader, &body)) return;
    Send(res, HandleApi(slot, ToApiRequest(req, std::move(body))));
  };
  auto asset_or_api = [&slot](const httplib::Request& req, httplib::Response& res) {
    if (const Asset* a = FindAsset(req.path)) {
      res.set_content(std::string(a->body), std::string(a->content_type).c_str());
      res.set_header("Cache-Control", "no-cache");
      return;
    }
    Send(res, HandleApi(slot, ToApiRequest(req)));
  };
  auto mcp_post = [&mcp](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
    std::string body;
    if (!ReadBody(reader, &body)) return;
    HandleMcp(mcp, req, res, body);
  };
  auto mcp_other = [&mcp](const httplib::Request& req, httplib::Response& res) { HandleMcp(mcp, req, res, req.body); };
  server.Post("/mcp", mcp_post);
  server.Get("/mcp", mcp_other);
  server.Delete("/mcp", mcp_other);
  server.Get(".*", asset_or_api);
  server.Post(".*", api_with_body);
  server.Put(".*", api_with_body);
  server.Delete(".*", api);
  server.Patch(".*", api_with_body);
  // Errors the library answers itself (413 past the body limit, 400 for a
  // malformed request line) still get a JSON body like every other error.
  server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    if (res.status == 413) {
      Send(res, ErrorReply(413, "payload_too_large", "the request body is over the server's limit (--max-body)"));
    } else {
      Send(res, ErrorReply(res.status, "bad_request", fmt::format("HTTP {}", res.status)));
    }
  });
  server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "unknown";
    try {
      std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    Send(res, ErrorReply(500, "internal", what));
  });

  int port = options.port;
  if (port == 0) {
    port = server.bind_to_any_port(options.host);
  } else if (!server.bind_to_port(options.host, port)) {
    port = -1;
  }
  if (port < 0) {
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    return Status::IoError(fmt::format("cannot listen on {}:{}", options.host, options.port));
  }
  std::thread signals([&] { SignalLoop(slot, server, set); });
  on_listening(port);
  server.listen_after_bind();
  // listen returned: either a signal stopped it (the loop has returned) or
  // it failed; wake the loop with SIGTERM to itself in the latter case.
  if (signals.joinable()) {
    pthread_kill(signals.native_handle(), SIGTERM);
    signals.join();
  }
  return Status::Ok();
}

}  // namespace kedb::serve
