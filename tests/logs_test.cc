// Reading logs like an engineer: cleaning lines, and cutting a log into
// error blocks with their decisive lines.
#include <functional>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "logs/blocks.h"
#include "logs/line_chunker.h"
#include "logs/preprocess.h"
#include "logs/triggers.h"
#include "segment_util.h"

namespace kedb::logs {
namespace {

struct Cleaned {
  std::string text;
  LineMark mark;
};

Cleaned C(std::string_view line) {
  std::string scratch;
  CleanLine c = Clean(line, &scratch);
  return {std::string(c.text), c.mark};
}

TEST(Preprocess, StripsWhatTerminalsAndCiSystemsAdd) {
  EXPECT_EQ(C("\x1b[31;1mRuntimeError\x1b[0m: boom").text, "RuntimeError: boom");
  EXPECT_EQ(C("\x1b]8;;http://x\x07link\x1b]8;;\x07 text").text, "link text");
  // GitHub Actions: timestamp, then a workflow command.
  auto gh = C("2024-01-15T10:23:45.1234567Z ##[error]Process completed with exit code 1.");
  EXPECT_EQ(gh.text, "Process completed with exit code 1.");
  EXPECT_EQ(gh.mark, LineMark::kCiError);
  // GitLab: timestamp and stream tag.
  EXPECT_EQ(C("2024-01-15T10:23:45.123456Z 00O+ $ make test").text, "$ make test");
  EXPECT_EQ(C("2024-01-15T10:23:45.123456Z 01E npm ERR! code E404").text, "npm ERR! code E404");
  // Jenkins timestamper and pipeline steps.
  EXPECT_EQ(C("[2024-01-15T10:23:45.123Z] [Pipeline] sh").text, "sh");
  EXPECT_EQ(C("[10:23:45] Building module x").text, "Building module x");
  // Docker BuildKit.
  EXPECT_EQ(C("#12 3.456 ERROR: No matching distribution found for torch==9.9").text,
            "ERROR: No matching distribution found for torch==9.9");
  // glog (PyTorch, TensorFlow) and torchrun's rank prefix.
  auto glog = C("E0314 02:59:15.020000 140213 torch/distributed/elastic/multiprocessing/api.py:826] failed (exitcode: -6)");
  EXPECT_EQ(glog.text, "failed (exitcode: -6)");
  EXPECT_EQ(glog.mark, LineMark::kCiError);
  EXPECT_EQ(C("[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout").text,
            "[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout");
  // Python logging.
  EXPECT_EQ(C("2026-03-14 09:12:01,114 INFO  launcher: start").text, "INFO  launcher: start");
  // Timestamps in their other shapes: zones, no fraction, a bare date.
  for (const char* line : {"2026-03-14T09:12:01+05:30 up", "2026-03-14T09:12:01.5-08:00 up",
                           "2026-03-14_09:12:01 up", "2026-03-14 up"}) {
    EXPECT_EQ(C(line).text, "up") << line;
  }
  EXPECT_EQ(C("2026-03-14T09:12:01").text, "");
  // Go's log package and nginx's error log stamp "YYYY/MM/DD hh:mm:ss"; a
  // path that starts with a date stays.
  EXPECT_EQ(C("2024/12/25 00:40:02 Failed to get response: 429: Rate limit reached").text,
            "Failed to get response: 429: Rate limit reached");
  EXPECT_EQ(C("2024/12/25 00:40:02 [emerg] 1#1: unknown directive \"brotli\"").text,
            "[emerg] 1#1: unknown directive \"brotli\"");
  EXPECT_EQ(C("2024/12/25/report.csv written").text, "2024/12/25/report.csv written");
  EXPECT_EQ(C("2024/12/25 was a holiday").text, "2024/12/25 was a holiday");
  // Docker Compose's service column, first or under a CI timestamp
  // (https://github.com/alibaba/nacos/issues/12259); a logger's level
  // column and a table's first cell are not one.
  EXPECT_EQ(C("nacos  |        at com.mysql.cj.NativeSession.connect(NativeSession.java:134)").text,
            "       at com.mysql.cj.NativeSession.connect(NativeSession.java:134)");
  EXPECT_EQ(C("2026-03-14T10:01:45.1234567Z web-1  | 2026-03-14 10:01:45,114 ERROR db: refused").text,
            "ERROR db: refused");
  EXPECT_EQ(C("error    | db: refused").text, "error    | db: refused");
  EXPECT_EQ(C("Name | Value").text, "Name | Value");
  // PM2's process column, under Docker Compose's
  // (https://github.com/socioboard/Socioboard-5.0/issues/287) or alone
  // (https://github.com/nodejs/node/issues/16768); a number in a table is
  // not one.
  EXPECT_EQ(C("api_1    | 0|user.ser | Error [ERR_MODULE_NOT_FOUND]: Cannot find module").text,
            "Error [ERR_MODULE_NOT_FOUND]: Cannot find module");
  EXPECT_EQ(C("0|mm  | (node:5263) UnhandledPromiseRejectionWarning: Unhandled promise rejection").text,
            "(node:5263) UnhandledPromiseRejectionWarning: Unhandled promise rejection");
  EXPECT_EQ(C("3|Total | 12").text, "3|Total | 12");
  // syslog and journald: stamp, host and program tag
  // (https://github.com/TechnicallyCoded/Inventory-Rollback-Plus/issues/210);
  // the day padded with a blank; a stamp without host and tag; a line that
  // only starts with a month's name.
  EXPECT_EQ(C("Sep 28 04:26:44 diplomatica-hetzner mariadbd[23978]: [ERROR] mariadbd: Lock wait timeout exceeded").text,
            "[ERROR] mariadbd: Lock wait timeout exceeded");
  EXPECT_EQ(C("Mar  4 10:00:01 web1 kernel: Out of memory: Killed process 4242 (python)").text,
            "Out of memory: Killed process 4242 (python)");
  EXPECT_EQ(C("Mar 14 09:12:01 starting").text, "starting");
  EXPECT_EQ(C("March 14 was a holiday").text, "March 14 was a holiday");
  EXPECT_EQ(C("Sep 28 sales: 12 units").text, "Sep 28 sales: 12 units");
  // vLLM's and Ray's process column (https://github.com/gpustack/gpustack/issues/2769).
  EXPECT_EQ(C("(APIServer pid=11235) RuntimeError: Engine core initialization failed. See root cause above.").text,
            "RuntimeError: Engine core initialization failed. See root cause above.");
  EXPECT_EQ(C("(RayWorkerWrapper pid=5023, ip=10.0.0.2)   File \"/x.py\", line 3, in f").text,
            "  File \"/x.py\", line 3, in f");
  EXPECT_EQ(C("(see the docs) for more").text, "(see the docs) for more");
  // Terraform's frame around a diagnostic
  // (https://github.com/hashicorp/terraform-provider-aws/issues/8720): the
  // bar goes, the indentation under it stays; the corners leave nothing.
  EXPECT_EQ(C("\u2502 Error: collecting instance settings: UnauthorizedOperation").text,
            "Error: collecting instance settings: UnauthorizedOperation");
  EXPECT_EQ(C("\u2502       status code: 403").text, "      status code: 403");
  EXPECT_EQ(C("\u2577").text, "");
  EXPECT_EQ(C("\u2502").text, "");
  EXPECT_EQ(C("\u251c\u2500\u2500 lodash@4.17.21").text, "\u251c\u2500\u2500 lodash@4.17.21");
  // pytest's failure details.
  auto e = C("E       RuntimeError: CUDA error: device-side assert triggered");
  EXPECT_EQ(e.text, "RuntimeError: CUDA error: device-side assert triggered");
  EXPECT_EQ(e.mark, LineMark::kPytestError);
}

TEST(Preprocess, TellsGitLabsSplitLines) {
  std::string scratch;
  const std::string first = "2026-03-14T10:01:45.000002Z 01E WARNING: Retrying after connec";
  const std::string rest = "2026-03-14T10:01:45.000003Z 01E+ tion broken by 'ReadTimeoutError'";
  const CleanLine a = Clean(first, &scratch);
  EXPECT_FALSE(ContinuesPreviousLine(std::string_view(first).substr(0, a.stripped)));
  const CleanLine b = Clean(rest, &scratch);
  EXPECT_EQ(b.text, "tion broken by 'ReadTimeoutError'");
  EXPECT_TRUE(ContinuesPreviousLine(std::string_view(rest).substr(0, b.stripped)));
  EXPECT_TRUE(ContinuesPreviousLine("2026-03-14T10:01:45.000003Z 00O+"));
  EXPECT_FALSE(ContinuesPreviousLine("2026-03-14T10:01:45.000003Z "));
  EXPECT_FALSE(ContinuesPreviousLine(""));
}

TEST(Preprocess, KeepsWhatIsMessage) {
  for (const char* line : {"Epoch 1/10", "E1234: shard writer stalled", "Error: x", "#include <cuda.h>",
                           "2026 was a good year", "[rank] is not a prefix", "  File \"a.py\", line 3",
                           // timestamps cut short
                           "2026-03-14T09:12 up", "2026-03-14T09:12:0x up", "2026-03-14T09:123:01 up"}) {
    EXPECT_EQ(C(line).text, line);
  }
}

TEST(Preprocess, RedrawsCrlfAndInvalidUtf8) {
  EXPECT_EQ(C("loading  10%\rloading 100%").text, "loading 100%");
  EXPECT_EQ(C("windows line\r").text, "windows line");
  EXPECT_EQ(C("bad \xff byte").text, "bad \xEF\xBF\xBD byte");
  EXPECT_EQ(C("cut \xE6\x89").text, "cut \xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(C("ok \xE4\xB8\xAD\xE6\x96\x87").text, "ok \xE4\xB8\xAD\xE6\x96\x87");
  EXPECT_EQ(C("overlong \xC0\xAF").text, "overlong \xEF\xBF\xBD\xEF\xBF\xBD");
}

using testing::Segment;

// Cleaning a block gives, line for line, what Clean() gives, each line
// followed by one newline.
void ExpectSameAsLineByLine(const std::string& raw) {
  SCOPED_TRACE(::testing::PrintToString(raw));
  std::vector<std::size_t> raw_starts = LineStarts(raw);
  CleanedLines out;
  out.buffer = "leftovers of an earlier block";
  CleanLines(raw, raw_starts, &out);
  ASSERT_EQ(out.starts.size(), raw_starts.size());
  ASSERT_EQ(out.origins.size(), raw_starts.size());
  std::string scratch, joined;
  for (std::size_t i = 0; i < raw_starts.size(); ++i) {
    CleanLine want = Clean(LineText(raw, raw_starts, i), &scratch);
    EXPECT_EQ(out.starts[i], joined.size()) << "line " << i;
    EXPECT_EQ(out.marks[i], want.mark) << "line " << i;
    EXPECT_EQ(out.origins[i], raw_starts[i] + want.stripped) << "line " << i;
    joined.append(want.text);
    joined.push_back('\n');
  }
  EXPECT_EQ(out.text, joined);
}

TEST(Preprocess, CleaningABlockIsCleaningEachLine) {
  ExpectSameAsLineByLine("2026-03-14T09:12:01.123Z INFO start\n2026-03-14 09:12:02,114 RuntimeError: boom\nplain\n");
  // CRLF endings, a last line without a newline, empty lines.
  ExpectSameAsLineByLine("[rank0]: Traceback\r\n\r\n\nE   assert 1 == 2\r\nlast");
  // Escapes and redraws.
  ExpectSameAsLineByLine("\x1b[31mError\x1b[0m: red\n 10%|#  \r 50%|### \r100%|#####\n##[error]Process failed\n");
  // Invalid bytes grow into U+FFFD: past the room the block itself needs.
  ExpectSameAsLineByLine("2026-03-14T09:12:01Z ok\nbad \xff\xfe\xfd bytes\n2026-03-14T09:12:01Z after\n\x1b[1mbold\x1b[0m\n");
  ExpectSameAsLineByLine("\xff");
  ExpectSameAsLineByLine("");
  ExpectSameAsLineByLine("\n\n");
}

TEST(Preprocess, CleaningABlockIsCleaningEachLineOnRandomLines) {
  // Lines assembled from the pieces cleaning acts on, in random order.
  const std::vector<std::string> pieces = {
      "2026-03-14T09:12:01.123Z ", "[2026-03-14 09:12:01] ", "I0314 02:11:40.118000 140213 file.py:757] ",
      "#12 3.456 ", "[rank3]: ", "##[error]", "E   ", "00O ", "\x1b[31m", "\x1b[0m", "\r", "\xe9", "\xc3\xa9",
      "\xff", "错误", "Error", ": ", "x", " ", "12:00:00", "[", "]", "web-1  | ", "|"};
  uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>(state >> 33);
  };
  for (int round = 0; round < 300; ++round) {
    std::string raw;
    const std::size_t lines = next() % 12;
    for (std::size_t l = 0; l < lines; ++l) {
      const std::size_t n = next() % 7;
      for (std::size_t k = 0; k < n; ++k) raw += pieces[next() % pieces.size()];
      if (l + 1 < lines || next() % 2) raw += next() % 4 == 0 ? "\r\n" : "\n";
    }
    ExpectSameAsLineByLine(raw);
  }
}

TEST(Blocks, PythonChainedTracebacks) {
  auto blocks = Segment(R"(starting
Traceback (most recent call last):
  File "app.py", line 3, in <module>
    open("config.yaml")
FileNotFoundError: [Errno 2] No such file or directory: 'config.yaml'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "app.py", line 5, in <module>
    raise RuntimeError("no config")
RuntimeError: no config
done
)");
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kPython);
  EXPECT_EQ(blocks[0].first_line, 2u);
  EXPECT_EQ(blocks[0].decisive_line, 5u);
  EXPECT_EQ(blocks[0].decisive, "FileNotFoundError: [Errno 2] No such file or directory: 'config.yaml'");
  ASSERT_EQ(blocks[0].frames.size(), 1u);
  EXPECT_EQ(blocks[0].frames[0], "File \"app.py\", line 3, in <module>");
  EXPECT_EQ(blocks[1].decisive, "RuntimeError: no config");
  EXPECT_EQ(blocks[1].decisive_line, 12u);
  EXPECT_EQ(blocks[1].caused_by, 0);  // the first exception led to the second
  EXPECT_EQ(blocks[0].caused_by, -1);
}

TEST(Blocks, JavaCausedByChain) {
  auto blocks = Segment("Exception in thread \"main\" java.lang.RuntimeException: wrapper\n"
                        "\tat com.x.App.main(App.java:10)\n"
                        "Caused by: java.io.IOException: disk full\n"
                        "\tat com.x.Io.write(Io.java:5)\n"
                        "\t... 1 more\n"
                        "next\n");
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kJava);
  EXPECT_EQ(blocks[0].decisive, "Exception in thread \"main\" java.lang.RuntimeException: wrapper");
  EXPECT_EQ(blocks[1].decisive, "java.io.IOException: disk full");
  EXPECT_EQ(blocks[1].last_line, 5u);
  EXPECT_EQ(blocks[0].caused_by, 1);  // the wrapper is explained by the IOException
}

