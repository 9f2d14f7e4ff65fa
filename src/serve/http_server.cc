#include "serve/http_server.h"

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>

#include "serve/beast_request.h"
#include "serve/http_router.h"

namespace kedb::serve {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Seconds = std::chrono::seconds;

constexpr std::size_t kHeaderLimit = 64u << 10;
// A connection may keep a read buffer this large between requests.
constexpr std::size_t kSmallBody = 64u << 10;
// After a refusal the rest of the request is read and dropped for at most
// this long, so the client sees the reply instead of a reset.
constexpr Seconds kLingerTime{2};
constexpr Seconds kWriteTimeout{30};

// What every connection shares.
struct ServerState {
  const HttpRouter& router;
  asio::thread_pool& engine_pool;
  const ServeOptions& options;
  std::size_t max_connections;
  std::atomic<std::size_t> connections{0};
};

// One connection: read a request, answer it here when it is quick or hand
// it to the engine pool, write the reply, and again while the client keeps
// the connection alive. All its
// handlers run on its own strand, so it needs no lock.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, ServerState& state) : stream_(std::move(socket)), state_(state) { ++state_.connections; }
  ~Session() { --state_.connections; }

  void Start() { ReadHeader(); }
  void RefuseAtOnce(int status, std::string_view code, std::string_view message) {
    Refuse(HttpError(status, code, message));
  }

