// kedb-scale: the generator and the in-process probe of the scale
// benchmark (bench/scale.sh).
//
//   kedb-scale gen --records 100000 --out kb.jsonl [--log bench.log --log-mb 50]
//   kedb-scale probe --kb kb.jsonl --records 100000 [--queries 2000] [--known-only]
//
// `gen` writes a generated knowledge base (bench/scale_kb.h) as JSON Lines,
// and optionally a log of noise with messages of the generated records in
// it. `probe` opens the knowledge base as `kedb` does (through the cache)
// and prints how long opening took and the p50 and p99 of Engine::Match on
// messages of random records and on lines no record knows, as JSON.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "kedb/engine.h"
#include "scale_kb.h"
#include "util/xorshift.h"
#include "workload.h"

namespace {

using Clock = std::chrono::steady_clock;

int Generate(std::size_t records, uint64_t seed, const std::string& out, const std::string& log, std::size_t log_mb) {
  std::ofstream kb(out, std::ios::binary);
  if (!kb) return std::fprintf(stderr, "kedb-scale: cannot write %s\n", out.c_str()), 1;
  for (std::size_t i = 0; i < records; ++i) kb << kedb::bench::ScaleRecordJson(i, seed) << '\n';
  if (!kb.flush()) return std::fprintf(stderr, "kedb-scale: write failed on %s\n", out.c_str()), 1;
  if (log.empty()) return 0;
  // Errors of 200 records spread over the log, one line in 2,000.
  std::vector<std::string> errors;
  kedb::util::XorShift r(seed, 0x10C);
  for (int i = 0; i < 200; ++i) errors.push_back(kedb::bench::ScaleMessage(r.Below(records), seed));
  std::ofstream out_log(log, std::ios::binary);
  out_log << kedb::bench::MakeLog(log_mb << 20, errors, 2000, seed);
  return out_log.flush() ? 0 : 1;
}

double Percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::size_t k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

// Microseconds of each Match over `texts`. When `expected` is given (the
// id each text should find first), counts the texts answered and those
// whose first answer is the expected record.
std::vector<double> TimeMatches(const kedb::Engine& engine, const std::vector<std::string>& texts,
                                const std::vector<std::string>* expected = nullptr, std::size_t* answered = nullptr,
                                std::size_t* right = nullptr) {
  std::vector<double> us;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    auto start = Clock::now();
    kedb::MatchResult m = engine.Match(texts[i], {});
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    if (!expected || m.matches.empty()) continue;
    ++*answered;
    if (m.matches.front().record->id == (*expected)[i]) ++*right;
  }
  return us;
}

int Probe(const std::string& kb_path, std::size_t records, uint64_t seed, std::size_t queries, bool known_only,
          std::size_t rounds) {
  auto start = Clock::now();
  auto engine = kedb::Engine::Open(kb_path, {});
  double open_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  if (!engine.ok()) return std::fprintf(stderr, "kedb-scale: %s\n", engine.status().message().c_str()), 1;
  kedb::util::XorShift r(seed, 0x9206E);
  std::vector<std::string> known, unknown, expected;
  for (std::size_t i = 0; i < queries; ++i) {
    std::size_t index = r.Below(records);
    known.push_back(kedb::bench::ScaleMessage(index, seed));
    expected.push_back(kedb::bench::ScaleRecordId(index, seed));
    unknown.push_back(fmt::format("ValueError: could not convert string to float: 'row {}'", index));
  }
  // Warm the caches the first calls fill.
  TimeMatches(**engine, std::vector<std::string>(known.begin(), known.begin() + std::min<std::size_t>(100, queries)));
  std::size_t answered = 0, right = 0;
  // The first time a message is matched, the patterns it makes candidates
  // are compiled; the second time they are not. A service that sees the
  // same errors again and again runs mostly at the second figure.
  std::vector<double> k = TimeMatches(**engine, known, &expected, &answered, &right);
  std::vector<double> again;
  for (std::size_t i = 0; i < std::max<std::size_t>(rounds, 1); ++i) again = TimeMatches(**engine, known);
  if (known_only) unknown.clear();
  std::vector<double> u = TimeMatches(**engine, unknown);
  std::printf(
      "{\"records\": %zu, \"open_ms\": %.1f, \"known_p50_us\": %.1f, \"known_p99_us\": %.1f, "
      "\"again_p50_us\": %.1f, \"again_p99_us\": %.1f, "
      "\"unknown_p50_us\": %.1f, \"unknown_p99_us\": %.1f, \"answered\": %zu, \"right_first\": %zu, "
      "\"queries\": %zu}\n",
      (*engine)->kb().size(), open_ms, Percentile(k, 0.5), Percentile(k, 0.99), Percentile(again, 0.5),
      Percentile(again, 0.99), Percentile(u, 0.5), Percentile(u, 0.99), answered, right, queries);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kedb-scale: generated knowledge bases and match latency for bench/scale.sh"};
  app.require_subcommand(1);
  std::size_t records = 10000, log_mb = 50, queries = 2000;
  uint64_t seed = 20261127;
  std::string out, log, kb;
  auto* gen = app.add_subcommand("gen", "write a generated knowledge base (JSON Lines)");
  gen->add_option("--records", records)->required();
  gen->add_option("--seed", seed);
  gen->add_option("--out", out)->required();
  gen->add_option("--log", log, "also write a log with messages of generated records");
  gen->add_option("--log-mb", log_mb);
  auto* probe = app.add_subcommand("probe", "open a generated knowledge base and time Match");
  probe->add_option("--kb", kb)->required();
  probe->add_option("--records", records)->required();
  probe->add_option("--seed", seed);
  probe->add_option("--queries", queries);
  bool known_only = false;
  std::size_t rounds = 1;
  probe->add_option("--rounds", rounds,
                    "times the known messages are matched again (the last round is reported; more rounds make "
                    "that path stand out in a profile)");
  probe->add_flag("--known-only", known_only, "time only messages of records (to profile that path alone)");
  CLI11_PARSE(app, argc, argv);
  if (*gen) return Generate(records, seed, out, log, log_mb);
  return Probe(kb, records, seed, queries, known_only, rounds);
}
