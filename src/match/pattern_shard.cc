#include "match/pattern_shard.h"

#include <hs/hs.h>
#include <xxhash.h>

#include <algorithm>
#include <future>
#include <map>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include "logs/triggers.h"
#include "match/literal_check.h"
#include "match/prefilter.h"
#include "regex/pcre2_regex.h"
#include "regex/python_regex.h"
#include "util/binary_io.h"
#include "util/section_file.h"

namespace kedb::match {
namespace {

// Bump when the prefilter's choices or the file layout change.
// 3: one file per shard, patterns numbered within it. 4: a section file
// with literal tables and literal checks. 5: patterns grouped by gate.
// 6: literals that hold a problem word looked for on marked lines only;
// Hyperscan given the first 16 bytes of longer literals.
constexpr uint32_t kCacheFormat = 6;
constexpr char kMagic[8] = {'K', 'E', 'D', 'B', 'P', 'F', 'X', '4'};
// Shard files are used in place: only a small one is checked whole on
// open, a large one block by block as it is read.
constexpr std::size_t kCheckWholeBelow = 1 << 20;

enum Section : std::size_t {
  kMeta,  // member count, prefiltered, invalid, key lengths of each index
  kDistinct,
  kBroad = kDistinct + LiteralIndex::kSections,
  kFallbackDb = kBroad + LiteralIndex::kSections,
  kFallback,
  kEveryLine,
  kChecks,  // StringList of every pattern's LiteralCheck::Encode (two sections)
  kSections = kChecks + 2
};
enum Meta : std::size_t { kMembers, kPrefiltered, kInvalid, kLengthsDistinct, kLengthsBroad, kMetaSize };

// What the prefilter makes of one pattern: its plan and its literal check,
// or nothing when it does not parse or compile (it then never matches).
struct PatternPlan {
  PrefilterPlan prefilter;
  std::string check;  // LiteralCheck::Encode
  // A literal every matching line holds besides the factor ("" for none).
  // Thousands of patterns may share a factor ("failed to read "); their
  // gates ("trigger", "socket") split them into groups, and a line is a
  // candidate only for the groups whose gate it holds: one substring search
  // a group instead of a literal check a pattern.
  std::string gate;
};

// The longest literal of `required` that is no part of a factor literal and
// holds none: one that says something the factor does not.
std::string ChooseGate(const std::vector<std::string_view>& required, const std::vector<std::string>& factor) {
  std::string best;
  for (std::string_view r : required) {
    const std::string folded = FoldedAscii(r);
    bool apart = std::none_of(factor.begin(), factor.end(), [&](const std::string& f) {
      const std::string lit = FoldedAscii(f);
      return lit.find(folded) != std::string::npos || folded.find(lit) != std::string::npos;
    });
    if (apart && r.size() > best.size()) best = std::string(r);
  }
  return best;
}

std::optional<PatternPlan> PlanPattern(std::string_view pattern) {
  // Compiled only to learn that it compiles: never searched, never JIT-compiled
  // (which cost a twentieth of a million-record compile).
  regex::Pcre2Options unsearched;
  unsearched.jit_after = UINT32_MAX;
  auto parsed = regex::ParsePythonRegex(pattern);
  if (!parsed.ok() || !regex::Pcre2Regex::Compile(parsed->pcre2, unsearched).ok()) return std::nullopt;
  LiteralIds ids;
  const LiteralCheck check(*parsed, &ids);
  PatternPlan plan{PlanPrefilter(std::string(pattern), *parsed), check.Encode(), {}};
  plan.gate = ChooseGate(check.Required(), plan.prefilter.literals);
  return plan;
}

}  // namespace

struct PatternShard::Parts {
  std::unique_ptr<util::SectionFile> file;
  LiteralIndex index[2];
  StoredDatabase fallback_db;
  util::Array<uint32_t> fallback, every_line;
  util::StringList checks;
};

PatternShard::PatternShard() = default;
PatternShard::PatternShard(PatternShard&&) noexcept = default;
PatternShard& PatternShard::operator=(PatternShard&&) noexcept = default;
PatternShard::~PatternShard() = default;

Result<PatternShard> PatternShard::Build(const util::Array<uint32_t>& members,
                                         const std::function<std::string_view(uint32_t)>& pattern, uint64_t key,
                                         int threads) {
  // Every pattern is planned and nothing compiled is kept: scans compile
  // the few patterns they meet, and a million compiled patterns held at
  // once would cost gigabytes.
  const std::size_t n = members.size();
  const std::span<const uint32_t> numbers = members.All();
  std::vector<std::optional<PatternPlan>> plans(n);
  auto plan_range = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) plans[i] = PlanPattern(pattern(numbers[i]));
  };
  if (threads > 1) {
    auto other = std::async(std::launch::async, plan_range, n / 2, n);
    plan_range(0, n / 2);
    other.get();
  } else {
    plan_range(0, n);
  }
  ShardCounts counts;
  LiteralMap by_literal;
  std::vector<std::string> fallback_exprs;
  std::vector<unsigned> fallback_flags;
  std::vector<uint32_t> fallback, every_line;
  std::vector<std::string> checks(n), gates(n);
  for (uint32_t q = 0; q < n; ++q) {
    std::optional<PatternPlan> plan = std::move(plans[q]);
    plans[q].reset();
    if (!plan) {
      ++counts.invalid;
      continue;
    }
    checks[q] = std::move(plan->check);
    gates[q] = std::move(plan->gate);
    PrefilterPlan& pre = plan->prefilter;
    if (pre.unreachable) {
      every_line.push_back(q);
      continue;
    }
    // Literals are matched with ASCII case folded (as Hyperscan's caseless
    // flag does): kept folded, case variants are one literal.
    for (auto& lit : pre.literals) {
      if (lit.empty()) continue;
      auto& to = by_literal[FoldedAscii(lit)];
      if (to.empty() || to.back() != q) to.push_back(q);
    }
    for (auto& [expr, flags] : pre.regexes) {
      fallback_exprs.push_back(std::move(expr));
      fallback_flags.push_back(flags);
      fallback.push_back(q);
    }
    ++(pre.regexes.empty() ? counts.prefiltered : counts.fallback);
  }
  // Distinctive literals on every line, broad ones on marked lines only.
  // A distinctive literal that holds a problem word ("failed to mount ")
  // is only ever on a line the scan marks as a problem: it is looked for
  // there too, and loses nothing by it. At a million generated records
  // nine literals in ten hold one, and the log's marked lines are a tenth
  // of its bytes: each shard's pass over every line is that much shorter.
  LiteralMap distinct_lits, broad_lits;
  for (auto& [lit, pats] : by_literal) {
    const bool any_line = IsDistinctiveLiteral(lit) && !logs::HoldsProblemWord(lit);
    (any_line ? distinct_lits : broad_lits)[lit] = std::move(pats);
  }
  by_literal.clear();

  // The three databases compile independently: with two threads, the
  // largest (distinctive literals) on one, the other two on the other.
  util::SectionWriter distinct_w, rest_w;
  uint64_t lengths[2] = {0, 0};
  std::future<Result<regex::HsDatabase>> distinct_f;
  if (threads > 1) {
    distinct_f = std::async(std::launch::async, LiteralIndex::Write, std::cref(distinct_lits), std::cref(gates), &distinct_w,
                            &lengths[0]);
  }
  auto distinct_db = threads > 1 ? Result<regex::HsDatabase>(Status::Internal(""))
                                 : LiteralIndex::Write(distinct_lits, gates, &distinct_w, &lengths[0]);
  auto broad_db = LiteralIndex::Write(broad_lits, gates, &rest_w, &lengths[1]);
  auto fallback_db = regex::HsDatabase::CompileRegexes(fallback_exprs, fallback_flags);
  if (threads > 1) distinct_db = distinct_f.get();
  if (!distinct_db.ok()) return distinct_db.status();
  if (!broad_db.ok()) return broad_db.status();
  if (!fallback_db.ok()) return fallback_db.status();

  util::SectionWriter w;
  w.Add(std::vector<uint64_t>{n, counts.prefiltered, counts.invalid, lengths[0], lengths[1]});
  w.Append(std::move(distinct_w));
  w.Append(std::move(rest_w));
  w.AddBytes(fallback_db->Serialize());
  w.Add(fallback);
  w.Add(every_line);
  util::StringList::Write(std::vector<std::string_view>(checks.begin(), checks.end()), &w);

  PatternShard shard;
  shard.members_ = members;
  shard.parts_ = std::make_unique<Parts>();
  shard.parts_->file = util::SectionFile::FromBytes(w.Finish({kMagic, sizeof kMagic}, key), {kMagic, sizeof kMagic}, key);
  if (!shard.Bind()) return Status::Internal("pattern shard: the file just built does not read back");
  // The databases just compiled are kept: reading them back would cost
  // the time and memory again.
  Parts& parts = *shard.parts_;
  parts.index[0].KeepDatabase(std::move(*distinct_db));
  parts.index[1].KeepDatabase(std::move(*broad_db));
  parts.fallback_db.Keep(std::move(*fallback_db));
  return shard;
}

