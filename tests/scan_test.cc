// Scanning logs: streaming in bounded memory, line numbers, regions.
#include <algorithm>
#include <sstream>

#include <gtest/gtest.h>

#include "kedb/engine.h"
#include "logs/line_chunker.h"
#include "engine/engine_impl.h"
#include "match/pattern_set.h"
#include "render/render.h"
#include "scan_util.h"
#include "test_util.h"

namespace kedb {
namespace {

using testing::Bundled;
using testing::FromRecords;
using testing::ScanText;
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

// Every line of `log` as the chunker gives it, with the chunks' counts of
// cut lines, their line numbers checked on the way.
struct ChunkedLines {
  std::vector<std::string> lines;
  std::size_t truncated = 0;
  std::size_t max_chunk_bytes = 0;
  // For each cut line: the input offset of its kept tail.
  std::vector<std::size_t> tail_offsets;
};
ChunkedLines ReadChunked(const std::string& log, std::size_t chunk_bytes, std::size_t max_line_bytes) {
  std::istringstream in(log);
  logs::LineChunker chunker(in, chunk_bytes, max_line_bytes);
  logs::LineChunk chunk;
  ChunkedLines out;
  while (chunker.Next(&chunk)) {
    EXPECT_EQ(chunk.first_line, out.lines.size() + 1);
    out.truncated += chunk.has_cut_line();
    out.max_chunk_bytes = std::max(out.max_chunk_bytes, chunk.text.size());
    if (chunk.has_cut_line()) out.tail_offsets.push_back(chunk.first_offset + chunk.tail_at + chunk.tail_shift);
    for (std::size_t i = 0; i < chunk.line_starts.size(); ++i) {
      std::size_t b = chunk.line_starts[i];
      std::size_t e = i + 1 < chunk.line_starts.size() ? chunk.line_starts[i + 1] : chunk.text.size();
      out.lines.emplace_back(chunk.text.substr(b, e - b));
    }
  }
  return out;
}

// A 3 MiB line keeps its first and last half MiB, joined by a marker; the
// lines after it keep their numbers, and the chunk stays bounded.
TEST(LineChunker, OverlongLineKeepsItsHeadAndTail) {
  const std::string middle(3 << 20, 'x');
  const std::string log = "first\nHEAD" + middle + "TAIL\nthird\nlast line without newline";
  ChunkedLines got = ReadChunked(log, 1 << 16, 1 << 20);
  ASSERT_EQ(got.lines.size(), 4u);
  EXPECT_EQ(got.truncated, 1u);
  EXPECT_LE(got.max_chunk_bytes, (1u << 20) + 1);  // bounded, whatever the line length
  const std::string& cut = got.lines[1];
  EXPECT_EQ(cut.size(), (1u << 20) + 1);
  EXPECT_EQ(cut.rfind("HEAD", 0), 0u);
  EXPECT_EQ(cut.substr(cut.size() - 5), "TAIL\n");
  EXPECT_NE(cut.find(logs::LineChunker::kCutMarker), std::string::npos);
  EXPECT_EQ(got.lines[2], "third\n");
  EXPECT_EQ(got.lines[3], "last line without newline");
  // The tail's input offset is where its bytes are in the input.
  ASSERT_EQ(got.tail_offsets.size(), 1u);
  const std::size_t tail_bytes = cut.size() - 1 - (cut.find(logs::LineChunker::kCutMarker) +
                                                    logs::LineChunker::kCutMarker.size());
  EXPECT_EQ(got.tail_offsets[0], log.find("\nthird") - tail_bytes);
}

// The limit is on a line's text, its newline aside: a line of exactly the
// limit is whole, one byte more is cut. So is a last line with no newline,
// and a line that starts a chunk after many short ones.
TEST(LineChunker, TheLimitIsOnTheLinesText) {
  const std::size_t limit = 1000;
  for (std::size_t chunk_bytes : {64u, 4096u, 1u << 20}) {
    SCOPED_TRACE(chunk_bytes);
    std::string shorts;
    for (int i = 0; i < 200; ++i) shorts += "short line " + std::to_string(i) + "\n";
    const std::string exact(limit, 'a'), over(limit + 1, 'b');
    ChunkedLines got = ReadChunked(shorts + exact + "\n" + over + "\n" + "end\n" + over, chunk_bytes, limit);
    ASSERT_EQ(got.lines.size(), 204u);
    EXPECT_EQ(got.truncated, 2u);
    EXPECT_EQ(got.lines[200], exact + "\n");
    EXPECT_EQ(got.lines[201].size(), limit + 1);  // head, marker and tail fill the limit
    EXPECT_NE(got.lines[201], over + "\n");
    EXPECT_EQ(got.lines[202], "end\n");
    EXPECT_EQ(got.lines[203].size(), limit + 1);  // cut at the end of the input: a newline is added
  }
}

// Chunks matched on several threads give the one-thread result, block for
// block and match for match, whatever falls on a chunk's edge.
TEST(Scan, ThreadsDoNotChangeTheResult) {
  TempDir cache;
  auto engine = Bundled(cache);
  ASSERT_TRUE(engine);
  std::vector<std::string> examples;
  for (const char* name : {"train-cudnn.log", "nccl-timeout.log", "pytest-cuda.log", "failed-install.log"}) {
    examples.push_back(testing::ReadFile(testing::SourceDir() / "examples" / name));
    ASSERT_FALSE(examples.back().empty()) << name;
  }
  // About 5 MB: the examples again and again, shifted by a varying run of
  // noise so that tracebacks and repeats straddle the 1 MB chunk edges.
  std::string log;
  for (int round = 0; log.size() < (5u << 20); ++round) {
    for (int i = 0; i < 37 * (round % 7); ++i) log += "\x1b[32mINFO\x1b[0m step " + std::to_string(i) + " ok\n";
    log += examples[static_cast<std::size_t>(round) % examples.size()];
  }
  auto scan = [&](std::size_t threads) {
    std::istringstream in(log);
    ScanOptions options;
    options.threads = threads;
    ScanResult result;
    EXPECT_TRUE(engine->Scan(in, options, &result).ok());
    return result;
  };
  const ScanResult one = scan(1);
  ASSERT_GT(one.summary.known, 3u);
  const std::string want = RenderScanJson(one, Lang::kEn);
  for (std::size_t threads : {2u, 3u, 8u}) {
    const ScanResult many = scan(threads);
    EXPECT_EQ(many.summary.lines, one.summary.lines) << threads << " threads";
    EXPECT_EQ(many.summary.bytes, log.size()) << threads << " threads";
    // The whole report, byte for byte; on a difference, where it starts.
    const std::string got = RenderScanJson(many, Lang::kEn);
    const auto diff = std::mismatch(got.begin(), got.end(), want.begin(), want.end());
    const std::size_t at = static_cast<std::size_t>(diff.first - got.begin());
    EXPECT_TRUE(got == want) << threads << " threads: reports differ from byte " << at << ": \""
                             << got.substr(at > 80 ? at - 80 : 0, 160) << "\" against \""
                             << want.substr(at > 80 ? at - 80 : 0, 160) << "\"";
  }
}

TEST(Scan, BlocksWithLineNumbersAndSpans) {
  TempDir cache;
  auto engine = Bundled(cache);
  ASSERT_TRUE(engine);
  std::string log;
  for (int i = 1; i <= 5000; ++i) log += "epoch 1 step " + std::to_string(i) + " loss=0.25\r\n";
  log += "Traceback (most recent call last):\n";
  log += "  File \"train.py\", line 9, in <module>\n";
  log += "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0\n";
  for (int i = 1; i <= 100; ++i) log += "cleanup " + std::to_string(i) + "\n";
  log += "2026-03-14T09:12:01.123Z RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED when calling "
         "cudnnRNNBackwardData_v8\n";
  ScanResult r = ScanText(*engine, log);
  EXPECT_EQ(r.summary.lines, 5104u);
  ASSERT_EQ(r.blocks.size(), 2u);
  const ErrorBlock& tb = r.blocks[0];
  EXPECT_TRUE(tb.root);
  EXPECT_EQ(tb.kind, BlockKind::kPython);
  EXPECT_EQ(tb.first_line, 5001u);
  EXPECT_EQ(tb.last_line, 5003u);
  EXPECT_EQ(tb.decisive_line, 5003u);
  ASSERT_GE(tb.matches.size(), 2u);
  EXPECT_EQ(tb.matches[0].record->id, "cuda/cudnn-bn-epsilon-nan");
  EXPECT_EQ(tb.matches[1].record->id, "cuda/cudnn-batch-norm-bad-param");
  const ErrorBlock& second = r.blocks[1];
  EXPECT_FALSE(second.root);
  EXPECT_EQ(second.first_line, 5104u);
  EXPECT_EQ(second.matches[0].record->id, "cuda/cudnn-rnn-double-backward");
  // Spans are offsets in the whole log, past the stripped timestamp.
  const Match& m = second.matches[0];
  EXPECT_EQ(log.substr(m.begin, m.end - m.begin), "CUDNN_STATUS_NOT_SUPPORTED when calling cudnnRNNBackwardData");
}

// An error printed at the end of a line far over 1 MiB (here it crosses
// the 1 MiB mark) is found on that line, with its span in the input, and
// the lines after it keep their numbers.
TEST(Scan, AnErrorAtTheEndOfAnOverlongLineIsFound) {
  TempDir cache;
  auto engine = Bundled(cache);
  ASSERT_TRUE(engine);
  const std::string error = "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED when calling cudnnRNNBackwardData_v8";
  std::string log = "step 1\n" + std::string((1u << 20) - 20, '.') + error + "\n";
  log += "RuntimeError: CUDA error: out of memory\n";
  ScanResult r = ScanText(*engine, log);
  EXPECT_EQ(r.summary.lines, 3u);
  EXPECT_EQ(r.summary.bytes, log.size());
  EXPECT_EQ(r.summary.truncated_lines, 1u);
  const ErrorBlock* cut = nullptr;
  const ErrorBlock* oom = nullptr;
  for (const auto& b : r.blocks) {
    if (b.decisive_line == 2) cut = &b;
    if (b.decisive_line == 3) oom = &b;
  }
  ASSERT_NE(cut, nullptr);
  ASSERT_FALSE(cut->matches.empty());
  EXPECT_EQ(cut->matches[0].record->id, "cuda/cudnn-rnn-double-backward");
  const Match& m = cut->matches[0];
  EXPECT_EQ(log.substr(m.begin, m.end - m.begin), "CUDNN_STATUS_NOT_SUPPORTED when calling cudnnRNNBackwardData");
  ASSERT_NE(oom, nullptr);
  ASSERT_FALSE(oom->matches.empty());
  EXPECT_EQ(log.substr(oom->matches[0].begin, 10), "CUDA error");
}

// A repeated error is one block with a count; an error nobody knows is
// still reported, with no match.
TEST(Scan, RepeatsAreCountedAndUnknownErrorsShown) {
  TempDir cache;
  auto engine = Bundled(cache);
  ASSERT_TRUE(engine);
  std::string log;
  for (int rank = 0; rank < 8; ++rank) {
    log += "[rank" + std::to_string(rank) + "]:RuntimeError: CUDA error: an illegal memory access was encountered\n";
    log += "step " + std::to_string(rank) + " ok\n\n\n\n\n";
  }
  log += "ERROR frobnicator: quantum flux capacitor misaligned by 3 degrees\n";
  ScanResult r = ScanText(*engine, log);
  ASSERT_EQ(r.blocks.size(), 2u);
  EXPECT_EQ(r.blocks[0].count, 8u);
  EXPECT_EQ(r.blocks[0].matches[0].record->id, "cuda/illegal-memory-access");
  EXPECT_EQ(r.blocks[1].kind, BlockKind::kErrorLine);
  EXPECT_TRUE(r.blocks[1].matches.empty());
  EXPECT_EQ(r.summary.known, 1u);
}

// Outside any error block, hits that differ only in numbers and addresses
// are one error seen twice, as they are inside blocks (util/up_to_numbers.h).
TEST(Scan, RepeatsOutsideBlocksIgnoreAddresses) {
  TempDir cache;
  auto e = FromRecords(cache, {testing::MakeRecord("t/double-final", "object finalized twice",
                                                   R"(object at 0x[0-9a-f]+ finalized twice)")});
  ASSERT_NE(e, nullptr);
  const std::string log =
      "start\nGC: object at 0x7f3a9c001a20 finalized twice\nok\nok\nok\nok\nok\n"
      "GC: object at 0x55d0c0ffee10 finalized twice\nend\n";
  ScanResult r = ScanText(*e, log);
  ASSERT_EQ(r.blocks.size(), 1u);
  EXPECT_EQ(r.blocks[0].kind, BlockKind::kMatch);
  EXPECT_EQ(r.blocks[0].count, 2u);
  EXPECT_EQ(r.blocks[0].first_line, 2u);
}

// Neighbouring one-line reports of the same known error read as one block.
TEST(Scan, NeighbouringReportsOfOneErrorAreOneBlock) {
  TempDir cache;
  auto engine = Bundled(cache);
  ASSERT_TRUE(engine);
  ScanResult r = ScanText(*engine,
                          "  ERROR: Failed building wheel for flash-attn\n"
                          "  Running setup.py clean for flash-attn\n"
                          "Failed to build flash-attn\n"
                          "ERROR: Could not build wheels for flash-attn, which is required to install "
                          "pyproject.toml-based projects\n"
                          "ok\nok\nok\nok\nok\nok\n"
                          "ERROR: Failed building wheel for flash-attn==2.5.7\n");
  ASSERT_EQ(r.blocks.size(), 2u);
  EXPECT_EQ(r.blocks[0].first_line, 1u);
  EXPECT_EQ(r.blocks[0].last_line, 4u);
  EXPECT_EQ(r.blocks[0].matches[0].record->id, "install/flash-attn-build-failed");
  EXPECT_EQ(r.blocks[1].first_line, 11u);  // too far to be the same report
}

// An error block is read as a whole, as `kedb match` reads a paste: npm's
// report says ERESOLVE on one line and what did not resolve on others.
TEST(Scan, AnErrorBlockIsReadAsAWhole) {
  TempDir cache;
  auto e =
      FromRecords(cache, {testing::MakeRecord("t/peer", "npm error ERESOLVE could not resolve peer dependency",
                                              R"(ERESOLVE could not resolve peer)"),
                          testing::MakeRecord("t/other", "Segmentation fault (core dumped)", "Segmentation fault")});
  ASSERT_NE(e, nullptr);
  ScanResult r = ScanText(*e,
                          "installing\n"
                          "npm ERR! code ERESOLVE\n"
                          "npm ERR! ERESOLVE unable to resolve dependency tree\n"
                          "npm ERR! Found: react@19.0.0\n"
                          "npm ERR! Could not resolve dependency:\n"
                          "npm ERR! peer react@\"^18.0.0\" from @testing-library/react@13.4.0\n"
                          "done\n");
  ASSERT_EQ(r.blocks.size(), 1u);
  EXPECT_EQ(r.blocks[0].kind, BlockKind::kNpm);
  ASSERT_FALSE(r.blocks[0].matches.empty());
  EXPECT_EQ(r.blocks[0].matches[0].record->id, "t/peer");
  EXPECT_EQ(r.blocks[0].matches[0].kind, MatchKind::kFuzzy);  // no line matches the pattern
}

TEST(Scan, BinaryGarbageIsHarmless) {
  TempDir cache;
  auto engine = Bundled(cache);
  ASSERT_TRUE(engine);
  std::string junk;
  uint32_t x = 12345;
  for (int i = 0; i < 200000; ++i) {
    x = x * 1103515245 + 12345;
    junk.push_back(static_cast<char>(x >> 16));
  }
  junk += "\nCUDNN_STATUS_BAD_PARAM\n";
  ScanResult r = ScanText(*engine, junk);
  bool found = std::any_of(r.blocks.begin(), r.blocks.end(), [](const ErrorBlock& b) {
    return !b.matches.empty() && b.matches[0].record->id == "cuda/cudnn-batch-norm-bad-param";
  });
  EXPECT_TRUE(found);
}

// A pattern reached only through a broad literal ("ack") is tried on lines
// that read as a problem; --all-lines tries it everywhere, as match does.
TEST(Scan, BroadPatternsWaitForAProblemLineUnlessAllLines) {
  TempDir cache;
  std::vector<Record> records = {testing::MakeRecord("net/nack-on-channel", "NACK received on ch7", R"(\bN?ACK\b.*\bch\d+)")};
  auto engine = Engine::FromKnowledgeBase(KnowledgeBase::FromRecords(std::move(records)), cache.path().string());
  ASSERT_TRUE(engine.ok());
  ASSERT_TRUE((*engine)->impl().patterns().has_broad());
  const std::string quiet = "INFO link up\nNACK received on ch7\nINFO link down\n";
  const std::string problem = "INFO link up\nNACK received on ch7: frame lost\nINFO link down\n";
  auto known = [&](const std::string& log, bool all_lines) {
    std::istringstream in(log);
    ScanOptions options;
    options.all_lines = all_lines;
    ScanResult result;
    EXPECT_TRUE((*engine)->Scan(in, options, &result).ok());
    return result.summary.known;
  };
  EXPECT_EQ(known(quiet, false), 0u);
  EXPECT_EQ(known(quiet, true), 1u);
  EXPECT_EQ(known(problem, false), 1u);
  EXPECT_FALSE((*engine)->Match("NACK received on ch7", MatchOptions{}).matches.empty());
}

// A failed step keeps its failure lines and exit status, not the output
// between them; a known error printed in between is still part of that
// failure, while a known warning in between stands as a block of its own.
TEST(Scan, HitsBetweenAStepsFailureLinesJoinTheStep) {
  TempDir cache;
  auto e = FromRecords(cache,
                       {testing::MakeRecord("t/ts1005", "error TS1005: ';' expected.", R"(TS1005: ';' expected)"),
                        testing::MakeRecord("t/utcnow", "DeprecationWarning: datetime.datetime.utcnow() is deprecated",
                                            R"(DeprecationWarning: datetime\.datetime\.utcnow\(\) is deprecated)")});
  ASSERT_NE(e, nullptr);
  std::string log;
  for (int i = 0; i < 30; ++i) log += "compiling module " + std::to_string(i) + "\n";
  log += "Build failed with 1 error\n";
  log += "  src/app.ts:4:9 - TS1005: ';' expected.\n";
  log += "x.py:3: DeprecationWarning: datetime.datetime.utcnow() is deprecated\n";
  log += "uploading logs\n";
  log += "ERROR: Job failed: exit code 1\n";
  ScanResult r = ScanText(*e, log);
  const ErrorBlock* step = nullptr;
  const ErrorBlock* warning = nullptr;
  for (const auto& b : r.blocks) {
    if (b.kind == BlockKind::kStep) step = &b;
    if (!b.matches.empty() && b.matches[0].record->id == "t/utcnow") warning = &b;
  }
  ASSERT_NE(step, nullptr);
  ASSERT_FALSE(step->matches.empty());
  EXPECT_EQ(step->matches[0].record->id, "t/ts1005");
  EXPECT_TRUE(step->root);
  ASSERT_NE(warning, nullptr);
  EXPECT_NE(warning, step);
}

}  // namespace
}  // namespace kedb