TEST(Blocks, RustGoNodeNpm) {
  auto blocks = Segment(R"(thread 'main' panicked at src/main.rs:2:5:
index out of bounds: the len is 3 but the index is 5
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
error[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable
 --> src/main.rs:4:5
  |
3 |     let first = &v[0];
  |                  - immutable borrow occurs here
4 |     v.push(6);
  |     ^^^^^^^^^ mutable borrow occurs here

panic: runtime error: index out of range [5] with length 3

goroutine 1 [running]:
main.main()
	/tmp/x/main.go:8 +0x1d
exit status 2
/app/index.js:1
Error: Cannot find module 'express'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1039:15)
    at Module._load (node:internal/modules/cjs/loader:885:27)
npm ERR! code ERESOLVE
npm ERR! ERESOLVE unable to resolve dependency tree
npm ERR! A complete log of this run can be found in: /root/.npm/_logs/x.log
)");
  if (blocks.size() != 5u) {
    for (const auto& b : blocks) ADD_FAILURE() << BlockKindName(b.kind) << " " << b.first_line << ": " << b.decisive;
  }
  ASSERT_EQ(blocks.size(), 5u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kRustPanic);
  EXPECT_EQ(blocks[0].decisive, "index out of bounds: the len is 3 but the index is 5");
  EXPECT_EQ(blocks[1].kind, BlockKind::kRustc);
  EXPECT_EQ(blocks[1].decisive_line, 4u);
  EXPECT_EQ(blocks[1].last_line, 10u);
  ASSERT_EQ(blocks[1].frames.size(), 1u);
  EXPECT_EQ(blocks[1].frames[0], "--> src/main.rs:4:5");
  EXPECT_EQ(blocks[2].kind, BlockKind::kGoPanic);
  EXPECT_EQ(blocks[2].decisive, "panic: runtime error: index out of range [5] with length 3");
  EXPECT_EQ(blocks[2].last_line, 17u);
  EXPECT_EQ(blocks[3].kind, BlockKind::kJavascript);
  EXPECT_EQ(blocks[3].decisive, "Error: Cannot find module 'express'");
  EXPECT_EQ(blocks[3].frame_count, 2u);
  EXPECT_EQ(blocks[4].kind, BlockKind::kNpm);
  EXPECT_EQ(blocks[4].decisive, "npm ERR! ERESOLVE unable to resolve dependency tree");
  EXPECT_EQ(blocks[4].last_line, 24u);
}

