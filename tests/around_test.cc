// The lines around an error block: what the segmenter keeps of them
// (Block::lead and trail), and a scan reading a block no record explains
// again with them, as a paste of the error would have shown it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kedb/engine.h"
#include "logs/blocks.h"
#include "logs/preprocess.h"
#include "scan_util.h"
#include "segment_util.h"
#include "test_util.h"

namespace kedb {
namespace {

using logs::Block;
using logs::BlockSegmenter;
using testing::FromRecords;
using testing::MakeRecord;
using testing::ScanText;
using testing::Segment;
using testing::TempDir;


std::vector<std::string> Texts(const std::vector<Block::AroundLine>& lines) {
  std::vector<std::string> out;
  for (const auto& l : lines) out.push_back(std::to_string(l.line_no) + " " + l.text);
  return out;
}

// A block keeps the last few non-blank lines before it and the first few
// after it, blank lines skipped, each line cut to a bounded prefix.
TEST(Around, ABlockKeepsTheLinesBeforeAndAfterIt) {
  const std::string long_line(1000, 'x');
  const std::string log = "one\ntwo\n\nthree\nfour\nfive\n" + long_line +
                          "\nRuntimeError: boom\n\nsix\n2026-03-14T10:01:45.6306223Z seven\neight\nnine\nten\n";
  const std::vector<Block> blocks = Segment(log);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].decisive, "RuntimeError: boom");
  EXPECT_EQ(Texts(blocks[0].lead),
            (std::vector<std::string>{"4 three", "5 four", "6 five", "7 " + long_line.substr(0, BlockSegmenter::kAroundBytes)}));
  // The trail is read as cleaned: the GitHub Actions stamp is gone.
  EXPECT_EQ(Texts(blocks[0].trail), (std::vector<std::string>{"10 six", "11 seven", "12 eight", "13 nine"}));
  // A line is cut between characters, never inside one: "é" is two bytes
  // and the cut falls on an odd byte count after the "x".
  std::string accents = "x";
  for (int i = 0; i < 400; ++i) accents += "\u00e9";
  const std::vector<Block> cut = Segment(accents + "\nRuntimeError: boom\n");
  ASSERT_EQ(cut.size(), 1u);
  ASSERT_EQ(cut[0].lead.size(), 1u);
  EXPECT_EQ(cut[0].lead[0].text, accents.substr(0, BlockSegmenter::kAroundBytes - 1));
}

// Lines a person left out of a traceback they pasted ("...") carry it on,
// even when the elision line lacks the prefix the others have: the block
// ends at the exception line, not at the elision (from
// https://github.com/conbench/conbench/issues/815, under BuildKit's prefix
// inside a GitHub Actions log).
TEST(Around, AnElisionLineCarriesATracebackOn) {
  const std::vector<Block> blocks = Segment(
      "2025-10-14T16:16:04.746236Z #10 18.23 ERROR: Exception:\n"
      "2025-10-14T16:16:04.755862Z #10 18.23 Traceback (most recent call last):\n"
      "2025-10-14T16:16:04.757670Z ...\n"
      "2025-10-14T16:16:04.765358Z #10 18.23     raise ReadTimeoutError(self._pool, None, \"Read timed out.\")\n"
      "2025-10-14T16:16:04.768636Z #10 18.23 pip._vendor.urllib3.exceptions.ReadTimeoutError: "
      "HTTPSConnectionPool(host='files.pythonhosted.org', port=443): Read timed out.\n");
  const Block* traceback = nullptr;
  for (const Block& b : blocks) {
    if (b.kind == BlockKind::kPython) traceback = &b;
  }
  ASSERT_NE(traceback, nullptr);
  EXPECT_EQ(traceback->first_line, 2u);
  EXPECT_EQ(traceback->last_line, 5u);
  EXPECT_EQ(traceback->decisive_line, 5u);
  EXPECT_TRUE(traceback->decisive.starts_with("pip._vendor.urllib3.exceptions.ReadTimeoutError:")) << traceback->decisive;
  for (std::string_view elided : {"[...]", "(...)", "\u2026", "<snip>", "[truncated]"}) {
    const std::vector<Block> b = Segment("Traceback (most recent call last):\n  File \"a.py\", line 3, in <module>\n" +
                                         std::string(elided) + "\nKeyError: 'id'\n");
    ASSERT_EQ(b.size(), 1u) << elided;
    EXPECT_EQ(b[0].decisive, "KeyError: 'id'") << elided;
  }
}