 private:
  void ReadHeader() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(state_.options.max_body_bytes);
    stream_.expires_after(Seconds(state_.options.header_timeout_seconds));
    http::async_read_header(stream_, buffer_, *parser_,
                            beast::bind_front_handler(&Session::OnHeader, shared_from_this()));
  }

  void OnHeader(beast::error_code ec, std::size_t) {
    if (ec) return OnReadError(ec);
    const auto& head = parser_->get();
    if (parser_->is_done()) return Dispatch();
    // curl waits a second for this before sending a body over 1 KiB.
    if (beast::iequals(head[http::field::expect], "100-continue")) {
      auto cont = std::make_shared<http::response<http::empty_body>>(http::status::continue_, head.version());
      stream_.expires_after(kWriteTimeout);
      http::async_write(stream_, *cont, [self = shared_from_this(), cont](beast::error_code write_ec, std::size_t) {
        if (!write_ec) self->ReadBody();
      });
      return;
    }
    ReadBody();
  }

  void ReadBody() {
    // The buffer grows by at most its spare capacity a read; reserving up
    // front makes a large body a few big reads rather than many small ones.
    // Small bodies keep the buffer they have: allocating and freeing 64 KiB
    // a request made malloc grow and trim the heap on every one.
    std::size_t expected = parser_->content_length().value_or(0);
    if (expected > kSmallBody) buffer_.reserve(std::min<std::size_t>(expected, 1u << 20));
    stream_.expires_after(Seconds(state_.options.body_timeout_seconds));
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&Session::OnBody, shared_from_this()));
  }

  void OnBody(beast::error_code ec, std::size_t) {
    if (ec) return OnReadError(ec);
    Dispatch();
  }

  void OnReadError(beast::error_code ec) {
    if (ec == http::error::body_limit) {
      return Refuse(HttpError(413, "payload_too_large",
                              fmt::format("the request body is over the server's limit of {} MiB (--max-body)",
                                          state_.options.max_body_bytes >> 20)));
    }
    if (ec == http::error::header_limit) {
      return Refuse(HttpError(431, "headers_too_large",
                              fmt::format("the request headers are over {} KiB", kHeaderLimit >> 10)));
    }
    // The client closed, reset or ran out of time (the stream has closed the
    // socket then): nothing to answer.
    if (ec == http::error::end_of_stream || ec == http::error::partial_message ||
        &ec.category() != &beast::error_code(http::error::bad_target).category()) {
      return;
    }
    Refuse(HttpError(400, "bad_request", fmt::format("malformed HTTP request: {}", ec.message())));
  }

  void Dispatch() {
    http::request<http::string_body> req = parser_->release();
    parser_.reset();
    // An idle connection keeps no large buffer.
    if (buffer_.size() == 0 && buffer_.capacity() > kSmallBody) buffer_.shrink_to_fit();
    const bool keep_alive = req.keep_alive(), head = req.method() == http::verb::head;
    const unsigned version = req.version();
    HttpRequest request = FromBeast(std::move(req));
    beast::error_code peer_ec;
    const auto peer = stream_.socket().remote_endpoint(peer_ec);
    if (!peer_ec) request.peer = peer.address().to_string();
    // The engine's time is not the client's: no deadline until the write.
    stream_.expires_never();
    if (HttpRouter::IsQuick(request)) {
      return Write(state_.router.Route(request), keep_alive, head, version);
    }
    asio::post(state_.engine_pool, [self = shared_from_this(), request = std::move(request), keep_alive, head,
                                    version]() mutable {
      HttpReply reply = self->state_.router.Route(request);
      asio::post(self->stream_.get_executor(), [self, reply = std::move(reply), keep_alive, head, version]() mutable {
        self->Write(std::move(reply), keep_alive, head, version);
      });
    });
  }

  void Write(HttpReply reply, bool keep_alive, bool head, unsigned version) {
    response_ = MakeResponse(std::move(reply), version);
    response_.keep_alive(keep_alive);
    if (head) {
      std::size_t length = response_.body().size();
      response_.body().clear();
      response_.content_length(length);
    }
    stream_.expires_after(kWriteTimeout);
    http::async_write(stream_, response_, beast::bind_front_handler(&Session::OnWrite, shared_from_this()));
  }

  void OnWrite(beast::error_code ec, std::size_t) {
    if (ec) return;
    if (!response_.keep_alive()) {
      beast::error_code ignored;
      stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
      return;
    }
    response_ = {};
    ReadHeader();
  }

  // Answers with `reply` and closes: the request cannot be read on.
  void Refuse(HttpReply reply) {
    response_ = MakeResponse(std::move(reply), 11);
    response_.keep_alive(false);
    stream_.expires_after(kWriteTimeout);
    http::async_write(stream_, response_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (!ec) self->Linger();
    });
  }

  // Half-closes, then reads and drops what the client still sends until it
  // closes or the linger time is up. Closing at once with unread bytes
  // would make the kernel send a reset, which can destroy the reply before
  // the client reads it.
  void Linger() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    buffer_.clear();
    buffer_.shrink_to_fit();
    stream_.expires_after(kLingerTime);
    Drain();
  }
  void Drain() {
    if (!drain_) drain_ = std::make_unique<std::array<char, 16384>>();
    stream_.async_read_some(asio::buffer(*drain_), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (!ec) self->Drain();
    });
  }

  static http::response<http::string_body> MakeResponse(HttpReply reply, unsigned version) {
    http::response<http::string_body> res{static_cast<http::status>(reply.status), version};
    if (!reply.content_type.empty()) res.set(http::field::content_type, reply.content_type);
    for (auto& [name, value] : reply.headers) res.set(name, value);
    res.body() = std::move(reply.body);
    res.prepare_payload();
    return res;
  }

  beast::tcp_stream stream_;
  ServerState& state_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
  std::unique_ptr<std::array<char, 16384>> drain_;  // only while lingering: idle sessions stay small
};

// Accepts connections on several pending accepts at once, so a burst of
// new connections is taken up by every I/O thread rather than one.
class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(asio::io_context& io, std::unique_ptr<tcp::acceptor> acceptor, ServerState& state)
      : io_(io), acceptor_(std::move(acceptor)), state_(state) {}

  void Start(int pending) {
    for (int i = 0; i < pending; ++i) Accept();
  }

 private:
  void Accept() {
    acceptor_->async_accept(asio::make_strand(io_), beast::bind_front_handler(&Listener::OnAccept, shared_from_this()));
  }

  void OnAccept(beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (ec) {
      // Out of file descriptors or similar: pause instead of spinning; the
      // kernel's backlog holds the connections meanwhile.
      auto timer = std::make_shared<asio::steady_timer>(io_, std::chrono::milliseconds(50));
      timer->async_wait([self = shared_from_this(), timer](beast::error_code) { self->Accept(); });
      return;
    }
    beast::error_code ignored;
    socket.set_option(tcp::no_delay(true), ignored);
    auto session = std::make_shared<Session>(std::move(socket), state_);
    if (state_.connections > state_.max_connections) {
      session->RefuseAtOnce(503, "too_many_connections",
                            fmt::format("the server has {} connections open, its limit", state_.max_connections));
    } else {
      session->Start();
    }
    Accept();
  }

  asio::io_context& io_;
  std::unique_ptr<tcp::acceptor> acceptor_;
  ServerState& state_;
};

