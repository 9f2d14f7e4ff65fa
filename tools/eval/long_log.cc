// Long log-shaped evaluation cases (see long_log.h): a job is planned as
// blocks (long_log_ci.cc for the CI styles, here for BuildKit and Python),
// its elastic blocks sized so the log has the requested length and the error
// its intended position, then rendered line by line with the style's prefix
// and a clock that only moves forward.
#include "long_log.h"

#include <fmt/format.h>

#include <deque>
#include <map>
#include <stdexcept>

#include "long_log_parts.h"

namespace kedb::eval {
namespace longlog {

std::string Rng::Hex(std::size_t n) {
  static const char* kDigits = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += kDigits[Below(16)];
  return s;
}

std::string Rng::Version() {
  return fmt::format("{}.{}.{}", Below(6), Below(30), Below(12));
}

Env MakeEnv(Rng& r, Host host) {
  static const char* kProjects[] = {"orders", "billing", "ingest", "webapp", "searchsvc", "inventory", "mlpipe",
                                    "reports", "gateway", "catalog", "ledger", "notifier"};
  Env e;
  e.project = r.Pick(kProjects);
  e.version = r.Version();
  std::size_t minor = 9 + r.Below(4);
  e.python = fmt::format("3.{}.{}", minor, r.Below(12));
  const std::string lib = fmt::format("lib/python3.{}/site-packages", minor);
  switch (host) {
    case Host::kGithub:
      e.root = fmt::format("/home/runner/work/{}/{}", e.project, e.project);
      e.site = fmt::format("/opt/hostedtoolcache/Python/{}/x64/{}", e.python, lib);
      break;
    case Host::kGitlab:
      e.root = fmt::format("/builds/{}/{}", r.Chance(0.5) ? "platform" : "data-eng", e.project);
      e.site = "/usr/local/" + lib;
      e.docker = true;
      break;
    case Host::kJenkins:
      e.root = r.Chance(0.5) ? fmt::format("/var/jenkins_home/workspace/{}_main", e.project)
                             : fmt::format("/home/jenkins/agent/workspace/{}_PR-{}", e.project, 10 + r.Below(900));
      e.site = e.root + "/.venv/" + lib;
      break;
    case Host::kDocker:
      e.root = "/app";
      e.site = "/usr/local/" + lib;
      e.docker = true;
      break;
    case Host::kWorkstation:
      e.root = fmt::format("/home/{}/{}", r.Chance(0.5) ? "ubuntu" : "mlops", e.project);
      e.site = r.Chance(0.5) ? "/opt/conda/" + lib : e.root + "/.venv/" + lib;
      e.carriage = r.Chance(0.5);
      break;
  }
  return e;
}

Block Fixed(Lines lines, double gap, Block::Kind kind) {
  Block b;
  b.lines = std::move(lines);
  b.gap = gap;
  b.kind = kind;
  return b;
}

Block Elastic(Filler fill, double share, double gap, Block::Kind kind) {
  Block b;
  b.fill = std::move(fill);
  b.share = share;
  b.gap = gap;
  b.kind = kind;
  return b;
}

// Half the jobs fail past ~80%; none before half-way, where the failing
// step of a CI job would rarely be.
double CiPosition(Rng& r) { return 0.5 + 0.45 * std::sqrt(r.Unit()); }

namespace {

// Sizes and generates the elastic blocks: those before the error fill up to
// the error's intended position, those after it the rest of the log.
void Fill(Job& job, Rng& r, std::size_t lines) {
  std::size_t fixed[2] = {0, 0}, error = job.blocks[job.error_block].lines.size();
  double shares[2] = {0, 0};
  for (std::size_t i = 0; i < job.blocks.size(); ++i) {
    if (i == job.error_block) continue;
    const Block& b = job.blocks[i];
    const int s = i > job.error_block;
    if (b.fill) shares[s] += b.share;
    else fixed[s] += b.lines.size();
  }
  std::size_t used = fixed[0] + fixed[1] + error, avail = lines > used ? lines - used : 0, side[2] = {0, 0};
  if (shares[1] == 0) {
    side[0] = avail;
  } else if (shares[0] == 0) {
    side[1] = avail;
  } else {
    std::size_t want = static_cast<std::size_t>(job.position * static_cast<double>(lines));
    side[0] = std::min(avail, want > fixed[0] ? want - fixed[0] : 0);
    side[1] = avail - side[0];
  }
  for (std::size_t i = 0; i < job.blocks.size(); ++i) {
    Block& b = job.blocks[i];
    if (!b.fill) continue;
    const int s = i > job.error_block;
    Rng own = r.Fork();
    b.lines = b.fill(own, static_cast<std::size_t>(static_cast<double>(side[s]) * b.share / shares[s]));
    b.fill = nullptr;
  }
}

// Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
void Civil(int64_t days, int* y, unsigned* m, unsigned* d) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const auto doe = static_cast<unsigned>(days - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = static_cast<int>(yoe + era * 400 + (*m <= 2));
}

class Clock {
 public:
  explicit Clock(int64_t us) : us_(us) {}
  void Add(double secs) { us_ += static_cast<int64_t>(secs * 1e6); }

