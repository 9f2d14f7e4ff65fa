#include "logs/block_starts.h"

#include <algorithm>

#include "logs/line_kinds.h"
#include "util/strings.h"

namespace kedb::logs {
namespace {

using util::Contains;
using util::IsBlank;
using util::Trim;
using util::TrimLeft;

bool Digit(char c) { return c >= '0' && c <= '9'; }
bool WordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || Digit(c) || c == '_';
}

// A structured logger's level field among the line's first fields:
// logfmt's "level=error" (logrus, Go kit, Grafana's services), JSON's
// "level":"error" (zap, pino writes numbers and is not read).
bool HasErrorLevelField(std::string_view t) {
  t = t.substr(0, std::min<std::size_t>(t.size(), 160));
  // Also Terraform's "@level", Elastic's "log.level", Google Cloud's
  // "severity", and MongoDB's one-letter "s":"E" / "F".
  for (std::string_view key : {"level=", "lvl=", "\"level\":", "\"level\": ", "\"@level\":", "\"log.level\": ",
                               "\"log.level\":", "\"severity\":", "\"severity\": ", "severity="}) {
    for (std::size_t at = t.find(key); at != std::string_view::npos; at = t.find(key, at + 1)) {
      if (at > 0 && t[at - 1] != ' ' && t[at - 1] != '{' && t[at - 1] != ',') continue;
      std::string_view value = t.substr(at + key.size());
      if (!value.empty() && value[0] == '"') value.remove_prefix(1);
      for (std::string_view level : {"error", "fatal", "panic", "crit", "eror", "ERROR", "FATAL", "CRITICAL"}) {
        if (value.starts_with(level)) return true;
      }
    }
  }
  for (std::string_view mongo : {"\"s\":\"E\"", "\"s\":\"F\""}) {
    if (Contains(t, mongo)) return true;
  }
  return false;
}

// What a command-line tool prints before its message: its name and a
// colon ("docker: ", "curl: "); 0 when the line has none.
std::size_t ToolNameLength(std::string_view t) {
  std::size_t i = 0;
  while (i < t.size() && i < 32 && ((t[i] >= 'a' && t[i] <= 'z') || Digit(t[i]) || t[i] == '-' || t[i] == '_')) ++i;
  return i > 1 && i + 1 < t.size() && t[i] == ':' && t[i + 1] == ' ' ? i + 2 : 0;
}

// A level or a runtime's fatal error at the line's start.
bool StartsWithErrorLevel(std::string_view t) {
  for (std::string_view p : {"ERROR", "FATAL", "CRITICAL", "[ERROR]", "[FATAL]", "[CRITICAL]", "Error: ", "error: ",
                             "FAILED ", "fatal: ", "fatal error: ", "PHP Fatal error:", "PHP Parse error:", "Fatal error: ",
                             "Parse error: ", "Unhandled exception. ", "Unhandled Exception: ", "ERR_PNPM_"}) {
    if (t.starts_with(p)) return true;
  }
  // apt's "E: Unable to locate package ..."; Elixir's "** (Mix) ...";
  // xcodebuild's "** BUILD FAILED **"; Kotlin's "e: /src/App.kt: (12, 5): ...".
  if (t.size() > 3 && ((t.starts_with("E: ") && t[3] >= 'A' && t[3] <= 'Z') || t.starts_with("** ("))) return true;
  if (t.starts_with("** ") && t.ends_with(" FAILED **")) return true;
  if (t.starts_with("e: ") && Contains(t.substr(0, t.find(' ', 3)), ".kt")) return true;
  // Jupyter's and Tornado's levels: "[E 10:08:13.182 NotebookApp] ...",
  // "[C 2023-08-25 17:12:15.769 ServerApp] ...".
  if (t.size() > 4 && t[0] == '[' && (t[1] == 'E' || t[1] == 'C') && t[2] == ' ' && Digit(t[3])) return true;
  // A linker's or compiler's coded error without a location: "error
  // LNK2019: unresolved external symbol ...", "fatal error C1083: ...".
  for (std::string_view level : {"error ", "fatal error "}) {
    if (!t.starts_with(level)) continue;
    std::size_t i = level.size(), letters = 0, digits = 0;
    while (i < t.size() && t[i] >= 'A' && t[i] <= 'Z') ++i, ++letters;
    while (i < t.size() && Digit(t[i])) ++i, ++digits;
    if (letters > 0 && digits > 0 && i < t.size() && t[i] == ':') return true;
  }
  // npm's debug log numbers each line before its level: "32 error ERESOLVE
  // unable to resolve dependency tree".
  std::size_t digits = 0;
  while (digits < t.size() && Digit(t[digits])) ++digits;
  if (digits > 0 && t.substr(digits).starts_with(" error ")) return true;
  // Yarn 1's level, a word and a capital: "error Command failed with exit
  // code 1.", "error An unexpected error occurred: ...".
  return t.size() > 6 && t.starts_with("error ") && t[6] >= 'A' && t[6] <= 'Z';
}

// A tool's own way of saying it failed, which names no level.
bool IsToolFailure(std::string_view t) {
  // BuildKit's "failed to solve: ...", kubectl's
  // "Unable to connect to the server: ...", systemctl's "Job for
  // nginx.service failed because ...".
  for (std::string_view p : {"failed to solve", "Unable to connect to the server:"}) {
    if (t.starts_with(p)) return true;
  }
  // webpack's and Create React App's report before the errors it lists.
  if (t == "Failed to compile." || t == "Failed to compile") return true;
  if (t.starts_with("Job for ") && Contains(t, " failed because ")) return true;
  // systemd on a unit that failed: "nginx.service: Main process exited,
  // code=exited, status=1/FAILURE", "nginx.service: Failed with result
  // 'exit-code'.", "Unit nginx.service entered failed state."
  for (std::string_view p : {".service: Main process exited, code=", ".service: main process exited, code=",
                             ".service: Failed with result '", " entered failed state"}) {
    if (Contains(t, p)) return true;
  }
  // npm's and node-gyp's "ERR!" lines.
  if (t.starts_with("gyp ERR!")) return true;
  // Jest's and Vitest's failed test file ("FAIL src/app.test.ts") and
  // failure headers ("● Suite › renders"), but not its console output.
  if (t.starts_with("FAIL ")) {
    const std::string_view file = Trim(t.substr(5));
    if (file.substr(0, file.find(' ')).find_first_of("/.") != std::string_view::npos) return true;
  }
  if (t.starts_with("\u25cf ") && !t.starts_with("\u25cf Console")) return true;
  // Ruby's uncaught exception: "app.rb:12:in `call': boom (RuntimeError)",
  // its "from ..." lines indented under it.
  if ((Contains(t, ":in `") || Contains(t, ":in '")) && Contains(t, "': ") && t.ends_with(")")) return true;
  // "Error response from daemon: ...", "Error from server (NotFound): ...",
  // Flutter's "Error (Xcode): ...": the tool's own error, a phrase before
  // its colon.
  if (t.starts_with("Error ") && t.size() > 6 && ((t[6] >= 'a' && t[6] <= 'z') || t[6] == '(')) {
    const std::size_t colon = t.find(": ");
    if (colon != std::string_view::npos && colon < 60) return true;
  }
  return false;
}

// Error lines known by how they start: a level, a tool's error, a
// language runtime's fatal error.
bool StartsAsError(std::string_view t) { return StartsWithErrorLevel(t) || IsToolFailure(t); }

}  // namespace

