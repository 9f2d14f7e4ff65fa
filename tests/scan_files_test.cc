// `kedb scan` over many files, folders and patterns, and over gzip and zstd
// logs: what a platform team points it at when a CI run leaves a folder of
// archived logs.
#include <zlib.h>
#include <zstd.h>

#include <iterator>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "logs/decompress.h"
#include "test_util.h"

namespace kedb {
namespace {

using testing::RunKedb;
namespace fs = std::filesystem;

std::string Kb() { return " --kb '" + (testing::SourceDir() / "kb").string() + "'"; }
std::string Example(const std::string& name) { return testing::ReadFile(testing::SourceDir() / "examples" / name); }
std::string Quote(const fs::path& p) { return "'" + p.string() + "'"; }

std::string Gzip(const std::string& text) {
  z_stream z{};
  deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);  // 16: a gzip header
  std::string out;
  out.resize(static_cast<std::size_t>(deflateBound(&z, static_cast<uLong>(text.size()))) + 64);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(static_cast<std::size_t>(z.total_out));
  deflateEnd(&z);
  return out;
}

std::string Zstd(const std::string& text) {
  std::string out;
  out.resize(ZSTD_compressBound(text.size()));
  const std::size_t n = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

// The blocks of a scan's JSON as (decisive line, best record or "").
std::vector<std::pair<int, std::string>> Blocks(const nlohmann::json& scan) {
  std::vector<std::pair<int, std::string>> out;
  for (const auto& b : scan["blocks"]) {
    out.emplace_back(b["decisive_line"].get<int>(), b["matches"].empty() ? "" : b["matches"][0]["id"].get<std::string>());
  }
  return out;
}

TEST(ScanFiles, GzipAndZstdLogsGiveTheBlocksOfThePlainLog) {
  testing::TempDir tmp;
  const std::string log = Example("train-cudnn.log");
  testing::WriteFile(tmp.path() / "train.log", log);
  testing::WriteFile(tmp.path() / "train.log.gz", Gzip(log));
  testing::WriteFile(tmp.path() / "train.zst", Zstd(log));  // the format is told by its bytes, not its name
  auto plain = RunKedb("scan --json " + Quote(tmp.path() / "train.log") + Kb());
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const auto expected = Blocks(nlohmann::json::parse(plain.out));
  ASSERT_EQ(expected.front(), std::make_pair(3018, std::string("cuda/cudnn-bn-epsilon-nan")));
  for (const char* name : {"train.log.gz", "train.zst"}) {
    auto r = RunKedb("scan --json " + Quote(tmp.path() / name) + Kb());
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    const auto scan = nlohmann::json::parse(r.out);
    EXPECT_EQ(Blocks(scan), expected) << name;
    EXPECT_EQ(scan["file"], (tmp.path() / name).string());
    EXPECT_EQ(scan["summary"]["bytes"], log.size()) << name;  // the log's bytes, not the archive's
  }
  // From a pipe too, and a log gzipped in two members (gzip a b > c) reads whole.
  auto piped = RunKedb("scan --json -" + Kb(), Zstd(log));
  EXPECT_EQ(Blocks(nlohmann::json::parse(piped.out)), expected);
  const std::size_t half = log.find('\n', log.size() / 2) + 1;
  auto members = RunKedb("scan --json -" + Kb(), Gzip(log.substr(0, half)) + Gzip(log.substr(half)));
  ASSERT_EQ(members.exit_code, 0) << members.err;
  EXPECT_EQ(Blocks(nlohmann::json::parse(members.out)), expected);
}

TEST(ScanFiles, CorruptCompressedDataIsAnErrorThatSaysWhere) {
  std::string z = Zstd(Example("pytest-cuda.log"));
  z[z.size() / 2] ^= 0x5a;
  auto r = RunKedb("scan -" + Kb(), z);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("the zstd data is corrupt at compressed byte"), std::string::npos) << r.err;
  auto cut = RunKedb("scan -" + Kb(), Gzip(Example("pytest-cuda.log")).substr(0, 300));
  EXPECT_EQ(cut.exit_code, 2);
  EXPECT_NE(cut.err.find("the gzip data ends early"), std::string::npos) << cut.err;
}

TEST(ScanFiles, FoldersPatternsAndFilesAnswerPerFileInTheOrderGiven) {
  testing::TempDir tmp;
  fs::create_directories(tmp.path() / "ci" / "nested");
  fs::create_directories(tmp.path() / "ci" / ".cache");
  testing::WriteFile(tmp.path() / "ci" / "b-train.log", Example("train-cudnn.log"));
  testing::WriteFile(tmp.path() / "ci" / "a-pytest.log.gz", Gzip(Example("pytest-cuda.log")));
  testing::WriteFile(tmp.path() / "ci" / "clean.log", "step 1 ok\nstep 2 ok\n");
  testing::WriteFile(tmp.path() / "ci" / "nested" / "nccl.log", Example("nccl-timeout.log"));
  testing::WriteFile(tmp.path() / "ci" / ".cache" / "old.log", Example("failed-install.log"));  // hidden
  auto files_of = [](const nlohmann::json& scan) {
    std::vector<std::string> names;
    for (const auto& f : scan["files"]) names.push_back(fs::path(f["file"].get<std::string>()).filename().string());
    return names;
  };

  auto folder = RunKedb("scan --json " + Quote(tmp.path() / "ci") + Kb());
  ASSERT_EQ(folder.exit_code, 0) << folder.err;
  auto scan = nlohmann::json::parse(folder.out);
  EXPECT_EQ(files_of(scan), (std::vector<std::string>{"a-pytest.log.gz", "b-train.log", "clean.log"}));
  EXPECT_EQ(scan["summary"]["files"], 3);
  EXPECT_EQ(scan["summary"]["clean"], 1);
  EXPECT_EQ(scan["files"][1]["blocks"][0]["matches"][0]["id"], "cuda/cudnn-bn-epsilon-nan");
  EXPECT_EQ(scan["files"][0]["blocks"][0]["matches"][0]["id"], "cuda/device-side-assert");

  auto deep = RunKedb("scan -r --json " + Quote(tmp.path() / "ci") + Kb());
  EXPECT_EQ(files_of(nlohmann::json::parse(deep.out)),
            (std::vector<std::string>{"a-pytest.log.gz", "b-train.log", "clean.log", "nccl.log"}));

  // A quoted pattern kedb expands itself, then a file, in the order given.
  auto mixed = RunKedb("scan --json " + Quote(tmp.path() / "ci" / "*.log") + " " +
                       Quote(tmp.path() / "ci" / "nested" / "nccl.log") + Kb());
  EXPECT_EQ(files_of(nlohmann::json::parse(mixed.out)), (std::vector<std::string>{"b-train.log", "clean.log", "nccl.log"}));

  // Text: a header per log with errors, and a line for all of them.
  auto text = RunKedb("scan " + Quote(tmp.path() / "ci") + Kb());
  EXPECT_NE(text.out.find("==> " + (tmp.path() / "ci" / "b-train.log").string() + " <=="), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("clean.log <=="), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("3 log(s), 1 clean: "), std::string::npos) << text.out;
}

TEST(ScanFiles, ALogThatCannotBeReadIsNamedAndTheOthersAreStillAnswered) {
  testing::TempDir tmp;
  testing::WriteFile(tmp.path() / "train.log", Example("train-cudnn.log"));
  testing::WriteFile(tmp.path() / "cut.log.gz", Gzip(Example("pytest-cuda.log")).substr(0, 200));
  auto r = RunKedb("scan --json " + Quote(tmp.path() / "train.log") + " " + Quote(tmp.path() / "cut.log.gz") + " " +
                   Quote(tmp.path() / "missing.log") + " " + Quote(tmp.path() / "nothing-*.log") + Kb());
  EXPECT_EQ(r.exit_code, 2);  // a log was not read: the step must not pass as clean
  const auto scan = nlohmann::json::parse(r.out);
  ASSERT_EQ(scan["files"].size(), 1u);
  EXPECT_EQ(scan["files"][0]["blocks"][0]["matches"][0]["id"], "cuda/cudnn-bn-epsilon-nan");
  ASSERT_EQ(scan["unread"].size(), 3u) << r.out;
  EXPECT_NE(r.err.find("cut.log.gz: the gzip data ends early"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("missing.log: cannot open: No such file or directory"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nothing-*.log: no file matches this pattern"), std::string::npos) << r.err;
}

TEST(ScanFiles, CiFormatsCoverEveryFileInOneReport) {
  testing::TempDir tmp;
  testing::WriteFile(tmp.path() / "train.log", Example("train-cudnn.log"));
  testing::WriteFile(tmp.path() / "pytest.log", Example("pytest-cuda.log"));
  const std::string both = Quote(tmp.path() / "train.log") + " " + Quote(tmp.path() / "pytest.log");

  auto sarif = RunKedb("scan --format sarif " + both + Kb());
  ASSERT_EQ(sarif.exit_code, 0) << sarif.err;
  std::set<std::string> uris;
  const auto log = nlohmann::json::parse(sarif.out);
  for (const auto& result : log["runs"][0]["results"]) {
    uris.insert(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].get<std::string>());
  }
  EXPECT_EQ(uris.size(), 2u) << sarif.out;

  auto junit = RunKedb("scan --format junit " + both + Kb());
  EXPECT_NE(junit.out.find("<testsuite name=\"kedb scan " + (tmp.path() / "train.log").string()), std::string::npos);
  EXPECT_NE(junit.out.find("<testsuite name=\"kedb scan " + (tmp.path() / "pytest.log").string()), std::string::npos);

  auto github = RunKedb("scan --format github " + both + Kb());
  EXPECT_NE(github.out.find("::error file=" + (tmp.path() / "pytest.log").string() + ",line="), std::string::npos)
      << github.out;
  EXPECT_NE(github.out.find("::error file=" + (tmp.path() / "train.log").string() + ",line=3018,"), std::string::npos);

  auto gitlab = RunKedb("scan --format gitlab " + both + Kb());
  std::set<std::string> fingerprints, paths;
  const auto issues = nlohmann::json::parse(gitlab.out);
  for (const auto& issue : issues) {
    fingerprints.insert(issue["fingerprint"].get<std::string>());
    paths.insert(issue["location"]["path"].get<std::string>());
  }
  EXPECT_EQ(paths.size(), 2u);
  EXPECT_EQ(fingerprints.size(), issues.size());  // the same error in two logs: two issues
}

}  // namespace
}  // namespace kedb

namespace kedb {
namespace {

// Reads `bytes` through a DecompressingBuf to its end.
std::pair<std::string, std::string> Decompressed(const std::string& bytes) {
  std::istringstream source(bytes);
  logs::DecompressingBuf buf(source);
  std::istream in(&buf);
  std::string out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return {out, buf.error()};
}

TEST(Decompress, PlainTextPassesThroughAndCompressedTextComesBackWhole) {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "line " + std::to_string(i) + " of a log that compresses well\n";
  EXPECT_EQ(Decompressed(text), std::make_pair(text, std::string()));
  EXPECT_EQ(Decompressed(Gzip(text)), std::make_pair(text, std::string()));
  EXPECT_EQ(Decompressed(Zstd(text)), std::make_pair(text, std::string()));
  EXPECT_EQ(Decompressed(Zstd(text) + Zstd("and a second frame\n")).first, text + "and a second frame\n");
  EXPECT_EQ(Decompressed(""), std::make_pair(std::string(), std::string()));
}

// Damaged archives of every kind end in an error or in text, never in a
// crash or a hang: cut anywhere, or with bytes flipped anywhere.
TEST(Decompress, DamagedDataEndsInAnErrorNeverAHang) {
  std::string text;
  for (int i = 0; i < 3000; ++i) text += "RuntimeError: step " + std::to_string(i * 7919 % 1000) + "\n";
  uint64_t seed = 42;
  auto next = [&seed] { return seed = seed * 6364136223846793005ULL + 1442695040888963407ULL, seed >> 33; };
  for (const std::string& whole : {Gzip(text), Zstd(text)}) {
    for (int round = 0; round < 150; ++round) {
      std::string damaged = whole;
      if (round % 2 == 0) {
        damaged.resize(next() % whole.size());
      } else {
        for (int k = 0; k < 1 + round % 4; ++k) damaged[next() % damaged.size()] ^= static_cast<char>(1 + next() % 255);
      }
      const auto [out, error] = Decompressed(damaged);
      if (round % 2 == 0 && damaged.size() > 4) {
        EXPECT_FALSE(error.empty()) << "cut at " << damaged.size();
      }
      EXPECT_LE(out.size(), text.size() * 2);
    }
  }
}

}  // namespace
}  // namespace kedb
