// WriteLimiter: how many writes (outcome reports, record writes) one
// client may send, so that a runaway script or a stolen token cannot fill
// the store or keep every server reloading.
//
// A token bucket per client address: a client may send `burst` writes at
// once, then `per_minute` a minute. Reads are never limited. The table of
// clients is bounded: past kMaxClients, clients whose buckets are full
// again (idle ones) are forgotten first. Safe to share between threads.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace kedb::serve {

class WriteLimiter {
 public:
  using Clock = std::chrono::steady_clock;

  // `per_minute` > 0; `burst` 0 picks a sixth of a minute's worth (at
  // least 10).
  explicit WriteLimiter(double per_minute, double burst = 0);

  // Takes one write for `client` at `now`: 0 when it may go ahead,
  // otherwise the seconds until it may (for Retry-After), and nothing is
  // taken.
  int Admit(const std::string& client, Clock::time_point now = Clock::now());

  double per_minute() const { return per_second_ * 60; }
  // Clients it holds a bucket for now (at most kMaxClients).
  std::size_t clients();

  static constexpr std::size_t kMaxClients = 10000;

 private:
  struct Bucket {
    double tokens;
    Clock::time_point at;
  };
  void Refill(Bucket& b, Clock::time_point now) const;
  void ForgetIdle(Clock::time_point now);

  const double per_second_, burst_;
  std::mutex mu_;
  std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace kedb::serve
