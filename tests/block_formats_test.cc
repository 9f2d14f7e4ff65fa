// The ways tools print an error that the segmenter reads beyond the common
// shapes (logs_test.cc): levels further in a line, tool-specific markers,
// banners, exception groups, and the last words of a log with no block.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "logs/blocks.h"
#include "logs/line_kinds.h"
#include "logs/preprocess.h"
#include "segment_util.h"

namespace kedb::logs {
namespace {

using testing::Segment;

// A banner drawn over an error report makes the line after it the error,
// even one no other rule reads as an error: bitsandbytes' CUDA setup
// (https://github.com/bitsandbytes-foundation/bitsandbytes/issues/487).
// A line after the banner with no trigger word is offered all the same.
TEST(Blocks, TheLineAfterAnErrorBannerIsAnErrorLine) {
  auto blocks = Segment(
      "CUDA SETUP: Defaulting to libbitsandbytes_cpu.so...\n"
      "\n"
      "================================================ERROR=====================================\n"
      "CUDA SETUP: CUDA detection failed! Possible reasons:\n"
      "1. CUDA driver not installed\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kErrorLine);
  EXPECT_EQ(blocks[0].decisive, "CUDA SETUP: CUDA detection failed! Possible reasons:");
  blocks = Segment("------ FAILURE ------\n\nthe compute node went away\nlater\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].decisive, "the compute node went away");
  // A rule alone, or one over another word, is no banner.
  EXPECT_TRUE(Segment("==========\nthe compute node went away\n").empty());
  EXPECT_TRUE(Segment("===== SUMMARY =====\nthe compute node went away\n").empty());
  EXPECT_TRUE(Segment("===== ERROR =====\nfirst\n\n\nthe compute node went away\n").size() == 1u);
  // As a log scan offers it: only the banner has a trigger word.
  BlockSegmenter seg;
  seg.Add(1, "------ FAILURE ------", LineMark::kNone, true);
  seg.Add(2, "the compute node went away", LineMark::kNone, false);
  seg.Add(3, "later", LineMark::kNone, false);
  seg.Finish();
  ASSERT_EQ(seg.blocks().size(), 1u);
  EXPECT_EQ(seg.blocks()[0].decisive_line, 2u);
}

// Node.js prints an error value in brackets when it logs an array or a
// rejected promise (https://github.com/mckaywrigley/chatbot-ui/issues/102);
// the indented JSON after it is its detail.
TEST(Blocks, NodesBracketedErrorValueIsAnErrorLine) {
  auto blocks = Segment(
      "[Error: OpenAI API returned an error. responseStatusText: \"Bad Request\", responseStatusCode: \"400\", "
      "responseMessage: \"{\n"
      "  \"error\": {\n"
      "    \"message\": \"This model's maximum context length is 4097 tokens. However, you requested 4120 tokens\",\n"
      "    \"code\": \"context_length_exceeded\"\n"
      "  }\n"
      "}\n"
      "\"]\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kErrorLine);
  EXPECT_EQ(blocks[0].decisive_line, 1u);
  EXPECT_GE(blocks[0].last_line, 5u);
  EXPECT_TRUE(Segment("[TypeError: fetch failed]\n").size() == 1u);
  EXPECT_TRUE(Segment("[Errors] none\n[Error handling] configured\n").empty());
}

// A log with no error block whose last lines say something failed: that
// line is the error (a browser's console error, from
// https://github.com/trezor/trezor-suite/issues/18069, at the end of a
// job's output). Further back, or in a log with other errors, it is not.
TEST(Blocks, TheLastWordsOfALogWithNoErrorBlockAreItsError) {
  const std::string csp =
      "Refused to execute inline script because it violates the following Content Security Policy directive: "
      "\"default-src 'self'\".";
  auto segment = [](const std::vector<std::string>& lines) {
    BlockSegmenter seg;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      // As a scan offers them: no trigger words, "Refused" a problem word.
      const bool problem = lines[i].starts_with("Refused") || lines[i].starts_with("WARNING");
      seg.Add(i + 1, lines[i], LineMark::kNone, false, 0, problem);
    }
    seg.Finish();
    return seg.TakeBlocks();
  };
  std::vector<std::string> log(60, "step ok");
  log[56] = csp;
  auto blocks = segment(log);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].decisive_line, 57u);
  EXPECT_EQ(blocks[0].decisive, csp);
  log[56] = "step ok";
  log[5] = csp;  // long before the end
  EXPECT_TRUE(segment(log).empty());
  log[5] = "step ok";
  log[58] = "WARNING: Refused to execute a deprecated hook";
  EXPECT_TRUE(segment(log).empty());
  // A short text (a post, a paste) is all near its end.
  EXPECT_TRUE(segment({"step ok", csp, "done"}).empty());
}

// Levels and markers of a few more tools: yarn 1's "error X" (from
// https://github.com/yarnpkg/yarn/issues/8406), npm's debug log with its
// line numbers (https://github.com/npm/cli/issues/8470), and esbuild's
// "> " before a diagnostic
// (https://github.com/LukeSheard/esbuild-scripts/issues/13), which a paste
// quoted in Markdown also puts before a compiler's
// (https://github.com/dthain/basekernel/issues/148).
TEST(Blocks, YarnNpmDebugLogAndQuotedDiagnostics) {
  auto blocks = Segment("error Command failed with exit code 1.\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kErrorLine);
  blocks = Segment("30 verbose exit 1\n32 error ERESOLVE unable to resolve dependency tree\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].decisive_line, 2u);
  blocks = Segment(
      " > node_modules/@lukesheard/esbuild-scripts/build/runtime/index.js:7:22: error: Could not resolve \"url\" "
      "(use \"platform: 'node'\" when building for node)\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kCompiler);
  blocks = Segment("> kshell.c:3:10: fatal error: kernel/error.h: No such file or directory\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kCompiler);
  // Words that only look like those levels.
  EXPECT_TRUE(Segment("error handling enabled\n12 errors fixed\n> see the docs\n").empty());
}

// Levels placed further in: Celery's level with its process
// (https://github.com/celery/celery/issues/2168), nginx's bracketed lower
// case one, PostgreSQL's after a long log_line_prefix; and the AWS CLI's
// "fatal error:", webpack's "Failed to compile.".
TEST(Blocks, LevelsFurtherInTheLine) {
  for (const std::string line : {
           "[2014-07-15 15:02:51,310: ERROR/Beat] Celerybeat: Connection error: [Errno 111] Connection refused. "
           "Trying again in 2.0 seconds...",
           "[emerg] 7939#7939: bind() to [::]:80 failed (98: Address already in use)",
           "UTC [440]: [5f573428.1b8-2] postgres@postgres,app=[unknown] [28P01] FATAL:  password authentication "
           "failed for user \"postgres\"",
           "fatal error: An error occurred (AccessDenied) when calling the ListObjectsV2 operation: Access Denied",
           "Failed to compile."}) {
    auto blocks = Segment(line + "\n");
    ASSERT_EQ(blocks.size(), 1u) << line;
    EXPECT_EQ(blocks[0].decisive, line);
  }
  EXPECT_TRUE(Segment("[notice] 1#1: using the \"epoll\" event method\nthe error rate stayed at 0\n").empty());
}

// Python 3.11's exception groups print their tracebacks behind a gutter
// (Starlette and anyio under uvicorn, from
// https://github.com/phash/praxiszeit/issues/51, with a sub-exception as
// Python prints one). The group's traceback and each sub-exception's are
// blocks of their own, and the first sub-exception explains the group.
TEST(Blocks, AnExceptionGroupIsExplainedByItsFirstSubException) {
  const std::string log =
      "ERROR:    Exception in ASGI application\n"
      "  + Exception Group Traceback (most recent call last):\n"
      "  |   File \"/usr/local/lib/python3.12/site-packages/starlette/_utils.py\", line 76, in collapse_excgroups\n"
      "  |     yield\n"
      "  |   File \"/usr/local/lib/python3.12/site-packages/anyio/_backends/_asyncio.py\", line 783, in __aexit__\n"
      "  |     raise BaseExceptionGroup(\n"
      "  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)\n"
      "  +-+---------------- 1 ----------------\n"
      "    | Traceback (most recent call last):\n"
      "    |   File \"/app/main.py\", line 12, in handler\n"
      "    |     return await db.fetch(query)\n"
      "    | asyncpg.exceptions.UndefinedTableError: relation \"users\" does not exist\n"
      "    +------------------------------------\n"
      "INFO:     127.0.0.1:5000 - \"GET / HTTP/1.1\" 500\n";
  auto blocks = Segment(log);
  const Block* group = nullptr;
  long sub = -1;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].decisive.starts_with("ExceptionGroup: ")) group = &blocks[i];
    if (blocks[i].decisive.starts_with("asyncpg.exceptions.UndefinedTableError: ")) sub = static_cast<long>(i);
  }
  ASSERT_NE(group, nullptr);
  ASSERT_GE(sub, 0);
  EXPECT_EQ(group->kind, BlockKind::kPython);
  EXPECT_EQ(group->first_line, 2u);
  EXPECT_EQ(group->decisive_line, 7u);
  ASSERT_EQ(group->frames.size(), 2u);
  EXPECT_TRUE(group->frames[0].starts_with("File \"/usr/local/lib/python3.12/site-packages/starlette/_utils.py\""));
  EXPECT_EQ(group->caused_by, sub);
  EXPECT_EQ(blocks[static_cast<std::size_t>(sub)].decisive_line, 12u);
  EXPECT_EQ(blocks[static_cast<std::size_t>(sub)].frames.size(), 1u);
  // After the report, lines are read as they are: the gutter is gone.
  for (const Block& b : blocks) EXPECT_LT(b.last_line, 14u) << b.decisive;
}

// Go's compiler names no level, so a scan offers its lines by the ".go:"
// in them; before Go 1.10 they had no column, and then only the
// compiler's own phrases make one (from
// https://github.com/michenriksen/gitrob/issues/129 and
// https://github.com/kisielk/errcheck/issues/17). A test's log line is
// offered but is no diagnostic.
TEST(Triggers, GoDiagnosticsStartBlocksInAScan) {
  const std::string log =
      "go build ./...\n"
      "go/src/github.com/michenriksen/gitrob/core/github.go:43:7: cannot use user.ID (type *int64) as type *int in "
      "field value\n"
      "errcheck/main.go:196: cannot use exprFn (type func(ast.Expr, types.Type, interface {})) as type "
      "func(ast.Expr, types.Type, exact.Value) in field value\n"
      "    x_test.go:12: got 3, want 4\n";
  const std::vector<Block> blocks = testing::SegmentAsAScan(log);
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kCompiler);
  EXPECT_EQ(blocks[0].decisive_line, 2u);
  EXPECT_EQ(blocks[1].decisive_line, 3u);
}

// A line that only reports a failed exit status says a step failed even
// when no other line does: Flutter's, with the tool's own Dart frames after
// it (https://github.com/flutter/flutter/issues/34402), and xcodebuild's
// under Bitrise (https://github.com/bitrise-steplib/steps-xcode-archive/issues/200).
// A zero status, a report with no number, and pip's indented box line are
// not such blocks.
TEST(Blocks, AFailedExitStatusAloneIsABlock) {
  auto blocks = Segment(
      "Gradle task assembleRelease failed with exit code 1\n"
      "\n"
      "#0      throwToolExit (package:flutter_tools/src/base/common.dart:24:3)\n"
      "#1      _buildGradleProjectV2 (package:flutter_tools/src/android/gradle.dart:478:5)\n"
      "<asynchronous suspension>\n");
  ASSERT_FALSE(blocks.empty());
  EXPECT_EQ(blocks[0].decisive_line, 1u);
  blocks = Segment(
      "| time: 2020-09-23T23:12:21Z        \n"
      "\n"
      "Archive failed, error: exit status 65\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].decisive, "Archive failed, error: exit status 65");
  EXPECT_TRUE(Segment("worker 3 exited with code 0\nProcess completed with exit code 0.\n").empty());
  EXPECT_TRUE(Segment("  \u2502 exit code: 1\n").empty());
  EXPECT_TRUE(ReportsFailedExit("make: *** [Makefile:60: file_disvar.o] Error 1"));
  EXPECT_TRUE(ReportsFailedExit("torchrun: failed (exitcode: 1) local_rank: 0 (pid: 51)"));
  EXPECT_FALSE(ReportsFailedExit("worker exited with code 0"));
  EXPECT_FALSE(ReportsFailedExit("FAILURE: Build failed with an exception."));
}

// An error line's advice to the reader on the next line is the rest of its
// message: transformers' refusal to run a repository's code
// (https://github.com/InternLM/lagent/issues/49), as pasted and under
// BuildKit's and GitHub Actions' prefixes. A plain line after it is the
// program's own.
TEST(Blocks, AdviceAfterAnErrorLineIsPartOfItsMessage) {
  const std::string error =
      "ValueError: The repository for 'internlm-chat-7b-v1_1' contains custom code which must be executed to "
      "correctlyload the model.";
  const std::string advice = "Please pass the argument `trust_remote_code=True` to allow custom code to be run.";
  for (const std::string prefix : {"", "#14 165.563 ", "2025-03-25T11:21:56.5851234Z "}) {
    auto blocks = Segment(prefix + "fetched page 28/40\n" + prefix + error + "\n" + prefix + advice + "\n" + prefix +
                          "starting worker 2\n");
    ASSERT_EQ(blocks.size(), 1u) << prefix;
    EXPECT_EQ(blocks[0].first_line, 2u) << prefix;
    EXPECT_EQ(blocks[0].last_line, 3u) << prefix;
    EXPECT_EQ(blocks[0].decisive_line, 2u) << prefix;
  }
  auto blocks = Segment(error + "\nstarting worker 2\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].last_line, 1u);
  EXPECT_TRUE(ReadsAsAdvice("Did you mean to import ./utils.js?"));
  EXPECT_FALSE(ReadsAsAdvice("Pleased to report 3 workers"));
  EXPECT_FALSE(ReadsAsAdvice("Trying mirror 2 of 5"));
}

}  // namespace
}  // namespace kedb::logs