  // The formats of long_log_parts.h's kNow, plus '7' and '6': ISO with 7
  // (GitHub) or 6 (GitLab) fractional digits.
  std::string Format(char f) const {
    static const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                    "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const int64_t secs = us_ / 1000000, micro = us_ % 1000000, day = secs % 86400;
    int y;
    unsigned m, d;
    Civil(secs / 86400, &y, &m, &d);
    const auto hh = day / 3600, mm = day / 60 % 60, ss = day % 60, ms = micro / 1000;
    const std::string date = fmt::format("{}-{:02}-{:02}", y, m, d), hms = fmt::format("{:02}:{:02}:{:02}", hh, mm, ss);
    switch (f) {
      case 'L': return fmt::format("{} {},{:03}", date, hms, ms);
      case 'I': return fmt::format("{}T{}.{:03}Z", date, hms, ms);
      case 'P': return fmt::format("{} {}.{:03} UTC", date, hms, ms);
      case 'N': return fmt::format("{:02}/{}/{}:{} +0000", d, kMonths[m - 1], y, hms);
      case 'R': return fmt::format("{:02} {} {} {}.{:03}", d, kMonths[m - 1], y, hms, ms);
      case 'H': return fmt::format("{}.{:03}", hms, ms);
      case 'S': return std::to_string(secs);
      case 'U': return fmt::format("{} {}.{:06}", date, hms, micro);
      case '7': return fmt::format("{}T{}.{:07}Z", date, hms, micro * 10 + (us_ / 7 + secs) % 10);
      case '6': return fmt::format("{}T{}.{:06}Z", date, hms, micro);
      default: return std::string(1, f);
    }
  }

  std::string Expand(const std::string& line) const {
    if (line.find(kNow) == std::string::npos) return line;
    std::string out;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == kNow && i + 1 < line.size()) out += Format(line[++i]);
      else out += line[i];
    }
    return out;
  }

 private:
  int64_t us_;
  friend class Renderer;
};

// Jenkins with AnsiColor: the few tools that colour their output do.
std::string Colour(std::string line) {
  auto swap = [&](const std::string& from, const std::string& to) {
    if (std::size_t at = line.find(from); at != std::string::npos) line.replace(at, from.size(), to);
  };
  swap(" PASSED", " \x1b[32mPASSED\x1b[0m");
  swap("npm WARN ", "npm \x1b[33mWARN\x1b[39m ");
  swap("npm warn ", "npm \x1b[33mwarn\x1b[39m ");
  swap("[INFO]", "[\x1b[1;34mINFO\x1b[m]");
  swap("[WARNING]", "[\x1b[1;33mWARNING\x1b[m]");
  return line;
}

// What GitLab tags as stderr among a command's lines.
bool LooksStderr(const std::string& l) {
  return l.rfind("npm warn", 0) == 0 || l.rfind("npm WARN", 0) == 0 || l.rfind("WARNING:", 0) == 0 ||
         l.rfind("debconf:", 0) == 0 || l.find(" warning: ") != std::string::npos;
}

class Renderer {
 public:
  Renderer(const Job& job, Rng& r, int64_t start_us) : job_(job), r_(r), start_(start_us), clock_(start_us) {}

