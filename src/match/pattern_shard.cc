#include "match/pattern_shard.h"

#include <hs/hs.h>
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <future>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "match/prefilter.h"
#include "regex/pcre2_regex.h"
#include "regex/python_regex.h"
#include "util/binary_io.h"

namespace kedb::match {
namespace {

// Bump when the prefilter's choices or the cache layout change.
// 3: one file per shard, patterns numbered within it.
constexpr uint32_t kCacheFormat = 3;
constexpr char kCacheMagic[8] = {'K', 'E', 'D', 'B', 'P', 'F', 'X', '3'};

// What the prefilter makes of one pattern: its plan, or nothing when it
// does not parse or compile (it then never matches).
std::optional<PrefilterPlan> PlanPattern(std::string_view pattern) {
  auto parsed = regex::ParsePythonRegex(pattern);
  if (!parsed.ok() || !regex::Pcre2Regex::Compile(parsed->pcre2).ok()) return std::nullopt;
  return PlanPrefilter(std::string(pattern), *parsed);
}

using LiteralMap = std::map<std::string, std::vector<uint32_t>>;

Status IndexLiterals(LiteralMap* from, PatternShard::LiteralIndex* to) {
  std::vector<std::string> literals;
  to->offsets.push_back(0);
  for (auto& [lit, pats] : *from) {
    literals.push_back(lit);
    to->patterns.insert(to->patterns.end(), pats.begin(), pats.end());
    to->offsets.push_back(static_cast<uint32_t>(to->patterns.size()));
  }
  from->clear();
  auto db = regex::HsDatabase::CompileLiterals(literals);
  if (!db.ok()) return db.status();
  to->db = std::move(db).value();
  return Status::Ok();
}

// Numbers in `v` from the set's to the shard's (`to_local`) or back.
bool Renumber(std::vector<uint32_t>* v, const std::vector<uint32_t>& members, bool to_local) {
  for (uint32_t& p : *v) {
    if (to_local) {
      p = static_cast<uint32_t>(std::lower_bound(members.begin(), members.end(), p) - members.begin());
    } else {
      if (p >= members.size()) return false;
      p = members[p];
    }
  }
  return true;
}

}  // namespace

Result<PatternShard> PatternShard::Build(const std::vector<uint32_t>& members,
                                         const std::function<std::string_view(uint32_t)>& pattern, int threads) {
  // Every pattern is planned and nothing compiled is kept: scans compile
  // the few patterns they meet, and a million compiled patterns held at
  // once would cost gigabytes.
  const std::size_t n = members.size();
  std::vector<std::optional<PrefilterPlan>> plans(n);
  auto plan_range = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) plans[i] = PlanPattern(pattern(members[i]));
  };
  if (threads > 1) {
    auto other = std::async(std::launch::async, plan_range, n / 2, n);
    plan_range(0, n / 2);
    other.get();
  } else {
    plan_range(0, n);
  }
  PatternShard shard;
  LiteralMap by_literal;
  std::vector<std::string> fallback_exprs;
  std::vector<unsigned> fallback_flags;
  for (std::size_t i = 0; i < n; ++i) {
    const uint32_t p = members[i];
    if (!plans[i]) {
      ++shard.counts.invalid;
      continue;
    }
    PrefilterPlan plan = std::move(*plans[i]);
    plans[i].reset();
    if (plan.unreachable) {
      shard.every_line.push_back(p);
      continue;
    }
    for (auto& lit : plan.literals) {
      auto& to = by_literal[lit];
      if (to.empty() || to.back() != p) to.push_back(p);
    }
    for (auto& [expr, flags] : plan.regexes) {
      fallback_exprs.push_back(std::move(expr));
      fallback_flags.push_back(flags);
      shard.fallback.push_back(p);
    }
    ++(plan.regexes.empty() ? shard.counts.prefiltered : shard.counts.fallback);
  }
  // Distinctive literals on every line, broad ones on marked lines only.
  LiteralMap distinct_lits, broad_lits;
  for (auto& [lit, pats] : by_literal) (IsDistinctiveLiteral(lit) ? distinct_lits : broad_lits)[lit] = std::move(pats);
  by_literal.clear();
  shard.counts.literals = distinct_lits.size() + broad_lits.size();
  shard.counts.broad_literals = broad_lits.size();
  // The three databases compile independently: with two threads, the
  // largest (distinctive literals) on one, the other two on the other.
  std::future<Status> distinct;
  if (threads > 1) distinct = std::async(std::launch::async, IndexLiterals, &distinct_lits, &shard.distinct);
  Status distinct_status = threads > 1 ? Status::Ok() : IndexLiterals(&distinct_lits, &shard.distinct);
  Status broad = IndexLiterals(&broad_lits, &shard.broad);
  auto re_db = regex::HsDatabase::CompileRegexes(fallback_exprs, fallback_flags);
  if (threads > 1) distinct_status = distinct.get();
  if (!distinct_status.ok()) return distinct_status;
  if (!broad.ok()) return broad;
  if (!re_db.ok()) return re_db.status();
  shard.fallback_db = std::move(re_db).value();
  return shard;
}