// Node.js puts its error code in brackets after the class; the line is
// still the error. Output as node-fetch/node-fetch#1406 shows it.
TEST(Blocks, NodeErrorWithItsCode) {
  auto blocks = Segment(
      "C:\\Users\\dev\\api\\dist\\server.js:7\n"
      "const node_fetch_1 = __importDefault(require(\"node-fetch\"));\n"
      "Error [ERR_REQUIRE_ESM]: require() of ES Module C:\\Users\\dev\\api\\node_modules\\node-fetch\\src\\index.js "
      "from C:\\Users\\dev\\api\\dist\\server.js not supported.\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_TRUE(blocks[0].decisive.starts_with("Error [ERR_REQUIRE_ESM]: require() of ES Module")) << blocks[0].decisive;
  EXPECT_TRUE(Segment("Error [not a code]: x\n").empty());
}

TEST(Blocks, CompilersPytestGpuAndLoggerLines) {
  auto blocks = Segment(R"(src/x.c:12:5: error: 'foo' undeclared (first use in this function)
   12 |     foo = 1;
      |     ^~~
src/a.ts(3,10): error TS2307: Cannot find module 'lodash' or its corresponding type declarations.
src/b.ts:4:1 - error TS2304: Cannot find name 'x'.
2026-03-14 09:41:07,551 ERROR launcher: worker 0 exited with code 1
_____________________ test_focal_loss[cuda] ______________________
    def test_focal_loss():
>       loss = focal_loss(logits, target)
tests/test_losses.py:88: 
E       RuntimeError: CUDA error: device-side assert triggered
E       CUDA kernel errors might be asynchronously reported
=========================== short test summary info ============================
[rank0]:RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1275, unhandled system error, NCCL version 2.19.3
[rank1]:RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1275, unhandled system error, NCCL version 2.19.3
[rank2]:RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1275, unhandled system error, NCCL version 2.19.3
INFO all good
)");
  ASSERT_EQ(blocks.size(), 6u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kCompiler);
  EXPECT_EQ(blocks[0].last_line, 3u);
  EXPECT_EQ(blocks[1].kind, BlockKind::kCompiler);
  EXPECT_EQ(blocks[2].kind, BlockKind::kCompiler);
  EXPECT_EQ(blocks[3].kind, BlockKind::kErrorLine);
  EXPECT_EQ(blocks[3].decisive, "ERROR launcher: worker 0 exited with code 1");
  EXPECT_EQ(blocks[4].kind, BlockKind::kPytest);
  EXPECT_EQ(blocks[4].decisive, "RuntimeError: CUDA error: device-side assert triggered");
  EXPECT_EQ(blocks[4].decisive_line, 11u);
  EXPECT_EQ(blocks[4].first_line, 7u);
  EXPECT_EQ(blocks[5].kind, BlockKind::kGpu);
  EXPECT_EQ(blocks[5].count, 3u);  // one error from three ranks
  EXPECT_EQ(blocks[5].first_line, 14u);
  ASSERT_EQ(blocks[5].repeats.size(), 2u);
  EXPECT_EQ(blocks[5].repeats[1].first, 16u);
}

TEST(Blocks, UncaughtCppException) {
  auto blocks = Segment("loading weights\n"
                        "terminate called after throwing an instance of 'c10::Error'\n"
                        "  what():  CUDA error: an illegal memory access was encountered\n"
                        "Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:44\n"
                        "Aborted (core dumped)\n");
  ASSERT_GE(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kCpp);
  EXPECT_EQ(blocks[0].decisive, "CUDA error: an illegal memory access was encountered");
  EXPECT_EQ(blocks[0].decisive_line, 3u);

  // PyTorch's native frames are the exception's too (real output, some
  // frames left out: https://github.com/sgl-project/sglang/issues/1693).
  blocks = Segment("terminate called after throwing an instance of 'c10::DistBackendError'\n"
                   "  what():  [PG 3 Rank 5] Process group watchdog thread terminated with exception: [Rank 5] "
                   "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9141, OpType=_ALLGATHER_BASE, "
                   "Timeout(ms)=600000) ran for 600020 milliseconds before timing out.\n"
                   "Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:609 "
                   "(most recent call first):\n"
                   "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7f3b6d41df86 in libc10.so)\n"
                   "frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout() + 0x1d2 (0x7f3b6e71a8d2 in "
                   "libtorch_cuda.so)\n"
                   "step 12 done\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kCpp);
  EXPECT_EQ(blocks[0].last_line, 5u);
  EXPECT_EQ(blocks[0].frame_count, 2u);
  EXPECT_EQ(blocks[0].decisive_line, 2u);
}

TEST(Blocks, IPythonTraceback) {
  // IPython 8 / Jupyter: the header names the exception, frames are
  // separated by blank lines, code lines carry arrows, the message comes last.
  auto blocks = Segment(R"(---------------------------------------------------------------------------
AssertionError                            Traceback (most recent call last)
Cell In[3], line 2
      1 x = load()
----> 2 check(x)

File ~/work/lib/checks.py:14, in check(x)
     12 def check(x):
     13     """Validate x."""
---> 14     assert x.shape[0] == 3, "bad shape"

AssertionError: bad shape
next cell output
)");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kPython);
  EXPECT_EQ(blocks[0].first_line, 2u);
  EXPECT_EQ(blocks[0].decisive_line, 12u);
  EXPECT_EQ(blocks[0].decisive, "AssertionError: bad shape");
  ASSERT_EQ(blocks[0].frames.size(), 2u);
  EXPECT_EQ(blocks[0].frames[0], "Cell In[3], line 2");
  EXPECT_EQ(blocks[0].frames[1], "File ~/work/lib/checks.py:14, in check(x)");

  // Older IPython, chained: two blocks, the second caused by the first.
  blocks = Segment(R"(---------------------------------------------------------------------------
KeyError                                  Traceback (most recent call last)
<ipython-input-5-9f2c1d> in <module>
----> 1 df["price"]

KeyError: 'price'

During handling of the above exception, another exception occurred:

---------------------------------------------------------------------------
ValueError                                Traceback (most recent call last)
/usr/lib/python3/dist-packages/app/io.py in read(path)
     40     except KeyError:
---> 41         raise ValueError("no price column")

ValueError: no price column
)");
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].decisive, "KeyError: 'price'");
  EXPECT_EQ(blocks[1].decisive, "ValueError: no price column");
  EXPECT_EQ(blocks[1].decisive_line, 16u);
  EXPECT_EQ(blocks[1].caused_by, 0);
  ASSERT_EQ(blocks[1].frames.size(), 1u);
  EXPECT_EQ(blocks[1].frames[0], "/usr/lib/python3/dist-packages/app/io.py in read(path)");

  // A header whose exception line never came names the error itself.
  blocks = Segment("RuntimeError                              Traceback (most recent call last)\n"
                   "Cell In[1], line 1\n----> 1 run()\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].decisive, "RuntimeError");
  EXPECT_EQ(blocks[0].decisive_line, 1u);
}

// Errors as programs print them, for reading under every prefix style.
const char* const kPythonChained = R"(epoch 3 step 1200
Traceback (most recent call last):
  File "/srv/app/train.py", line 88, in <module>
    main()
  File "/srv/app/train.py", line 80, in main
    cfg = load_config(args.config)
  File "/srv/app/config.py", line 12, in load_config
    with open(path) as f:
FileNotFoundError: [Errno 2] No such file or directory: 'conf.yaml'

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/srv/app/run.py", line 5, in <module>
    raise SystemExit("no config") from e
RuntimeError: no config
shutting down
)";

