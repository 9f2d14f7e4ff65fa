#include "serve/write_limiter.h"

#include <algorithm>
#include <cmath>

namespace kedb::serve {

WriteLimiter::WriteLimiter(double per_minute, double burst)
    : per_second_(per_minute / 60), burst_(burst > 0 ? burst : std::max(10.0, per_minute / 6)) {}

void WriteLimiter::Refill(Bucket& b, Clock::time_point now) const {
  const double seconds = std::chrono::duration<double>(now - b.at).count();
  if (seconds > 0) b.tokens = std::min(burst_, b.tokens + seconds * per_second_);
  b.at = std::max(b.at, now);
}

void WriteLimiter::ForgetIdle(Clock::time_point now) {
  for (auto it = buckets_.begin(); it != buckets_.end();) {
    Refill(it->second, now);
    it = it->second.tokens >= burst_ ? buckets_.erase(it) : std::next(it);
  }
  // Every client is busy: the oldest buckets go, so memory stays bounded.
  while (buckets_.size() >= kMaxClients) buckets_.erase(buckets_.begin());
}

std::size_t WriteLimiter::clients() {
  std::lock_guard<std::mutex> lock(mu_);
  return buckets_.size();
}

int WriteLimiter::Admit(const std::string& client, Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = buckets_.find(client);
  if (it == buckets_.end()) {
    if (buckets_.size() >= kMaxClients) ForgetIdle(now);
    it = buckets_.emplace(client, Bucket{burst_, now}).first;
  }
  Bucket& b = it->second;
  Refill(b, now);
  if (b.tokens >= 1) {
    b.tokens -= 1;
    return 0;
  }
  return std::max(1, static_cast<int>(std::ceil((1 - b.tokens) / per_second_)));
}

}  // namespace kedb::serve