bool IsExceptionLine(std::string_view t) {
  if (t.starts_with("Exception in thread ")) return true;
  std::size_t end = 0;
  while (end < t.size() && (WordChar(t[end]) || t[end] == '.' || t[end] == '$')) ++end;
  std::string_view name = t.substr(0, end);
  // Node.js names its error's code in brackets: "Error [ERR_REQUIRE_ESM]: ...".
  if (end > 0 && t.substr(end).starts_with(" [")) {
    std::size_t close = t.find("]", end + 2);
    const bool code = close != std::string_view::npos && close > end + 2 &&
                      std::all_of(t.begin() + static_cast<long>(end) + 2, t.begin() + static_cast<long>(close),
                                  [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; });
    if (code) end = close + 1;
  }
  if (end == 0 || (end < t.size() && t[end] != ':')) return false;
  for (std::string_view suffix : {"Error", "Exception", "Exit", "Interrupt", "Failure", "Fault", "Throwable"}) {
    if (name.ends_with(suffix)) return true;
  }
  return false;
}

bool IsAtFrame(std::string_view line) {
  if (line.empty() || !IsBlank(line[0])) return false;
  std::string_view t = TrimLeft(line);
  return t.starts_with("at ") && t.size() > 3;
}

namespace {

// MSBuild's diagnostic format with no line number, from a project or a
// tool rather than a source line: "App.csproj : error NU1605: Detected
// package downgrade ...", "CSC : error CS2001: ...", "MSBUILD : error
// MSB1009: ...": " : error ", a code of letters then digits, a colon.
bool IsMsBuildError(std::string_view t) {
  std::size_t at = t.find(" : error ");
  std::size_t i = at + 9;
  if (at == std::string_view::npos) {
    at = t.find(" : fatal error ");  // the linker's "client.dll : fatal error LNK1120: ..."
    i = at + 15;
  }
  if (at == std::string_view::npos || at == 0) return false;
  std::size_t letters = 0, digits = 0;
  while (i < t.size() && t[i] >= 'A' && t[i] <= 'Z') ++i, ++letters;
  while (i < t.size() && Digit(t[i])) ++i, ++digits;
  return letters > 0 && digits > 0 && i < t.size() && t[i] == ':';
}


// Kotlin's compiler before 1.9: "src/App.kt: (195, 24): Unresolved
// reference: foo": a file, then its line and column in brackets.
bool IsKotlinDiagnostic(std::string_view t) {
  const std::size_t at = t.find(": (");
  if (at == std::string_view::npos || at == 0 || Contains(t.substr(0, at), " ")) return false;
  std::size_t i = at + 3;
  for (std::string_view sep : {", ", "): "}) {
    const std::size_t digits = i;
    while (i < t.size() && Digit(t[i])) ++i;
    if (i == digits || t.substr(i, sep.size()) != sep) return false;
    i += sep.size();
  }
  return true;
}

}  // namespace