  LongLog Run() {
    for (std::size_t i = 0; i < job_.blocks.size(); ++i) {
      const Block& b = job_.blocks[i];
      clock_.Add(b.pause);
      steps_[b.step] += b.pause;
      if (i == job_.error_block) out_.error_first = count_ + 1;
      const int64_t span = clock_.us_ - start_;
      for (std::size_t j = 0; j < b.lines.size(); ++j) {
        // A replayed line's own time: as far into the job as the line is into the block.
        Clock inner(start_ + span * static_cast<int64_t>(j) / static_cast<int64_t>(b.lines.size()));
        Line(b, b.lines[j], b.replay ? inner : clock_);
      }
      if (i == job_.error_block) out_.error_last = count_;
    }
    return std::move(out_);
  }

 private:
  void Line(const Block& b, const std::string& raw, const Clock& inner) {
    // Mostly steady output, now and then a pause of a few seconds.
    const bool stall = b.kind != Block::kError && r_.Below(300) == 0;  // a trace prints at once
    clock_.Add(b.gap * 2 * r_.Unit() + (stall ? 1 + r_.Below(8) : 0));
    double& step_time = steps_[b.step];
    step_time += b.gap * 2 * r_.Unit();
    std::string body = raw;
    if (b.kind == Block::kDone) body = fmt::format("#{} DONE {:.1f}s", b.step, step_time);
    if (b.kind == Block::kExcerpt && raw == "\x02") {  // placeholder: one of step N's last lines, or nothing
      std::deque<std::string>& recent = recent_[b.step];
      if (recent.empty()) return;
      body = recent.front();
      recent.pop_front();
    }
    body = inner.Expand(body);
    if (job_.color && b.kind != Block::kError) body = Colour(body);
    const bool output = b.kind == Block::kOut || b.kind == Block::kErr || b.kind == Block::kError;
    if (job_.prefix == Prefix::kBuildkit && output && b.step > 0) {
      recent_[b.step].push_back(fmt::format("{:.3f} {}", step_time, body));
      if (recent_[b.step].size() > 10) recent_[b.step].pop_front();
      Emit(fmt::format("#{} {:.3f} ", b.step, step_time), body);
      return;
    }
    if (job_.prefix == Prefix::kGitlab) {
      const bool err = b.kind == Block::kErr || b.kind == Block::kError || (b.kind == Block::kOut && LooksStderr(body));
      const std::string tag = fmt::format("{} {}{}", clock_.Format('6'), b.kind == Block::kMeta ? "00" : "01",
                                          err ? 'E' : 'O');
      // A long line the runner received in two writes: the rest is tagged "+".
      if (b.kind == Block::kOut && body.size() > 150 && r_.Chance(0.05)) {
        std::size_t cut = 100;
        while ((static_cast<unsigned char>(body[cut]) & 0xC0) == 0x80) ++cut;  // not inside a UTF-8 character
        Emit(tag + " ", body.substr(0, cut));
        Emit(tag + "+ ", body.substr(cut));
        return;
      }
      Emit(tag + " ", body);
      return;
    }
    if (job_.prefix == Prefix::kGithub) return Emit(clock_.Format('7') + " ", body);
    if (job_.prefix == Prefix::kJenkins) return Emit("[" + clock_.Format('I') + "] ", body);
    Emit("", body);
  }

  void Emit(const std::string& prefix, const std::string& body) {
    out_.text += prefix;
    out_.text += body;
    out_.text += '\n';
    ++count_;
  }

