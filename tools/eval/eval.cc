// kedb-eval: measures how well `match` answers, on a file of cases.
//
//   kedb-eval --kb KB --cases FILE.jsonl [--level id|slug|domain] [--misses]
//   kedb-eval --kb KB --self-retrieval [--exclude-domains a,b,...]
//   kedb-eval --kb KB --scenarios error_scenarios.json
//   kedb-eval --kb KB --self-retrieval --wrap all   (log-shaped, through scan)
//
// A case is {"text": ..., "expected": [ids]} (an empty list: no known
// error, the right answer is to abstain) or {"text": ..., "expected_domain":
// "cuda"}. Prints P@1, MRR and the abstention rate, and with --misses every
// case whose first answer is wrong.
#include <fstream>
#include <map>
#include <iostream>
#include <set>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kedb/engine.h"
#include "long_log.h"
#include "wrap.h"

#include <sstream>

namespace {

using kedb::Engine;
using kedb::MatchResult;
using kedb::Record;

struct Case {
  std::string name;
  std::string text;
  std::vector<std::string> expected;  // ids, or domains when by_domain
  bool by_domain = false;
};

// The id's first two segments: "domain/slug" for "domain/slug/env".
std::string Slug(const std::string& id) {
  auto first = id.find('/');
  if (first == std::string::npos) return id;
  auto second = id.find('/', first + 1);
  return second == std::string::npos ? id : id.substr(0, second);
}

std::string KeyOf(const Record& r, const std::string& level) {
  if (level == "domain") return r.domain;
  if (level == "slug") return Slug(r.id);
  return r.id;
}

// Cases of `path`; with `split` ("tune", "check") only that half, and with
// `labels` "kb" the labels for the bundled knowledge base (expected_kb).
std::vector<Case> ReadCases(const std::string& path, const std::string& split, const std::string& labels) {
  std::vector<Case> cases;
  std::ifstream in(path);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.contains("text")) {
      std::cerr << fmt::format("{}:{}: not a case\n", path, n);
      continue;
    }
    if (!split.empty() && split != "all" && j.value("split", "") != split) continue;
    Case c;
    c.name = j.value("name", fmt::format("line {}", n));
    c.text = j["text"];
    if (j.contains("expected_domain")) {
      c.by_domain = true;
      c.expected = {j["expected_domain"].get<std::string>()};
    } else {
      const char* field = labels == "kb" ? "expected_kb" : "expected";
      for (const auto& e : j.value(field, nlohmann::json::array())) c.expected.push_back(e);
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<Case> SelfRetrieval(const Engine& engine, const std::set<std::string>& exclude) {
  std::vector<Case> cases;
  for (const Record& r : engine.kb().records()) {
    if (exclude.count(r.domain)) continue;
    cases.push_back({r.id, r.signature, {r.id}, false});
  }
  return cases;
}

std::vector<Case> Scenarios(const std::string& path) {
  std::ifstream in(path);
  auto j = nlohmann::json::parse(in, nullptr, false);
  std::vector<Case> cases;
  if (!j.is_array()) return cases;
  for (const auto& s : j) cases.push_back({s.value("id", ""), s.value("error_message", ""), {s.value("expected_domain", "")}, true});
  return cases;
}

// The answers a person reads in a scanned log: blocks root first, each
// block's matches, each record once.
MatchResult RootFirstAnswers(const kedb::ScanResult& scan) {
  MatchResult r;
  std::set<const Record*> seen;
  for (const auto& block : scan.blocks) {
    for (const auto& m : block.matches) {
      if (seen.insert(m.record).second) r.matches.push_back(m);
    }
  }
  r.abstained = r.matches.empty();
  return r;
}

// One answer for --scores: the record, where, how it scored, whether it is
// right, and the features behind the score (for tools/eval/train_rank.py).
nlohmann::json AnswerJson(const kedb::Match& m, bool right) {
  nlohmann::json features = nlohmann::json::object();
  for (const auto& f : m.why) features[std::string(f.name)] = f.value;
  return {{"id", m.record->id}, {"line", m.line},   {"score", m.score},        {"confidence", m.confidence},
          {"right", right},     {"kind", MatchKindName(m.kind)},   {"features", features}};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kedb-eval: P@1, MRR and abstention of kedb match on a set of cases"};
  std::string kb, cases_path, scenarios, level = "slug", exclude, cache, wrap, scores_path, split, labels = "corpus";
  bool self = false, misses = false, json = false, all_lines = false, long_logs = false;
  std::size_t log_seed = 0;
  std::string dump_dir;
  std::size_t top = 10;
  double min_confidence = -1, list_confidence = -1;
  app.add_option("--kb", kb, "Knowledge base")->required();
  app.add_option("--cases", cases_path, "JSON Lines of {\"text\", \"expected\": [ids]} or {\"text\", \"expected_domain\"}");
  app.add_option("--scenarios", scenarios, "A deadends.dev error_scenarios.json (scored by domain)");
  app.add_option("--split", split, "With --cases: only the cases of this half (a case's \"split\" field)")
      ->check(CLI::IsMember({"tune", "check", "all"}));
  app.add_option("--labels", labels, "With --cases: which labels are right: \"expected\" (corpus) or \"expected_kb\" (kb)")
      ->check(CLI::IsMember({"corpus", "kb"}));
  app.add_flag("--self-retrieval", self, "Each record's signature must find the record");
  app.add_option("--exclude-domains", exclude, "Comma-separated domains left out of --self-retrieval");
  app.add_option("--level", level, "What counts as the right answer for id cases")
      ->check(CLI::IsMember({"id", "slug", "domain"}));
  app.add_option("--top", top, "Answers considered for MRR");
  app.add_flag("--misses", misses, "List the cases whose first answer is wrong");
  app.add_flag("--json", json, "Print the figures as JSON");
  app.add_flag("--all-lines", all_lines, "With --wrap: try every pattern on every line (kedb scan --all-lines)");
  app.add_option("--wrap", wrap,
                 "Wrap each case in log noise of this style (python, github, docker, pytest, jenkins, or all: "
                 "styles in turn) and answer with `scan`: the blocks' matches, root first")
      ->check(CLI::IsMember({"python", "github", "docker", "pytest", "jenkins", "all"}));
  app.add_option("--dump-logs", dump_dir, "With --long-logs: write each generated log to DIR/CASE.log");
  app.add_option("--log-seed", log_seed,
                 "With --long-logs or --wrap: start the per-case choice of style, length and noise here (default 0), "
                 "for other logs around the same cases");
  app.add_flag("--long-logs", long_logs,
               "Place each case in a 4,000-16,000-line job log (GitHub Actions, BuildKit, Jenkins, GitLab, a Python "
               "job, in turn) and score the root block's first match (kedb scan)");
  app.add_option("--min-confidence", min_confidence,
                 "Abstain when the best answer's confidence is below this (default: the calibrated threshold; 0: never)");
  app.add_option("--list-confidence", list_confidence,
                 "Once the best clears --min-confidence, list others down to this (default: calibrated)");
  app.add_option("--scores", scores_path,
                 "Write every answer's score and whether it was right, one JSON line per case (for calibration)");
  app.add_option("--cache", cache, "Folder for the compiled pattern cache (default: beside the knowledge base)");
  CLI11_PARSE(app, argc, argv);

  kedb::OpenOptions open;
  open.cache_dir = cache;
  auto engine = Engine::Open(kb, open);
  if (!engine.ok()) {
    std::cerr << "kedb-eval: " << engine.status().message() << "\n";
    return 2;
  }
  std::vector<Case> cases;
  std::string set_name;
  if (self) {
    std::set<std::string> ex;
    for (std::size_t s = 0; s < exclude.size();) {
      auto c = exclude.find(',', s);
      ex.insert(exclude.substr(s, c == std::string::npos ? std::string::npos : c - s));
      s = c == std::string::npos ? exclude.size() : c + 1;
    }
    cases = SelfRetrieval(**engine, ex);
    set_name = wrap.empty() ? "self-retrieval" : "self-retrieval, wrapped (" + wrap + ")";
  } else if (!scenarios.empty()) {
    cases = Scenarios(scenarios);
    set_name = "scenarios";
  } else if (!cases_path.empty()) {
    cases = ReadCases(cases_path, split, labels);
    set_name = long_logs ? cases_path + ", in long logs" : cases_path;
  } else {
    std::cerr << "kedb-eval: give --cases, --scenarios or --self-retrieval\n";
    return 2;
  }

  kedb::MatchOptions options;
  options.top = top;
  options.min_confidence = min_confidence;
  options.list_confidence = list_confidence;
  double p1 = 0, mrr = 0;
  std::size_t known = 0, unknown = 0, abstained_unknown = 0, abstained_known = 0;
  std::string miss_text;
  std::size_t index = log_seed;
  // Long logs: blocks reported, and of them those on the placed error's
  // lines (the share of a report that is the real error).
  struct StyleCount {
    std::size_t logs = 0, blocks = 0, real = 0;
  };
  std::map<std::string, StyleCount> by_style;
  std::ofstream scores_out;
  if (!scores_path.empty()) scores_out.open(scores_path);
  for (const Case& c : cases) {
    MatchResult r;
    // In a log, the root block is what a person reads first: when it has no
    // known error, the first answer is "none", whatever later blocks say.
    bool root_silent = false;
    if (wrap.empty() && !long_logs) {
      r = (*engine)->Match(c.text, options);
    } else {
      std::string log_text, style;
      kedb::eval::LongLog placed;
      if (long_logs) {
        const auto& styles = kedb::eval::LongLogStyles();
        const std::size_t lines = 4000 + index * 7919 % 12001;
        style = styles[index % styles.size()];
        placed = kedb::eval::MakeLongLog(c.text, style, index, lines);
        if (!dump_dir.empty()) std::ofstream(dump_dir + "/" + c.name + ".log") << placed.text;
        log_text = std::move(placed.text);
      } else {
        const auto& styles = kedb::eval::WrapStyles();
        style = wrap == "all" ? styles[index % styles.size()] : wrap;
        log_text = kedb::eval::Wrap(c.text, style, index);
      }
      std::istringstream log(log_text);
      kedb::ScanResult scan;
      kedb::ScanOptions scan_options;
      scan_options.match = options;
      scan_options.all_lines = all_lines;
      if (!(*engine)->Scan(log, scan_options, &scan).ok()) return 2;
      r = RootFirstAnswers(scan);
      root_silent = long_logs && (scan.blocks.empty() || scan.blocks[0].matches.empty());
      if (long_logs) {
        for (StyleCount* count : {&by_style[style], &by_style["all styles"]}) {
          ++count->logs;
          count->blocks += scan.blocks.size();
          for (const kedb::ErrorBlock& b : scan.blocks) {
            count->real += b.first_line <= placed.error_last && b.last_line >= placed.error_first;
          }
        }
      }
    }
    ++index;
    if (c.expected.empty()) {
      if (scores_out) {
        nlohmann::json answers = nlohmann::json::array();
        for (const auto& m : r.matches) answers.push_back(AnswerJson(m, false));
        scores_out << nlohmann::json{{"case", c.name}, {"covered", false}, {"answers", answers}}.dump() << "\n";
      }
      ++unknown;
      if (r.matches.empty() || root_silent) ++abstained_unknown;
      else if (misses) miss_text += fmt::format("  [should abstain] {}: got {}\n", c.name, r.matches[0].record->id);
      continue;
    }
    ++known;
    if (r.matches.empty() || root_silent) ++abstained_known;
    std::string lvl = c.by_domain ? "domain" : level;
    std::set<std::string> want;
    for (const auto& e : c.expected) {
      if (c.by_domain) {
        want.insert(e);
      } else if (const Record* rec = (*engine)->kb().Find(e)) {
        want.insert(KeyOf(*rec, lvl));
      } else {
        want.insert(e);
      }
    }
    std::size_t rank = 0;
    for (std::size_t i = 0; i < r.matches.size(); ++i) {
      if (want.count(KeyOf(*r.matches[i].record, lvl))) {
        rank = i + 1 + (root_silent ? 1 : 0);
        break;
      }
    }
    if (scores_out) {
      nlohmann::json answers = nlohmann::json::array();
      for (const auto& m : r.matches) {
        answers.push_back(AnswerJson(m, want.count(KeyOf(*m.record, lvl)) > 0));
      }
      scores_out << nlohmann::json{{"case", c.name}, {"covered", true}, {"answers", answers}}.dump() << "\n";
    }
    if (rank == 1) p1 += 1;
    if (rank > 0) mrr += 1.0 / static_cast<double>(rank);
    if (rank != 1 && misses) {
      miss_text += fmt::format("  {} (rank {}): got {}\n", c.name, rank == 0 ? std::string("-") : std::to_string(rank),
                               r.matches.empty() ? std::string("nothing") : r.matches[0].record->id);
    }
  }
  double n = static_cast<double>(std::max<std::size_t>(known, 1));
  double abst = unknown ? static_cast<double>(abstained_unknown) / static_cast<double>(unknown) : 0;
  if (json) {
    nlohmann::json j{{"set", set_name}, {"cases", cases.size()}, {"known", known}, {"p_at_1", p1 / n},
                     {"mrr", mrr / n}, {"abstained_on_known", abstained_known}, {"unknown", unknown},
                     {"abstention_on_unknown", abst}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << fmt::format("{}: {} cases ({} with a known answer, {} without)\n", set_name, cases.size(), known,
                             unknown);
    std::cout << fmt::format("  P@1 {:.4f}   MRR {:.4f}   no answer on {} known case(s)\n", p1 / n, mrr / n,
                             abstained_known);
    if (unknown) std::cout << fmt::format("  abstention on unknown errors {:.4f}\n", abst);
    for (const auto& [style, count] : by_style) {
      std::cout << fmt::format("  {}: blocks reported per log {:.2f}, of which on the placed error {:.1f}%\n", style,
                               static_cast<double>(count.blocks) / static_cast<double>(count.logs),
                               100.0 * static_cast<double>(count.real) / static_cast<double>(std::max<std::size_t>(count.blocks, 1)));
    }
  }
  if (misses && !miss_text.empty()) std::cout << "misses:\n" << miss_text;
  return 0;
}