bool IsCompilerError(std::string_view t) {
  // esbuild marks its diagnostics "> file.js:7:22: error: ...", and a
  // paste quoted in Markdown puts "> " before every line.
  if (t.starts_with("> ")) t = TrimLeft(t.substr(2));
  if (IsGoDiagnostic(t) || IsMsBuildError(t) || IsKotlinDiagnostic(t)) return true;
  for (std::string_view marker : {": error: ", ": fatal error: ", " - error TS", "): error ", "): fatal error "}) {
    std::size_t at = t.find(marker);
    if (at == std::string_view::npos || at == 0) continue;
    std::string_view where = t.substr(0, at + (marker[0] == ')' ? 1 : 0));
    // The location must end in a line number: "x.c:12:5", "x.ts(3,10)", "x.c:12".
    if (where.back() == ')') {
      std::size_t open = where.rfind('(');
      if (open == std::string_view::npos || open == 0 || !Digit(where[open + 1])) continue;
      return true;
    }
    if (!Digit(where.back()) || Contains(where, " ") || !Contains(where, ":")) continue;
    return true;
  }
  return false;
}

bool IsPythonFrame(std::string_view t) { return t.starts_with("File \"") && Contains(t, "\", line "); }

bool IsGroupTracebackHeader(std::string_view t) { return t == "+ Exception Group Traceback (most recent call last):"; }

