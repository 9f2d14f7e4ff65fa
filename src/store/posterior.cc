#include "store/posterior.h"

#include <algorithm>

#include <boost/math/special_functions/beta.hpp>

namespace kedb::store {

Rate Posterior(std::optional<double> curated, double hits, double misses) {
  double a = 1, b = 1;
  if (curated) {
    const double r = std::clamp(*curated, 0.0, 1.0);
    // A prior of exactly 0 or 1 would never move; keep it inside (0, 1).
    a = std::max(r * kPriorWeight, 0.05);
    b = std::max((1 - r) * kPriorWeight, 0.05);
  }
  a += hits;
  b += misses;
  Rate rate;
  rate.hits = hits;
  rate.misses = misses;
  rate.mean = a / (a + b);
  rate.low = boost::math::ibeta_inv(a, b, 0.05);
  rate.high = boost::math::ibeta_inv(a, b, 0.95);
  return rate;
}

namespace {

// Hits and misses of an action's reports: a workaround's rate counts what
// worked, a dead end's what failed.
std::pair<double, double> HitsAndMisses(ActionKind kind, int64_t worked, int64_t failed, int64_t partial) {
  const double half = 0.5 * static_cast<double>(partial);
  const auto w = static_cast<double>(worked), f = static_cast<double>(failed);
  return kind == ActionKind::kWorkaround ? std::pair{w + half, f + half} : std::pair{f + half, w + half};
}

// Whether a counts row is about the action at `position` with text `text`.
bool About(const ActionCounts& c, ActionKind kind, int position, const std::string& text) {
  return c.kind == kind && (c.action.empty() ? c.position == position : c.action == text);
}

ActionEvidence Gather(ActionKind kind, int position, const std::string& text, double curated,
                      const std::vector<ActionCounts>& counts) {
  ActionEvidence e;
  e.kind = kind;
  e.position = position;
  e.action = text;
  e.curated = curated;
  for (const ActionCounts& c : counts) {
    if (!About(c, kind, position, text)) continue;
    if (c.env_key.empty()) {
      e.worked += c.worked;
      e.failed += c.failed;
      e.partial += c.partial;
      e.last_reported = std::max(e.last_reported, c.last_reported);
      e.last_worked = std::max(e.last_worked, c.last_worked);
      continue;
    }
    auto it = std::find_if(e.by_env.begin(), e.by_env.end(),
                           [&](const EnvRate& r) { return r.key == c.env_key && r.value == c.env_value; });
    if (it == e.by_env.end()) {
      EnvRate fresh;
      fresh.key = c.env_key;
      fresh.value = c.env_value;
      it = e.by_env.insert(e.by_env.end(), std::move(fresh));
    }
    it->worked += c.worked;
    it->failed += c.failed;
    it->partial += c.partial;
  }
  auto [hits, misses] = HitsAndMisses(kind, e.worked, e.failed, e.partial);
  e.rate = Posterior(curated, hits, misses);
  std::erase_if(e.by_env, [](const EnvRate& r) { return r.worked + r.failed + r.partial < kMinEnvReports; });
  for (EnvRate& r : e.by_env) {
    auto [h, m] = HitsAndMisses(kind, r.worked, r.failed, r.partial);
    r.rate = Posterior(curated, h, m);
  }
  e.likely_dead_end = kind == ActionKind::kWorkaround && e.reports() >= kMinDeadEndReports && e.rate.mean < kDeadEndRate;
  return e;
}

}  // namespace

RecordEvidence Evidence(const Record& record, const std::vector<ActionCounts>& counts) {
  RecordEvidence out;
  for (std::size_t i = 0; i < record.workarounds.size(); ++i) {
    const Workaround& w = record.workarounds[i];
    out.actions.push_back(Gather(ActionKind::kWorkaround, static_cast<int>(i + 1), w.action, w.success_rate, counts));
  }
  for (std::size_t i = 0; i < record.dead_ends.size(); ++i) {
    const DeadEnd& d = record.dead_ends[i];
    out.actions.push_back(Gather(ActionKind::kDeadEnd, static_cast<int>(i + 1), d.action, d.fail_rate, counts));
  }
  int64_t total = 0;
  for (const ActionCounts& c : counts) {
    if (c.env_key.empty()) total += c.reports();
  }
  for (const ActionEvidence& a : out.actions) {
    out.reports += a.reports();
    if (a.kind == ActionKind::kWorkaround) out.last_confirmed = std::max(out.last_confirmed, a.last_worked);
  }
  out.unattributed = total - out.reports;
  out.evidence_count = record.evidence_count + out.reports;
  return out;
}

}  // namespace kedb::store