  const Job& job_;
  Rng& r_;
  int64_t start_;
  Clock clock_;
  LongLog out_;
  std::size_t count_ = 0;
  std::map<int, double> steps_;
  std::map<int, std::deque<std::string>> recent_;
};

Block BkMeta(Lines lines) { return Fixed(std::move(lines), 0.01, Block::kMeta); }

// "#N DONE", `secs` after the step's last line.
Block BkDone(int step, double secs = 0) {
  Block b = Fixed({""}, 0.01, Block::kDone);
  b.step = step;
  b.pause = secs;
  return b;
}

// docker build --progress=plain: the internal steps, FROM with its layer
// downloads, then each Dockerfile instruction as a numbered vertex; the
// project's CI commands become RUN steps, the last of which fails.
Job BuildkitJob(Rng& r, Flavor f, const Lines& error, std::size_t lines) {
  Env e = MakeEnv(r, Host::kDocker);
  const std::string py = e.python.substr(0, e.python.rfind('.'));
  const std::string image = f == Flavor::kPython ? "python:" + py + "-slim"
                            : f == Flavor::kNode ? "node:20-bookworm-slim"
                            : f == Flavor::kJava ? "maven:3.9-eclipse-temurin-17"
                                                 : "ubuntu:22.04";
  std::vector<Step> steps = CiSteps(r, f, e, error, lines);
  if (f != Flavor::kCpp && r.Chance(0.5)) {
    steps.insert(steps.begin(), {"", "apt-get update && apt-get install -y --no-install-recommends build-essential "
                                     "libpq-dev curl", {Fixed(AptInstall(r, e, 20 + r.Below(60)), 0.03)}});
  }
  // Instructions: FROM, WORKDIR, COPY (manifests), the RUN steps, with COPY . . before the last two.
  const std::size_t total = steps.size() + 4;
  const std::string stage = r.Chance(0.4) ? "builder " : "";
  Job job;
  job.prefix = Prefix::kBuildkit;
  std::vector<Block>& B = job.blocks;
  B.push_back(BkMeta({"#0 building with \"default\" instance using docker driver", "",
                      "#1 [internal] load build definition from Dockerfile",
                      fmt::format("#1 transferring dockerfile: {}B done", 400 + r.Below(2000))}));
  B.push_back(BkDone(1));
  B.push_back(BkMeta({"", "#2 [internal] load metadata for docker.io/library/" + image}));
  B.push_back(BkDone(2, 0.3 + r.Below(20) / 10.0));
  B.push_back(BkMeta({"", "#3 [internal] load .dockerignore", "#3 transferring context: 2B done"}));
  B.push_back(BkDone(3));
  std::string digest = r.Hex(64);
  Lines from = {"", fmt::format("#4 [{}1/{}] FROM docker.io/library/{}@sha256:{}", stage, total, image, digest),
                fmt::format("#4 resolve docker.io/library/{}@sha256:{} 0.0s done", image, digest)};
  double pulled = 0;  // the slowest layer's time: the step is done after it and the extraction
  for (std::size_t i = 2 + r.Below(5); i > 0; --i) {
    double mb = r.Below(3000) / 100.0, secs = r.Below(90) / 10.0;
    pulled = std::max(pulled, secs);
    from.push_back(fmt::format("#4 sha256:{} {:.2f}MB / {:.2f}MB {:.1f}s done", r.Hex(64), mb, mb, secs));
  }
  const double extract = r.Below(60) / 10.0;
  from.push_back(fmt::format("#4 extracting sha256:{} {:.1f}s done", r.Hex(64), extract));
  B.push_back(BkMeta(from));
  B.push_back(BkDone(4, pulled + extract + 0.1));
  B.push_back(BkMeta({"", "#5 [internal] load build context",
                      fmt::format("#5 transferring context: {:.2f}MB {:.1f}s done", r.Below(5000) / 100.0,
                                  r.Below(20) / 10.0)}));
  B.push_back(BkDone(5, r.Below(10) / 10.0));
  int n = 6;
  std::size_t index = 2;
  auto simple = [&](const std::string& instr) {
    B.push_back(BkMeta({"", fmt::format("#{} [{}{}/{}] {}", n, stage, index++, total, instr)}));
    B.push_back(BkDone(n++, r.Below(3) / 10.0));
  };
  simple("WORKDIR /app");
  simple(f == Flavor::kNode ? "COPY package.json package-lock.json ./" : f == Flavor::kJava ? "COPY pom.xml ."
         : f == Flavor::kCpp ? "COPY CMakeLists.txt ." : "COPY requirements*.txt pyproject.toml ./");
  bool copied = false;  // the sources come in after the dependencies, for the layer cache
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const std::string& st = steps[s].stage;
    if (!copied && st != "" && st != "Install" && st != "Dependencies") {
      simple("COPY . .");
      copied = true;
    }
    const bool last = s + 1 == steps.size();
    const std::string label = fmt::format("#{} [{}{}/{}] RUN {}", n, stage, index++, total, steps[s].cmd);
    if (!last && s < 2 && r.Chance(0.3)) {  // an unchanged layer from the last build
      B.push_back(BkMeta({"", label, fmt::format("#{} CACHED", n++)}));
      continue;
    }
    B.push_back(BkMeta({"", label}));
    for (Block& b : steps[s].out) {
      b.step = n;
      b.pause = 0.2 + r.Below(5) / 10.0;
      if (b.kind == Block::kError) job.error_block = B.size();
      B.push_back(std::move(b));
    }
    if (!last) B.push_back(BkDone(n++, 0.1 + r.Below(20) / 10.0));
  }
  const std::string& cmd = steps.back().cmd;
  const std::string failed = fmt::format("process \"/bin/sh -c {}\" did not complete successfully: exit code: 1", cmd);
  B.push_back(BkMeta({fmt::format("#{} ERROR: {}", n, failed), "------"}));
  Block excerpt = Fixed({fmt::format(" > [{}{}/{}] RUN {}:", stage, index - 1, total, cmd)}, 0.001, Block::kExcerpt);
  excerpt.lines.resize(11, "\x02");
  excerpt.step = n;
  B.push_back(excerpt);
  std::size_t at = 12 + r.Below(20);
  B.push_back(BkMeta({"------", fmt::format("Dockerfile:{}", at), "--------------------",
                      fmt::format("  {} |     COPY . .", at - 2), fmt::format("  {} |     ", at - 1),
                      fmt::format("  {} | >>> RUN {}", at, cmd), fmt::format("  {} |     ", at + 1),
                      fmt::format("  {} |     EXPOSE 8000", at + 2), "--------------------",
                      "ERROR: failed to solve: " + failed}));
  return job;
}