std::optional<std::string_view> WithoutGroupGutter(std::string_view line) {
  const std::string_view s = TrimLeft(line);
  if (s.starts_with("| ") || s.starts_with("+ ")) return s.substr(2);
  if (s == "|" || s.starts_with("+-")) return std::string_view();
  return std::nullopt;
}

bool IsErrorBanner(std::string_view t) {
  constexpr std::string_view kRuleChars = "=-*#~";
  if (t.size() < 11 || kRuleChars.find(t.front()) == std::string_view::npos || t.back() != t.front()) return false;
  const std::size_t word = t.find_first_not_of(t.front());
  const std::size_t tail = t.find_last_not_of(t.front());
  if (word < 3 || word == std::string_view::npos || t.size() - 1 - tail < 3) return false;
  const std::string name = util::AsciiLower(Trim(t.substr(word, tail + 1 - word)));
  return name == "error" || name == "errors" || name == "fatal" || name == "failure" || name == "failed";
}

bool IsElisionLine(std::string_view t) {
  t = Trim(t);
  if (t == "..." || t == "[...]" || t == "(...)" || t == "\u2026" || t == "[\u2026]") return true;
  if (t.size() > 16) return false;
  std::string lower = util::AsciiLower(t);
  return lower == "<snip>" || lower == "[snip]" || lower == "<snipped>" || lower == "[truncated]" ||
         lower == "<truncated>";
}

bool IsIPythonHeader(std::string_view t) {
  constexpr std::string_view kTail = "Traceback (most recent call last)";
  if (!t.ends_with(kTail) || t.size() <= kTail.size() + 2) return false;
  std::string_view head = t.substr(0, t.size() - kTail.size());
  if (!IsBlank(head.back()) || !IsBlank(head[head.size() - 2])) return false;
  head = Trim(head);
  for (char c : head) {
    if (!WordChar(c) && c != '.') return false;
  }
  return !head.empty();
}

bool IsIPythonFrame(std::string_view t) {
  return t.starts_with("Cell In[") || t.starts_with("File ") || t.starts_with("<ipython-input-") ||
         (Contains(t, ".py in ") && !Contains(t.substr(0, t.find(".py in ")), " "));
}

bool IsRustcError(std::string_view t) {
  if (t.starts_with("error: ")) return true;
  if (!t.starts_with("error[E")) return false;
  std::size_t i = 7;
  while (i < t.size() && Digit(t[i])) ++i;
  return i > 7 && std::string_view(t.substr(i)).starts_with("]: ");
}

bool IsPytestHeader(std::string_view t) {
  if (!t.starts_with("___") || !t.ends_with("___")) return false;
  const std::size_t text = t.find_first_not_of('_');
  if (text == std::string_view::npos) return false;  // a rule of underscores
  std::string_view inner = Trim(t.substr(text));
  return !inner.empty() && inner.front() != '_' && Contains(t, " ");
}

std::string PytestHeaderName(std::string_view header) {
  std::string_view name = Trim(header);
  while (!name.empty() && name.front() == '_') name.remove_prefix(1);
  while (!name.empty() && name.back() == '_') name.remove_suffix(1);
  name = Trim(name);
  for (std::string_view phase : {"ERROR at setup of ", "ERROR at teardown of ", "ERROR at call of "}) {
    if (name.starts_with(phase)) name.remove_prefix(phase.size());
  }
  return std::string(name);
}

std::string PytestSummaryName(std::string_view t) {
  std::string_view id;
  for (std::string_view status : {"FAILED ", "ERROR "}) {
    if (t.starts_with(status)) id = t.substr(status.size());
  }
  const std::size_t file_end = id.find("::");
  if (file_end == std::string_view::npos || Contains(id.substr(0, file_end), " ")) return {};
  id.remove_prefix(file_end + 2);
  id = id.substr(0, id.find(" - "));
  id = Trim(id);
  std::string name;
  for (std::size_t i = 0; i < id.size(); ++i) {
    const bool sep = id[i] == ':' && i + 1 < id.size() && id[i + 1] == ':';
    name += sep ? '.' : id[i];
    i += sep;
  }
  return name;
}