uint64_t PatternShard::Key(const std::vector<uint64_t>& hashes) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  const std::string header = fmt::format("{}|{}|{}|", kCacheFormat, kFactorPolicy, hs_version());
  XXH3_64bits_update(st, header.data(), header.size());
  XXH3_64bits_update(st, hashes.data(), hashes.size() * sizeof(uint64_t));
  const uint64_t key = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return key;
}

bool PatternShard::Save(const std::string& path, uint64_t key, const std::vector<uint32_t>& members) const {
  util::BinaryWriter w;
  w.Raw(std::string_view(kCacheMagic, sizeof kCacheMagic));
  w.U64(key);
  w.U64(members.size());
  for (const LiteralIndex* index : {&distinct, &broad}) {
    w.Bytes(index->db.Serialize());
    w.U32s(index->offsets);
    std::vector<uint32_t> local = index->patterns;
    Renumber(&local, members, true);
    w.U32s(local);
  }
  w.Bytes(fallback_db.Serialize());
  for (const auto* v : {&fallback, &every_line}) {
    std::vector<uint32_t> local = *v;
    Renumber(&local, members, true);
    w.U32s(local);
  }
  w.U32s({static_cast<uint32_t>(counts.prefiltered), static_cast<uint32_t>(counts.invalid)});
  w.Seal();
  return util::WriteFileAtomically(path, w.str());
}

bool PatternShard::Load(const std::string& path, uint64_t key, const std::vector<uint32_t>& members) {
  // Mapped, not read into a buffer: the databases are copied out of it by
  // Hyperscan anyway, and a second copy would double the memory.
  const util::MappedFile file(path);
  const std::string_view bytes = file.bytes();
  if (bytes.size() < sizeof kCacheMagic + 16 || std::memcmp(bytes.data(), kCacheMagic, sizeof kCacheMagic) != 0) {
    return false;
  }
  std::string_view sealed = bytes;
  if (!util::Unseal(&sealed)) return false;
  util::BinaryReader r(sealed.substr(sizeof kCacheMagic));
  // Numbers must stay in range whatever the file says.
  auto read_index = [&](LiteralIndex* index) {
    std::string_view db_bytes;
    if (!r.Bytes(&db_bytes) || !r.U32s(&index->offsets) || !r.U32s(&index->patterns)) return false;
    if (index->offsets.empty() || index->offsets.back() != index->patterns.size() ||
        !std::is_sorted(index->offsets.begin(), index->offsets.end()) || !Renumber(&index->patterns, members, false)) {
      return false;
    }
    auto db = regex::HsDatabase::Deserialize(db_bytes);
    if (!db.ok()) return false;
    index->db = std::move(db).value();
    return true;
  };
  uint64_t file_key, n;
  std::string_view re_bytes;
  std::vector<uint32_t> stored_counts;
  bool ok = r.U64(&file_key) && file_key == key && r.U64(&n) && n == members.size() && read_index(&distinct) &&
            read_index(&broad) && r.Bytes(&re_bytes) && r.U32s(&fallback) && r.U32s(&every_line) &&
            r.U32s(&stored_counts) && r.done() && stored_counts.size() == 2 && Renumber(&fallback, members, false) &&
            Renumber(&every_line, members, false);
  auto re_db = ok ? regex::HsDatabase::Deserialize(re_bytes) : Result<regex::HsDatabase>(Status::Internal("unread"));
  if (!ok || !re_db.ok()) {
    *this = PatternShard();
    return false;
  }
  fallback_db = std::move(re_db).value();
  counts.broad_literals = broad.offsets.size() - 1;
  counts.literals = distinct.offsets.size() - 1 + counts.broad_literals;
  counts.prefiltered = stored_counts[0];
  counts.invalid = stored_counts[1];
  std::vector<uint32_t> split = fallback;  // a split pattern may have several expressions
  std::sort(split.begin(), split.end());
  counts.fallback = static_cast<std::size_t>(std::unique(split.begin(), split.end()) - split.begin());
  return true;
}

}  // namespace kedb::match