const char* const kJavaCausedBy = "Exception in thread \"main\" java.lang.IllegalStateException: Failed to start\n"
                                  "\tat org.springframework.boot.SpringApplication.run(SpringApplication.java:321)\n"
                                  "\tat com.example.App.main(App.java:10)\n"
                                  "Caused by: java.net.BindException: Address already in use\n"
                                  "\tat sun.nio.ch.Net.bind0(Native Method)\n"
                                  "\tat sun.nio.ch.Net.bind(Net.java:555)\n"
                                  "\t... 12 more\n"
                                  "done\n";

const char* const kGoPanic = "starting worker\n"
                             "panic: runtime error: invalid memory address or nil pointer dereference\n"
                             "[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a5b2c]\n"
                             "\n"
                             "goroutine 1 [running]:\n"
                             "main.(*Server).Start(0x0)\n"
                             "\t/app/server.go:42 +0x2c\n"
                             "main.main()\n"
                             "\t/app/main.go:17 +0x85\n"
                             "exit status 2\n";

const char* const kNodeStack = "> app@1.0.0 start\n"
                               "Error: listen EADDRINUSE: address already in use :::3000\n"
                               "    at Server.setupListenHandle [as _listen2] (node:net:1817:16)\n"
                               "    at listenInCluster (node:net:1865:12)\n"
                               "    at Server.listen (node:net:1953:7)\n"
                               "Node.js v20.11.0\n";

const char* const kIPython = "---------------------------------------------------------------------------\n"
                             "OutOfMemoryError                          Traceback (most recent call last)\n"
                             "Cell In[7], line 3\n"
                             "      1 model = Net().cuda()\n"
                             "----> 3 out = model(x)\n"
                             "\n"
                             "OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n";

// https://github.com/pollen-robotics/reachy-sdk/issues/46 and
// https://github.com/vllm-project/semantic-router/issues/817: messages that
// go on after the exception line.
const char* const kPythonMessages =
    "Traceback (most recent call last):\n"
    "  File \"/home/reachy/.local/lib/python3.8/site-packages/grpc/_channel.py\", line 849, in f\n"
    "    raise _InactiveRpcError(state)\n"
    "grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n"
    "\tstatus = StatusCode.UNAVAILABLE\n"
    "\tdetails = \"failed to connect to all addresses\"\n"
    "huggingface_hub.errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-693b313c-3a360d925a720ea7)\n"
    "\n"
    "Cannot access gated repo for url https://huggingface.co/google/embeddinggemma-300m/resolve/57c266a/.gitattributes.\n"
    "Access to model google/embeddinggemma-300m is restricted.\n"
    "make[3]: *** [tools/make/models.mk:103: download-models-full] Error 1\n";

// Each line of `log` behind `prefix(i)`.
std::string Prefixed(const std::string& log, const std::function<std::string(std::size_t)>& prefix) {
  std::istringstream in(log);
  std::string line, out;
  for (std::size_t i = 0; std::getline(in, line); ++i) out += prefix(i) + line + "\n";
  return out;
}