bool IsRule(std::string_view t, char c) {
  return t.size() >= 6 && t[0] == c && t[1] == c && t[2] == c && t.back() == c;
}

bool IsGpuError(std::string_view t) {
  for (std::string_view m : {"CUDA error", "CUDNN_STATUS_", "CUBLAS_STATUS_", "CUDA_ERROR_", "CUSOLVER_STATUS_",
                             "CUFFT_", "NCCL error", "ncclSystemError", "ncclInternalError", "ncclInvalidUsage",
                             "ncclUnhandledCudaError", "ncclRemoteError", "Watchdog caught collective operation timeout",
                             "CUDA out of memory", "device-side assert", "cudaErrorIllegalAddress"}) {
    if (Contains(t, m)) return true;
  }
  return false;
}

bool IsErrorLine(std::string_view t) {
  if (StartsAsError(t)) return true;
  // The same after the tool's name: "docker: Error response from daemon:
  // ...", and curl's numbered errors, "curl: (60) SSL certificate problem".
  if (const std::size_t tool = ToolNameLength(t); tool > 0) {
    const std::string_view rest = t.substr(tool);
    if (StartsAsError(rest) || (t.starts_with("curl: (") && rest.size() > 1 && Digit(rest[1]))) return true;
  }
  // An HTTP client's status error: "403 Client Error: Forbidden for url: ...".
  if (t.size() > 4 && Digit(t[0]) && Digit(t[1]) && Digit(t[2]) &&
      (t.substr(3).starts_with(" Client Error") || t.substr(3).starts_with(" Server Error"))) {
    return t.size() == 16 || !WordChar(t[16]);
  }
  if (HasErrorLevelField(t)) return true;
  // Node.js printing an error value inside an array or a promise's
  // rejection: "[Error: OpenAI API returned an error. ...]",
  // "[TypeError: fetch failed]".
  if (t.size() > 8 && t[0] == '[' && t[1] >= 'A' && t[1] <= 'Z' && IsExceptionLine(t.substr(1))) return true;
  // One capitalised word, then "Error:" or "Error at".
  if (!t.empty() && t[0] >= 'A' && t[0] <= 'Z') {
    std::size_t i = 1;
    while (i < t.size() && WordChar(t[i])) ++i;
    const std::string_view rest = t.substr(i);
    if (rest.starts_with(" Error: ") || rest.starts_with(" Error at ")) return true;
  }
  // The level among the first few words (PostgreSQL's log_line_prefix can
  // put six before it: "UTC [440]: [5f57-2] postgres@postgres,app=psql
  // [28P01] FATAL:  password authentication failed ..."); Celery's with the
  // process after it ("[2014-07-15 15:02:51,310: ERROR/MainProcess]");
  // nginx's and Apache's in lower case, bracketed ("[emerg] 7939#7939:
  // bind() to [::]:80 failed").
  std::size_t words = 0;
  for (std::size_t i = 0; i < t.size() && words < 7;) {
    while (i < t.size() && IsBlank(t[i])) ++i;
    std::size_t b = i;
    while (i < t.size() && !IsBlank(t[i])) ++i;
    std::string_view w = t.substr(b, i - b);
    while (!w.empty() && (w.back() == ':' || w.back() == ']')) w.remove_suffix(1);
    const bool bracketed = !w.empty() && w.front() == '[';
    while (!w.empty() && w.front() == '[') w.remove_prefix(1);
    if (w == "ERROR" || w == "FATAL" || w == "CRITICAL" || w == "SEVERE") return true;
    if (w.starts_with("ERROR/") || w.starts_with("CRITICAL/")) return true;
    if (bracketed && (w == "emerg" || w == "crit" || w == "alert" || w == "error")) return true;
    ++words;
  }
  return IsExceptionLine(t);
}

}  // namespace kedb::logs
