// `kedb serve` over real sockets, as an attacker or a careless client would
// use it: bodies past the limit (chunked or not), clients that send their
// request a byte at a time, more connections than allowed, odd bodies.
// Every server listens on loopback on a free port and is stopped at the end.
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "test_util.h"

namespace kedb {
namespace {

using namespace std::chrono_literals;

// `kedb serve --port 0 ARGS...` on the bundled knowledge base.
class LiveServer {
 public:
  explicit LiveServer(std::vector<std::string> extra) {
    int out[2];
    if (::pipe(out) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(out[1], 1);
      int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 2);
      std::vector<std::string> args = {KEDB_BINARY, "serve", "--kb", (testing::SourceDir() / "kb").string(),
                                       "--port", "0"};
      args.insert(args.end(), extra.begin(), extra.end());
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(out[1]);
    std::string line;
    char c;
    pollfd p{out[0], POLLIN, 0};
    while (::poll(&p, 1, 60000) == 1 && ::read(out[0], &c, 1) == 1 && c != '\n') line += c;
    ::close(out[0]);
    if (auto at = line.rfind(':'); line.starts_with("listening on ") && at != std::string::npos) {
      port_ = std::stoi(line.substr(at + 1));
    }
  }
  ~LiveServer() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  // The server's peak resident memory so far, in KiB.
  long PeakKiB() const {
    std::ifstream in(fmt::format("/proc/{}/status", pid_));
    std::string key;
    long value = -1;
    while (in >> key) {
      if (key == "VmHWM:") {
        in >> value;
        break;
      }
    }
    return value;
  }

 private:
  pid_t pid_ = -1;
  int port_ = -1;
};

// A client socket with a receive timeout, so a test that fails does not hang.
int Connect(int port, std::chrono::seconds recv_timeout = 10s) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return -1;
  }
  timeval tv{static_cast<time_t>(recv_timeout.count()), 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  int yes = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
  return fd;
}

// Sends all of `data`; false when the server closed or reset the connection.
bool SendAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// Reads until the server closes, the timeout passes or a whole reply with
// a Content-Length is in.
std::string ReadReply(int fd) {
  std::string out;
  char buf[65536];
  for (;;) {
    ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
    auto end = out.find("\r\n\r\n");
    auto cl = out.find("Content-Length: ");
    if (end != std::string::npos && cl != std::string::npos && cl < end) {
      std::size_t length = std::stoul(out.substr(cl + 16));
      if (out.size() >= end + 4 + length) break;
    }
  }
  return out;
}

int StatusOf(const std::string& reply) {
  return reply.starts_with("HTTP/1.1 ") && reply.size() >= 12 ? std::stoi(reply.substr(9, 3)) : -1;
}

// True when the server closes the connection within `wait`.
bool ClosedByServer(int fd, std::chrono::milliseconds wait) {
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, static_cast<int>(wait.count())) != 1) return false;
  char c;
  return ::recv(fd, &c, 1, MSG_DONTWAIT) <= 0;
}

std::string Request(int port, const std::string& raw) {
  int fd = Connect(port);
  if (fd < 0) return "";
  SendAll(fd, raw);
  std::string reply = ReadReply(fd);
  ::close(fd);
  return reply;
}

const std::string kMatchBody = R"({"text":"RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM"})";

std::string MatchRequest() {
  return fmt::format(
      "POST /v1/match HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
      kMatchBody.size(), kMatchBody);
}

TEST(ServeWireTest, AChunkedBodyPastTheLimitIsRefusedBeforeItIsStored) {
  LiveServer server({"--max-body", "1"});
  ASSERT_GT(server.port(), 0);
  long before = server.PeakKiB();
  int fd = Connect(server.port());
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(SendAll(fd, "POST /v1/scan HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
                          "Transfer-Encoding: chunked\r\n\r\n"));
  // 64 MiB in 64 KiB chunks; the server may stop reading long before.
  std::string chunk = fmt::format("{:x}\r\n{}\r\n", 65536, std::string(65536, 'x'));
  for (int i = 0; i < 1024 && SendAll(fd, chunk); ++i) {
  }
  std::string reply = ReadReply(fd);
  ::close(fd);
  EXPECT_EQ(StatusOf(reply), 413) << reply.substr(0, 300);
  EXPECT_NE(reply.find("payload_too_large"), std::string::npos);
  // Only about the limit was ever held, not the 64 MiB sent.
  EXPECT_LT(server.PeakKiB() - before, 16 * 1024) << "peak grew from " << before << " KiB";
}

TEST(ServeWireTest, ABodyWhoseLengthIsPastTheLimitIsRefusedUnread) {
  LiveServer server({"--max-body", "1"});
  ASSERT_GT(server.port(), 0);
  std::string reply = Request(server.port(),
                              "POST /v1/match HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
                              "Content-Length: 67108864\r\nExpect: 100-continue\r\n\r\n");
  EXPECT_EQ(StatusOf(reply), 413) << reply;
}