// A training run or data pipeline writing its own log until an uncaught
// exception ends it: the traceback raw, no logging prefix, then whatever
// atexit handlers print.
Job PythonJob(Rng& r, const Lines& error) {
  Env e = MakeEnv(r, Host::kWorkstation);
  const bool pipeline = r.Chance(0.35);
  Job job;
  job.blocks.push_back(Fixed(TrainStartup(r, e, pipeline), 0.6));
  const Env env = e;
  job.blocks.push_back(Elastic([env, pipeline](Rng& q, std::size_t n) {
    return pipeline ? PipelineLoop(q, env, n) : TrainLoop(q, env, n);
  }, 1, pipeline ? 1.5 : 4.0));
  job.error_block = job.blocks.size();
  job.blocks.push_back(Fixed(error, 0.001, Block::kError));
  job.blocks.push_back(Fixed(JobTail(r), 0.2));
  return job;
}

Lines SplitLines(const std::string& text) {
  Lines out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (out.size() > 1 && out.back().empty()) out.pop_back();  // a final newline ends the last line
  return out;
}

}  // namespace
}  // namespace longlog

const std::vector<std::string>& LongLogStyles() {
  static const std::vector<std::string> styles = {"github", "buildkit", "jenkins", "gitlab", "python"};
  return styles;
}

LongLog MakeLongLog(const std::string& error_text, const std::string& style, uint64_t seed, std::size_t lines) {
  using namespace longlog;
  Rng r(seed);
  const Lines error = SplitLines(error_text);
  const Flavor flavor = GuessFlavor(error_text, r);
  Job job;
  if (style == "github") job = GithubJob(r, flavor, error, lines);
  else if (style == "buildkit") job = BuildkitJob(r, flavor, error, lines);
  else if (style == "jenkins") job = JenkinsJob(r, flavor, error, lines);
  else if (style == "gitlab") job = GitlabJob(r, flavor, error, lines);
  else if (style == "python") job = PythonJob(r, error);
  else throw std::invalid_argument("unknown long log style: " + style);
  Fill(job, r, lines);
  // Some day between January 2025 and March 2026, in working hours or not.
  const int64_t start = (1735689600LL + static_cast<int64_t>(r.Below(440)) * 86400 +
                         static_cast<int64_t>(r.Below(86400))) * 1000000 + static_cast<int64_t>(r.Below(1000000));
  return Renderer(job, r, start).Run();
}

}  // namespace kedb::eval
