// kedb scan --follow: blocks answered as soon as they close, with line
// numbers in the whole log, repeats said as repeats, and the process that
// follows a growing file.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/live_scan.h"
#include "scan_util.h"
#include "test_util.h"

namespace kedb {
namespace {

const char* kTraceback =
    "Traceback (most recent call last):\n"
    "  File \"/srv/train/main.py\", line 187, in main\n"
    "    loss = criterion(model(images), labels)\n"
    "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0\n";

std::string Steps(int from, int n) {
  std::string out;
  for (int i = from; i < from + n; ++i) out += "INFO train: step " + std::to_string(i) + " loss=0.83\n";
  return out;
}

// The blocks of one flush's JSON line as (first line, best record or "").
std::vector<std::pair<int, std::string>> Answered(const app::Answer& a) {
  std::vector<std::pair<int, std::string>> out;
  EXPECT_EQ(a.message, "");
  if (!a.found) return out;
  const auto flush = nlohmann::json::parse(a.json);  // kept alive for the loop
  for (const auto& b : flush["blocks"]) {
    out.emplace_back(b["lines"][0].get<int>(), b["matches"].empty() ? "" : b["matches"][0]["id"].get<std::string>());
  }
  return out;
}

class LiveScanTest : public ::testing::Test {
 protected:
  void SetUp() override { engine_ = testing::Bundled(cache_); }
  testing::TempDir cache_;
  std::shared_ptr<const Engine> engine_;
};

TEST_F(LiveScanTest, ABlockIsAnsweredOnceTheLinesAfterItCloseIt) {
  app::MatchQuery q;
  q.source = "train.log";
  app::LiveScan live(*engine_, q);
  live.Add(Steps(1, 100));
  EXPECT_FALSE(live.Flush(false).found);  // nothing to answer for
  live.Add(kTraceback);
  EXPECT_FALSE(live.Flush(false).found);  // the traceback may go on
  live.Add(Steps(101, app::LiveScan::kSettleLines));
  const auto first = Answered(live.Flush(false));
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0], std::make_pair(101, std::string("cuda/cudnn-bn-epsilon-nan")));  // its line in the whole log
  // Later lines number on from there, and the same error again is a repeat.
  live.Add(Steps(200, 50));
  EXPECT_FALSE(live.Flush(false).found);
  live.Add(kTraceback);
  const app::Answer again = live.Flush(/*quiet=*/true);  // the writer paused: what is open is answered
  ASSERT_TRUE(again.found);
  const auto repeat = nlohmann::json::parse(again.json);
  EXPECT_TRUE(repeat["blocks"].empty()) << again.json;
  ASSERT_EQ(repeat["repeats"].size(), 1u) << again.json;
  EXPECT_EQ(repeat["repeats"][0]["lines"][0], 100 + 4 + 6 + 50 + 1);
  EXPECT_EQ(repeat["repeats"][0]["record"], "cuda/cudnn-bn-epsilon-nan");
  EXPECT_EQ(repeat["file"], "train.log");
  EXPECT_EQ(live.total().blocks, 1u);
  EXPECT_EQ(live.total().lines, 100u + 4 + 6 + 50 + 4);
}

TEST_F(LiveScanTest, LinesArrivingInPiecesAreJoinedAndAQuietFlushTakesTheLastOne) {
  app::MatchQuery q;
  app::LiveScan live(*engine_, q);
  const std::string text = Steps(1, 3) + kTraceback;
  const std::string unfinished = text.substr(0, text.size() - 1);  // the writer has not ended its last line
  for (std::size_t i = 0; i < unfinished.size(); i += 7) live.Add(std::string_view(unfinished).substr(i, 7));
  const auto blocks = Answered(live.Flush(true));
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].second, "cuda/cudnn-bn-epsilon-nan");
}

TEST_F(LiveScanTest, EachExampleLogFedInPiecesFindsWhatAScanOfTheFileFinds) {
  for (const char* name : {"train-cudnn.log", "nccl-timeout.log", "pytest-cuda.log", "failed-install.log"}) {
    const std::string log = testing::ReadFile(testing::SourceDir() / "examples" / name);
    app::MatchQuery q;
    app::LiveScan live(*engine_, q);
    std::vector<std::pair<int, std::string>> all;
    for (std::size_t i = 0; i < log.size(); i += 4096) {
      live.Add(std::string_view(log).substr(i, 4096));
      for (auto& b : Answered(live.Flush(false))) all.push_back(b);
    }
    for (auto& b : Answered(live.Flush(true))) all.push_back(b);
    std::vector<std::pair<int, std::string>> whole;
    for (const ErrorBlock& b : testing::ScanText(*engine_, log).blocks) {
      whole.emplace_back(static_cast<int>(b.first_line), b.matches.empty() ? "" : b.matches[0].record->id);
    }
    std::sort(all.begin(), all.end());
    std::sort(whole.begin(), whole.end());
    EXPECT_EQ(all, whole) << name;
  }
}

// The command itself, following a file another process writes to.
TEST(Follow, PrintsABlockWhileTheFileIsStillBeingWrittenAndStopsOnInterrupt) {
  testing::TempDir tmp;
  const auto log = tmp.path() / "train.log";
  const auto out = tmp.path() / "out";
  testing::WriteFile(log, Steps(1, 20));
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    const std::string kb = (testing::SourceDir() / "kb").string();
    execl(KEDB_BINARY, KEDB_BINARY, "scan", "--follow", log.c_str(), "--kb", kb.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  {
    std::ofstream append(log, std::ios::app);
    append << kTraceback << std::flush;
  }
  // The writer goes quiet: the block is answered while kedb keeps running.
  std::string printed;
  for (int i = 0; i < 300 && printed.find("cuda/cudnn-bn-epsilon-nan") == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    printed = testing::ReadFile(out);
  }
  EXPECT_NE(printed.find("lines 21-24 · Python traceback"), std::string::npos) << printed;
  EXPECT_NE(printed.find("cuda/cudnn-bn-epsilon-nan"), std::string::npos) << printed;
  int status = 0;
  EXPECT_EQ(waitpid(pid, &status, WNOHANG), 0);  // still following
  kill(pid, SIGINT);
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);  // a known error was found, as grep would say
}

TEST(Follow, APipeIsFollowedUntilItCloses) {
  const std::string text = Steps(1, 5) + kTraceback + Steps(6, 3);
  auto r = testing::RunKedb("scan --follow - --json --kb '" + (testing::SourceDir() / "kb").string() + "'", text);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto line = nlohmann::json::parse(r.out.substr(0, r.out.find('\n')));
  EXPECT_EQ(line["blocks"][0]["lines"][0], 6);
  EXPECT_NE(r.err.find("kedb: followed 12 lines: 1 error block(s), 1 known"), std::string::npos) << r.err;
  auto many = testing::RunKedb("scan --follow a.log b.log", "");
  EXPECT_EQ(many.exit_code, 2);
  EXPECT_NE(many.err.find("--follow reads one log"), std::string::npos) << many.err;
}

}  // namespace
}  // namespace kedb
