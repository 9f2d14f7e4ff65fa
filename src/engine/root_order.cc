#include "engine/root_order.h"

#include <algorithm>
#include <cstdint>
#include <queue>
#include <string>

#include "logs/line_kinds.h"

namespace kedb::match {
namespace {

bool Links(const std::vector<Edge>& edges, const std::string& id) {
  return std::any_of(edges.begin(), edges.end(), [&](const Edge& e) { return e.error_id == id; });
}

// Whether the knowledge base says record `a` leads to record `b`.
bool LeadsTo(const Record& a, const Record& b) {
  return &a != &b && (Links(a.transition_graph.leads_to, b.id) || Links(b.transition_graph.preceded_by, a.id));
}

// Which blocks a reader looks at first when nothing links them:
//   0  failures: a traceback, a stack trace, a panic, a compiler error, a
//      logger's error line with a known error, a known error on a line that
//      says something failed;
//   1  a logger's error line no record knows: the root when nothing better
//      shows, but often incidental ("fatal: not a git repository");
//   2  a known error the model is sure of on a line that says nothing
//      failed in so many words (ssh's "It is required that your private
//      key files are NOT accessible by others.");
//   3  lines that only report another failure (an exit status, pip's
//      "subprocess-exited-with-error");
//   4  known errors on warning lines (deprecations, retries, lint) that
//      name no error (logs::NamesAnError), and
//      on lines the segmenter left alone that only report an exit status;
//   5  other known errors on lines that say nothing failed ("Checking out
//      5bb35ccb as detached HEAD"), or that are source code a traceback
//      quotes ("raise AssertionError(...)").
int Tier(const ErrorBlock& b) {
  if (b.kind != BlockKind::kMatch) {
    if (!b.matches.empty() || (b.kind != BlockKind::kErrorLine && b.kind != BlockKind::kStep)) return 0;
    return b.kind == BlockKind::kStep || logs::IsWrapperLine(b.decisive) ? 3 : 1;
  }
  // A known error on a line that only reports an exit status (wandb's
  // "(failed 1)") says no more than a warning does.
  // An error a tool logged at a warning level ("WARNING MongoError: ...")
  // is read as an error.
  if (logs::IsWarningLine(b.decisive) && !logs::NamesAnError(b.decisive)) return 4;
  if (logs::IsWrapperLine(b.decisive)) return 3;
  if (logs::IsSourceLine(b.decisive)) return 5;
  if (logs::StatesFailure(b.decisive)) return 0;
  return !b.matches.empty() && b.matches[0].confidence >= kSureInPlainWords ? 2 : 5;
}

// Tiers from here on are blocks a failure does not show by itself.
constexpr int kFirstWarningTier = 4;

// For each block, how many lines lie between its end and the next block
// that shows a failure (tiers 0 to 2), or SIZE_MAX when none follows. A
// CI job's warnings from early steps (pip retrying a download, a lint
// hint) are rarely what failed; the warning just before the step's exit
// status often is (a registry's rate limit logged at level=warning).
// A block inside a failure's lines (a warning among a failed step's
// lines) is 0 lines from it.
std::vector<std::size_t> GapsToNextFailure(const std::vector<ErrorBlock>& blocks, const std::vector<int>& tiers) {
  std::vector<std::pair<std::size_t, std::size_t>> failures;  // first and last lines, by first line
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (tiers[i] < kFirstWarningTier) failures.emplace_back(blocks[i].first_line, blocks[i].last_line);
  }
  std::sort(failures.begin(), failures.end());
  std::vector<std::size_t> reach(failures.size());  // the furthest last line of failures[0..k]
  for (std::size_t k = 0; k < failures.size(); ++k) {
    reach[k] = std::max(failures[k].second, k > 0 ? reach[k - 1] : 0);
  }
  std::vector<std::size_t> gaps(blocks.size(), SIZE_MAX);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const std::size_t end = blocks[i].last_line;
    const auto next = std::upper_bound(failures.begin(), failures.end(), std::pair{end, SIZE_MAX});
    const auto k = static_cast<std::size_t>(next - failures.begin());
    if (k > 0 && reach[k - 1] > end) {
      gaps[i] = 0;
    } else if (next != failures.end()) {
      gaps[i] = next->first - end;
    }
  }
  return gaps;
}

// Whether a known error ending at line `end`, of tier `known_tier`, is
// likely what made `effect` fail, a block no record explains of tier
// `effect_tier`: it ends right before it, or among a failed step's last
// lines. Before a failed step or an exit status (tier 3), even when its
// line reads as a warning (React's "Warning: Cannot update a component"
// under jest's console.error, a proxy's [warn] line for the request that
// failed). Before a logger's error line (tier 1), only when it is no
// warning: Gradle's "FAILURE: Build failed with an exception." before
// React Native's "error Failed to install the app.", but not pip retrying
// a download before an error of its own.
constexpr std::size_t kJustBefore = 20;
constexpr std::size_t kStepsLastLines = 30;
bool LikelyCause(std::size_t end, int known_tier, const ErrorBlock& effect, int effect_tier) {
  if (!effect.matches.empty()) return false;
  if (effect_tier != 3 && !(effect_tier == 1 && known_tier < kFirstWarningTier)) return false;
  if (end >= effect.last_line) return false;
  if (end < effect.first_line) return effect.first_line - end <= kJustBefore;
  return effect.last_line - end <= kStepsLastLines;
}

}  // namespace