bool PatternShard::Bind() {
  Parts& p = *parts_;
  util::Array<uint64_t> meta;
  if (!p.file || p.file->sections() != kSections || !p.file->Get(kMeta, &meta) || meta.size() != kMetaSize) {
    return false;
  }
  util::Array<char> fallback_bytes;
  if (meta[kMembers] != members_.size() || !p.index[0].Bind(*p.file, kDistinct, meta[kLengthsDistinct]) ||
      !p.index[1].Bind(*p.file, kBroad, meta[kLengthsBroad]) || !p.file->Get(kFallbackDb, &fallback_bytes) ||
      !p.file->Get(kFallback, &p.fallback) || !p.file->Get(kEveryLine, &p.every_line) ||
      !p.checks.Bind(*p.file, kChecks) || p.checks.size() != members_.size()) {
    return false;
  }
  p.fallback_db.Bind(fallback_bytes);
  counts_.prefiltered = meta[kPrefiltered];
  counts_.invalid = meta[kInvalid];
  counts_.broad_literals = p.index[1].size();
  counts_.literals = p.index[0].size() + counts_.broad_literals;
  std::vector<uint32_t> split(p.fallback.All().begin(), p.fallback.All().end());  // a split pattern may have several expressions
  std::sort(split.begin(), split.end());
  counts_.fallback = static_cast<std::size_t>(std::unique(split.begin(), split.end()) - split.begin());
  return true;
}

