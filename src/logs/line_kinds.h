// What kind of line a log line is, for deciding which error a reader should
// see first: a warning, or the line a CI system or build tool prints when
// a step it ran failed.
#pragma once

#include <string_view>

namespace kedb::logs {

// A line a tool printed as a warning, not a failure: a warning level
// ("WARNING:", "npm WARN", "[warn]", "  12:5  warning  ..."), or a Python
// warning category ("DeprecationWarning:", "UserWarning:"). Kubernetes'
// event rows ("  Warning  BackOff  3m (x12 over 5m)  kubelet  ...") are how
// a pod's failure is shown, and are not warnings here. Cost: a few passes
// over the line's first 200 bytes.
bool IsWarningLine(std::string_view cleaned_line);

// A warning line that reports an error by its name: an exception or
// "Error" followed by a colon, at a word's start ("WARNING MongoError:
// E11000 duplicate key error", a registry client's `level=warning
// msg="Failed, retrying ... Error: initializing source ...: toomanyrequests`).
// Python warning categories ("DeprecationWarning:") and an exception named
// inside a call ("after connection broken by 'ReadTimeoutError(...)'")
// are not. Cost: a pass over the line's first 300 bytes.
bool NamesAnError(std::string_view cleaned_line);

// A line whose words say something failed: "error", "exception", "failed",
// "refused", "denied", "cannot", "not found", "timed out", "killed", ...,
// as whole words (CamelCase parts count: "ConnectionRefusedError",
// "CrashLoopBackOff"; "liberror-perl" and "error_handler.py" do not). A
// test runner's line for a passing test ("✓ fails on a bad token", "PASS
// src/errors.test.ts", "--- PASS: TestFailure") says nothing failed.
bool StatesFailure(std::string_view cleaned_line);

// A line of source code as a traceback quotes it, which names exceptions
// without reporting one: "raise AssertionError(\"Torch not compiled ...\")",
// "except KeyError:", "throw new Error(...)", IPython's numbered lines
// ("   1372         except KeyError:", "-> 1374       raise type(e)(...)"),
// and any line of a code frame, whatever its code says ("> 60 |
// this.setState({ error });", "  12 |   let x: i32 = \"a\";").
bool IsSourceLine(std::string_view cleaned_line);

// A diagnostic of the Go toolchain, which names no severity: a Go file's
// location, then the message ("lbc/lbc.go:27:2: missing go.sum entry ...",
// "./main.go:12:5: undefined: foo"), or without a column as Go before 1.10
// printed them, when the message is one only the compiler writes
// ("main.go:196: cannot use x (type int) as type string ..."). A test's
// log line ("x_test.go:12: got 3") is not one.
bool IsGoDiagnostic(std::string_view cleaned_line);

// A line that only reports that something else failed: an exit status
// ("Process completed with exit code 1.", "ERROR: Job failed: exit code 1",
// "error Command failed with exit code 1.", "ERROR: script returned exit
// code 2", "#12 ERROR: process \"/bin/sh -c make\" did not complete
// successfully: exit code: 2", "make: *** [all] Error 2", pip's "error:
// subprocess-exited-with-error", wandb's "Waiting for W&B process to
// finish... (failed 1)", torch elastic's "failed (exitcode: 1) local_rank:
// 0 (pid: 51) of binary: ...", systemd's "nginx.service: Main process
// exited, code=exited, status=1/FAILURE"). The error it reports is
// elsewhere in the log.
bool IsWrapperLine(std::string_view cleaned_line);

// A line that tells the reader what to do, as error messages end: "Please
// pass the argument `trust_remote_code=True` ...", "Try running with
// --legacy-peer-deps", "Did you mean ...?", "You can ...", "Consider ...".
// Right after an error line it is the rest of that error's message, not the
// program's next output.
bool ReadsAsAdvice(std::string_view cleaned_line);

// A wrapper line (above) that says a step failed: it names a nonzero exit
// status. Flutter's
// "Gradle task assembleRelease failed with exit code 1" and xcodebuild's
// "Archive failed, error: exit status 65" are; "exited with code 0" is not.
// Alone, such a line still says that something failed.
bool ReportsFailedExit(std::string_view cleaned_line);

}  // namespace kedb::logs
