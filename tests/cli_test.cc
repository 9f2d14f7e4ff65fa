// The command line as users and scripts call it: output, JSON, exit codes.
#include <sstream>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "kedb/match.h"
#include "test_util.h"

namespace kedb {
namespace {

using testing::RunKedb;
using testing::SourceDir;
namespace fs = std::filesystem;

std::string Kb() { return "--kb '" + (SourceDir() / "kb").string() + "'"; }

TEST(Cli, ShowPrintsWhatAPersonNeeds) {
  auto r = RunKedb("show cuda/cudnn-bn-epsilon-nan " + Kb());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Root cause"), std::string::npos);
  EXPECT_NE(r.out.find("requires a positive epsilon"), std::string::npos);
  // Workarounds by success rate, then dead ends by fail rate.
  auto w95 = r.out.find(" 95% Set epsilon"), w90 = r.out.find(" 90% If epsilon");
  ASSERT_NE(w95, std::string::npos);
  ASSERT_NE(w90, std::string::npos);
  EXPECT_LT(w95, w90);
  auto d80 = r.out.find(" 80% "), d50 = r.out.find(" 50% ");
  EXPECT_LT(w90, d80);
  EXPECT_LT(d80, d50);
  EXPECT_NE(r.out.find("cuDNN 8.9"), std::string::npos);
  EXPECT_NE(r.out.find("Error code: CUDNN_STATUS_BAD_PARAM"), std::string::npos);
}

TEST(Cli, ShowInChinese) {
  auto r = RunKedb("show cuda/cudnn-bn-epsilon-nan --lang zh " + Kb());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("根本原因"), std::string::npos);
  EXPECT_NE(r.out.find("运行时错误"), std::string::npos);
  EXPECT_NE(r.out.find("cuDNN 批量归一化需要正 epsilon 值"), std::string::npos);
}

TEST(Cli, ShowJsonIsTheNativeRecord) {
  auto r = RunKedb("show cuda/cudnn-rnn-double-backward --json " + Kb());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto file = testing::ReadFile(SourceDir() / "kb" / "cuda" / "cudnn-rnn-double-backward.json");
  EXPECT_EQ(nlohmann::ordered_json::parse(r.out), nlohmann::ordered_json::parse(file));
}

TEST(Cli, ShowUnknownIdExitsOne) {
  auto r = RunKedb("show no/such-record " + Kb());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no record has the id \"no/such-record\""), std::string::npos);
}

TEST(Cli, StatsJson) {
  auto r = RunKedb("stats --json " + Kb());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  // The same figures counted here from the files themselves.
  int records = 0, partial = 0;
  double confidence = 0;
  for (const auto& e : fs::recursive_directory_iterator(SourceDir() / "kb")) {
    if (e.path().extension() != ".json" || e.path().string().find(".kedb-cache") != std::string::npos) continue;
    auto rec = nlohmann::json::parse(testing::ReadFile(e.path()));
    ++records;
    partial += rec["resolvable"] == "partial";
    confidence += rec["confidence"].get<double>();
  }
  EXPECT_EQ(j["records"].get<int>(), records);
  EXPECT_EQ(j["by_resolvable"]["partial"], partial);
  EXPECT_NEAR(j["mean_confidence"].get<double>(), confidence / records, 0.001);
}

TEST(Cli, LintExitCodes) {
  auto clean = RunKedb("lint " + Kb());
  EXPECT_EQ(clean.exit_code, 0) << clean.out;  // warnings only
  auto strict = RunKedb("lint --strict " + Kb());
  EXPECT_EQ(strict.exit_code, 2);
  auto broken = RunKedb("lint --json --kb '" + (testing::TestData() / "broken").string() + "'");
  EXPECT_EQ(broken.exit_code, 2);
  auto j = nlohmann::json::parse(broken.out);
  EXPECT_GT(j["errors"].get<int>(), 10);
  bool saw_rate = false;
  for (const auto& d : j["diagnostics"]) {
    if (d["field"] == "dead_ends[1].fail_rate") {
      saw_rate = true;
      EXPECT_EQ(d["line"], 8);
      EXPECT_EQ(d["column"], 88);
      EXPECT_EQ(d["rule"], "schema");
    }
  }
  EXPECT_TRUE(saw_rate);
}

