// CI jobs for the long logs: a project's steps (install, lint, build, test,
// then the step that fails), framed as GitHub Actions, GitLab CI or Jenkins
// print them. After the failing step come the job's closing lines: an
// always-run step that dumps the services' logs (long, so the error can sit
// mid-log), artifact uploads, cleanup, the CI system's failure line.
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "long_log_parts.h"

namespace kedb::eval::longlog {
namespace {

Block Meta(Lines lines, double gap = 0.01) { return Fixed(std::move(lines), gap, Block::kMeta); }

Block ErrorBlock(const Lines& error) { return Fixed(error, 0.005, Block::kError); }

std::string Sha(Rng& r) { return r.Hex(40); }

// `docker compose logs` of the job's services: dumped in a moment, their
// own timestamps from the whole job.
Block Logs() {
  Block b = Elastic([](Rng& q, std::size_t n) { return ServiceLogs(q, n); }, 1, 0.001);
  b.replay = true;
  return b;
}

const char* kOrgs[] = {"acme", "data-eng", "platform", "ml-research", "web-team", "infra"};

// Lower-cased, for looking for words.
std::string Lower(std::string t) {
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
  return t;
}

bool HasAny(const std::string& lower, std::initializer_list<const char*> words) {
  return std::any_of(words.begin(), words.end(), [&](const char* w) { return lower.find(w) != std::string::npos; });
}

// Which step prints an error like this one: installing dependencies,
// compiling, or running something once all is built.
enum class FailsIn { kInstall, kCompile, kRun };

FailsIn Where(Flavor f, const Lines& error) {
  std::string t;
  for (const auto& l : error) t += Lower(l) + "\n";
  if (f == Flavor::kPython && HasAny(t, {"pip", "could not find a version", "no matching distribution",
                                         "subprocess-exited-with-error", "failed building wheel", "setup.py",
                                         "metadata-generation-failed", "resolutionimpossible"})) {
    return FailsIn::kInstall;
  }
  if (f == Flavor::kNode && HasAny(t, {"eresolve", "e404", "etarget", "gyp", "npm err! code", "npm error code",
                                       "peer dep", "enoent"})) {
    return FailsIn::kInstall;
  }
  if (f == Flavor::kCpp && HasAny(t, {"error:", "undefined reference", "collect2", "compilation terminated",
                                      "ld returned"})) {
    return FailsIn::kCompile;
  }
  return FailsIn::kRun;
}

// Output up to the first line starting with `stop`: an install that fails
// gets as far as resolving and downloading, never to its summary.
Lines Until(Lines lines, const std::string& stop) {
  auto it = std::find_if(lines.begin(), lines.end(), [&](const std::string& l) { return l.rfind(stop, 0) == 0; });
  lines.erase(it, lines.end());
  return lines;
}

// The step the job fails in when everything is installed and built: a
// longer test run or a script, its output up to the error.
Step FailingRun(Rng& r, Flavor f, const Env& e, bool gradle) {
  const Env env = e;
  if (f == Flavor::kPython && r.Chance(0.5)) {
    return {"Integration tests", "python -m pytest -v tests/integration",
            {Elastic([env](Rng& q, std::size_t n) { return Pytest(q, env, n, "tests/integration", false); }, 0.3)}};
  }
  if (f == Flavor::kNode && r.Chance(0.5)) {
    return {"Integration tests", "npm run test:integration -- --ci",
            {Elastic([env](Rng& q, std::size_t n) { return Jest(q, env, n, false); }, 0.3)}};
  }
  if (f == Flavor::kCpp) {
    return {"Test", "ctest --test-dir build --output-on-failure -j 4",
            {Elastic([env](Rng& q, std::size_t n) { return Ctest(q, env, n, false); }, 0.15)}};
  }
  if (f == Flavor::kJava) {
    return {"Build", gradle ? "./gradlew build --no-daemon --stacktrace" : "mvn -B -ntp verify",
            {Elastic([env, gradle](Rng& q, std::size_t n) { return JavaBuild(q, env, n, gradle); }, 1)}};
  }
  static const char* kPy[] = {"python manage.py migrate --noinput", "python scripts/smoke_test.py",
                              "python -m app.cli sync --since yesterday", "python scripts/build_index.py"};
  static const char* kNode[] = {"npm run migrate", "node scripts/seed.js", "npm run smoke", "npx prisma db seed"};
  return {"Smoke test", f == Flavor::kNode ? r.Pick(kNode) : r.Pick(kPy),
          {Elastic([](Rng& q, std::size_t n) { return ScriptLog(q, n); }, 0.05, 0.3)}};
}

}  // namespace

Flavor GuessFlavor(const std::string& error, Rng& r) {
  const std::string t = Lower(error);
  auto has = [&](std::initializer_list<const char*> words) { return HasAny(t, words); };
  if (has({"npm err", "npm error", "node_modules", "node:internal", ".js:", ".ts:", ".tsx", "yarn", "webpack"})) {
    return Flavor::kNode;
  }
  if (has({"traceback", ".py\"", ".py:", "pip ", "modulenotfounderror", "python"})) return Flavor::kPython;
  if (has({".java:", "maven", "[error] failed to execute goal", "gradle", "exception in thread", "\tat "})) {
    return Flavor::kJava;
  }
  if (has({".cpp:", ".cc:", ".c:", ".h:", ".hpp:", "cmake", "undefined reference", "collect2", "g++", "clang"})) {
    return Flavor::kCpp;
  }
  std::size_t u = r.Below(10);  // what CI jobs mostly are
  return u < 4 ? Flavor::kPython : u < 7 ? Flavor::kNode : u < 9 ? Flavor::kCpp : Flavor::kJava;
}

std::vector<Step> CiSteps(Rng& r, Flavor f, const Env& e, const Lines& error, std::size_t lines) {
  std::vector<Step> s;
  const Env env = e;
  const std::size_t scale = std::max<std::size_t>(lines, 2000);
  const FailsIn where = Where(f, error);
  bool gradle = false;
  // The step that fails ends with the error; the job's steps stop there.
  auto fail = [&](Step step) {
    step.out.push_back(ErrorBlock(error));
    s.push_back(std::move(step));
    return s;
  };
  switch (f) {
    case Flavor::kPython: {
      s.push_back({"Install", "python -m pip install --upgrade pip", {Fixed(PipUpgrade(r, e), 0.2)}});
      s.push_back({"Install", r.Chance(0.5) ? "pip install -r requirements.txt -r requirements-dev.txt"
                                            : "pip install -e '.[dev,test]'",
                   {Fixed(PipInstall(r, e, std::min<std::size_t>(110, scale / 45 + r.Below(20))), 0.08)}});
      if (r.Chance(0.6)) s.push_back({"Lint", "ruff check .", {Fixed({"All checks passed!"})}});
      if (r.Chance(0.3)) s.push_back({"Build", "python -m build", {Fixed(PythonBuild(r, e, scale / 25), 0.01)}});
      s.push_back({"Test", fmt::format("python -m pytest -v --cov={} tests/unit", e.project),
                   {Elastic([env](Rng& q, std::size_t n) { return Pytest(q, env, n, "tests/unit", true); }, 1, 0.05)}});
      break;
    }
    case Flavor::kNode: {
      s.push_back({"Install", "npm ci", {Fixed(NpmCi(r, e), 0.3)}});
      if (r.Chance(0.6)) s.push_back({"Lint", "npm run lint", {Fixed(Eslint(r, e), 0.05)}});
      s.push_back({"Build", "npm run build", {Fixed(WebBuild(r, e), 0.1)}});
      s.push_back({"Test", "npm test -- --ci --verbose",
                   {Elastic([env](Rng& q, std::size_t n) { return Jest(q, env, n, true); }, 1, 0.03)}});
      break;
    }
    case Flavor::kCpp: {
      s.push_back({"Dependencies",
                   (e.docker ? "" : "sudo ") + std::string("apt-get update && ") + (e.docker ? "" : "sudo ") +
                       "apt-get install -y --no-install-recommends ninja-build libboost-dev libssl-dev",
                   {Fixed(AptInstall(r, e, std::min<std::size_t>(120, scale / 60 + r.Below(20))), 0.05)}});
      s.push_back({"Configure", "cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo",
                   {Fixed(CmakeConfigure(r, e), 0.05)}});
      Step build = {"Build", "cmake --build build -j 4",
                    {Elastic([env](Rng& q, std::size_t n) { return Compile(q, env, n, true); }, 1, 0.4)}};
      if (where == FailsIn::kCompile) return fail(build);
      s.push_back(build);
      break;
    }
    case Flavor::kJava:
      gradle = r.Chance(0.35);
      if (!gradle) {  // Gradle fetches as it builds
        s.push_back({"Dependencies", "mvn -B dependency:go-offline",
                     {Fixed(MavenDownloads(r, std::min<std::size_t>(1600, scale / 10)), 0.05)}});
      }
      break;
  }
  // An install that fails comes late too: the docs' or the end-to-end
  // suite's own dependencies, after the main ones built and tested fine.
  if (where == FailsIn::kInstall && f == Flavor::kPython) {
    return fail({"Docs", "pip install -r docs/requirements.txt",
                 {Fixed(Until(PipInstall(r, e, 10 + r.Below(30)), "Installing collected packages"), 0.08)}});
  }
  if (where == FailsIn::kInstall && f == Flavor::kNode) {
    return fail({"E2E", "npm ci --prefix e2e", {Fixed(Until(NpmCi(r, e), "added "), 0.3)}});
  }
  return fail(FailingRun(r, f, e, gradle));
}

namespace {

// The runner's preamble: image, permissions, the actions it downloads.
Lines GithubRunner(Rng& r, const char* setup) {
  const std::string image = fmt::format("2025{:02}{:02}", 1 + r.Below(12), 1 + r.Below(28));
  Lines out = {fmt::format("Current runner version: '2.3{}.{}'", 10 + r.Below(15), r.Below(3)),
               "##[group]Operating System", "Ubuntu", "22.04.4", "LTS", "##[endgroup]", "##[group]Runner Image",
               "Image: ubuntu-22.04", "Version: " + image + ".1.0",
               "Included Software: https://github.com/actions/runner-images/blob/ubuntu22/" + image +
                   ".1/images/ubuntu/Ubuntu2204-Readme.md",
               "##[endgroup]", "##[group]GITHUB_TOKEN Permissions", "Contents: read", "Metadata: read", "##[endgroup]",
               "Secret source: Actions", "Prepare workflow directory", "Prepare all required actions",
               "Getting action download info",
               fmt::format("Download action repository 'actions/checkout@v4' (SHA:{})", Sha(r))};
  if (setup) out.push_back(fmt::format("Download action repository '{}' (SHA:{})", setup, Sha(r)));
  out.push_back(fmt::format("Download action repository 'actions/upload-artifact@v4' (SHA:{})", Sha(r)));
  out.push_back("Complete job name: test");
  return out;
}

// actions/checkout: a shallow fetch of one commit.
Lines GithubCheckout(Rng& r, const Env& e, const std::string& repo) {
  const std::string sha = Sha(r);
  return {"##[group]Run actions/checkout@v4", "with:", "  repository: " + repo, "  token: ***", "  ssh-strict: true",
          "  persist-credentials: true", "  clean: true", "  fetch-depth: 1", "  lfs: false", "  submodules: false",
          "##[endgroup]", "Syncing repository: " + repo, "##[group]Getting Git version info",
          "Working directory is '" + e.root + "'", "[command]/usr/bin/git version", "git version 2.44.0",
          "##[endgroup]", "[command]/usr/bin/git config --global --add safe.directory " + e.root,
          "##[group]Initializing the repository", "[command]/usr/bin/git init " + e.root,
          "hint: Using 'master' as the name for the initial branch. This default branch name",
          "hint: is subject to change. To configure the initial branch name to use in all",
          "Initialized empty Git repository in " + e.root + "/.git/",
          "[command]/usr/bin/git remote add origin https://github.com/" + repo, "##[endgroup]",
          "##[group]Fetching the repository",
          fmt::format("[command]/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --no-recurse-submodules "
                      "--depth=1 origin +{}:refs/remotes/origin/main", sha),
          fmt::format("remote: Enumerating objects: {}, done.        ", 200 + r.Below(5000)),
          "remote: Counting objects: 100% (812/812), done.        ",
          "remote: Compressing objects: 100% (640/640), done.        ",
          fmt::format("remote: Total 812 (delta {}), reused {} (delta 0), pack-reused 0        ", r.Below(100),
                      r.Below(400)),
          "From https://github.com/" + repo, fmt::format(" * [new ref]         {} -> origin/main", sha),
          "##[endgroup]", "##[group]Checking out the ref",
          "[command]/usr/bin/git checkout --progress --force -B main refs/remotes/origin/main",
          "Switched to a new branch 'main'", "branch 'main' set up to track 'origin/main'.", "##[endgroup]",
          "[command]/usr/bin/git log -1 --format='%H'", "'" + sha + "'"};
}

// setup-python, setup-node or setup-java with its cache.
Lines GithubSetup(Rng& r, Flavor f, const Env& e, const char* setup) {
  Lines out = {fmt::format("##[group]Run {}", setup), "with:",
               f == Flavor::kPython ? "  python-version: " + e.python.substr(0, e.python.rfind('.'))
               : f == Flavor::kNode ? "  node-version: 20" : "  java-version: 17",
               "  cache: " + std::string(f == Flavor::kJava ? "maven" : f == Flavor::kNode ? "npm" : "pip"),
               "  token: ***", "##[endgroup]"};
  if (f == Flavor::kPython) {
    out.insert(out.end(), {"##[group]Installed versions", "Successfully set up CPython (" + e.python + ")",
                           "##[endgroup]"});
  } else if (f == Flavor::kNode) {
    out.push_back(fmt::format("Found in cache @ /opt/hostedtoolcache/node/20.{}.0/x64", r.Below(12)));
  } else {
    out.insert(out.end(), {"##[group]Installed distributions", "Java configuration:", "  Distribution: temurin",
                           "  Version: 17.0.10+7",
                           "  Path: /opt/hostedtoolcache/Java_Temurin-Hotspot_jdk/17.0.10-7/x64",
                           "", "##[endgroup]"});
  }
  out.push_back(fmt::format("Cache restored from key: setup-{}-Linux-x64-{}", e.project, r.Hex(64)));
  return out;
}

// The always-run artifact upload and checkout's post-job cleanup.
Lines GithubClosing(Rng& r, const std::string& repo) {
  const std::size_t id = 1000000000 + r.Below(900000000);
  return {"##[group]Run actions/upload-artifact@v4", "with:", "  name: test-results", "  path: reports/",
          "  if-no-files-found: warn", "  compression-level: 6", "##[endgroup]",
          fmt::format("With the provided path, there will be {} files uploaded", 1 + r.Below(9)),
          "Artifact name is valid!", "Root directory input is valid!",
          "Beginning upload of artifact content to blob storage",
          fmt::format("Uploaded bytes {}", 1000 + r.Below(900000)),
          "Finished uploading artifact content to blob storage!",
          "SHA256 hash of uploaded artifact zip is " + r.Hex(64), "Finalizing artifact upload",
          fmt::format("Artifact test-results.zip successfully finalized. Artifact ID {}", id),
          fmt::format("Artifact download URL: https://github.com/{}/actions/runs/{}/artifacts/{}", repo,
                      8000000000 + r.Below(900000000), id),
          "Post job cleanup.", "[command]/usr/bin/git version", "git version 2.44.0",
          "[command]/usr/bin/git config --local --name-only --get-regexp core\\.sshCommand",
          "[command]/usr/bin/git submodule foreach --recursive sh -c \"git config --local --name-only --get-regexp "
          "'core\\.sshCommand' && git config --local --unset-all 'core.sshCommand' || :\"",
          "[command]/usr/bin/git config --local --name-only --get-regexp "
          "http\\.https\\:\\/\\/github\\.com\\/\\.extraheader",
          "http.https://github.com/.extraheader",
          "[command]/usr/bin/git config --local --unset-all http.https://github.com/.extraheader",
          "Cleaning up orphan processes"};
}

// GitLab's collapsible section markers, their time the renderer's.
std::string Section(const std::string& name, const std::string& title) {
  return fmt::format("section_start:{}S:{}\r\x1b[0K\x1b[0K\x1b[36;1m{}\x1b[0;m", kNow, name, title);
}
std::string SectionEnd(const std::string& name) { return fmt::format("section_end:{}S:{}\r\x1b[0K", kNow, name); }

// The runner's header and its sections up to the job script: executor and
// services, sources, cache (on a new branch's first pipeline, not there).
Lines GitlabPreamble(Rng& r, const Env& e, const std::string& image, bool timestamps) {
  std::string runner = r.Hex(8);
  Lines pre = {fmt::format("\x1b[0KRunning with gitlab-runner {}.{}.{} ({})\x1b[0;m", timestamps ? 17 : 16,
                           r.Below(11), r.Below(3), r.Hex(8)),
               fmt::format("\x1b[0K  on ci-runner-{:02} {}, system ID: s_{}\x1b[0;m", r.Below(20), runner, r.Hex(12)),
               Section("prepare_executor", "Preparing the \"docker\" executor"),
               fmt::format("\x1b[0KUsing Docker executor with image {} ...\x1b[0;m", image),
               "\x1b[0KStarting service postgres:15 ...\x1b[0;m", "\x1b[0KPulling docker image postgres:15 ...\x1b[0;m",
               fmt::format("\x1b[0KUsing docker image sha256:{} for postgres:15 with digest postgres@sha256:{} "
                           "...\x1b[0;m", r.Hex(64), r.Hex(64)),
               "\x1b[0KWaiting for services to be up and running (timeout 30 seconds)...\x1b[0;m",
               fmt::format("\x1b[0KPulling docker image {} ...\x1b[0;m", image),
               fmt::format("\x1b[0KUsing docker image sha256:{} for {} ...\x1b[0;m", r.Hex(64), image),
               SectionEnd("prepare_executor"), Section("prepare_script", "Preparing environment"),
               fmt::format("Running on runner-{}-project-{}-concurrent-0 via runner-host-{:02}...", runner,
                           10000 + r.Below(90000), r.Below(40)),
               SectionEnd("prepare_script"), Section("get_sources", "Getting source from Git repository"),
               "\x1b[32;1mFetching changes with git depth set to 20...\x1b[0;m",
               "Initialized empty Git repository in " + e.root + "/.git/",
               "\x1b[32;1mCreated fresh repository.\x1b[0;m",
               fmt::format("\x1b[32;1mChecking out {} as detached HEAD (ref is main)...\x1b[0;m", r.Hex(8)), "",
               "\x1b[32;1mSkipping Git submodules setup\x1b[0;m", SectionEnd("get_sources"),
               Section("restore_cache", "Restoring cache"),
               "\x1b[32;1mChecking cache for default-protected...\x1b[0;m"};
  if (r.Chance(0.8)) {
    pre.push_back("\x1b[32;1mSuccessfully extracted cache\x1b[0;m");
  } else {  // the first pipeline on a branch: nothing cached yet, and the job goes on
    pre.push_back("\x1b[0;33mWARNING: file does not exist                       \x1b[0;m ");
    pre.push_back("\x1b[31;1mFailed to extract cache\x1b[0;m");
  }
  pre.insert(pre.end(), {SectionEnd("restore_cache"),
                         Section("step_script", "Executing \"step_script\" stage of the job script"),
                         fmt::format("\x1b[0KUsing docker image sha256:{} for {} ...\x1b[0;m", r.Hex(64), image)});
  return pre;
}

// Who started the build, and the checkout of its Jenkinsfile's repository.
Lines JenkinsCheckout(Rng& r, const Env& e) {
  static const char* kStarters[] = {"Started by user Jane Doe", "Started by GitHub push by octodev",
                                    "Started by timer", "Branch indexing", "Started by upstream project \"nightly\""};
  std::string url = fmt::format("https://github.com/{}/{}.git", r.Pick(kOrgs), e.project), sha = Sha(r);
  return {r.Pick(kStarters), "Obtained Jenkinsfile from git " + url, "[Pipeline] Start of Pipeline",
               "[Pipeline] node", fmt::format("Running on build-agent-{:02} in {}", r.Below(30), e.root),
               "[Pipeline] {", "[Pipeline] stage", "[Pipeline] { (Declarative: Checkout SCM)", "[Pipeline] checkout",
               "Selected Git installation does not exist. Using Default", "The recommended git tool is: NONE",
               "using credential github-ci",
               " > git rev-parse --resolve-git-dir " + e.root + "/.git # timeout=10",
               "Fetching changes from the remote Git repository",
               " > git config remote.origin.url " + url + " # timeout=10", "Fetching upstream changes from " + url,
               " > git --version # timeout=10", " > git --version # 'git version 2.39.2'",
               "using GIT_ASKPASS to set credentials GitHub CI",
               " > git fetch --tags --force --progress -- " + url + " +refs/heads/*:refs/remotes/origin/* # timeout=10",
               " > git rev-parse refs/remotes/origin/main^{commit} # timeout=10",
               "Checking out Revision " + sha + " (refs/remotes/origin/main)",
               " > git config core.sparsecheckout # timeout=10", " > git checkout -f " + sha + " # timeout=10",
               "Commit message: \"Merge pull request #" + std::to_string(100 + r.Below(3000)) + " from feature/retry\"",
               " > git rev-list --no-walk " + Sha(r) + " # timeout=10", "[Pipeline] }", "[Pipeline] // stage",
               "[Pipeline] withEnv", "[Pipeline] {"};
}

}  // namespace

// GitHub Actions: the runner's preamble, checkout, a setup action, one
// "##[group]Run" step per command, ##[error], always-run and post steps.
Job GithubJob(Rng& r, Flavor f, const Lines& error, std::size_t lines) {
  Env e = MakeEnv(r, Host::kGithub);
  const std::string repo = std::string(r.Pick(kOrgs)) + "/" + e.project;
  Job job;
  job.prefix = Prefix::kGithub;
  job.position = CiPosition(r);
  const char* setup = f == Flavor::kPython ? "actions/setup-python@v5" : f == Flavor::kNode ? "actions/setup-node@v4"
                      : f == Flavor::kJava ? "actions/setup-java@v4" : nullptr;
  job.blocks.push_back(Meta(GithubRunner(r, setup)));
  job.blocks.push_back(Meta(GithubCheckout(r, e, repo)));
  if (setup) job.blocks.push_back(Meta(GithubSetup(r, f, e, setup)));
  for (Step& s : CiSteps(r, f, e, error, lines)) {
    Lines head = {"##[group]Run " + s.cmd, s.cmd, "shell: /usr/bin/bash -e {0}"};
    if (f == Flavor::kPython) {
      head.insert(head.end(), {"env:", "  pythonLocation: " + e.site.substr(0, e.site.find("/lib/")),
                               "  LD_LIBRARY_PATH: " + e.site.substr(0, e.site.find("/lib/")) + "/lib"});
    }
    head.push_back("##[endgroup]");
    job.blocks.push_back(Meta(head));
    job.blocks.back().pause = 0.5 + r.Below(30) / 10.0;
    for (Block& b : s.out) {
      if (b.kind == Block::kError) job.error_block = job.blocks.size();
      job.blocks.push_back(std::move(b));
    }
  }
  job.blocks.push_back(Meta({"##[error]Process completed with exit code 1."}));
  if (r.Chance(0.85)) {
    job.blocks.push_back(Meta({"##[group]Run docker compose logs --no-color", "docker compose logs --no-color",
                               "shell: /usr/bin/bash -e {0}", "##[endgroup]"}));
    job.blocks.push_back(Logs());
  }
  job.blocks.push_back(Meta(GithubClosing(r, repo)));
  return job;
}

// GitLab CI: runner header, collapsible sections with ANSI headers, green
// "$ command" lines, after_script, artifacts, "ERROR: Job failed".
Job GitlabJob(Rng& r, Flavor f, const Lines& error, std::size_t lines) {
  Env e = MakeEnv(r, Host::kGitlab);
  Job job;
  job.prefix = r.Chance(0.35) ? Prefix::kGitlab : Prefix::kNone;
  job.position = CiPosition(r);
  const std::string image = f == Flavor::kPython ? "python:" + e.python.substr(0, e.python.rfind('.')) + "-slim"
                            : f == Flavor::kNode ? "node:20-bookworm"
                            : f == Flavor::kJava ? "maven:3.9-eclipse-temurin-17"
                                                 : "gcc:13";
  job.blocks.push_back(Meta(GitlabPreamble(r, e, image, job.prefix == Prefix::kGitlab), 0.3));
  for (Step& s : CiSteps(r, f, e, error, lines)) {
    job.blocks.push_back(Fixed({"\x1b[32;1m$ " + s.cmd + "\x1b[0;m"}));  // the job's shell echoes it
    for (Block& b : s.out) {
      if (b.kind == Block::kError) job.error_block = job.blocks.size();
      job.blocks.push_back(std::move(b));
    }
  }
  job.blocks.push_back(Meta({SectionEnd("step_script"), Section("after_script", "Running after_script"),
                             "\x1b[32;1mRunning after script...\x1b[0;m"}));
  job.blocks.push_back(Fixed({"\x1b[32;1m$ docker compose -f docker-compose.ci.yml logs --no-color\x1b[0;m"}));
  if (r.Chance(0.85)) job.blocks.push_back(Logs());
  job.blocks.push_back(Meta({SectionEnd("after_script"),
                             Section("upload_artifacts_on_failure", "Uploading artifacts for failed job"),
                             "\x1b[32;1mUploading artifacts...\x1b[0;m",
                             "report.xml: found 1 matching artifact files and directories\x1b[0;m ",
                             fmt::format("\x1b[32;1mUploading artifacts as \"junit\" to coordinator... 201 "
                                         "Created\x1b[0;m  id={} responseStatus=201 Created token={}",
                                         6000000000 + r.Below(900000000), r.Hex(8)),
                             SectionEnd("upload_artifacts_on_failure"),
                             Section("cleanup_file_variables",
                                     "Cleaning up project directory and file based variables"),
                             SectionEnd("cleanup_file_variables"), "", "\x1b[31;1mERROR: Job failed: exit code 1",
                             "\x1b[0;m"}));
  return job;
}

// Jenkins declarative pipeline: checkout, one stage per step group, the
// later stages skipped, post actions, "Finished: FAILURE".
Job JenkinsJob(Rng& r, Flavor f, const Lines& error, std::size_t lines) {
  Env e = MakeEnv(r, Host::kJenkins);
  e.color = r.Chance(0.5);
  Job job;
  job.prefix = r.Chance(0.5) ? Prefix::kJenkins : Prefix::kNone;
  job.color = e.color;
  job.position = CiPosition(r);
  job.blocks.push_back(Meta(JenkinsCheckout(r, e), 0.2));
  std::string stage;
  for (Step& s : CiSteps(r, f, e, error, lines)) {
    if (s.stage != stage) {
      Lines open = {"[Pipeline] stage", "[Pipeline] { (" + s.stage + ")"};
      if (!stage.empty()) open.insert(open.begin(), {"[Pipeline] }", "[Pipeline] // stage"});
      job.blocks.push_back(Meta(open));
      stage = s.stage;
    }
    job.blocks.push_back(Meta({"[Pipeline] sh", "+ " + s.cmd}));
    for (Block& b : s.out) {
      if (b.kind == Block::kError) job.error_block = job.blocks.size();
      job.blocks.push_back(std::move(b));
    }
  }
  Lines after = {"[Pipeline] }", "[Pipeline] // stage"};
  for (const char* skipped : {"Package", "Deploy"}) {
    after.insert(after.end(), {"[Pipeline] stage", fmt::format("[Pipeline] {{ ({})", skipped),
                               fmt::format("Stage \"{}\" skipped due to earlier failure(s)", skipped), "[Pipeline] }",
                               "[Pipeline] // stage"});
  }
  after.insert(after.end(), {"[Pipeline] stage", "[Pipeline] { (Declarative: Post Actions)"});
  job.blocks.push_back(Meta(after));
  if (r.Chance(0.85)) {
    job.blocks.push_back(Meta({"[Pipeline] sh", "+ docker compose logs --no-color"}));
    job.blocks.push_back(Logs());
  }
  job.blocks.push_back(Meta({"[Pipeline] junit", "Recording test results",
                             "[Checks API] No suitable checks publisher found.", "[Pipeline] archiveArtifacts",
                             "Archiving artifacts", "[Pipeline] cleanWs", "[WS-CLEANUP] Deleting project workspace...",
                             "[WS-CLEANUP] Deferred wipeout is used...", "[WS-CLEANUP] done", "[Pipeline] }",
                             "[Pipeline] // stage", "[Pipeline] }", "[Pipeline] // withEnv", "[Pipeline] }",
                             "[Pipeline] // node", "[Pipeline] End of Pipeline", "ERROR: script returned exit code 1",
                             "Finished: FAILURE"}));
  return job;
}

}  // namespace kedb::eval::longlog