TEST(Blocks, EveryPrefixStyleGivesTheBlocksOfTheBareLog) {
  const std::vector<std::pair<const char*, std::function<std::string(std::size_t)>>> styles = {
      {"github", [](std::size_t i) { return fmt::format("2026-03-14T10:01:{:02}.{:07}Z ", i % 60, i * 7919 % 10000000); }},
      {"buildkit", [](std::size_t i) { return fmt::format("#12 {}.{:03} ", 448 + i / 10, i * 37 % 1000); }},
      {"jenkins", [](std::size_t i) { return fmt::format("[2026-03-14T10:01:{:02}.{:03}Z] ", i % 60, i % 1000); }},
      {"gitlab", [](std::size_t i) { return fmt::format("2026-03-14T10:01:45.{:06}Z 01E{} ", i, i % 3 ? "+" : ""); }},
      {"torchrun", [](std::size_t) { return std::string("[rank1]: "); }},
      {"compose", [](std::size_t) { return std::string("trainer-1  | "); }},
      {"github+torchrun", [](std::size_t i) { return fmt::format("2026-03-14T10:01:{:02}.1234567Z [rank0]: ", i % 60); }},
      {"journald", [](std::size_t i) { return fmt::format("Mar  4 10:01:{:02} gpu-node-3 python3[4242]: ", i % 60); }},
  };
  for (const char* log : {kPythonChained, kJavaCausedBy, kGoPanic, kNodeStack, kIPython, kPythonMessages}) {
    const std::vector<Block> bare = Segment(log);
    ASSERT_FALSE(bare.empty()) << log;
    for (const auto& [name, prefix] : styles) {
      SCOPED_TRACE(std::string(name) + "\n" + log);
      const std::vector<Block> got = Segment(Prefixed(log, prefix));
      ASSERT_EQ(got.size(), bare.size());
      for (std::size_t b = 0; b < bare.size(); ++b) {
        EXPECT_EQ(got[b].kind, bare[b].kind);
        EXPECT_EQ(got[b].decisive, bare[b].decisive);
        EXPECT_EQ(got[b].decisive_line, bare[b].decisive_line);
        EXPECT_EQ(got[b].first_line, bare[b].first_line);
        EXPECT_EQ(got[b].last_line, bare[b].last_line);
        EXPECT_EQ(got[b].frames, bare[b].frames);
        EXPECT_EQ(got[b].caused_by, bare[b].caused_by);
      }
    }
  }
}

TEST(Blocks, TheBareLogsReadAsAnEngineerReadsThem) {
  auto py = Segment(kPythonChained);
  ASSERT_EQ(py.size(), 2u);
  EXPECT_EQ(py[0].decisive, "FileNotFoundError: [Errno 2] No such file or directory: 'conf.yaml'");
  EXPECT_EQ(py[0].frame_count, 3u);
  EXPECT_EQ(py[0].first_line, 2u);
  EXPECT_EQ(py[0].decisive_line, 9u);
  EXPECT_EQ(py[1].decisive, "RuntimeError: no config");
  EXPECT_EQ(py[1].caused_by, 0);

  auto java = Segment(kJavaCausedBy);
  ASSERT_EQ(java.size(), 2u);
  EXPECT_EQ(java[0].kind, BlockKind::kJava);
  EXPECT_EQ(java[0].frame_count, 2u);
  EXPECT_EQ(java[1].decisive, "java.net.BindException: Address already in use");
  EXPECT_EQ(java[1].last_line, 7u);
  EXPECT_EQ(java[0].caused_by, 1);

  auto go = Segment(kGoPanic);
  ASSERT_EQ(go.size(), 1u);
  EXPECT_EQ(go[0].kind, BlockKind::kGoPanic);
  EXPECT_EQ(go[0].frame_count, 2u);
  EXPECT_EQ(go[0].last_line, 10u);

  auto node = Segment(kNodeStack);
  ASSERT_EQ(node.size(), 1u);
  EXPECT_EQ(node[0].kind, BlockKind::kJavascript);
  EXPECT_EQ(node[0].decisive, "Error: listen EADDRINUSE: address already in use :::3000");
  EXPECT_EQ(node[0].frame_count, 3u);

  auto messages = Segment(kPythonMessages);
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[0].last_line, 6u);
  EXPECT_EQ(messages[1].decisive_line, 7u);
  EXPECT_EQ(messages[1].last_line, 10u);
  // make's exit status is a block of its own (a scan leaves it out when
  // the log shows another error).
  EXPECT_EQ(messages[2].decisive_line, 11u);

  auto ipy = Segment(kIPython);
  ASSERT_EQ(ipy.size(), 1u);
  EXPECT_EQ(ipy[0].decisive, "OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB");
  EXPECT_EQ(ipy[0].decisive_line, 7u);
}

TEST(Blocks, KeepTheirLinesForMatchingAsAWhole) {
  BlockSegmenter seg;
  const std::vector<std::string> lines = {"starting", "Traceback (most recent call last):",
                                          "  File \"a.py\", line 3, in <module>", "    run()",
                                          "ValueError: bad value", "after"};
  std::size_t origin = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    seg.Add(i + 1, lines[i], LineMark::kNone, true, origin);
    origin += lines[i].size() + 1;
  }
  seg.Finish();
  ASSERT_EQ(seg.blocks().size(), 1u);
  const Block& b = seg.blocks()[0];
  EXPECT_EQ(b.text, "Traceback (most recent call last):\n  File \"a.py\", line 3, in <module>\n    run()\n"
                    "ValueError: bad value\n");
  ASSERT_EQ(b.text_lines.size(), 4u);
  EXPECT_EQ(b.text_lines[0].line_no, 2u);
  EXPECT_EQ(b.text_lines[0].origin, 9u);  // after "starting\n"
  EXPECT_EQ(b.text_lines[3].line_no, 5u);
}

// Lines with their problem flag, as a scan feeds them.
std::vector<Block> SegmentProblems(const std::vector<std::pair<std::string, bool>>& lines) {
  BlockSegmenter seg;
  std::size_t n = 0;
  for (const auto& [text, problem] : lines) {
    ++n;
    seg.Add(n, text, LineMark::kNone, problem, 0, problem);
  }
  seg.Finish();
  return seg.TakeBlocks();
}

TEST(Blocks, AnExitStatusTakesTheFailureLinesOfItsStep) {
  // CI systems print the exit status after the step's output: the lines
  // before it that say something failed are that step's error, warnings and
  // lines that only mention a word aside.
  auto blocks = SegmentProblems({{"Using default tag: latest", false},
                                 {"x.py:3: DeprecationWarning: utcnow() is deprecated", true},
                                 {"GET /api/errors/summary HTTP/1.1 200 OK", true},
                                 {"Get https://registry-1.docker.io/v2/: x509: certificate signed by unknown authority", true},
                                 {"cleaning up", false},
                                 {"ERROR: Job failed: exit code 1", true}});
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kStep);
  EXPECT_EQ(blocks[0].first_line, 4u);
  EXPECT_EQ(blocks[0].last_line, 6u);
  EXPECT_EQ(blocks[0].text,
            "Get https://registry-1.docker.io/v2/: x509: certificate signed by unknown authority\n"
            "ERROR: Job failed: exit code 1\n");
  // After an error block, the exit status belongs to that block's failure.
  blocks = SegmentProblems({{"Traceback (most recent call last):", true},
                            {"  File \"a.py\", line 1, in <module>", false},
                            {"ValueError: bad", true},
                            {"ERROR: Job failed: exit code 1", true}});
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[1].kind, BlockKind::kErrorLine);
}

