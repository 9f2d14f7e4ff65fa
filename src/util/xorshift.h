// A small deterministic random number generator (xorshift64) for generated
// test and benchmark data: the same seed gives the same log on every machine.
// Not for anything that needs unpredictability.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kedb::util {

class XorShift {
 public:
  // `salt` separates streams that share seeds (bench logs, eval wrappers).
  explicit XorShift(uint64_t seed, uint64_t salt = 1) : s_(seed * 0x9E3779B97F4A7C15ULL + salt) {}
  uint64_t Next() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return s_;
  }
  std::size_t Below(std::size_t n) { return static_cast<std::size_t>(Next() % n); }
  double Unit() { return static_cast<double>(Next() % 1000000) / 1e6; }

 private:
  uint64_t s_;
};

}  // namespace kedb::util
