// Deterministic workloads for the benchmarks: log noise with real errors
// sprinkled in, and generated error-like patterns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kedb::bench {

// A log of about `bytes` bytes: training progress, HTTP access lines,
// debug chatter, Python frames, warnings, and every `error_every`-th line
// one of `errors` (as a log line with a timestamp).
std::string MakeLog(std::size_t bytes, const std::vector<std::string>& errors, std::size_t error_every,
                    uint64_t seed = 42);

// The same for a CI job's output (installs, compiles, tests, container
// steps), with the errors as bare lines: other words and shapes than
// MakeLog's, for a second opinion on the corpus scan.
std::string MakeCiLog(std::size_t bytes, const std::vector<std::string>& errors, std::size_t error_every,
                      uint64_t seed = 42);

// `n` error-like patterns ("E1234: shard writer stalled after \d+ retries")
// and one message each pattern matches.
struct GeneratedSet {
  std::vector<std::string> patterns;
  std::vector<std::string> messages;
};
GeneratedSet MakePatterns(std::size_t n, uint64_t seed = 7);

}  // namespace kedb::bench