TEST(Cli, MissingKbIsAnError) {
  auto r = RunKedb("stats --kb /nonexistent/kb");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no such file or directory"), std::string::npos);
}

// A knowledge base that holds no record (a wrong folder, a copied binary
// whose built-in path is gone) is an error, not "nothing matches": every
// command exits 2 and says so. A server may start empty only when asked.
TEST(Cli, AKnowledgeBaseWithNoRecordIsAnError) {
  testing::TempDir tmp;
  testing::WriteFile(tmp.path() / "notes.txt", "not a record");
  const std::string kb = "--kb '" + tmp.path().string() + "'";
  const std::vector<std::string> commands = {"match " + kb + " 'CUDNN_STATUS_BAD_PARAM'", "show " + kb + " cuda/x",
                                             "search " + kb + " cudnn", "lint " + kb, "serve --port 0 " + kb};
  for (const std::string& cmd : commands) {
    SCOPED_TRACE(cmd);
    auto r = RunKedb(cmd);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("holds no record"), std::string::npos) << r.err;
  }
  // Documents that all fail to load say so.
  testing::WriteFile(tmp.path() / "broken.json", "{\"id\": ");
  auto broken = RunKedb("match " + kb + " x");
  EXPECT_EQ(broken.exit_code, 2);
  EXPECT_NE(broken.err.find("none of its 1 document(s) could be loaded"), std::string::npos) << broken.err;
}

// Logs that cannot be read say why: the system's reason, a folder with
// nothing to read, or a compressed file that is cut short or in a format
// kedb does not decompress (read as bytes it would show no error at all).
TEST(Cli, ALogThatCannotBeReadSaysWhy) {
  testing::TempDir tmp;
  auto missing = RunKedb("scan " + Kb() + " '" + (tmp.path() / "missing.log").string() + "'");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("cannot open: No such file or directory"), std::string::npos) << missing.err;
  auto folder = RunKedb("scan " + Kb() + " '" + tmp.path().string() + "'");
  EXPECT_EQ(folder.exit_code, 2);
  EXPECT_NE(folder.err.find("the folder holds no file to read (-r reads its sub-folders)"), std::string::npos)
      << folder.err;
  // gzip's header, then deflated bytes, without the trailer.
  const std::string gz("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x0b\xc9\xc8\x2c\x56\x00\xa2\x44\x85\x92\xd4\x8a\x12\x00",
                       24);
  testing::WriteFile(tmp.path() / "job.log.gz", gz);
  auto compressed = RunKedb("scan " + Kb() + " '" + (tmp.path() / "job.log.gz").string() + "'");
  EXPECT_EQ(compressed.exit_code, 2);
  EXPECT_NE(compressed.err.find("the gzip data ends early: the file is truncated after 24 compressed bytes"),
            std::string::npos)
      << compressed.err;
  auto piped = RunKedb("scan " + Kb() + " -", gz);
  EXPECT_EQ(piped.exit_code, 2);
  // bzip2 is not decompressed: the reader is told to do it.
  std::string bz("BZh91AY&SY", 10);
  bz += std::string(32, '\x01');
  auto bzip = RunKedb("scan " + Kb() + " -", bz);
  EXPECT_EQ(bzip.exit_code, 2);
  EXPECT_NE(bzip.err.find("bzip2-compressed"), std::string::npos) << bzip.err;
  // Text that merely starts like a bzip2 header is read.
  auto text = RunKedb("scan " + Kb() + " -", "BZh we go\nRuntimeError: CUDA error: out of memory\n");
  EXPECT_EQ(text.exit_code, 0) << text.err;
}