void OrderRootFirst(std::vector<ErrorBlock>* blocks) {
  const std::size_t n = blocks->size();
  if (n == 0) return;
  std::vector<std::vector<std::size_t>> effects(n);
  std::vector<std::size_t> causes(n, 0);
  auto add_edge = [&](std::size_t cause, std::size_t effect) {
    if (cause == effect) return;
    if (std::find(effects[cause].begin(), effects[cause].end(), effect) != effects[cause].end()) return;
    effects[cause].push_back(effect);
    ++causes[effect];
  };
  for (std::size_t i = 0; i < n; ++i) {
    long c = (*blocks)[i].caused_by;
    if (c >= 0 && static_cast<std::size_t>(c) < n) add_edge(static_cast<std::size_t>(c), i);
  }
  // The graph's edges between blocks' best matches. Quadratic in the blocks
  // with matches; capped so that a log with thousands of distinct errors
  // stays cheap.
  constexpr std::size_t kGraphBlocks = 2000;
  std::vector<std::size_t> matched;
  for (std::size_t i = 0; i < n && matched.size() < kGraphBlocks; ++i) {
    if (!(*blocks)[i].matches.empty()) matched.push_back(i);
  }
  std::vector<long> graph_cause(n, -1);
  for (std::size_t a : matched) {
    for (std::size_t b : matched) {
      const Record& ra = *(*blocks)[a].matches[0].record;
      const Record& rb = *(*blocks)[b].matches[0].record;
      if (a != b && LeadsTo(ra, rb) && !LeadsTo(rb, ra)) {
        add_edge(a, b);
        if (graph_cause[b] < 0) graph_cause[b] = static_cast<long>(a);
      }
    }
  }
  std::vector<int> tiers(n);
  for (std::size_t i = 0; i < n; ++i) tiers[i] = Tier((*blocks)[i]);
  // Known errors right before a block no record explains (LikelyCause):
  // those ending in the lines before its first, or inside it.
  std::vector<std::pair<std::size_t, std::size_t>> known_ends;  // last line, block
  for (std::size_t i : matched) known_ends.emplace_back((*blocks)[i].last_line, i);
  std::sort(known_ends.begin(), known_ends.end());
  for (std::size_t e = 0; e < n; ++e) {
    const ErrorBlock& effect = (*blocks)[e];
    if (!effect.matches.empty() || (tiers[e] != 1 && tiers[e] != 3)) continue;
    const std::size_t from = effect.first_line > kJustBefore ? effect.first_line - kJustBefore : 0;
    for (auto it = std::lower_bound(known_ends.begin(), known_ends.end(), std::pair{from, std::size_t{0}});
         it != known_ends.end() && it->first < effect.last_line; ++it) {
      if (LikelyCause(it->first, tiers[it->second], effect, tiers[e])) add_edge(it->second, e);
    }
  }
  // Kahn's algorithm, among the blocks whose causes are out, by tier (see
  // Tier), the earliest first; among warnings and lines that say nothing
  // failed, the one closest before a failure first.
  const std::vector<std::size_t> gaps = GapsToNextFailure(*blocks, tiers);
  auto tier = [&](std::size_t i) { return tiers[i]; };
  auto later = [&](std::size_t x, std::size_t y) {
    const auto& bx = (*blocks)[x];
    const auto& by = (*blocks)[y];
    if (tier(x) != tier(y)) return tier(x) > tier(y);
    if (tier(x) >= kFirstWarningTier && gaps[x] != gaps[y]) return gaps[x] > gaps[y];
    return bx.first_line != by.first_line ? bx.first_line > by.first_line : x > y;
  };
  std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> ready(later);
  for (std::size_t i = 0; i < n; ++i) {
    if (causes[i] == 0) ready.push(i);
  }
  std::vector<std::size_t> order;
  std::vector<bool> placed(n, false);
  while (order.size() < n) {
    if (ready.empty()) {
      // A cycle: take the earliest block not yet placed.
      std::size_t pick = n;
      for (std::size_t i = 0; i < n; ++i) {
        if (!placed[i] && (pick == n || later(pick, i))) pick = i;
      }
      causes[pick] = 0;
      ready.push(pick);
    }
    std::size_t i = ready.top();
    ready.pop();
    if (placed[i]) continue;
    placed[i] = true;
    order.push_back(i);
    for (std::size_t e : effects[i]) {
      if (causes[e] > 0 && --causes[e] == 0) ready.push(e);
    }
  }
  std::vector<long> position(n);
  for (std::size_t k = 0; k < n; ++k) position[order[k]] = static_cast<long>(k);
  std::vector<ErrorBlock> out;
  out.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    ErrorBlock b = std::move((*blocks)[order[k]]);
    long cause = b.caused_by >= 0 ? b.caused_by : graph_cause[order[k]];
    b.caused_by = cause >= 0 ? position[static_cast<std::size_t>(cause)] : -1;
    b.root = k == 0;
    out.push_back(std::move(b));
  }
  *blocks = std::move(out);
}

}  // namespace kedb::match