// The step's exit status is the only error line, and the error it printed
// just before names no trigger word: the block is read with the lines
// before it and shown at the line that named the error (the text from
// https://github.com/docker-library/mysql/issues/698, in a BuildKit step).
TEST(Around, AnExitStatusIsShownAtTheErrorItsStepPrintedLast) {
  TempDir cache;
  auto e = FromRecords(cache, {MakeRecord("t/manifest", "no matching manifest for linux/amd64 in the manifest list entries",
                                          R"(no matching manifest for linux/amd64 in the manifest list)"),
                               MakeRecord("t/rate-limit", "toomanyrequests: You have reached your pull rate limit",
                                          R"(toomanyrequests: You have reached your pull rate limit)")});
  ASSERT_NE(e, nullptr);
  std::string log;
  for (int i = 0; i < 30; ++i) log += "#14 70." + std::to_string(100 + i) + "   Applying migration " + std::to_string(i) + "... OK\n";
  log += "#14 72.571 Using default tag: latest\n"
         "#14 72.580 latest: Pulling from library/mysql\n"
         "#14 72.585 no matching manifest for linux/arm64/v8 in the manifest list entries\n"
         "#14 ERROR: process \"/bin/sh -c python manage.py migrate --noinput\" did not complete successfully: exit code: 1\n";
  ScanResult r = ScanText(*e, log);
  ASSERT_FALSE(r.blocks.empty());
  const ErrorBlock& root = r.blocks[0];
  ASSERT_FALSE(root.matches.empty());
  EXPECT_EQ(root.matches[0].record->id, "t/manifest");
  EXPECT_EQ(root.matches[0].line, 33u);
  EXPECT_EQ(root.decisive_line, 33u);
  EXPECT_EQ(root.decisive, "no matching manifest for linux/arm64/v8 in the manifest list entries");
  EXPECT_EQ(root.first_line, 33u);
  EXPECT_EQ(root.last_line, 34u);

  // After hundreds of distinct errors no record knows (only the first and
  // last few of them are read with their surroundings), the step that
  // failed the job still is.
  std::string noisy;
  for (int i = 0; i < 300; ++i) {
    noisy += "ERROR shard ";
    noisy += static_cast<char>('a' + i % 26);  // names, not numbers: each a distinct error
    noisy += static_cast<char>('a' + i / 26);
    noisy += ": quantum flux misaligned\nok\n";
  }
  r = ScanText(*e, noisy + log);
  EXPECT_GT(r.blocks.size(), 300u);
  bool found = false;
  for (const ErrorBlock& b : r.blocks) found |= !b.matches.empty() && b.matches[0].record->id == "t/manifest";
  EXPECT_TRUE(found);

  // The same step printing nothing that reads like a known error: its exit
  // status stays unexplained.
  std::string other = log;
  other.replace(other.find("no matching manifest"), 20, "all migrations appli");
  r = ScanText(*e, other);
  ASSERT_FALSE(r.blocks.empty());
  EXPECT_TRUE(r.blocks[0].matches.empty());
  EXPECT_EQ(r.blocks[0].decisive_line, 34u);
}

// A line around an unexplained block that holds a known error of its own
// is not borrowed: the unexplained error stays unexplained, and the known
// one is reported once, on its own line.
TEST(Around, AKnownErrorNextToAnUnknownOneIsNotBorrowed) {
  TempDir cache;
  auto e = FromRecords(cache, {MakeRecord("t/rate-limit", "toomanyrequests: You have reached your pull rate limit",
                                          R"(toomanyrequests: You have reached your pull rate limit)")});
  ASSERT_NE(e, nullptr);
  const std::string log =
      "pulling base image\n"
      "Error response from daemon: toomanyrequests: You have reached your pull rate limit.\n"
      "ERROR frobnicator: quantum flux capacitor misaligned by 3 degrees\n"
      "done\n";
  ScanResult r = ScanText(*e, log);
  ASSERT_EQ(r.blocks.size(), 2u);
  std::size_t unknown = 0, known = 0;
  for (const ErrorBlock& b : r.blocks) {
    if (b.decisive.find("frobnicator") != std::string::npos) {
      ++unknown;
      EXPECT_TRUE(b.matches.empty());
    } else {
      ++known;
      ASSERT_FALSE(b.matches.empty());
      EXPECT_EQ(b.matches[0].line, 2u);
    }
  }
  EXPECT_EQ(unknown, 1u);
  EXPECT_EQ(known, 1u);
}

}  // namespace
}  // namespace kedb
