// Python and Node tool output for the long logs: pip, python -m build,
// pytest, npm ci, eslint, vite/webpack and jest, as each prints it in a CI job.
// Full of the benign lines real logs have (deprecation warnings, retries,
// "0 errors", error_handler.py being copied, tests named test_raises), and
// of nothing that is a failure.
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "long_log_parts.h"

namespace kedb::eval::longlog {
namespace {

struct PyPkg {
  const char* name;
  bool binary;  // ships platform wheels
};
const PyPkg kPyPkgs[] = {
    {"numpy", true}, {"pandas", true}, {"requests", false}, {"urllib3", false}, {"certifi", false},
    {"charset-normalizer", true}, {"idna", false}, {"pytest", false}, {"pluggy", false}, {"iniconfig", false},
    {"packaging", false}, {"typing-extensions", false}, {"pydantic", false}, {"pydantic-core", true},
    {"annotated-types", false}, {"sqlalchemy", true}, {"greenlet", true}, {"fastapi", false}, {"starlette", false},
    {"anyio", false}, {"sniffio", false}, {"h11", false}, {"httpx", false}, {"httpcore", false}, {"jinja2", false},
    {"markupsafe", true}, {"click", false}, {"werkzeug", false}, {"flask", false}, {"itsdangerous", false},
    {"six", false}, {"python-dateutil", false}, {"pytz", false}, {"tzdata", false}, {"pyyaml", true},
    {"scipy", true}, {"scikit-learn", true}, {"joblib", false}, {"threadpoolctl", false}, {"matplotlib", true},
    {"contourpy", true}, {"cycler", false}, {"fonttools", true}, {"kiwisolver", true}, {"pillow", true},
    {"pyparsing", false}, {"filelock", false}, {"sympy", false}, {"networkx", false}, {"fsspec", false},
    {"mpmath", false}, {"tqdm", false}, {"coverage", true}, {"pytest-cov", false}, {"pytest-xdist", false},
    {"execnet", false}, {"mypy", true}, {"mypy-extensions", false}, {"black", true}, {"pathspec", false},
    {"platformdirs", false}, {"ruff", true}, {"attrs", false}, {"rich", false}, {"pygments", false},
    {"markdown-it-py", false}, {"mdurl", false}, {"psycopg2-binary", true}, {"redis", false}, {"celery", false},
    {"kombu", false}, {"billiard", true}, {"vine", false}, {"amqp", false}, {"boto3", false}, {"botocore", false},
    {"s3transfer", false}, {"jmespath", false}, {"protobuf", true}, {"grpcio", true}, {"orjson", true},
    {"uvicorn", false}, {"websockets", true}, {"python-dotenv", false}, {"alembic", false}, {"mako", false},
    {"tenacity", false}, {"wrapt", true}, {"cryptography", true}, {"cffi", true}, {"pycparser", false},
    {"lxml", true}, {"beautifulsoup4", false}, {"soupsieve", false}, {"pyarrow", true}, {"regex", true},
    {"tokenizers", true}, {"safetensors", true}, {"huggingface-hub", false}, {"transformers", false},
    {"aiohttp", true}, {"multidict", true}, {"yarl", true}, {"frozenlist", true}, {"aiosignal", false},
    {"exceptiongroup", false}, {"tomli", false}, {"hypothesis", false}, {"sortedcontainers", false},
    {"freezegun", false}, {"responses", false}, {"faker", false}, {"docutils", false}, {"sphinx", false}};
constexpr std::size_t kNumPyPkgs = sizeof(kPyPkgs) / sizeof(kPyPkgs[0]);

const char* kModules[] = {"__init__", "error_handler", "errors", "exceptions", "retry", "client", "config",
                          "schema", "loader", "cache", "auth", "routes", "handlers", "serializers", "validators",
                          "tasks", "metrics", "logging_setup", "timeouts", "fallback", "models", "utils",
                          "pagination", "storage", "events", "warnings_filter", "signals", "abort"};
const char* kSubpackages[] = {"api", "core", "io", "db", "cli", "services", "workers", "utils"};
const char* kVerbs[] = {"parses", "returns", "raises", "handles", "rejects", "retries", "caches", "serializes",
                        "validates", "loads", "maps", "skips", "logs", "reports", "ignores", "accepts"};
const char* kNouns[] = {"empty_input", "invalid_token", "timeout", "missing_field", "unicode", "large_payload",
                        "error_response", "duplicate_key", "config", "defaults", "nested_dict", "none",
                        "http_404", "retry_after", "failure_count", "bad_request", "expired_session", "conflict"};
const char* kParams[] = {"0", "1", "2", "utf-8", "latin-1", "sqlite", "postgres", "case3", "True", "False",
                         "small", "large", "v1", "v2"};

std::string Underscored(std::string s) {
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

std::string Wheel(Rng& r, const PyPkg& p, const std::string& v, const Env& e) {
  std::string tag = "cp" + e.python.substr(0, e.python.rfind('.'));
  tag.erase(std::remove(tag.begin(), tag.end(), '.'), tag.end());
  if (!p.binary) return fmt::format("{}-{}-py3-none-any.whl", Underscored(p.name), v);
  const char* plat = r.Chance(0.5) ? "manylinux_2_17_x86_64.manylinux2014_x86_64" : "manylinux_2_28_x86_64";
  return fmt::format("{}-{}-{}-{}-{}.whl", Underscored(p.name), v, tag, tag, plat);
}

std::string Size(Rng& r, bool binary) {
  if (binary && r.Chance(0.7)) return fmt::format("{:.1f} MB", 0.3 + r.Below(400) / 10.0);
  return fmt::format("{} kB", 8 + r.Below(900));
}

// pip's finished download bar: "━━━━ 12.3/12.3 MB 45.6 MB/s eta 0:00:00".
std::string Bar(Rng& r, const std::string& size) {
  std::string bar;
  for (int i = 0; i < 40; ++i) bar += "\u2501";
  std::string num = size.substr(0, size.find(' ')), unit = size.substr(size.find(' ') + 1);
  return fmt::format("   {} {}/{} {} {:.1f} MB/s eta 0:00:00", bar, num, num, unit, 1 + r.Below(900) / 10.0);
}

std::string Spec(Rng& r, const std::string& v) {
  switch (r.Below(5)) {
    case 0: return "==" + v;
    case 1: return ">=" + v.substr(0, v.rfind('.'));
    case 2: return "~=" + v.substr(0, v.rfind('.'));
    case 3: return fmt::format("<{},>={}", v[0] - '0' + 1, v.substr(0, v.rfind('.')));
    default: return "";
  }
}

// pytest's centred "===== text =====" lines, 80 columns.
std::string Banner(const std::string& text, char c = '=') {
  std::size_t fill = text.size() + 2 < 80 ? 80 - text.size() - 2 : 2;
  return std::string(fill / 2, c) + " " + text + " " + std::string(fill - fill / 2, c);
}

std::string TestName(Rng& r) {
  std::string n = fmt::format("test_{}_{}", r.Pick(kVerbs), r.Pick(kNouns));
  if (r.Chance(0.2)) n += fmt::format("[{}]", r.Pick(kParams));
  return n;
}

}  // namespace

Lines PipUpgrade(Rng& r, const Env& e) {
  std::string old = fmt::format("23.{}.{}", r.Below(4), r.Below(2)), now = fmt::format("24.{}", r.Below(3));
  return {fmt::format("Requirement already satisfied: pip in {} ({})", e.site, old),
          "Collecting pip",
          fmt::format("  Downloading pip-{}-py3-none-any.whl.metadata (3.6 kB)", now),
          fmt::format("Downloading pip-{}-py3-none-any.whl (2.1 MB)", now),
          Bar(r, "2.1 MB"),
          "Installing collected packages: pip",
          "  Attempting uninstall: pip",
          fmt::format("    Found existing installation: pip {}", old),
          fmt::format("    Uninstalling pip-{}:", old),
          fmt::format("      Successfully uninstalled pip-{}", old),
          fmt::format("Successfully installed pip-{}", now)};
}

// The resolver's Collecting lines, then the downloads, the sdists' wheel
// builds and the install summary, as pip 24 prints them.
Lines PipInstall(Rng& r, const Env& e, std::size_t packages) {
  Lines out;
  if (r.Chance(0.15)) {
    out.push_back("Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/cu121");
  }
  std::size_t k = std::clamp<std::size_t>(packages, 5, kNumPyPkgs), start = r.Below(kNumPyPkgs);
  std::size_t direct = std::max<std::size_t>(3, k / 3);
  std::vector<std::string> names, versions, downloads, sdists, sdist_versions;
  for (std::size_t i = 0; i < k; ++i) {
    const PyPkg& p = kPyPkgs[(start + i * 7) % kNumPyPkgs];  // 7 is prime to the pool size: no repeats
    std::string v = r.Version(), from = fmt::format("-r requirements.txt (line {})", 1 + r.Below(direct));
    if (i >= direct) from = fmt::format("{}->{}", names[r.Below(names.size())], from);
    if (r.Chance(0.08)) {
      out.push_back(fmt::format("Requirement already satisfied: {} in {} (from {}) ({})", p.name, e.site, from, v));
      continue;
    }
    if (r.Chance(0.02)) {
      out.push_back(fmt::format("WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, "
                                "status=None)) after connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool("
                                "host='pypi.org', port=443): Read timed out. (read timeout=15)\")': /simple/{}/",
                                p.name));
    }
    out.push_back(fmt::format("Collecting {}{} (from {})", p.name, Spec(r, v), from));
    if (!p.binary && r.Chance(0.06)) {
      out.push_back(fmt::format("  Downloading {}-{}.tar.gz ({} kB)", Underscored(p.name), v, 10 + r.Below(800)));
      for (const char* phase : {"Installing build dependencies", "Getting requirements to build wheel",
                                "Preparing metadata (pyproject.toml)"}) {
        out.push_back(fmt::format("  {}: started", phase));
        out.push_back(fmt::format("  {}: finished with status 'done'", phase));
      }
      sdists.push_back(p.name);
      sdist_versions.push_back(v);
    } else {
      std::string w = Wheel(r, p, v, e);
      out.push_back(fmt::format("  {} {}.metadata ({} kB)", r.Chance(0.3) ? "Using cached" : "Downloading", w,
                                1 + r.Below(60)));
      downloads.push_back(w + "\t" + Size(r, p.binary));
    }
    names.push_back(p.name);
    versions.push_back(v);
  }
  for (const std::string& d : downloads) {
    std::string w = d.substr(0, d.find('\t')), size = d.substr(d.find('\t') + 1);
    out.push_back(fmt::format("Downloading {} ({})", w, size));
    out.push_back(Bar(r, size));
  }
  if (!sdists.empty()) {
    out.push_back(fmt::format("Building wheels for collected packages: {}", fmt::join(sdists, ", ")));
    for (std::size_t i = 0; i < sdists.size(); ++i) {
      const std::string& s = sdists[i];
      out.push_back(fmt::format("  Building wheel for {} (pyproject.toml): started", s));
      out.push_back(fmt::format("  Building wheel for {} (pyproject.toml): finished with status 'done'", s));
      out.push_back(fmt::format("  Created wheel for {}: filename={}-{}-py3-none-any.whl size={} sha256={}", s,
                                Underscored(s), sdist_versions[i], 4000 + r.Below(200000), r.Hex(64)));
      out.push_back(fmt::format("  Stored in directory: /tmp/pip-ephem-wheel-cache-{}/wheels/{}/{}/{}", r.Hex(8),
                                r.Hex(2), r.Hex(2), r.Hex(60)));
    }
    out.push_back(fmt::format("Successfully built {}", fmt::join(sdists, " ")));
  }
  out.push_back(fmt::format("Installing collected packages: {}", fmt::join(names, ", ")));
  if (r.Chance(0.4)) {
    std::string old = fmt::format("65.5.{}", r.Below(2));
    out.push_back("  Attempting uninstall: setuptools");
    out.push_back("    Found existing installation: setuptools " + old);
    out.push_back("    Uninstalling setuptools-" + old + ":");
    out.push_back("      Successfully uninstalled setuptools-" + old);
  }
  std::string installed;
  for (std::size_t i = 0; i < names.size(); ++i) installed += " " + names[i] + "-" + versions[i];
  out.push_back("Successfully installed" + installed);
  if (e.docker) {
    out.push_back("WARNING: Running pip as the 'root' user can result in broken permissions and conflicting "
                  "behaviour with the system package manager. It is recommended to use a virtual environment "
                  "instead: https://pip.pypa.io/warnings/venv");
  }
  if (r.Chance(0.35)) {
    out.push_back("");
    out.push_back(fmt::format("[notice] A new release of pip is available: 23.0.1 -> 24.{}", r.Below(3)));
    out.push_back("[notice] To update, run: pip install --upgrade pip");
  }
  return out;
}

// `python -m build`: setuptools copying each module twice and zipping it.
Lines PythonBuild(Rng& r, const Env& e, std::size_t n) {
  const std::string& p = e.project;
  const std::string& v = e.version;
  std::vector<std::string> mods;
  for (std::size_t i = 0; i < std::max<std::size_t>(4, n / 3); ++i) {
    mods.push_back(r.Chance(0.3) ? std::string(r.Pick(kModules)) + ".py"
                                 : fmt::format("{}/{}.py", r.Pick(kSubpackages), r.Pick(kModules)));
  }
  Lines out = {"* Creating isolated environment: venv+pip...", "* Installing packages in isolated environment:",
               "  - setuptools>=68", "  - wheel", "* Getting build dependencies for wheel...", "running egg_info",
               fmt::format("writing src/{}.egg-info/PKG-INFO", p),
               fmt::format("writing dependency_links to src/{}.egg-info/dependency_links.txt", p),
               fmt::format("writing requirements to src/{}.egg-info/requires.txt", p),
               fmt::format("reading manifest file 'src/{}.egg-info/SOURCES.txt'", p), "adding license file 'LICENSE'",
               "* Building wheel...", "running bdist_wheel", "running build", "running build_py",
               fmt::format("creating build/lib/{}", p)};
  for (const auto& m : mods) out.push_back(fmt::format("copying src/{}/{} -> build/lib/{}", p, m, p));
  out.push_back("running install");
  out.push_back("running install_lib");
  for (const auto& m : mods) {
    out.push_back(fmt::format("copying build/lib/{}/{} -> build/bdist.linux-x86_64/wheel/./{}", p, m, p));
  }
  out.push_back(fmt::format("creating '{}/dist/.tmp-{}/{}-{}-py3-none-any.whl' and adding "
                            "'build/bdist.linux-x86_64/wheel' to it", e.root, r.Hex(8), p, v));
  for (const auto& m : mods) out.push_back(fmt::format("adding '{}/{}'", p, m));
  out.push_back("removing build/bdist.linux-x86_64/wheel");
  out.push_back(fmt::format("Successfully built {}-{}.tar.gz and {}-{}-py3-none-any.whl", p, v, p, v));
  return out;
}

// A pytest -v run: session header, one line a test with its progress
// percentage in column 80, then (when `finish`) the warnings summary and the
// all-passed result line. Unfinished, it stops mid-run where the error goes.
Lines Pytest(Rng& r, const Env& e, std::size_t n, const std::string& dir, bool finish) {
  Lines out = {Banner("test session starts"),
               fmt::format("platform linux -- Python {}, pytest-8.{}.{}, pluggy-1.{}.0 -- {}/bin/python", e.python,
                           r.Below(3), r.Below(3), 4 + r.Below(2), e.site.substr(0, e.site.find("/lib/"))),
               "cachedir: .pytest_cache", "rootdir: " + e.root, "configfile: pyproject.toml",
               fmt::format("plugins: cov-{}, xdist-3.{}.0, anyio-4.{}.0", r.Version(), r.Below(6), r.Below(4))};
  // One line a test: a finished run's count is its lines; a crashed one had more to go.
  const std::size_t body = std::max(out.size() + 2 + 1, finish ? n - std::min<std::size_t>(n, 12) : n);
  const std::size_t total = body - out.size() - 2 + (finish ? 0 : r.Below(n / 3 + 1));
  std::size_t done = 0, passed = 0, skipped = 0;
  out.push_back(fmt::format("collecting ... collected {} items", total));
  out.push_back("");
  while (out.size() < body) {
    std::string file = fmt::format("{}/test_{}.py", dir, r.Pick(kModules));
    if (file.find("__init__") != std::string::npos) file = dir + "/test_errors.py";
    static const char* kClasses[] = {"TestRetryPolicy", "TestOrderSerializer", "TestErrorMapping", "TestCache",
                                     "TestAuthBackend", "TestPagination", "TestTimeouts", "TestSchema"};
    std::string cls = r.Chance(0.3) ? std::string(r.Pick(kClasses)) + "::" : "";
    for (std::size_t i = 1 + r.Below(25); i > 0 && out.size() < body; --i) {
      ++done;
      std::string status = "PASSED";
      if (r.Chance(0.04)) status = r.Chance(0.5) ? "SKIPPED (requires Redis)" : "SKIPPED (slow; use --runslow)";
      else if (r.Chance(0.01)) status = "XFAIL (upstream issue #" + std::to_string(100 + r.Below(9000)) + ")";
      status[0] == 'P' ? ++passed : ++skipped;
      std::string s = fmt::format("{}::{}{} {}", file, cls, i == 1 && r.Chance(0.1) ? "test_raises" : TestName(r),
                                  status);
      std::string pct = fmt::format("[{:3}%]", std::min<std::size_t>(100, done * 100 / total));
      out.push_back(s + std::string(s.size() + pct.size() < 80 ? 80 - s.size() - pct.size() : 1, ' ') + pct);
    }
  }
  if (!finish) return out;
  out.push_back("");
  out.push_back(Banner("warnings summary"));
  out.push_back(fmt::format("{}/test_{}.py::{}", dir, r.Pick(kModules), TestName(r)));
  out.push_back(fmt::format("  {}/src/{}/{}.py:{}: DeprecationWarning: datetime.datetime.utcnow() is deprecated and "
                            "scheduled for removal in a future version. Use timezone-aware objects to represent "
                            "datetimes in UTC: datetime.datetime.now(datetime.UTC).",
                            e.root, e.project, r.Pick(kModules), 10 + r.Below(400)));
  out.push_back("    ts = datetime.utcnow()");
  out.push_back("");
  out.push_back(fmt::format("{}/test_{}.py: {} warnings", dir, r.Pick(kModules), 2 + r.Below(40)));
  out.push_back(fmt::format("  {}/pydantic/_internal/_config.py:291: PydanticDeprecatedSince20: Support for "
                            "class-based `config` is deprecated, use ConfigDict instead. Deprecated in Pydantic V2.0 "
                            "to be removed in V3.0. See Pydantic V2 Migration Guide at "
                            "https://errors.pydantic.dev/2.6/migration/", e.site));
  out.push_back("    warnings.warn(DEPRECATION_MESSAGE, DeprecationWarning)");
  out.push_back("");
  out.push_back("-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html");
  out.push_back(Banner(fmt::format("{} passed, {} skipped, {} warnings in {:.2f}s", passed, skipped, 3 + r.Below(60),
                                   static_cast<double>(done) * (0.01 + r.Below(50) / 1000.0))));
  return out;
}

// npm ci: deprecation warnings, sometimes an engine warning, then the
// summary, funding and audit lines.
Lines NpmCi(Rng& r, const Env& e) {
  static const char* kDeprecated[] = {
      "inflight@1.0.6: This module is not supported, and leaks memory. Do not use it. Check out lru-cache if you "
      "want a good and tested way to coalesce async requests by a key value, which is much more comprehensive and "
      "powerful.",
      "glob@7.2.3: Glob versions prior to v9 are no longer supported",
      "rimraf@3.0.2: Rimraf versions prior to v4 are no longer supported",
      "@humanwhocodes/config-array@0.11.14: Use @eslint/config-array instead",
      "@humanwhocodes/object-schema@2.0.3: Use @eslint/object-schema instead",
      "eslint@8.57.0: This version is no longer supported. Please see https://eslint.org/version-support for other "
      "options.",
      "abab@2.0.6: Use your platform's native atob() and btoa() methods instead",
      "domexception@4.0.0: Use your platform's native DOMException instead",
      "w3c-hr-time@1.0.2: Use your platform's native performance.now() and performance.timeOrigin.",
      "sourcemap-codec@1.4.8: Please use @jridgewell/sourcemap-codec instead",
      "stable@0.1.8: Modern JS already guarantees Array#sort() is a stable sort, so this library is deprecated.",
      "@babel/plugin-proposal-class-properties@7.18.6: This proposal has been merged to the ECMAScript standard and "
      "thus this plugin is no longer maintained. Please use @babel/plugin-transform-class-properties instead.",
      "querystring@0.2.0: The querystring API is considered Legacy. new code should use the URLSearchParams API "
      "instead.",
      "request@2.88.2: request has been deprecated, see https://github.com/request/request/issues/3142",
      "har-validator@5.1.5: this library is no longer supported",
      "@npmcli/move-file@1.1.2: This functionality has been moved to @npmcli/fs",
      "svgo@1.3.2: This SVGO version is no longer supported. Upgrade to v2.x.x."};
  const bool npm10 = r.Chance(0.6);
  const char* warn = npm10 ? "npm warn" : "npm WARN";
  Lines out;
  if (r.Chance(0.15)) {
    out.push_back(fmt::format("{} EBADENGINE Unsupported engine {{", warn));
    out.push_back(fmt::format("{} EBADENGINE   package: 'undici@6.{}.0',", warn, 10 + r.Below(9)));
    out.push_back(fmt::format("{} EBADENGINE   required: {{ node: '>=18.17' }},", warn));
    out.push_back(fmt::format("{} EBADENGINE   current: {{ node: 'v18.16.1', npm: '9.5.1' }}", warn));
    out.push_back(fmt::format("{} EBADENGINE }}", warn));
  }
  std::size_t first = r.Below(17);
  for (std::size_t i = 0, k = 3 + r.Below(10); i < k; ++i) {
    out.push_back(fmt::format("{} deprecated {}", warn, kDeprecated[(first + i * 5) % 17]));
  }
  if (r.Chance(0.4)) {
    out.insert(out.end(), {"", fmt::format("> {}@{} prepare", e.project, e.version), "> husky install",
                           "", "husky - Git hooks installed"});
  }
  std::size_t added = 400 + r.Below(1600);
  out.insert(out.end(), {"", fmt::format("added {} packages, and audited {} packages in {}s", added, added + 1,
                                         8 + r.Below(80)),
                         "", fmt::format("{} packages are looking for funding", 40 + r.Below(300)),
                         "  run `npm fund` for details", ""});
  if (r.Chance(0.4)) {
    out.push_back("found 0 vulnerabilities");
  } else {
    std::size_t low = r.Below(4), mod = 1 + r.Below(6), high = r.Below(3);
    out.insert(out.end(), {fmt::format("{} vulnerabilities ({} low, {} moderate, {} high)", low + mod + high, low,
                                       mod, high),
                           "", "To address issues that do not require attention, run:", "  npm audit fix", "",
                           "To address all issues (including breaking changes), run:", "  npm audit fix --force", "",
                           "Run `npm audit` for details."});
  }
  return out;
}

// `npm run lint` with warnings only: eslint's per-file blocks and its
// "✖ N problems (0 errors, N warnings)" summary.
Lines Eslint(Rng& r, const Env& e) {
  static const char* kDirs[] = {"components", "pages", "hooks", "api", "utils", "store", "features/orders"};
  static const char* kFiles[] = {"OrderTable", "ErrorBoundary", "useFetch", "client", "format", "Sidebar",
                                 "LoginForm", "errorHandler", "retry", "Dashboard", "Modal", "Toast"};
  Lines out = {"", fmt::format("> {}@{} lint", e.project, e.version),
               "> eslint . --ext .ts,.tsx --report-unused-disable-directives --max-warnings 200", ""};
  std::size_t total = 0;
  for (std::size_t f = 2 + r.Below(10); f > 0; --f) {
    out.push_back(fmt::format("{}/src/{}/{}.tsx", e.root, r.Pick(kDirs), r.Pick(kFiles)));
    for (std::size_t i = 1 + r.Below(5); i > 0; --i, ++total) {
      std::string pos = fmt::format("{}:{}", 1 + r.Below(300), 1 + r.Below(40));
      switch (r.Below(4)) {
        case 0:
          out.push_back(fmt::format("  {:<7} warning  'err' is defined but never used  "
                                    "@typescript-eslint/no-unused-vars", pos));
          break;
        case 1:
          out.push_back(fmt::format("  {:<7} warning  React Hook useEffect has a missing dependency: 'refetch'. Either "
                                    "include it or remove the dependency array  react-hooks/exhaustive-deps", pos));
          break;
        case 2:
          out.push_back(fmt::format("  {:<7} warning  Unexpected any. Specify a different type  "
                                    "@typescript-eslint/no-explicit-any", pos));
          break;
        default:
          out.push_back(fmt::format("  {:<7} warning  Unexpected console statement  no-console", pos));
      }
    }
    out.push_back("");
  }
  out.push_back(fmt::format("\u2716 {} problems (0 errors, {} warnings)", total, total));
  return out;
}

// `npm run build` with vite or webpack: the asset table and the chunk-size
// warning nearly every real app gets.
Lines WebBuild(Rng& r, const Env& e) {
  static const char* kChunks[] = {"index", "vendor", "react-dom", "charts", "editor", "OrderTable", "ErrorPage",
                                  "settings", "auth", "i18n"};
  Lines out = {"", fmt::format("> {}@{} build", e.project, e.version)};
  if (r.Chance(0.6)) {
    out.insert(out.end(), {"> tsc -b && vite build", "", fmt::format("vite v5.{}.{} building for production...",
                                                                      r.Below(4), r.Below(12)),
                           "transforming...", fmt::format("\u2713 {} modules transformed.", 300 + r.Below(3000)),
                           "rendering chunks...", "computing gzip size..."});
    for (std::size_t i = 3 + r.Below(25); i > 0; --i) {
      double kb = r.Below(60000) / 100.0;
      out.push_back(fmt::format("dist/assets/{}-{}.js  {:>9.2f} kB \u2502 gzip: {:>8.2f} kB", r.Pick(kChunks),
                                r.Hex(8), kb, kb / 3.2));
    }
    out.insert(out.end(), {"", "(!) Some chunks are larger than 500 kB after minification. Consider:",
                           "- Using dynamic import() to code-split the application",
                           "- Use build.rollupOptions.output.manualChunks to improve chunking: "
                           "https://rollupjs.org/configuration-options/#output-manualchunks",
                           "- Adjust chunk size limit for this warning via build.chunkSizeWarningLimit.",
                           fmt::format("\u2713 built in {:.2f}s", 3 + r.Below(6000) / 100.0)});
    return out;
  }
  out.push_back("> webpack --mode production");
  out.push_back("");
  for (std::size_t i = 3 + r.Below(20); i > 0; --i) {
    out.push_back(fmt::format("asset {}.{}.js {} KiB [emitted] [immutable] [minimized] (name: {})", r.Pick(kChunks),
                              r.Hex(20), 1 + r.Below(700), r.Pick(kChunks)));
  }
  out.insert(out.end(), {fmt::format("orphan modules {} KiB [orphan] {} modules", 10 + r.Below(300), r.Below(90)),
                         "runtime modules 2.48 KiB 6 modules", "cacheable modules 1.21 MiB",
                         fmt::format("  modules by path ./node_modules/ {} KiB {} modules", 200 + r.Below(900),
                                     50 + r.Below(400)),
                         fmt::format("  modules by path ./src/ {} KiB {} modules", 20 + r.Below(400),
                                     20 + r.Below(300)),
                         "", "WARNING in asset size limit: The following asset(s) exceed the recommended size limit "
                         "(244 KiB).", "This can impact web performance.", "",
                         fmt::format("webpack 5.{}.0 compiled with 1 warning in {} ms", 80 + r.Below(12),
                                     4000 + r.Below(60000))});
  return out;
}

// jest --verbose: PASS lines per suite, describe blocks with ✓ tests, the odd
// console.log block, and (when `finish`) the all-passed summary.
Lines Jest(Rng& r, const Env& e, std::size_t n, bool finish) {
  static const char* kSuites[] = {"components/OrderTable", "components/ErrorBoundary", "hooks/useFetch", "api/client",
                                  "utils/format", "utils/retry", "store/cart", "pages/Login", "utils/errors",
                                  "features/orders/slice", "lib/validate", "server/routes"};
  static const char* kTests[] = {"renders without crashing", "shows the error state when the request fails",
                                 "retries on timeout", "formats ISO dates", "rejects invalid input",
                                 "returns null for empty errors", "calls onClose", "handles 404 responses",
                                 "throws on missing config", "debounces input", "sorts by date", "matches snapshot"};
  Lines out = {"", fmt::format("> {}@{} test", e.project, e.version), "> jest --ci --verbose", ""};
  std::size_t suites = 0, tests = 0, skipped = 0;
  std::size_t body = finish ? n - std::min<std::size_t>(n, 8) : n;
  while (out.size() < body) {
    ++suites;
    std::string time = r.Chance(0.3) ? fmt::format(" ({:.3f} s)", 1 + r.Below(9000) / 1000.0) : "";
    out.push_back(fmt::format("PASS src/{}.test.{}{}", r.Pick(kSuites), r.Chance(0.5) ? "tsx" : "ts", time));
    for (std::size_t d = 1 + r.Below(3); d > 0; --d) {
      out.push_back(fmt::format("  {}", r.Pick(kTests) + std::string(r.Chance(0.5) ? "" : " (integration)")));
      for (std::size_t t = 1 + r.Below(8); t > 0; --t, ++tests) {
        if (r.Chance(0.04)) {
          ++skipped;
          out.push_back(fmt::format("    \u25cb skipped {}", r.Pick(kTests)));
        } else {
          out.push_back(fmt::format("    \u2713 {} ({} ms)", r.Pick(kTests), 1 + r.Below(120)));
        }
      }
    }
    if (r.Chance(0.12)) {
      out.insert(out.end(), {"", "  console.log", fmt::format("    [api] GET /api/orders?page={} 200 {}ms",
                                                               r.Below(9), r.Below(90)),
                             "", fmt::format("      at log (src/{}.test.ts:{}:{})", r.Pick(kSuites), r.Below(200),
                                             r.Below(30)),
                             ""});
    }
    out.push_back("");
  }
  if (!finish) return out;
  out.push_back(fmt::format("Test Suites: {} passed, {} total", suites, suites));
  out.push_back(fmt::format("Tests:       {} skipped, {} passed, {} total", skipped, tests - skipped, tests));
  const std::size_t snapshots = r.Below(60);
  out.push_back(fmt::format("Snapshots:   {} passed, {} total", snapshots, snapshots));
  out.push_back(fmt::format("Time:        {:.3f} s", 10 + r.Below(200000) / 1000.0));
  out.push_back("Ran all test suites.");
  return out;
}

}  // namespace kedb::eval::longlog