// As many file descriptors as the hard limit allows; returns the limit.
std::size_t RaiseOpenFileLimit() {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return 1024;
  if (lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
    getrlimit(RLIMIT_NOFILE, &lim);
  }
  return lim.rlim_cur;
}

Status Bind(asio::io_context& io, const ServeOptions& options, tcp::acceptor* acceptor, bool* loopback_only) {
  beast::error_code ec;
  tcp::resolver resolver(io);
  auto endpoints = resolver.resolve(options.host, std::to_string(options.port), tcp::resolver::passive, ec);
  if (ec || endpoints.empty()) {
    return Status::IoError(fmt::format("cannot listen on {}:{}: {}", options.host, options.port,
                                       ec ? ec.message() : "no such address"));
  }
  tcp::endpoint endpoint = endpoints.begin()->endpoint();
  acceptor->open(endpoint.protocol(), ec);
  // SO_REUSEADDR, so a restart binds while old sockets linger; not
  // SO_REUSEPORT, which would let a second server take half our connections.
  if (!ec) acceptor->set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor->bind(endpoint, ec);
  if (!ec) acceptor->listen(4096, ec);  // the kernel caps it at net.core.somaxconn
  if (ec) return Status::IoError(fmt::format("cannot listen on {}:{}: {}", options.host, options.port, ec.message()));
  *loopback_only = endpoint.address().is_loopback();
  return Status::Ok();
}

// Waits for SIGHUP, SIGINT and SIGTERM (blocked in every thread, so only
// this one sees them) and acts outside any signal handler. A reload runs
// here, off the I/O threads, and requests keep being answered meanwhile.
void SignalLoop(EngineSlot& slot, asio::io_context& io, const sigset_t& set) {
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
    io.stop();
    return;
  }
}

std::size_t OrCores(int n) {
  return n > 0 ? static_cast<std::size_t>(n) : std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

Status RunHttpServer(EngineSlot& slot, const ServeOptions& options, const std::function<void(int)>& on_listening) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGHUP);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);  // before any thread starts, so all inherit it

  const std::size_t io_threads = OrCores(options.io_threads);
  // Destroyed by hand below, before the state its connections point to.
  auto io = std::make_unique<asio::io_context>(static_cast<int>(io_threads));
  auto acceptor = std::make_unique<tcp::acceptor>(*io);
  bool loopback_only = false;
  if (Status st = Bind(*io, options, acceptor.get(), &loopback_only); !st.ok()) {
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    return st;
  }
  const int port = acceptor->local_endpoint().port();

  // Each connection takes one descriptor; keep some for the knowledge base,
  // logs and reloads.
  const std::size_t fd_limit = RaiseOpenFileLimit();
  const std::size_t fd_room = fd_limit > 256 ? fd_limit - 128 : fd_limit / 2;
  const std::size_t max_connections =
      options.max_connections > 0 ? static_cast<std::size_t>(options.max_connections) : std::min<std::size_t>(10000, fd_room);

  HttpRouter router(slot, loopback_only);
  asio::thread_pool engine_pool(OrCores(options.engine_threads));
  ServerState state{router, engine_pool, options, max_connections};
  std::make_shared<Listener>(*io, std::move(acceptor), state)->Start(static_cast<int>(2 * io_threads + 4));

  std::thread signals([&] { SignalLoop(slot, *io, set); });
  on_listening(port);
  std::vector<std::thread> threads;
  for (std::size_t i = 1; i < io_threads; ++i) threads.emplace_back([&] { io->run(); });
  io->run();
  for (auto& t : threads) t.join();
  signals.join();
  // Requests the engine is answering finish; then the connections, which
  // live in `io`'s pending handlers, go with it.
  engine_pool.stop();
  engine_pool.join();
  io.reset();
  return Status::Ok();
}

}  // namespace kedb::serve