TEST(Cli, BadUsageExitsTwo) {
  EXPECT_EQ(RunKedb("show").exit_code, 2);
  EXPECT_EQ(RunKedb("frobnicate").exit_code, 2);
  EXPECT_EQ(RunKedb("show x --lang fr " + Kb()).exit_code, 2);
}

TEST(Cli, EveryCommandHasHelpWithAnExample) {
  for (const char* cmd : {"match", "scan", "show", "stats", "lint", "import"}) {
    auto r = RunKedb(std::string(cmd) + " --help");
    EXPECT_EQ(r.exit_code, 0) << cmd;
    EXPECT_NE(r.out.find("Example"), std::string::npos) << cmd;
  }
}

TEST(Cli, ImportDeadendsWritesOneFilePerRecord) {
  KEDB_REQUIRE_SHARED(shared);
  testing::TempDir tmp;
  auto r = RunKedb("import deadends '" + (shared / "corpora/deadends/canons").string() + "' --out '" +
                   tmp.path().string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("imported 2522 records"), std::string::npos) << r.out;
  auto shown = RunKedb("show cuda/cuda-system-not-ready/cuda12-linux --kb '" + tmp.path().string() + "'");
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_NE(shown.out.find("cudaErrorSystemNotReady"), std::string::npos);
  EXPECT_NE(shown.out.find("Source: deadends.dev"), std::string::npos);
  EXPECT_NE(shown.out.find("cuda >=12.0,<13.0"), std::string::npos);
}

}  // namespace
}  // namespace kedb