TEST(Blocks, AnErrorLinesIndentedDetailsAreItsBlock) {
  auto blocks = Segment("grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n"
                        "        status = StatusCode.RESOURCE_EXHAUSTED\n"
                        "        details = \"Received message larger than max (17777780 vs. 4194304)\"\n"
                        "next\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kErrorLine);
  EXPECT_EQ(blocks[0].decisive_line, 1u);
  EXPECT_EQ(blocks[0].last_line, 3u);
  EXPECT_NE(blocks[0].text.find("RESOURCE_EXHAUSTED"), std::string::npos);
}

// Real output: https://github.com/pollen-robotics/reachy-sdk/issues/46 (the
// traceback) and https://github.com/vllm-project/semantic-router/issues/817
// (the gated repository).
TEST(Blocks, AnExceptionsMessageGoesOnAfterItsLine) {
  // Indented details right after the exception line.
  auto blocks = Segment("Traceback (most recent call last):\n"
                        "  File \"/home/reachy/.local/lib/python3.8/site-packages/grpc/_channel.py\", line 849, in f\n"
                        "    raise _InactiveRpcError(state)\n"
                        "grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n"
                        "\tstatus = StatusCode.UNAVAILABLE\n"
                        "\tdetails = \"failed to connect to all addresses\"\n"
                        "##[error]Process completed with exit code 1.\n");
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kPython);
  EXPECT_EQ(blocks[0].decisive_line, 4u);
  EXPECT_EQ(blocks[0].last_line, 6u);
  EXPECT_NE(blocks[0].text.find("failed to connect to all addresses"), std::string::npos);
  EXPECT_EQ(blocks[1].first_line, 7u);

  // A paragraph after one blank line that says what failed, with or
  // without the traceback; the make line after it is not the message.
  const std::string gated =
      "huggingface_hub.errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-693b313c-3a360d925a720ea7)\n"
      "\n"
      "Cannot access gated repo for url https://huggingface.co/google/embeddinggemma-300m/resolve/57c266a/.gitattributes.\n"
      "Access to model google/embeddinggemma-300m is restricted. You must have access to it and be authenticated to "
      "access it. Please log in.\n"
      "make[3]: *** [tools/make/models.mk:103: download-models-full] Error 1\n";
  for (const std::string& head : {std::string(), std::string("Traceback (most recent call last):\n"
                                                             "  File \"dl.py\", line 3, in <module>\n")}) {
    SCOPED_TRACE(head);
    const std::size_t offset = head.empty() ? 0 : 2;
    blocks = Segment(head + gated);
    ASSERT_GE(blocks.size(), 1u);
    EXPECT_EQ(blocks[0].kind, head.empty() ? BlockKind::kErrorLine : BlockKind::kPython);
    EXPECT_EQ(blocks[0].decisive_line, 1 + offset);
    EXPECT_EQ(blocks[0].last_line, 4 + offset);
    EXPECT_NE(blocks[0].text.find("Cannot access gated repo"), std::string::npos);
    EXPECT_EQ(blocks[0].text.find("make[3]"), std::string::npos);
  }

  // The program's own lines after the exception are not its message: with
  // no blank line, or after a blank line that says nothing failed.
  for (const std::string& after : {std::string("cleanup 1\ncleanup 2\n"), std::string("\nEpoch 2 starts\nloss 0.3\n"),
                                    std::string("\nwandb: Run history failed to upload\n")}) {
    SCOPED_TRACE(after);
    blocks = Segment("Traceback (most recent call last):\n  File \"t.py\", line 9, in <module>\n"
                     "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM\n" +
                     after);
    ASSERT_FALSE(blocks.empty());
    EXPECT_EQ(blocks[0].last_line, 3u);
  }

  // A chained exception after the blank line is still linked, not read as
  // the first one's message.
  blocks = Segment("Traceback (most recent call last):\n  File \"a.py\", line 3, in <module>\n"
                   "KeyError: 'lr'\n\nDuring handling of the above exception, another exception occurred:\n\n"
                   "Traceback (most recent call last):\n  File \"a.py\", line 5, in <module>\n"
                   "ValueError: missing learning rate\n");
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].last_line, 3u);
  EXPECT_EQ(blocks[1].caused_by, 0);
}

