// --color and NO_COLOR: colour only where a person reads a terminal, and
// never in a file or a pipe unless asked for.
#include <cstdlib>

#include <gtest/gtest.h>

#include "test_util.h"

namespace kedb {
namespace {

using testing::RunKedb;

std::string Args() {
  return " --kb '" + (testing::SourceDir() / "kb").string() + "' '" +
         (testing::SourceDir() / "examples" / "train-cudnn.log").string() + "'";
}

constexpr std::string_view kRoot = "\x1b[1;31m · root error\x1b[0m";
constexpr std::string_view kId = "\x1b[1;36mcuda/cudnn-bn-epsilon-nan\x1b[0m";
constexpr std::string_view kRate = "\x1b[32m 95%\x1b[0m";  // a fix that usually works

TEST(Color, AskedForItColoursTheRootTheRecordAndTheRates) {
  auto r = RunKedb("scan --color always" + Args());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(kRoot), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(kId), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(kRate), std::string::npos) << r.out;
  auto match = RunKedb("match --color always --kb '" + (testing::SourceDir() / "kb").string() +
                       "' 'RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0'");
  EXPECT_NE(match.out.find(kId), std::string::npos) << match.out;
}

TEST(Color, AFileOrPipeGetsPlainText) {
  for (const char* flag : {"", " --color auto", " --color never"}) {
    auto r = RunKedb(std::string("scan") + flag + Args());
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << flag;
  }
  auto json = RunKedb("scan --json --color always" + Args());
  EXPECT_EQ(json.out.find('\x1b'), std::string::npos);  // JSON is for programs
}

// A terminal, through script(1): colour by default, none under NO_COLOR.
TEST(Color, OnATerminalNoColorTurnsItOff) {
  if (std::system("command -v script > /dev/null 2>&1") != 0) GTEST_SKIP() << "script(1) is not installed";
  auto tty = [](const std::string& env) {
    const std::string inner = env + " '" + KEDB_BINARY + "' scan" + Args();
    std::string quoted;
    for (char c : inner) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return testing::RunShell("script -qec '" + quoted + "' /dev/null");
  };
  EXPECT_NE(tty("TERM=xterm").out.find(kRoot), std::string::npos);
  EXPECT_EQ(tty("TERM=xterm NO_COLOR=1").out.find('\x1b'), std::string::npos);
  EXPECT_EQ(tty("TERM=dumb").out.find('\x1b'), std::string::npos);
}

}  // namespace
}  // namespace kedb
