// Which lines open an error block, and which carry a traceback on: the
// line tests the block segmenter (blocks.h) starts and continues blocks by.
// Each takes a cleaned line (preprocess.h) with its indentation removed,
// unless it says otherwise, and looks at it alone. Cost: a few scans of
// the line, no allocation.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kedb::logs {

// An exception named at the start of the line: "RuntimeError: ...",
// "torch.cuda.OutOfMemoryError: ...", "KeyError", Node.js's
// "Error [ERR_REQUIRE_ESM]: ...",
// "java.lang.IllegalStateException: ...", "Exception in thread "main" ...".
bool IsExceptionLine(std::string_view t);

// A Java or JavaScript frame, indentation kept:
// "  at com.x.Y.z(Y.java:12)", "    at Module._compile (node:internal/...)".
bool IsAtFrame(std::string_view line);

// A compiler's diagnostic at a source location: "file.c:12:5: error: ...",
// "file.ts(3,10): error TS2307: ...", "file.ts:3:10 - error TS2307: ...",
// "file.cpp(12): fatal error C1083: ...", MSBuild's "App.csproj : error
// NU1605: ..." and a linker's "client.dll : fatal error LNK1120: ...",
// Kotlin's "App.kt: (195, 24): ...", and Go's diagnostics; each also after
// esbuild's (or a Markdown quote's) "> ".
bool IsCompilerError(std::string_view t);

// A Python frame's location line: File "app.py", line 3, in <module>
bool IsPythonFrame(std::string_view t);

// A line a person put in a pasted traceback for the frames they left out:
// "...", "[...]", "(...)", "…", "<snip>", "[truncated]". It carries the
// traceback on and is never its exception line.
bool IsElisionLine(std::string_view t);

// IPython and Jupyter head a traceback with the exception's name, padding
// and "Traceback (most recent call last)" on one line, and print the
// exception line last: "ValueError      Traceback (most recent call last)".
bool IsIPythonHeader(std::string_view t);

// A frame's location line in an IPython traceback: "Cell In[3], line 1",
// "File ~/x.py:12, in f(a)", "<ipython-input-3-9f2c> in <module>()",
// "/usr/lib/python3/x.py in f(a)".
bool IsIPythonFrame(std::string_view t);

// rustc's "error: ..." and "error[E0382]: ...".
bool IsRustcError(std::string_view t);

// pytest's header over one failure: "____ test_name ____".
bool IsPytestHeader(std::string_view t);
// The test a pytest section header names, as its summary line would after
// the file's "::" ("test_y[cuda]", "TestX.test_y" for "TestX::test_y"):
// "_____ ERROR at setup of test_y _____" names "test_y".
std::string PytestHeaderName(std::string_view header);
// The test a pytest summary line names ("FAILED tests/x.py::TestX::test_y -
// AssertionError", "ERROR tests/x.py::test_z"), spelled as
// PytestHeaderName spells it; "" for any other line.
std::string PytestSummaryName(std::string_view t);

// Python 3.11+ prints an exception group's tracebacks behind a gutter:
//   + Exception Group Traceback (most recent call last):
//   |   File "app.py", line 3, in <module>
//   | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
//   +-+---------------- 1 ----------------
//     | Traceback (most recent call last):
//     | ValueError: boom
//     +------------------------------------
// IsGroupTracebackHeader: the first of those lines (trimmed).
// WithoutGroupGutter: a line of the report with its gutter taken off, the
// indentation after it kept ("" for the rules), or nullopt for a line that
// has no gutter: the report ended.
bool IsGroupTracebackHeader(std::string_view t);
std::optional<std::string_view> WithoutGroupGutter(std::string_view line);

// A banner a tool draws over its error report: "=====ERROR=====",
// "------ ERROR ------", "*** FAILURE ***" (bitsandbytes' CUDA setup
// report, among others). The next line says what the error is.
bool IsErrorBanner(std::string_view t);

// A rule drawn with `c`: "==== x ====", "---- y ----".
bool IsRule(std::string_view t, char c);

// A line a GPU library wrote when it failed: CUDA, cuDNN, cuBLAS, NCCL.
bool IsGpuError(std::string_view t);

// A logger's error line: "ERROR ...", "FATAL: ...", "[ERROR] ...",
// "... ERROR launcher: ..." (level within the first words, Celery's
// "ERROR/MainProcess" and nginx's "[emerg]" among them), a structured
// logger's "level=error" or "\"level\":\"error\"", "Error: ...", a tool's
// "Error response from daemon: ..." or "CMake Error: ..." / "CMake Error at
// CMakeLists.txt:12 (find_package):", an HTTP client's "403 Client Error:
// ...", PHP's "Fatal error: ...", .NET's "Unhandled exception. ...",
// Elixir's "** (Mix) ...", apt's "E: ...", pnpm's "ERR_PNPM_...", yarn's
// "error Command failed ...", npm's debug log's "32 error ...", the AWS
// CLI's "fatal error: An error occurred (AccessDenied) ...", webpack's
// "Failed to compile.", curl's
// "curl: (60) ...", xcodebuild's "** BUILD FAILED **", Kotlin's "e: ...",
// Jupyter's "[E 10:08:13.182 NotebookApp] ...", a linker's "error LNK2019:
// ...", BuildKit's "failed to solve: ...", kubectl's "Unable to connect to
// the server: ...", systemctl's "Job for x.service failed because ...",
// node-gyp's "gyp ERR! ...", Jest's "FAIL src/a.test.ts" and "● Suite ›
// test", Ruby's "app.rb:12:in `call': boom (RuntimeError)", Node.js's error
// value "[Error: fetch failed]", Spring Boot's
// report (block_build_tools.cc), the same after a tool's name ("docker: Error
// response from daemon: ..."), "FAILED tests/x.py::t - ...", or an
// exception printed on its own.
bool IsErrorLine(std::string_view t);

}  // namespace kedb::logs