uint64_t PatternShard::Key(const std::vector<uint64_t>& hashes) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  const std::string header =
      fmt::format("{}|{}|{}|{:016x}|", kCacheFormat, kFactorPolicy, hs_version(), logs::ProblemWordsKey());
  XXH3_64bits_update(st, header.data(), header.size());
  XXH3_64bits_update(st, hashes.data(), hashes.size() * sizeof(uint64_t));
  const uint64_t key = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return key;
}

bool PatternShard::Save(const std::string& path) const {
  return util::WriteFileAtomically(path, parts_->file->bytes(), util::WriteFor::kReadInPlaces);
}

std::optional<PatternShard> PatternShard::Load(const std::string& path, uint64_t key,
                                               const util::Array<uint32_t>& members) {
  PatternShard shard;
  shard.members_ = members;
  shard.parts_ = std::make_unique<Parts>();
  shard.parts_->file = util::SectionFile::Open(path, {kMagic, sizeof kMagic}, key, kCheckWholeBelow);
  if (!shard.Bind()) return std::nullopt;
  return shard;
}

void PatternShard::FindLiterals(Literals kind, std::string_view text,
                                const std::function<void(uint32_t literal, std::size_t end)>& on_hit, Route route,
                                const TextKeys* keys) const {
  parts_->index[static_cast<int>(kind)].Find(text, on_hit, route, keys);
}

const LiteralIndex& PatternShard::literal_index(Literals kind) const { return parts_->index[static_cast<int>(kind)]; }

std::span<const uint32_t> PatternShard::LiteralPatterns(Literals kind, uint32_t literal) const {
  return parts_->index[static_cast<int>(kind)].Patterns(literal);
}

void PatternShard::Groups(Literals kind, uint32_t literal, std::vector<LiteralGroup>* out) const {
  parts_->index[static_cast<int>(kind)].Groups(literal, out);
}

bool PatternShard::has_literals(Literals kind) const {
  return parts_->index[static_cast<int>(kind)].size() > 0;
}

const regex::HsDatabase& PatternShard::fallback_db() const { return parts_->fallback_db.Get(); }

uint32_t PatternShard::FallbackPattern(uint32_t expression) const {
  return expression < parts_->fallback.size() ? parts_->fallback[expression] : UINT32_MAX;
}

bool PatternShard::has_fallback() const { return !parts_->fallback.empty(); }

std::span<const uint32_t> PatternShard::every_line() const { return parts_->every_line.All(); }

std::string_view PatternShard::CheckBytes(uint32_t local) const { return parts_->checks.At(local); }

}  // namespace kedb::match
