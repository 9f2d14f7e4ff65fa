// Which error block comes first: the root cause before what it caused,
// a failure before warnings and exit statuses, code a traceback quotes
// after the exception it raised.
#include <gtest/gtest.h>

#include "kedb/engine.h"
#include "scan_util.h"
#include "test_util.h"

namespace kedb {
namespace {

using testing::Bundled;
using testing::FromRecords;
using testing::ScanText;
using testing::TempDir;

// The first answer's record id, "" when the block has none.
std::string TopId(const ErrorBlock& b) { return b.matches.empty() ? "" : b.matches[0].record->id; }

// The root error comes first even when it appears later: chained Python
// exceptions name their cause, and the knowledge base's graph says which
// known error leads to which.
TEST(Scan, RootErrorFirst) {
  TempDir cache;
  auto engine = Bundled(cache);
  ASSERT_TRUE(engine);
  // pytorch/cuda-out-of-memory leads to nccl/watchdog-timeout in the bundled graph.
  const Record* oom = engine->kb().Find("pytorch/cuda-out-of-memory");
  ASSERT_NE(oom, nullptr);
  std::string log =
      "[rank0]:[E ProcessGroupNCCL.cpp:563] [Rank 0] Watchdog caught collective operation timeout: "
      "WorkNCCL(SeqNum=88, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800095 milliseconds before timing out.\n"
      "some lines later\n\n\n\n\n"
      "[rank1]:torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity "
      "of 79.15 GiB of which 1.02 GiB is free.\n";
  ScanResult r = ScanText(*engine, log);
  ASSERT_EQ(r.blocks.size(), 2u);
  EXPECT_EQ(r.blocks[0].matches[0].record->id, "pytorch/cuda-out-of-memory");
  EXPECT_TRUE(r.blocks[0].root);
  EXPECT_EQ(r.blocks[1].matches[0].record->id, "nccl/watchdog-timeout");
  EXPECT_EQ(r.blocks[1].caused_by, 0);

  // Chained exceptions: the first exception caused the second.
  ScanResult chained = ScanText(*engine,
                                "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n"
                                "KeyError: 'lr'\n\nThe above exception was the direct cause of the following "
                                "exception:\n\nTraceback (most recent call last):\n  File \"a.py\", line 3, in "
                                "<module>\nRuntimeError: bad config\n");
  ASSERT_EQ(chained.blocks.size(), 2u);
  EXPECT_EQ(chained.blocks[0].decisive, "KeyError: 'lr'");
  EXPECT_TRUE(chained.blocks[0].root);
  EXPECT_EQ(chained.blocks[1].caused_by, 0);
}

// A CI log is full of known issues on warning lines and ends in exit
// statuses; what a reader wants first is the failure.
TEST(Scan, TheFailureComesBeforeWarningsAndExitStatuses) {
  TempDir cache;
  auto e = FromRecords(cache,
                       {testing::MakeRecord("t/utcnow", "DeprecationWarning: datetime.datetime.utcnow() is deprecated",
                                            R"(DeprecationWarning: datetime\.datetime\.utcnow\(\) is deprecated)"),
                        testing::MakeRecord("t/refused", "Error: connect ECONNREFUSED 127.0.0.1:5432",
                                            R"(connect ECONNREFUSED \d+\.\d+\.\d+\.\d+:\d+)")});
  ASSERT_NE(e, nullptr);
  auto job_log = [](bool refused) {
    std::string log;
    for (int i = 0; i < 50; ++i) log += "2026-03-14T10:01:45.1234567Z collecting item " + std::to_string(i) + "\n";
    log += "2026-03-14T10:01:46.1234567Z /app/x.py:12: DeprecationWarning: datetime.datetime.utcnow() is deprecated\n";
    for (int i = 0; i < 50; ++i) log += "2026-03-14T10:01:47.1234567Z running test " + std::to_string(i) + "\n";
    if (refused) log += "2026-03-14T10:01:48.1234567Z Error: connect ECONNREFUSED 127.0.0.1:5432\n";
    return log + "2026-03-14T10:01:48.1234567Z ##[error]Process completed with exit code 1.\n";
  };
  ScanResult r = ScanText(*e, job_log(true));
  ASSERT_EQ(r.blocks.size(), 2u);  // the runner's exit status is the failure's context, not a block
  EXPECT_TRUE(r.blocks[0].root);
  ASSERT_FALSE(r.blocks[0].matches.empty());
  EXPECT_EQ(r.blocks[0].matches[0].record->id, "t/refused");
  ASSERT_FALSE(r.blocks[1].matches.empty());
  EXPECT_EQ(r.blocks[1].matches[0].record->id, "t/utcnow");
  // With only a warning before it, the exit status is what failed.
  r = ScanText(*e, job_log(false));
  ASSERT_EQ(r.blocks.size(), 2u);
  EXPECT_TRUE(r.blocks[0].root);
  EXPECT_EQ(r.blocks[0].decisive, "Process completed with exit code 1.");
  EXPECT_TRUE(r.blocks[0].matches.empty());
}

// wandb's teardown line only reports that the run's process exited 1. A
// record whose broad pattern knows it names no cause: the failure before it
// is the root, and a weak match on the teardown is not reported at all. A
// record that is sure of such a line (Gradle's own failure report) stays.
TEST(Scan, AKnownErrorOnAnExitStatusLineIsNoRoot) {
  TempDir cache;
  auto e = FromRecords(cache, {testing::MakeRecord("t/wandb", "wandb.errors.Error: wandb integration failed",
                                                   "(wandb.*error|wandb.*failed)"),
                               testing::MakeRecord("t/gradle", "FAILURE: Build failed with an exception.",
                                                   R"(FAILURE: Build failed with an exception)")});
  ASSERT_NE(e, nullptr);
  const std::string log =
      "step 10 loss 0.3\n"
      "ERROR feature store: no route to shard 3\n"
      "wandb: Waiting for W&B process to finish... (failed 1). Press Control-C to abort syncing.\n";
  ScanResult r = ScanText(*e, log);
  ASSERT_EQ(r.blocks.size(), 1u);
  EXPECT_TRUE(r.blocks[0].root);
  EXPECT_EQ(r.blocks[0].kind, BlockKind::kErrorLine);
  EXPECT_TRUE(r.blocks[0].matches.empty());

  r = ScanText(*e, "> Task :app:compileJava\nFAILURE: Build failed with an exception.\n");
  ASSERT_EQ(r.blocks.size(), 1u);
  ASSERT_FALSE(r.blocks[0].matches.empty());
  EXPECT_EQ(r.blocks[0].matches[0].record->id, "t/gradle");
}

// ssh's refusal of a key file names no failure on the line a record knows
// (https://github.com/jkbrzt/cloudtunes/issues/46), yet it is why the
// Jenkins step exited 1: a known error the model is sure of makes the exit
// status after it context, as an error line would, and comes before a
// lint warning's known error earlier in the log.
TEST(Scan, ASureKnownErrorInPlainWordsMakesTheExitStatusContext) {
  TempDir cache;
  auto e = FromRecords(
      cache, {testing::MakeRecord("t/ssh-key-permission", "Permissions 0644 for 'id_rsa' are too open",
                                  R"(Permissions \d+ for '.*' are too open|private key files are NOT accessible)"),
              testing::MakeRecord("t/exhaustive-deps", "React Hook useEffect has a missing dependency",
                                  R"(React Hook useEffect has a missing dependency)")});
  ASSERT_NE(e, nullptr);
  std::string log =
      "  26:4    warning  React Hook useEffect has a missing dependency: 'refetch'. Either include it or remove "
      "the dependency array  react-hooks/exhaustive-deps\n";
  for (int i = 0; i < 40; ++i) log += "[Pipeline] echo step " + std::to_string(i) + "\n";
  log +=
      "debug1: Trying private key: /home/<user>/.ssh/<name_of_key_file>\n"
      "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
      "@         WARNING: UNPROTECTED PRIVATE KEY FILE!          @\n"
      "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
      "Permissions 0664 for '/home/<user>/.ssh/<name_of_key_file>' are too open.\n"
      "It is required that your private key files are NOT accessible by others.\n"
      "This private key will be ignored.\n"
      "Load key \"/home/<user>/.ssh/<name_of_key_file>\": bad permissions\n";
  for (int i = 0; i < 40; ++i) log += "[Pipeline] // stage " + std::to_string(i) + "\n";
  log += "ERROR: script returned exit code 1\nFinished: FAILURE\n";
  ScanResult r = ScanText(*e, log);
  ASSERT_FALSE(r.blocks.empty());
  EXPECT_TRUE(r.blocks[0].root);
  ASSERT_FALSE(r.blocks[0].matches.empty());
  EXPECT_EQ(r.blocks[0].matches[0].record->id, "t/ssh-key-permission");
  for (const auto& b : r.blocks) EXPECT_NE(b.decisive, "ERROR: script returned exit code 1");
}

// transformers refuses a repository's code on one line and gives the fix
// on the next (https://github.com/InternLM/lagent/issues/49). Under
// BuildKit's prefix both lines are the root block, and the record whose
// workaround gives that fix is credited for the quote.
TEST(Scan, AnErrorsAdviceLineIsReadWithItAndItsQuotedFixCounts) {
  TempDir cache;
  Record custom = testing::MakeRecord("t/custom-code", "ValueError: Loading this model requires trust_remote_code=True",
                                      R"(contains custom code which must be executed|requires trust_remote_code)");
  Workaround fix;
  fix.action = "Pass trust_remote_code=True to from_pretrained after reviewing the repository";
  custom.workarounds.push_back(fix);
  auto e = FromRecords(cache, {custom});
  ASSERT_NE(e, nullptr);
  std::string log;
  for (int i = 0; i < 30; ++i) {
    log += "#14 1" + std::to_string(10 + i) + ".000 INFO sync: fetched page " + std::to_string(i) + "/40\n";
  }
  log +=
      "#14 165.560 ValueError: The repository for 'internlm-chat-7b-v1_1' contains custom code which must be "
      "executed to correctlyload the model. You can inspect the repository content at https://hf.co/..../x.\n"
      "#14 165.563 Please pass the argument `trust_remote_code=True` to allow custom code to be run.\n"
      "#14 ERROR: process \"/bin/sh -c python load.py\" did not complete successfully: exit code: 1\n";
  ScanResult r = ScanText(*e, log);
  ASSERT_FALSE(r.blocks.empty());
  const ErrorBlock& root = r.blocks[0];
  EXPECT_TRUE(root.root);
  EXPECT_EQ(root.first_line, 31u);
  EXPECT_EQ(root.last_line, 32u);
  ASSERT_FALSE(root.matches.empty());
  EXPECT_EQ(root.matches[0].record->id, "t/custom-code");
  bool quoted = false;
  for (const ScoreFactor& f : root.matches[0].why) quoted |= f.name == "fix_quoted";
  EXPECT_TRUE(quoted);
}

// GitLab's runner splits a line it received in two writes and tags the rest
// "01E+". The rest of a pip warning names a timeout, but it is still a
// warning: the logger's error below it is the root.
TEST(Scan, TheRestOfASplitLineIsReadWithItsFirstPart) {
  TempDir cache;
  auto e = FromRecords(cache, {testing::MakeRecord("t/read-timeout", "pip ReadTimeoutError: Read timed out",
                                                   R"(ReadTimeoutError\(.*Read timed out)")});
  ASSERT_NE(e, nullptr);
  const std::string log =
      "2026-03-14T10:01:45.000001Z 00O $ pip install -r requirements.txt\n"
      "2026-03-14T10:01:45.000002Z 01E WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, "
      "status=None)) after connec\n"
      "2026-03-14T10:01:45.000003Z 01E+ tion broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='pypi.org', "
      "port=443): Read timed out. (read timeout=15)\")': /simple/six/\n"
      "2026-03-14T10:01:46.000001Z 01E ERROR feature store: no route to shard 3\n";
  ScanResult r = ScanText(*e, log);
  ASSERT_EQ(r.blocks.size(), 2u);
  EXPECT_TRUE(r.blocks[0].root);
  EXPECT_EQ(r.blocks[0].kind, BlockKind::kErrorLine);
  EXPECT_EQ(r.blocks[1].decisive_line, 3u);
  EXPECT_EQ(r.blocks[1].decisive.rfind("WARNING: Retrying (Retry(total=4", 0), 0u) << r.blocks[1].decisive;
  ASSERT_FALSE(r.blocks[1].matches.empty());
  EXPECT_EQ(r.blocks[1].matches[0].record->id, "t/read-timeout");
  // The match's span is still on the line it was found on.
  const Match& m = r.blocks[1].matches[0];
  EXPECT_EQ(log.substr(m.begin, 16), "ReadTimeoutError");
}

// A traceback pasted without its header and flush left: its code line
// quotes the exception, but the exception line below is the failure.
// https://github.com/facebookresearch/detectron2/issues/460
TEST(Scan, ACodeLineThatQuotesAnExceptionIsNoRoot) {
  TempDir cache;
  auto e = FromRecords(cache, {testing::MakeRecord("t/assertion", "AssertionError", "AssertionError"),
                               testing::MakeRecord("t/no-cuda", "AssertionError: Torch not compiled with CUDA enabled",
                                                   "^AssertionError: Torch not compiled with CUDA enabled")});
  ASSERT_NE(e, nullptr);
  const std::string log =
      "[07:12:01] building model\n"
      "File \"/home/xx/envs/lib/python3.7/site-packages/torch/cuda/__init__.py\", line 95, in _check_driver\n"
      "    raise AssertionError(\"Torch not compiled with CUDA enabled\")\n"
      "AssertionError: Torch not compiled with CUDA enabled\n";
  ScanResult r = ScanText(*e, log);
  ASSERT_GE(r.blocks.size(), 1u);
  EXPECT_EQ(r.blocks[0].decisive_line, 4u);
  ASSERT_FALSE(r.blocks[0].matches.empty());
  EXPECT_EQ(r.blocks[0].matches[0].record->id, "t/no-cuda");
}

// Next.js prints a redirect's stack under "NEXT_REDIRECT", a line with no
// word that marks an error: the known error on it heads the stack trace.
// https://github.com/vercel/next.js/issues/55586
TEST(Scan, AKnownErrorRightAboveAHeaderlessStackTraceHeadsIt) {
  TempDir cache;
  auto e = FromRecords(cache, {testing::MakeRecord("t/redirect", "Error: NEXT_REDIRECT", "NEXT_REDIRECT")});
  ASSERT_NE(e, nullptr);
  const std::string log =
      "#14 19.865 \n"
      "#14 20.067 NEXT_REDIRECT\n"
      "#14 20.075     at getRedirectError (webpack-internal:///(rsc)/./node_modules/next/dist/client/components/"
      "redirect.js:40:19)\n"
      "#14 20.083     at redirect (webpack-internal:///(rsc)/./node_modules/next/dist/client/components/"
      "redirect.js:50:11)\n"
      "#14 20.088 done\n";
  ScanResult r = ScanText(*e, log);
  ASSERT_EQ(r.blocks.size(), 1u);
  EXPECT_EQ(r.blocks[0].kind, BlockKind::kJavascript);
  EXPECT_EQ(r.blocks[0].first_line, 2u);
  EXPECT_EQ(r.blocks[0].decisive_line, 2u);
  EXPECT_EQ(r.blocks[0].decisive, "NEXT_REDIRECT");
  ASSERT_FALSE(r.blocks[0].matches.empty());
  EXPECT_EQ(r.blocks[0].matches[0].record->id, "t/redirect");
}

// Among warnings, the one just before a step's exit status is more likely
// what failed than one from an earlier step: a registry's rate limit
// logged at level=warning by the failing pull, after pip retried a
// download long before (https://github.com/containers/podman/issues/25204
// prints the first). The rate limit names an error ("Error: reading
// manifest ..."), so it comes before the exit status too.
TEST(Scan, TheWarningBeforeTheFailureComesBeforeEarlierOnes) {
  TempDir cache;
  auto e = FromRecords(cache, {testing::MakeRecord("t/read-timeout", "pip ReadTimeoutError: Read timed out",
                                                   R"(ReadTimeoutError\(.*Read timed out)"),
                               testing::MakeRecord("t/rate-limit", "toomanyrequests: You have reached your pull rate limit",
                                                   R"(toomanyrequests: You have reached your pull rate limit)")});
  ASSERT_NE(e, nullptr);
  std::string log = "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after "
                    "connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='pypi.org', port=443): Read "
                    "timed out. (read timeout=15)\")': /simple/six/\n";
  for (int i = 0; i < 40; ++i) log += "Collecting package" + std::to_string(i) + "\n";
  log += "time=\"2025-02-04T15:51:23-05:00\" level=warning msg=\"Failed, retrying in 2s ... (1/3). Error: reading "
         "manifest bookworm in docker.io/library/debian: toomanyrequests: You have reached your pull rate limit.\"\n";
  log += "##[error]Process completed with exit code 1.\n";
  for (int i = 0; i < 5; ++i) log += "Post job cleanup " + std::to_string(i) + "\n";
  ScanResult r = ScanText(*e, log);
  ASSERT_EQ(r.blocks.size(), 3u);
  ASSERT_FALSE(r.blocks[0].matches.empty());
  EXPECT_EQ(r.blocks[0].matches[0].record->id, "t/rate-limit");
  EXPECT_TRUE(r.blocks[0].root);
  EXPECT_EQ(r.blocks[1].decisive, "Process completed with exit code 1.");
  ASSERT_FALSE(r.blocks[2].matches.empty());
  EXPECT_EQ(r.blocks[2].matches[0].record->id, "t/read-timeout");
}

// A tool may log an error at a warning level: Meteor's "WARNING MongoError:
// E11000 ..." (https://github.com/meteor/meteor/issues/6279), a registry
// client's `level=warning msg="... Error: ... toomanyrequests"`. Named as an
// error, it is the failure before the job's exit status, not a warning
// after it; a deprecation warning in the same log stays a warning.
TEST(Scan, AnErrorLoggedAtAWarningLevelComesBeforeTheExitStatus) {
  TempDir cache;
  auto e = FromRecords(cache,
                       {testing::MakeRecord("t/e11000", "MongoError: E11000 duplicate key error collection",
                                            R"(E11000 duplicate key error)"),
                        testing::MakeRecord("t/utcnow", "DeprecationWarning: datetime.datetime.utcnow() is deprecated",
                                            R"(DeprecationWarning: datetime\.datetime\.utcnow\(\) is deprecated)")});
  ASSERT_NE(e, nullptr);
  std::string log;
  for (int i = 0; i < 40; ++i) log += "I20260314 10:01:45 syncing package " + std::to_string(i) + "\n";
  log += "[Wed Feb 24 2016 01:08:57 GMT+0000 (UTC)] WARNING MongoError: E11000 duplicate key error collection: "
         "app.SyncState index: _id_ dup key: { : \"lastUpdated\" }\n";
  for (int i = 0; i < 40; ++i) log += "I20260314 10:01:46 waiting for the server " + std::to_string(i) + "\n";
  log += "/app/x.py:12: DeprecationWarning: datetime.datetime.utcnow() is deprecated\n";
  for (int i = 0; i < 40; ++i) log += "I20260314 10:01:47 still waiting " + std::to_string(i) + "\n";
  log += "ERROR: Job failed: exit code 1\n";
  ScanResult r = ScanText(*e, log);
  ASSERT_GE(r.blocks.size(), 2u);
  EXPECT_TRUE(r.blocks[0].root);
  EXPECT_EQ(TopId(r.blocks[0]), "t/e11000");
  for (std::size_t i = 1; i < r.blocks.size(); ++i) {
    if (TopId(r.blocks[i]) == "t/utcnow") return;
  }
  ADD_FAILURE() << "the deprecation warning is still reported";
}

// A React error printed with Babel's code frame at the end of a log
// (https://github.com/opentok/opentok-web-samples/issues/167): the frame's
// source lines mention `error`, but quoting code says nothing failed, and
// the known error above them is the root.
TEST(Scan, ACodeFrameAtTheLogsEndIsNoErrorLine) {
  TempDir cache;
  auto e = FromRecords(cache, {testing::MakeRecord("t/child", "Objects are not valid as a React child",
                                                   R"(Objects are not valid as a React child)")});
  ASSERT_NE(e, nullptr);
  std::string log;
  for (int i = 0; i < 60; ++i) log += "{'loss': 1.5" + std::to_string(i) + ", 'epoch': 6.61}\n";
  log += "Objects are not valid as a React child (found: object with keys {code, message, name}). If you meant "
         "to render a collection of children, use an array instead.\n"
         "    in div (at App.js:84)\n"
         "    in App (at index.js:18)\n"
         "App._this.onPublishError [as onError]\n"
         "src/App.js:60\n"
         "  57 | };\n"
         "  58 | \n"
         "  59 | onPublishError = error => {\n"
         "> 60 |   this.setState({ error });\n"
         "  61 | };\n";
  ScanResult r = ScanText(*e, log);
  ASSERT_EQ(r.blocks.size(), 1u);
  EXPECT_TRUE(r.blocks[0].root);
  EXPECT_EQ(TopId(r.blocks[0]), "t/child");
}

// A failed step no record explains, with a known error right before it or
// among its last lines: that error is likely why the step failed, though
// its line reads as a warning (React's warning printed through jest's
// console.error, https://github.com/carbon-design-system/carbon-addons-iot-react/issues/2452;
// Kong's [warn] line for the request Elasticsearch refused,
// https://github.com/Kong/kong/issues/6965). A lint warning from an
// earlier step stays behind the step.
TEST(Scan, AKnownErrorJustBeforeAnUnexplainedFailedStepIsItsCause) {
  TempDir cache;
  auto e = FromRecords(
      cache, {testing::MakeRecord("t/hook-deps", "React Hook useEffect has a missing dependency",
                                  R"(React Hook useEffect has a missing dependency)"),
              testing::MakeRecord("t/update-while-rendering", "Warning: Cannot update a component while rendering a "
                                  "different component", R"(Cannot update a component .* while rendering a different component)"),
              testing::MakeRecord("t/total-fields", "Limit of total fields [1000] in index has been exceeded",
                                  R"(Limit of total fields \[\d+\] in index .* has been exceeded)")});
  ASSERT_NE(e, nullptr);
  auto job = [](const std::string& failure) {
    std::string log = "2026-03-14T10:01:40.1234567Z   47:14   warning  React Hook useEffect has a missing dependency: "
                      "'refetch'. Either include it or remove the dependency array  react-hooks/exhaustive-deps\n";
    for (int i = 0; i < 200; ++i) {
      log += "2026-03-14T10:01:45.1234567Z  PASS  src/components/Widget" + std::to_string(i) + ".test.jsx\n";
    }
    log += failure;
    for (int i = 0; i < 5; ++i) log += "2026-03-14T10:01:50.1234567Z Tests: " + std::to_string(i) + " passed\n";
    return log + "2026-03-14T10:01:51.1234567Z ##[error]Process completed with exit code 1.\n";
  };
  const std::string react =
      "2026-03-14T10:01:48.1234567Z     console.error\n"
      "2026-03-14T10:01:48.1234567Z       Warning: Cannot update a component (`RuleBuilder`) while rendering a "
      "different component (`RuleBuilderEditor`). To locate the bad setState() call inside `RuleBuilderEditor`, "
      "follow the stack trace as described in https://fb.me/setstate-in-render\n"
      "2026-03-14T10:01:48.1234567Z           in RuleBuilderEditor (created by RuleBuilder)\n";
  const std::string kong =
      "2021/03/25 15:17:07 [warn] 39#0: *12427361 [lua] batch_queue.lua:183: failed to process entries: request to "
      "elasticsearch-svc:9200 returned status code 400 and body {\"error\":{\"type\":\"illegal_argument_exception\","
      "\"reason\":\"Limit of total fields [1000] in index [audit_apis] has been exceeded\"},\"status\":400}\n";
  for (const auto& [failure, id] : {std::pair{react, "t/update-while-rendering"}, std::pair{kong, "t/total-fields"}}) {
    ScanResult r = ScanText(*e, job(failure));
    ASSERT_GE(r.blocks.size(), 3u) << id;
    EXPECT_TRUE(r.blocks[0].root);
    EXPECT_EQ(TopId(r.blocks[0]), id) << id;
    EXPECT_EQ(r.blocks[1].decisive, "Process completed with exit code 1.") << id;
    EXPECT_EQ(TopId(r.blocks[2]), "t/hook-deps") << id;
  }
}

// React Native's CLI reports "error Failed to install the app." after
// Gradle's own failure report (https://github.com/reactnativecn/react-native-website/issues/958):
// the known error right before a logger's error line no record knows is
// its cause. A warning right before such a line is not (see
// TheRestOfASplitLineIsReadWithItsFirstPart).
TEST(Scan, AKnownFailureJustBeforeAnUnknownErrorLineIsItsCause) {
  TempDir cache;
  auto e = FromRecords(cache, {testing::MakeRecord("t/gradle", "FAILURE: Build failed with an exception.",
                                                   R"(FAILURE: Build failed with an exception)")});
  ASSERT_NE(e, nullptr);
  std::string log;
  for (int i = 0; i < 60; ++i) log += "2025-10-23 04:38:07,865 INFO sync: fetched page " + std::to_string(i) + "\n";
  log +=
      "FAILURE: Build failed with an exception.\n\n"
      "* What went wrong:\n"
      "A problem occurred configuring project ':lottie-react-native'.\n"
      "> Installed Build Tools revision 33.0.1 is corrupted. Remove and install again using the SDK Manager.\n\n"
      "* Try:\n"
      "Run with --stacktrace option to get the stack trace. Run with --info or --debug option to get more log "
      "output.\n\n"
      "* Get more help at https://help.gradle.org\n\n"
      "BUILD FAILED in 20s\n\n"
      "error Failed to install the app. Make sure you have the Android development environment set up: "
      "https://reactnative.dev/docs/environment-setup.\n";
  ScanResult r = ScanText(*e, log);
  ASSERT_GE(r.blocks.size(), 2u);
  EXPECT_TRUE(r.blocks[0].root);
  EXPECT_EQ(TopId(r.blocks[0]), "t/gradle");
  EXPECT_EQ(r.blocks.back().decisive.rfind("error Failed to install the app.", 0), 0u) << r.blocks.back().decisive;
}

// An error no record covers, on one line of a CI job
// (https://github.com/officelifehq/officelife/issues/1300): read alone, its
// words are near enough a PHP record's for a weak answer, which the whole
// paste does not give. A weak fuzzy answer on a lone line must hold when
// the line is read with the lines around it; here it does not, and the
// block is reported without an answer.
TEST(Scan, AWeakLookalikeOnALoneLineMustHoldWithItsSurroundings) {
  KEDB_REQUIRE_SHARED(shared);
  auto engine = Engine::Open((shared / "corpora/deadends/canons").string(), OpenOptions{.cache_dir = KEDB_TEST_CACHE});
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  std::string log;
  for (int i = 0; i < 80; ++i) {
    log += "2025-04-15T06:40:54.159157Z 01O [" + std::to_string(3200 + i) +
           "/4063] Building CXX object src/CMakeFiles/storage.dir/io/timer" + std::to_string(i) + ".cpp.o\n";
  }
  log +=
      "2025-04-15T06:40:56.899152Z 01E PHP Fatal error:  During class fetch: Uncaught ParseError: syntax error, "
      "unexpected '|', expecting variable (T_VARIABLE) in D:\\xampp\\htdocs\\app\\officelife-main\\vendor\\spatie"
      "\\macroable\\src\\Macr\n"
      "2025-04-15T06:40:56.902526Z 01E oable.php:14\n"
      "2025-04-15T06:40:56.903324Z 01E Stack trace:\n"
      "2025-04-15T06:40:56.917289Z 00O section_end:1744699256:step_script\n";
  for (int i = 0; i < 40; ++i) {
    log += "2025-04-15T06:40:56.937435Z 01O db-1      | 2025-04-15 06:15:59.263 UTC [1] LOG:  checkpoint " +
           std::to_string(i) + " complete\n";
  }
  ScanResult r = ScanText(**engine, log);
  ASSERT_GE(r.blocks.size(), 1u);
  EXPECT_NE(r.blocks[0].decisive.find("Uncaught ParseError"), std::string::npos) << r.blocks[0].decisive;
  EXPECT_EQ(TopId(r.blocks[0]), "");
}

}  // namespace
}  // namespace kedb