// 300 clients send their headers a byte at a time, as slowly as they dare,
// more than a thread-per-connection server has threads. An ordinary
// request must still be answered, and the slow ones are cut off at the
// header deadline however often they send a byte.
TEST(ServeWireTest, ClientsSendingHeadersSlowlyNeitherStallOthersNorStayForever) {
  LiveServer server({"--header-timeout", "2"});
  ASSERT_GT(server.port(), 0);
  std::vector<int> slow;
  for (int i = 0; i < 300; ++i) {
    int fd = Connect(server.port());
    ASSERT_GE(fd, 0) << "connection " << i;
    SendAll(fd, "P");
    slow.push_back(fd);
  }
  std::string reply = Request(server.port(), MatchRequest());
  EXPECT_EQ(StatusOf(reply), 200) << reply.substr(0, 300);
  // Keep trickling: a byte every half second for up to 6 s. A per-read
  // idle timer would never fire; the deadline must.
  std::size_t closed = 0;
  std::vector<bool> done(slow.size(), false);
  for (int round = 0; round < 12 && closed < slow.size(); ++round) {
    for (std::size_t i = 0; i < slow.size(); ++i) {
      if (done[i]) continue;
      if (!SendAll(slow[i], "O") || ClosedByServer(slow[i], 0ms)) {
        done[i] = true;
        ++closed;
      }
    }
    std::this_thread::sleep_for(500ms);
  }
  for (int fd : slow) ::close(fd);
  EXPECT_EQ(closed, slow.size());
}

TEST(ServeWireTest, APostWithoutLengthIsAnsweredAtOnce) {
  LiveServer server({});
  ASSERT_GT(server.port(), 0);
  int fd = Connect(server.port(), 5s);
  ASSERT_GE(fd, 0);
  SendAll(fd, "POST /v1/match HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\r\n");
  std::string reply = ReadReply(fd);
  ::close(fd);
  EXPECT_EQ(StatusOf(reply), 400) << reply;  // an empty body is not a JSON object
}

TEST(ServeWireTest, AMultipartBodyIsAnUnsupportedMediaType) {
  LiveServer server({});
  ASSERT_GT(server.port(), 0);
  std::string body = "--XyZ\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nCUDNN_STATUS_BAD_PARAM\r\n--XyZ--\r\n";
  std::string reply = Request(
      server.port(), fmt::format("POST /v1/match HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; "
                                 "boundary=XyZ\r\nContent-Length: {}\r\n\r\n{}",
                                 body.size(), body));
  EXPECT_EQ(StatusOf(reply), 415) << reply;
  EXPECT_NE(reply.find("unsupported_media_type"), std::string::npos) << reply;
}

TEST(ServeWireTest, ConnectionsPastTheLimitGet503AndTheRestAreServed) {
  LiveServer server({"--max-connections", "4"});
  ASSERT_GT(server.port(), 0);
  std::vector<int> held;
  for (int i = 0; i < 4; ++i) held.push_back(Connect(server.port()));
  std::this_thread::sleep_for(200ms);  // let the server accept them
  EXPECT_EQ(StatusOf(Request(server.port(), MatchRequest())), 503);
  ::close(held.back());
  held.pop_back();
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(StatusOf(Request(server.port(), MatchRequest())), 200);
  for (int fd : held) ::close(fd);
}

TEST(ServeWireTest, KeepAliveServesManyRequestsOnOneConnection) {
  LiveServer server({});
  ASSERT_GT(server.port(), 0);
  int fd = Connect(server.port());
  ASSERT_GE(fd, 0);
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(SendAll(fd, MatchRequest()));
    std::string reply = ReadReply(fd);
    ASSERT_EQ(StatusOf(reply), 200) << "request " << i << ": " << reply.substr(0, 200);
    EXPECT_NE(reply.find("cuda/cudnn"), std::string::npos);
  }
  ::close(fd);
}

TEST(ServeWireTest, ALongScanDoesNotHoldUpASmallMatch) {
  // One engine thread: before small requests were answered on the thread
  // that read them, this match queued behind the scan.
  LiveServer server({"--threads", "1", "--max-body", "256"});
  ASSERT_GT(server.port(), 0);
  std::string log;
  while (log.size() < (48u << 20)) {
    log += "2026-03-14T10:01:45.6306223Z RuntimeError: CUDA error: an illegal memory access was encountered\n"
           "2026-03-14T10:01:45.6306224Z step 1234 loss 0.25 lr 0.001 elapsed 12.5s\n";
  }
  int scan = Connect(server.port(), 120s);
  ASSERT_GE(scan, 0);
  ASSERT_TRUE(SendAll(scan, fmt::format("POST /v1/scan HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
                                        "Content-Length: {}\r\n\r\n{}",
                                        log.size(), log)));
  std::this_thread::sleep_for(100ms);  // the body is read; the scan is under way
  std::string match = Request(server.port(), MatchRequest());
  EXPECT_EQ(StatusOf(match), 200) << match;
  pollfd p{scan, POLLIN, 0};
  EXPECT_EQ(::poll(&p, 1, 0), 0) << "the match was answered only after the scan (or the scan was too short to tell)";
  EXPECT_EQ(StatusOf(ReadReply(scan)), 200);
  ::close(scan);
}

TEST(ServeWireTest, AMalformedRequestGets400AndHeadersPastTheLimitGet431) {
  LiveServer server({});
  ASSERT_GT(server.port(), 0);
  EXPECT_EQ(StatusOf(Request(server.port(), "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n")), 400);
  std::string big = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: " + std::string(100000, 'a') + "\r\n\r\n";
  EXPECT_EQ(StatusOf(Request(server.port(), big)), 431);
  EXPECT_EQ(StatusOf(Request(server.port(), "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")), 200);
}

}  // namespace
}  // namespace kedb