namespace kedb {
namespace {

using testing::RunKedb;

std::string BundledKb() { return "--kb '" + (testing::SourceDir() / "kb").string() + "'"; }

TEST(CliMatch, JsonFollowsTheContract) {
  auto r = RunKedb("match --json " + BundledKb() +
                   " 'RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["abstained"], false);
  ASSERT_GE(j["matches"].size(), 2u);
  const auto& m = j["matches"][0];
  EXPECT_EQ(m["id"], "cuda/cudnn-bn-epsilon-nan");
  EXPECT_EQ(m["kind"], "regex");
  EXPECT_EQ(m["line"], 1);
  EXPECT_EQ(m["span"], nlohmann::json::array({27, 90}));
  EXPECT_TRUE(m["score"].is_number());
  // The calibrated confidence abstention is decided on: a clear answer.
  EXPECT_GT(m["confidence"].get<double>(), 0.5);
  EXPECT_LE(m["confidence"].get<double>(), 1.0);
  EXPECT_TRUE(m["signature"].is_string());
  EXPECT_EQ(m["workarounds"][0]["success_rate"], 0.95);
  EXPECT_EQ(m["dead_ends"][0]["fail_rate"], 0.8);
  // The factors the text showed, each with its value and weight.
  ASSERT_GE(m["why"].size(), 4u);
  EXPECT_EQ(m["why"][0]["factor"], "specificity");
  for (const auto& f : m["why"]) {
    EXPECT_NE(f["value"].get<double>(), 0.0) << f.dump();
    EXPECT_TRUE(f["weight"].is_number()) << f.dump();
  }
  EXPECT_EQ(j["matches"][1]["id"], "cuda/cudnn-batch-norm-bad-param");
}

TEST(CliMatch, StdinTopAndExitCodes) {
  auto r = RunKedb("match --json --top 1 " + BundledKb(), "log line\nCUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["matches"].size(), 1u);
  EXPECT_EQ(j["matches"][0]["line"], 2);
  auto none = RunKedb("match --json " + BundledKb() + " 'all good here'");
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_EQ(nlohmann::json::parse(none.out)["abstained"], true);
  EXPECT_EQ(RunKedb("match --env torch " + BundledKb() + " x").exit_code, 2);
  auto text = RunKedb("match " + BundledKb() + " 'CUDNN_STATUS_NOT_SUPPORTED in cudnnRNNBackwardData'");
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("1. cuda/cudnn-rnn-double-backward"), std::string::npos) << text.out;
}

// "-" is stdin, as for scan; one word naming a file is that file's text,
// not the characters of its path; a phrase is the message whatever files
// exist.
TEST(CliMatch, ReadsAFileItIsGivenAndStdinForADash) {
  testing::TempDir tmp;
  const std::string message = "log line\nCUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon\n";
  testing::WriteFile(tmp.path() / "error.txt", message);
  const std::string path = (tmp.path() / "error.txt").string();
  const std::pair<std::string, std::string> runs[] = {{"match --json " + BundledKb() + " '" + path + "'", ""},
                                                      {"match --json " + BundledKb() + " -", message}};
  for (const auto& [args, stdin_text] : runs) {
    auto r = RunKedb(args, stdin_text);
    ASSERT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_FALSE(j["matches"].empty()) << args;
    EXPECT_EQ(j["matches"][0]["id"], "cuda/cudnn-bn-epsilon-nan") << args;
    EXPECT_EQ(j["matches"][0]["line"], 2) << args;
  }
  auto phrase = RunKedb("match --json " + BundledKb() + " 'see " + path + "'");
  EXPECT_EQ(phrase.exit_code, 1) << phrase.out;
  auto unreadable = RunKedb("match " + BundledKb() + " '" + (tmp.path() / "missing.txt").string() + "'");
  EXPECT_EQ(unreadable.exit_code, 1);  // no such file: the words are the message
}

TEST(CliMatch, BatchKeepsOrderAndReportsBadLines) {
  std::string in =
      "{\"text\": \"CUDNN_STATUS_NOT_SUPPORTED calling cudnnRNNBackwardData_v8\"}\n"
      "not json\n"
      "{\"text\": \"all good\"}\n"
      "{\"text\": \"CUDNN_STATUS_BAD_PARAM\"}\n";
  auto r = RunKedb("match --batch " + BundledKb(), in);
  EXPECT_EQ(r.exit_code, 2);  // a bad line is an error, after every line is answered
  std::istringstream lines(r.out);
  std::vector<nlohmann::json> out;
  for (std::string l; std::getline(lines, l);) out.push_back(nlohmann::json::parse(l));
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0]["matches"][0]["id"], "cuda/cudnn-rnn-double-backward");
  EXPECT_NE(out[1]["error"].get<std::string>().find("stdin:2"), std::string::npos);
  EXPECT_EQ(out[2]["abstained"], true);
  EXPECT_EQ(out[3]["matches"][0]["id"], "cuda/cudnn-batch-norm-bad-param");
}

// Input past 16 MiB is matched on its last 16 MiB, in bounded memory: 200
// MB streamed through a pipe, under a 400 MB address-space limit that
// reading it all would break. The error at the start is past the window,
// the one at the end is found, and stderr says what was read.
TEST(CliMatch, LongInputIsMatchedOnItsTailInBoundedMemory) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "the address sanitizer reserves more address space than the limit";
#endif
  testing::TempDir tmp;
  const auto out = tmp.path() / "out", err = tmp.path() / "err";
  const std::string cmd = "(echo CUDNN_STATUS_BAD_PARAM; yes 'step ok' | head -n 25000000; "
                          "echo 'RuntimeError: CUDA error: out of memory') | (ulimit -v 400000; '" +
                          std::string(KEDB_BINARY) + "' match --json --top 3 " + BundledKb() + " >'" + out.string() +
                          "' 2>'" + err.string() + "')";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << testing::ReadFile(err);
  auto j = nlohmann::json::parse(testing::ReadFile(out));
  ASSERT_FALSE(j["matches"].empty());
  EXPECT_EQ(j["matches"][0]["id"], "pytorch/cuda-out-of-memory");
  for (const auto& m : j["matches"]) EXPECT_NE(m["id"], "cuda/cudnn-batch-norm-bad-param");
  EXPECT_NE(testing::ReadFile(err).find("only its last 16 MiB were matched"), std::string::npos);
}

