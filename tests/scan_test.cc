// Scanning logs: streaming in bounded memory, line numbers, regions.
#include <sstream>

#include <gtest/gtest.h>

#include "kedb/engine.h"
#include "logs/line_chunker.h"
#include "test_util.h"

namespace kedb {
namespace {

using testing::TempDir;

TEST(LineChunker, KeepsLineNumbersAcrossChunks) {
  std::string log;
  for (int i = 1; i <= 1000; ++i) log += "line " + std::to_string(i) + "\n";
  std::istringstream in(log);
  logs::LineChunker chunker(in, /*chunk_bytes=*/100, /*max_line_bytes=*/64);
  logs::LineChunk chunk;
  std::size_t expected_line = 1, chunks = 0;
  while (chunker.Next(&chunk)) {
    ++chunks;
    EXPECT_EQ(chunk.first_line, expected_line);
    for (std::size_t i = 0; i < chunk.line_starts.size(); ++i) {
      std::string_view text(chunk.text);
      std::size_t b = chunk.line_starts[i];
      std::size_t e = text.find('\n', b);
      EXPECT_EQ(text.substr(b, e - b), "line " + std::to_string(expected_line));
      ++expected_line;
    }
  }
  EXPECT_EQ(expected_line, 1001u);
  EXPECT_GT(chunks, 50u);
}

// Lines of every length from 0 to 70 (empty lines, CRLF, a missing final
// newline), cut into chunks of many sizes, come back exactly.
TEST(LineChunker, EveryLineComesBackWhateverTheChunkSize) {
  std::string log;
  std::vector<std::string> want;
  for (int i = 0; i < 3000; ++i) {
    std::string line(static_cast<std::size_t>((i * 37) % 71), static_cast<char>('a' + i % 26));
    if (i % 7 == 0) line += '\r';
    want.push_back(line);
    log += line + "\n";
  }
  log += "tail";
  want.push_back("tail");
  for (std::size_t chunk_bytes : {1u, 15u, 16u, 17u, 100u, 4096u, 1u << 20}) {
    std::istringstream in(log);
    logs::LineChunker chunker(in, chunk_bytes, 1 << 20);
    logs::LineChunk chunk;
    std::vector<std::string> got;
    std::size_t next_line = 1;
    while (chunker.Next(&chunk)) {
      EXPECT_EQ(chunk.first_line, next_line);
      for (std::size_t i = 0; i < chunk.line_starts.size(); ++i) {
        std::size_t b = chunk.line_starts[i];
        std::size_t e = i + 1 < chunk.line_starts.size() ? chunk.line_starts[i + 1] : chunk.text.size();
        std::string line(chunk.text.substr(b, e - b));
        if (!line.empty() && line.back() == '\n') line.pop_back();
        got.push_back(line);
      }
      next_line += chunk.line_starts.size();
    }
    EXPECT_EQ(got, want) << "chunk_bytes " << chunk_bytes;
  }
}

TEST(LineChunker, OverlongLineKeepsItsHeadAndDropsTheRest) {
  std::string log = "first\n" + std::string(3 << 20, 'x') + "TAIL\nthird\nlast line without newline";
  std::istringstream in(log);
  logs::LineChunker chunker(in, 1 << 16, 1 << 20);
  logs::LineChunk chunk;
  std::vector<std::string> lines;
  std::size_t truncated = 0;
  while (chunker.Next(&chunk)) {
    truncated += chunk.truncated_lines;
    for (std::size_t i = 0; i < chunk.line_starts.size(); ++i) {
      std::size_t b = chunk.line_starts[i];
      std::size_t e = i + 1 < chunk.line_starts.size() ? chunk.line_starts[i + 1] : chunk.text.size();
      lines.emplace_back(chunk.text.substr(b, e - b));
    }
    EXPECT_LE(chunk.text.size(), (2u << 20));  // bounded, whatever the line length
  }
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(truncated, 1u);
  EXPECT_EQ(lines[1].size(), (1u << 20) + 1);
  EXPECT_EQ(lines[1].find("TAIL"), std::string::npos);
  EXPECT_EQ(lines[2], "third\n");
  EXPECT_EQ(lines[3], "last line without newline");
}

TEST(Scan, RegionsWithLineNumbers) {
  TempDir cache;
  auto engine = Engine::Open((testing::SourceDir() / "kb").string(), OpenOptions{.cache_dir = cache.path().string()});
  ASSERT_TRUE(engine.ok());
  std::string log;
  for (int i = 1; i <= 5000; ++i) log += "epoch 1 step " + std::to_string(i) + " loss=0.25\r\n";
  log += "Traceback (most recent call last):\n";
  log += "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0\n";
  for (int i = 1; i <= 100; ++i) log += "cleanup " + std::to_string(i) + "\n";
  log += "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED when calling cudnnRNNBackwardData_v8\n";
  std::istringstream in(log);
  std::vector<Region> regions;
  ScanSummary summary;
  ScanOptions options;
  ASSERT_TRUE((*engine)->Scan(in, options, [&](Region&& r) { regions.push_back(std::move(r)); }, &summary).ok());
  EXPECT_EQ(summary.lines, 5103u);
  ASSERT_EQ(regions.size(), 2u);
  EXPECT_EQ(regions[0].first_line, 5002u);
  EXPECT_EQ(regions[0].last_line, 5002u);
  ASSERT_EQ(regions[0].matches.size(), 2u);
  EXPECT_EQ(regions[0].matches[0].record->id, "cuda/cudnn-bn-epsilon-nan");
  EXPECT_EQ(regions[1].first_line, 5103u);
  EXPECT_EQ(regions[1].matches[0].record->id, "cuda/cudnn-rnn-double-backward");
  // Spans are offsets in the whole log.
  const Match& m = regions[1].matches[0];
  EXPECT_EQ(log.substr(m.begin, m.end - m.begin), "CUDNN_STATUS_NOT_SUPPORTED when calling cudnnRNNBackwardData");
}

TEST(Scan, BinaryGarbageIsHarmless) {
  TempDir cache;
  auto engine = Engine::Open((testing::SourceDir() / "kb").string(), OpenOptions{.cache_dir = cache.path().string()});
  ASSERT_TRUE(engine.ok());
  std::string junk;
  uint32_t x = 12345;
  for (int i = 0; i < 200000; ++i) {
    x = x * 1103515245 + 12345;
    junk.push_back(static_cast<char>(x >> 16));
  }
  junk += "\nCUDNN_STATUS_BAD_PARAM\n";
  std::istringstream in(junk);
  std::vector<Region> regions;
  ScanSummary summary;
  ASSERT_TRUE((*engine)->Scan(in, ScanOptions{}, [&](Region&& r) { regions.push_back(std::move(r)); }, &summary).ok());
  ASSERT_FALSE(regions.empty());
  EXPECT_EQ(regions.back().matches[0].record->id, "cuda/cudnn-batch-norm-bad-param");
}

}  // namespace
}  // namespace kedb