// Real output: https://github.com/network-quality/goresponsiveness/issues/6
// A tool's error line, like an exception's, may go on in a paragraph after
// one blank line when that paragraph says what failed
// (https://github.com/ariG23498/gemma3-object-detection/issues/5).
TEST(Blocks, AnErrorLinesMessageGoesOnAfterABlankLine) {
  auto blocks = Segment(
      "403 Client Error. (Request ID: Root=1-6824e511-0a1d60376d4eefac56a9c456)\n"
      "\n"
      "Cannot access gated repo for url https://huggingface.co/google/gemma-3-4b-pt/resolve/main/config.json.\n"
      "Access to model google/gemma-3-4b-pt is restricted and you are not in the authorized list.\n"
      "\n"
      "Starting the next step\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].decisive_line, 1u);
  EXPECT_EQ(blocks[0].last_line, 4u);
  // A paragraph that says nothing failed is the program's own output.
  blocks = Segment("ERROR: build of wheel x failed\n\nStarting cleanup of the workspace\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].last_line, 1u);
}

TEST(Blocks, GoDiagnosticsAreCompilerErrors) {
  auto blocks = Segment("go build networkQuality.go\n"
                        "lbc/lbc.go:27:2: missing go.sum entry for module providing package golang.org/x/net/http2 "
                        "(imported by github.com/hawkinsw/goresponsiveness/lbc); to add:\n"
                        "\tgo get github.com/hawkinsw/goresponsiveness/lbc\n"
                        "main_test.go:12: got 3, want 4\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kCompiler);
  EXPECT_EQ(blocks[0].first_line, 2u);
  EXPECT_EQ(blocks[0].last_line, 3u);
}

// A paste that lost some frames' indentation on the way:
// https://github.com/VICO-UoE/MTPSL/issues/3
TEST(Blocks, AFramePastedFlushLeftIsStillAFrame) {
  auto blocks = Segment("Traceback (most recent call last):\n"
                        "  File \"/share/MTPSL/cityscapes_mtl_xtc.py\", line 191, in <module>\n"
                        "    con_loss = mapfns(train_pred_ind, train_target_ind)\n"
                        " File \"/share/MTPSL/model/mapfns.py\", line 167, in forward\n"
                        "    mapout_source = self.mapfns(source_pred, input_task=source_task)\n"
                        "File \"/share/MTPSL/model/mapfns.py\", line 36, in forward\n"
                        "    gamma = torch.mm(A_taskpair, self.gamma.t())\n"
                        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (1x2 and 6x64)\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kPython);
  EXPECT_EQ(blocks[0].frame_count, 3u);
  EXPECT_EQ(blocks[0].decisive_line, 8u);
  EXPECT_EQ(blocks[0].decisive, "RuntimeError: mat1 and mat2 shapes cannot be multiplied (1x2 and 6x64)");
}

// A tool that names itself before "Error": CMake's two forms.
// https://github.com/xmrig/xmrig/issues/843 (the first line).
TEST(Blocks, AToolsErrorLineIsAnErrorLine) {
  auto blocks = Segment("-- Detecting C compiler ABI info\n"
                        "CMake Error: CMake was unable to find a build program corresponding to \"Unix Makefiles\".  "
                        "CMAKE_MAKE_PROGRAM is not set.\n"
                        "-- Configuring incomplete, errors occurred!\n"
                        "CMake Error at CMakeLists.txt:12 (find_package):\n"
                        "  Could not find a package configuration file provided by \"Qt5\"\n");
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kErrorLine);
  EXPECT_EQ(blocks[0].decisive_line, 2u);
  EXPECT_EQ(blocks[1].decisive_line, 4u);
  EXPECT_EQ(blocks[1].last_line, 5u);  // with its indented details
  EXPECT_TRUE(Segment("checking for Error: handlers\nlibfoo Error at exit handled\n").empty());
}

// Error lines of tools and loggers as real logs print them; each source is
// the thread the lines were posted in.
TEST(Blocks, ToolsAndStructuredLoggersErrorLines) {
  // logrus's logfmt (https://github.com/docker/getting-started-todo-app/issues/44),
  // and zap's JSON.
  auto blocks = Segment(
      "time=\"2025-01-11T02:22:10Z\" level=info msg=\"Starting provider\"\n"
      "time=\"2025-01-11T02:22:10Z\" level=error msg=\"Failed to retrieve information of the docker client and "
      "server host: permission denied while trying to connect to the Docker daemon socket at "
      "unix:///var/run/docker.sock\" providerName=docker\n"
      "{\"level\":\"error\",\"ts\":1700000000.1,\"msg\":\"dial tcp 10.0.0.5:5432: connect: connection refused\"}\n"
      "{\"level\": \"info\", \"msg\": \"error budget ok\"}\n");
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].decisive_line, 2u);
  EXPECT_EQ(blocks[1].decisive_line, 3u);
  // The Docker CLI's and kubectl's own errors
  // (https://github.com/docker-library/hello-world/issues/86).
  blocks = Segment("C:\\WINDOWS\\system32> docker pull hello-world\n"
                   "Using default tag: latest\n"
                   "Error response from daemon: Get https://registry-1.docker.io/v2/: x509: certificate signed by "
                   "unknown authority\n"
                   "Error from server (NotFound): pods \"web-0\" not found\n"
                   "Error rate is 0 today\n");
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].decisive_line, 3u);
  EXPECT_EQ(blocks[1].decisive_line, 4u);
  // requests' HTTPError, as huggingface_hub prints it
  // (https://github.com/ariG23498/gemma3-object-detection/issues/5).
  blocks = Segment("403 Client Error. (Request ID: Root=1-6824e511-0a1d60376d4eefac56a9c456)\n"
                   "200 Client Errors were counted\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].decisive_line, 1u);
  // MSBuild's diagnostics from a project rather than a source line
  // (https://github.com/DotNetKoans/DotNetKoans/issues/46).
  blocks = Segment("Target ReportAssetsLogMessages:\n"
                   "    /Users/r/DotNetCoreKoans/DotNetCoreKoans.csproj : error NU1605: Detected package downgrade: "
                   "System.Net.Primitives from 4.3.0 to 4.0.11.\n"
                   "    Build time : error budget 5 s\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kCompiler);
  EXPECT_EQ(blocks[0].decisive_line, 2u);
}

// The error lines of package managers, language runtimes and command-line
// tools, each as the tool prints it, with a look-alike that is not one.
TEST(Blocks, RuntimesPackageManagersAndToolsErrorLines) {
  const std::vector<std::pair<std::string, bool>> lines = {
      {"E: Unable to locate package python3.11-venv", true},
      {"E: 3 W: 0", false},
      {"curl: (60) SSL certificate problem: unable to get local issuer certificate", true},
      {"coverage: (60%) of lines", false},
      {"docker: Error response from daemon: driver failed programming external connectivity on endpoint web: Bind for "
       "0.0.0.0:80 failed: port is already allocated.",
       true},
      {"notes: Error budget is fine", false},
      {"PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes) in "
       "/var/www/vendor/x.php on line 42",
       true},
      {"Fatal error: Uncaught Error: Call to undefined function mysql_connect() in /var/www/db.php:3", true},
      {"Unhandled exception. System.InvalidOperationException: Sequence contains no elements", true},
      {"** (Mix) Could not compile dependency :bcrypt_elixir", true},
      {" ERR_PNPM_FETCH_404  GET https://registry.npmjs.org/@acme%2Fwidgets: Not Found - 404", true},
      // From issue threads: nomad-cli/shenzhen#204, kubernetes/kubernetes#24586,
      // docker/getting-started#347, ValveSoftware/source-sdk-2013#421,
      // RocketChat/Rocket.Chat.Android#2338, jamf/terraform-provider-jamfplatform#48,
      // elastic/elasticsearch#21436.
      {"** BUILD FAILED **", true},
      {"** BUILD SUCCEEDED **", false},
      {"Unable to connect to the server: x509: certificate signed by unknown authority", true},
      {"failed to solve: process \"/bin/sh -c yarn build\" did not complete successfully: exit code: 1", true},
      {"C:\\Users\\micha\\TF2Classic-master\\game\\bin\\client.dll : fatal error LNK1120: 1 unresolved externals",
       true},
      {"error LNK2019: unresolved external symbol __imp_StartPrivoxy referenced in function run", true},
      {"error handling is described below", false},
      {"Rocket.Chat.Android\\app\\src\\main\\java\\DatabaseManager.kt: (195, 24): Unresolved reference: avatarOrigin",
       true},
      {"e: file:///src/main/kotlin/App.kt:12:5 Unresolved reference: foo", true},
      {"{\"@level\":\"error\",\"@message\":\"Error: Error waiting for benchmark to sync\",\"@module\":\"terraform.ui\"}",
       true},
      {"{\"t\":{\"$date\":\"2021-07-22T16:17:01.247+00:00\"},\"s\":\"E\",  \"c\":\"STORAGE\",  \"msg\":\"WiredTiger error\"}",
       true},
      {"{\"t\":{\"$date\":\"2021-07-22T16:17:01.247+00:00\"},\"s\":\"I\",  \"c\":\"INDEX\",  \"msg\":\"Finished\"}", false},
      {"elasticsearch.service: main process exited, code=exited, status=78/n/a", true},
      {"Unit elasticsearch.service entered failed state.", true},
      {"[E 20:08:18.248 NotebookApp] Exception while loading config file", true},
      {"[I 20:08:18.247 NotebookApp] 0 active kernels", false},
      {"Error (Xcode): Signing for \"TOCropViewController\" requires a development team.", true},
  };
  for (const auto& [line, error] : lines) {
    auto blocks = Segment("step 1 of 3\n" + line + "\n");
    EXPECT_EQ(blocks.size(), error ? 1u : 0u) << line;
    if (error && !blocks.empty()) {
      EXPECT_EQ(blocks[0].decisive_line, 2u) << line;
    }
  }
  // A log scan offers them as block starts too (triggers.h).
  std::string log = "step 1 of 3\n";
  for (const auto& [line, error] : lines) log += line + "\n";
  const std::vector<std::size_t> starts = LineStarts(log);
  std::vector<uint8_t> flags;
  MarkTriggerLines(log, starts, /*problem_lines=*/false, &flags);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].second) {
      EXPECT_TRUE(flags[i + 1] & kTriggerLine) << lines[i].first;
    }
  }
}