// In --batch, a line over 16 MiB gets an error result in its place; the
// lines after it are answered.
TEST(CliMatch, BatchRefusesALineOverTheLimitAlone) {
  std::string in = "{\"text\": \"" + std::string(17u << 20, 'x') + "\"}\n{\"text\": \"CUDNN_STATUS_BAD_PARAM\"}\n";
  auto r = RunKedb("match --batch " + BundledKb(), in);
  EXPECT_EQ(r.exit_code, 2);
  std::istringstream lines(r.out);
  std::vector<nlohmann::json> got;
  for (std::string l; std::getline(lines, l);) got.push_back(nlohmann::json::parse(l));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_NE(got[0]["error"].get<std::string>().find("stdin:1: line over 16 MiB"), std::string::npos);
  EXPECT_EQ(got[1]["matches"][0]["id"], "cuda/cudnn-batch-norm-bad-param");
}

// The demo log: a training run whose only known error is seed 000's.
TEST(CliScan, ExampleTrainingLog) {
  auto log = (testing::SourceDir() / "examples" / "train-cudnn.log").string();
  auto r = RunKedb("scan --json " + BundledKb() + " '" + log + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  // The traceback alone: the launcher's "worker 0 exited with code 1" after
  // it only reports that failure, and is its context, not a block.
  ASSERT_EQ(j["blocks"].size(), 1u);
  const auto& tb = j["blocks"][0];
  EXPECT_EQ(tb["kind"], "python");
  EXPECT_EQ(tb["lines"], nlohmann::json::array({3009, 3018}));
  EXPECT_EQ(tb["decisive_line"], 3018);
  EXPECT_EQ(tb["root"], true);
  EXPECT_EQ(tb["frame_count"], 4);
  EXPECT_EQ(tb["matches"][0]["id"], "cuda/cudnn-bn-epsilon-nan");
  EXPECT_EQ(j["summary"]["lines"], 3019);
  EXPECT_EQ(j["summary"]["known"], 1);
  auto text = RunKedb("scan " + BundledKb() + " - ", testing::ReadFile(log));
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("lines 3009-3018 · Python traceback · root error"), std::string::npos);
  // The same report on one thread as on the default (one per core).
  auto one = RunKedb("scan --json --threads 1 " + BundledKb() + " '" + log + "'");
  EXPECT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.out, r.out);
  auto zero = RunKedb("scan --threads 0 " + BundledKb() + " '" + log + "'");
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_NE(zero.err.find("--threads"), std::string::npos) << zero.err;
  EXPECT_EQ(RunKedb("scan " + BundledKb() + " /nonexistent.log").exit_code, 2);
  EXPECT_EQ(RunKedb("scan " + BundledKb() + " -", "nothing here\n").exit_code, 1);
}

// A match answers with how to apply the fix and why a dead end fails, in
// the text a person reads and the JSON every front end (HTTP, MCP, the web
// card) passes on.
TEST(Cli, MatchSaysHowToFixAndWhyADeadEndFails) {
  const std::string kb = " " + Kb();
  const std::string error = " 'RuntimeError: CUDA error: device-side assert triggered'";
  auto text = testing::RunKedb("match" + kb + error);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("\n              assert labels.min() >= 0"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("avoid  95% Set TORCH_USE_CUDA_DSA=1 as an environment variable when running a release "
                          "wheel — The name refers to a compile-time macro"),
            std::string::npos)
      << text.out;
  auto json = nlohmann::json::parse(testing::RunKedb("match --json" + kb + error).out);
  const auto& fix = json["matches"][0]["workarounds"][0];
  EXPECT_EQ(fix["action"], "Make labels and class count agree");
  EXPECT_EQ(fix["how"].get<std::string>().rfind("assert labels.min() >= 0", 0), 0u) << fix.dump();
  EXPECT_FALSE(json["matches"][0]["dead_ends"][0]["why_fails"].get<std::string>().empty());
}


}  // namespace
}  // namespace kedb