// Reports with a shape of their own, each from an issue thread.
TEST(Blocks, NodeGypRustSpringJestAndRubyReports) {
  // nodejs/node-gyp#1227: node-gyp's lines are one block, like npm's.
  auto blocks = Segment(
      "gyp ERR! build error \n"
      "gyp ERR! stack Error: `make` failed with exit code: 2\n"
      "gyp ERR! stack     at ChildProcess.onExit (/usr/local/lib/node_modules/npm/node_modules/node-gyp/lib/build.js:258:23)\n"
      "gyp ERR! System Darwin 15.2.0\n"
      "gyp ERR! cwd /Users/cson/Documents/newyoga/node_modules/yoga-layout\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kNpm);
  EXPECT_EQ(blocks[0].last_line, 5u);
  // iffse/pay-respects#101: a panic whose thread line names the thread's id.
  blocks = Segment("thread 'main' (20802) panicked at core/src/system.rs:150:30:\n"
                   "called `Option::unwrap()` on a `None` value\n"
                   "stack backtrace:\n"
                   "   0: __rustc::rust_begin_unwind\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kRustPanic);
  EXPECT_EQ(blocks[0].decisive, "called `Option::unwrap()` on a `None` value");
  // raodv/report#27: Spring Boot's report, decided by its description.
  blocks = Segment(
      "***************************\n"
      "APPLICATION FAILED TO START\n"
      "***************************\n"
      "\n"
      "Description:\n"
      "\n"
      "Field gaeaOSSTemplate in com.anjiplus.GaeaFileServiceImpl required a bean of type "
      "'com.anji.plus.gaea.oss.ossbuilder.GaeaOSSTemplate' that could not be found.\n"
      "\n"
      "Action:\n"
      "\n"
      "Consider defining a bean of type 'com.anji.plus.gaea.oss.ossbuilder.GaeaOSSTemplate' in your configuration.\n"
      "\n"
      "2024-03-01 10:00:00.000  INFO 1 --- [main] o.s.Application : shutting down\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].first_line, 2u);
  EXPECT_EQ(blocks[0].decisive_line, 7u);
  EXPECT_EQ(blocks[0].last_line, 11u);
  // kimxogus/react-native-version-check#229: Jest's failed file and its
  // failure, with the details indented under it.
  blocks = Segment(" FAIL  __tests__/App.test.js\n"
                   "  \u25cf Test suite failed to run\n"
                   "\n"
                   "    Jest encountered an unexpected token\n");
  ASSERT_FALSE(blocks.empty());
  EXPECT_EQ(blocks[0].decisive_line, 1u);
  EXPECT_TRUE(Segment("  \u25cf Console\n\n    console.log\n      hello\n").empty());
  // cloudfoundry-attic/cf-docs#67: Ruby's uncaught exception and its frames.
  blocks = Segment(
      "/home/ubuntu/.rvm/gems/aws-sdk-1.8.5/lib/aws/core/client.rb:339:in `return_or_raise': Access Denied "
      "(AWS::S3::Errors::AccessDenied)\n"
      "    from /home/ubuntu/.rvm/gems/aws-sdk-1.8.5/lib/aws/core/client.rb:440:in `client_request'\n"
      "    from (eval):3:in `get_object'\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].decisive_line, 1u);
  EXPECT_EQ(blocks[0].last_line, 3u);
}

TEST(Blocks, GradlesWhatWentWrongIsOneBlockDecidedByItsDeepestCause) {
  // https://github.com/pvsvamsi/SystemAlertWindow/issues/115
  const std::string gradle =
      "FAILURE: Build failed with an exception.\n"
      "\n"
      "* What went wrong:\n"
      "Execution failed for task ':app:checkDebugDuplicateClasses'.\n"
      "> A failure occurred while executing com.android.build.gradle.internal.tasks.CheckDuplicatesRunnable\n"
      "   > Duplicate class kotlin.collections.jdk8.CollectionsJDK8Kt found in modules jetified-kotlin-stdlib-1.8.10 "
      "(org.jetbrains.kotlin:kotlin-stdlib:1.8.10) and jetified-kotlin-stdlib-jdk8-1.7.10\n"
      "     Duplicate class kotlin.internal.jdk7.JDK7PlatformImplementations found in modules "
      "jetified-kotlin-stdlib-1.8.10\n"
      "\n"
      "* Try:\n"
      "> Run with --stacktrace option to get the stack trace.\n";
  auto blocks = Segment(gradle);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].first_line, 3u);
  EXPECT_EQ(blocks[0].last_line, 7u);
  EXPECT_EQ(blocks[0].decisive_line, 6u);
  EXPECT_TRUE(blocks[0].decisive.starts_with("Duplicate class kotlin.collections.jdk8.CollectionsJDK8Kt found"));
  ASSERT_EQ(blocks[0].frames.size(), 3u);
  EXPECT_EQ(blocks[0].frames[0], "Execution failed for task ':app:checkDebugDuplicateClasses'.");
  // Without a "> " cause, the task that failed is what went wrong.
  blocks = Segment("* What went wrong:\nExecution failed for task ':app:lint'.\n\n* Try:\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].decisive, "Execution failed for task ':app:lint'.");
}

// A log scan offers the segmenter only the lines with a trigger word as
// block starts: every start rule needs one. Next.js marks its errors "⨯"
// (https://github.com/guacsec/guac-visualizer/issues/98), and its stack
// trace is headed by that line.
TEST(Triggers, MarkTheLinesThatMayStartABlock) {
  const std::string log =
      "   Generating static pages (0/4)  [    ] \u2a2f useSearchParams() should be wrapped in a suspense boundary "
      "at page \"/\".\n"
      "    at a (/srv/app/.next/server/chunks/288.js:1:10576)\n"
      "* What went wrong:\n"
      "Generating static pages (4/4)\n";
  const std::vector<std::size_t> starts = LineStarts(log);
  std::vector<uint8_t> flags;
  MarkTriggerLines(log, starts, /*problem_lines=*/false, &flags);
  ASSERT_EQ(flags.size(), 4u);
  EXPECT_TRUE(flags[0] & kTriggerLine);
  EXPECT_FALSE(flags[1] & kTriggerLine);
  EXPECT_TRUE(flags[2] & kTriggerLine);
  EXPECT_FALSE(flags[3] & kTriggerLine);
  const std::vector<Block> blocks = testing::SegmentAsAScan(log);
  ASSERT_FALSE(blocks.empty());
  EXPECT_EQ(blocks[0].kind, BlockKind::kJavascript);
  EXPECT_EQ(blocks[0].decisive_line, 1u);
}

TEST(Blocks, ATracebackPastedWithoutItsHeader) {
  auto blocks = Segment("  File \"/usr/lib/python3/django/db/utils.py\", line 97, in __exit__\n"
                        "    six.reraise(dj_exc_type, dj_exc_value, traceback)\n"
                        "django.db.utils.ProgrammingError: relation \"auth_user\" does not exist\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::kPython);
  EXPECT_EQ(blocks[0].first_line, 1u);
  EXPECT_EQ(blocks[0].decisive, "django.db.utils.ProgrammingError: relation \"auth_user\" does not exist");
  // Frames no exception line ends are a log's own output, not a traceback.
  EXPECT_TRUE(Segment("  File \"/srv/x.py\", line 3, in run\nINFO step 3 done\n").empty());
}

TEST(Blocks, RulesOfUnderscoresAreNotPytestHeaders) {
  // MSBuild and others draw rules of underscores; a line of nothing else
  // once made the segmenter read past the line's end.
  auto blocks = Segment("Build started 16/10/2017 21:49:57.\n"
                        "__________________________________________________\n"
                        "Project \"/src/App.csproj\" (Clean target(s)):\n"
                        "___\n");
  EXPECT_TRUE(blocks.empty());
}

TEST(Blocks, MemoryStaysBoundedOnEndlessDistinctErrors) {
  BlockSegmenter seg;
  for (std::size_t i = 1; i <= BlockSegmenter::kMaxBlocks + 500; ++i) {
    seg.Add(i, "ERROR task-" + std::string(1, static_cast<char>('a' + i % 26)) + std::string(i % 997, 'x') +
                   std::to_string(i), LineMark::kNone);
  }
  seg.Finish();
  EXPECT_LE(seg.blocks().size(), BlockSegmenter::kMaxBlocks);
}

}  // namespace
}  // namespace kedb::logs
