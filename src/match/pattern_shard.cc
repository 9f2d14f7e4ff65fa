#include "match/pattern_shard.h"

#include <hs/hs.h>
#include <xxhash.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <future>
#include <map>
#include <mutex>
#include <optional>

#include <fmt/format.h>

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
constexpr uint32_t kCacheFormat = 5;
constexpr char kMagic[8] = {'K', 'E', 'D', 'B', 'P', 'F', 'X', '4'};
// Shard files are used in place: only a small one is checked whole on
// open, a large one block by block as it is read.
constexpr std::size_t kCheckWholeBelow = 1 << 20;

// A literal that leads to this many patterns or more has them grouped by
// gate (PatternPlan::gate); fewer are one group.
constexpr std::size_t kGroupFrom = 8;
constexpr uint32_t kNoGate = UINT32_MAX;

// Literal table keys: a literal up to kKeyBytes long is its own key; a
// longer one is found through its first kKeyBytes bytes, then compared.
constexpr std::size_t kKeyBytes = TextKeys::kBytes;

// The sections of one literal index, from its first.
enum LiteralSection : std::size_t {
  kDb,            // the Hyperscan database, serialized
  kOffsets,       // literal i leads to patterns[offsets[i] .. offsets[i+1])
  kPatterns,      // local pattern numbers
  kLiteralTable,  // StringTable of the literals (three sections)
  kPrefixTable = kLiteralTable + 3,  // StringTable of the keys of longer literals
  kPrefixOffsets = kPrefixTable + 3,  // prefix j: prefix_literals[offsets[j] .. offsets[j+1])
  kPrefixLiterals,
  kKeyBits,       // a bit per key hash: most text is turned away here
  // Literal i's patterns in groups: groups[group_starts[i] .. group_starts[i+1]),
  // group g ending at group_ends[g] in patterns and needing gate g
  // (kNoGate, or a string of the gate table) in the line too.
  kGroupStarts,
  kGroupGates,
  kGroupEnds,
  kGateChars,
  kGateEnds,
  kLiteralSections
};
enum Section : std::size_t {
  kMeta,  // member count, prefiltered, invalid, key lengths of each index
  kDistinct,
  kBroad = kDistinct + kLiteralSections,
  kFallbackDb = kBroad + kLiteralSections,
  kFallback,
  kEveryLine,
  kCheckChars,
  kCheckEnds,
  kSections
};
enum Meta : std::size_t { kMembers, kPrefiltered, kInvalid, kLengthsDistinct, kLengthsBroad, kMetaSize };

uint64_t KeyHash(std::string_view key) { return util::StringTable::Hash(key); }
// The key bit of a hash: high bits, since the string tables' slots use the
// low ones.
std::size_t KeyBit(uint64_t hash, std::size_t bits) { return static_cast<std::size_t>(hash >> 32) & (bits - 1); }

char FoldAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }
std::string FoldedAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = FoldAscii(c);
  return out;
}

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
  auto parsed = regex::ParsePythonRegex(pattern);
  if (!parsed.ok() || !regex::Pcre2Regex::Compile(parsed->pcre2).ok()) return std::nullopt;
  LiteralIds ids;
  const LiteralCheck check(*parsed, &ids);
  PatternPlan plan{PlanPrefilter(std::string(pattern), *parsed), check.Encode(), {}};
  plan.gate = ChooseGate(check.Required(), plan.prefilter.literals);
  return plan;
}

// Literal -> local patterns, ordered by literal: literal i of the database
// is the i-th key.
using LiteralMap = std::map<std::string, std::vector<uint32_t>>;

// One literal index's sections, and its compiled database (nullopt when
// there is no literal). The key lengths present go to `lengths` (bit k-1
// for a key of k bytes).
// Literal -> patterns in groups by gate (`gates`, by local pattern).
struct LiteralGroups {
  std::vector<uint32_t> patterns, offsets{0};
  std::vector<uint32_t> group_starts{0}, group_gates, group_ends;
  std::string gate_chars;
  std::vector<uint32_t> gate_ends;
};
LiteralGroups GroupPatterns(const LiteralMap& by_literal, const std::vector<std::string>& gates) {
  LiteralGroups out;
  std::map<std::string_view, uint32_t> gate_ids;
  auto gate_id = [&](std::string_view gate) {
    auto [it, fresh] = gate_ids.try_emplace(gate, static_cast<uint32_t>(out.gate_ends.size()));
    if (fresh) {
      out.gate_chars += gate;
      out.gate_ends.push_back(static_cast<uint32_t>(out.gate_chars.size()));
    }
    return it->second;
  };
  for (const auto& [lit, given] : by_literal) {
    std::vector<uint32_t> pats = given;
    const bool grouped = pats.size() >= kGroupFrom;
    if (grouped) {
      std::stable_sort(pats.begin(), pats.end(), [&](uint32_t a, uint32_t b) { return gates[a] < gates[b]; });
    }
    for (std::size_t i = 0; i < pats.size(); ++i) {
      const std::string_view gate = grouped ? std::string_view(gates[pats[i]]) : std::string_view();
      const bool opens = i == 0 || (grouped && gates[pats[i - 1]] != gate);
      if (opens && i > 0) out.group_ends.push_back(static_cast<uint32_t>(out.patterns.size()));
      if (opens) out.group_gates.push_back(gate.empty() ? kNoGate : gate_id(gate));
      out.patterns.push_back(pats[i]);
    }
    if (!pats.empty()) out.group_ends.push_back(static_cast<uint32_t>(out.patterns.size()));
    out.offsets.push_back(static_cast<uint32_t>(out.patterns.size()));
    out.group_starts.push_back(static_cast<uint32_t>(out.group_gates.size()));
  }
  return out;
}

Result<regex::HsDatabase> WriteLiterals(const LiteralMap& by_literal, const std::vector<std::string>& gates,
                                        util::SectionWriter* w, uint64_t* lengths) {
  std::vector<std::string> literals;
  for (const auto& entry : by_literal) literals.push_back(entry.first);
  const LiteralGroups groups = GroupPatterns(by_literal, gates);
  auto db = regex::HsDatabase::CompileLiterals(literals);
  if (!db.ok()) return db.status();
  // Longer literals by key: literals are sorted, so those sharing a key
  // are neighbours.
  std::vector<std::string_view> prefixes;
  std::vector<uint32_t> prefix_offsets{0}, prefix_literals;
  *lengths = 0;
  std::vector<uint64_t> key_hashes;
  for (uint32_t i = 0; i < literals.size(); ++i) {
    const std::string_view lit = literals[i];
    const std::string_view key = lit.substr(0, kKeyBytes);
    *lengths |= uint64_t{1} << (key.size() - 1);
    if (lit.size() <= kKeyBytes) {
      key_hashes.push_back(KeyHash(key));
      continue;
    }
    if (prefixes.empty() || prefixes.back() != key) {
      if (!prefixes.empty()) prefix_offsets.push_back(static_cast<uint32_t>(prefix_literals.size()));
      prefixes.push_back(key);
      key_hashes.push_back(KeyHash(key));
    }
    prefix_literals.push_back(i);
  }
  if (!prefixes.empty()) prefix_offsets.push_back(static_cast<uint32_t>(prefix_literals.size()));
  // About 16 bits a key: one text position in 16 that is no key reaches
  // the tables.
  std::vector<uint64_t> bits(std::bit_ceil(std::max<std::size_t>(key_hashes.size() / 4, 1)), 0);
  for (uint64_t h : key_hashes) {
    const std::size_t b = KeyBit(h, bits.size() * 64);
    bits[b / 64] |= uint64_t{1} << (b % 64);
  }
  w->AddBytes(db->Serialize());
  w->Add(groups.offsets);
  w->Add(groups.patterns);
  std::vector<std::string_view> views(literals.begin(), literals.end());
  util::StringTable::Write(views, w);
  util::StringTable::Write(prefixes, w);
  w->Add(prefix_offsets);
  w->Add(prefix_literals);
  w->Add(bits);
  w->Add(groups.group_starts);
  w->Add(groups.group_gates);
  w->Add(groups.group_ends);
  w->AddBytes(groups.gate_chars);
  w->Add(groups.gate_ends);
  return db;
}

}  // namespace

// A literal index as used in place; its database is read on first use.
struct LiteralIndex {
  util::Array<char> db_bytes;
  util::Array<uint32_t> offsets, patterns;
  util::StringTable literals, prefixes;
  util::Array<uint32_t> prefix_offsets, prefix_literals;
  util::Array<uint64_t> key_bits;
  util::Array<uint32_t> group_starts, group_gates, group_ends, gate_ends;
  util::Array<char> gate_chars;
  uint64_t lengths = 0;

  std::once_flag db_once;
  std::atomic<bool> db_ready{false};
  std::atomic<uint32_t> table_uses{0};
  regex::HsDatabase db;

  bool Bind(const util::SectionFile& file, std::size_t first, uint64_t key_lengths) {
    lengths = key_lengths;
    return file.Get(first + kDb, &db_bytes) && file.Get(first + kOffsets, &offsets) &&
           file.Get(first + kPatterns, &patterns) && literals.Bind(file, first + kLiteralTable) &&
           prefixes.Bind(file, first + kPrefixTable) && file.Get(first + kPrefixOffsets, &prefix_offsets) &&
           file.Get(first + kPrefixLiterals, &prefix_literals) && file.Get(first + kKeyBits, &key_bits) &&
           file.Get(first + kGroupStarts, &group_starts) && file.Get(first + kGroupGates, &group_gates) &&
           file.Get(first + kGroupEnds, &group_ends) && file.Get(first + kGateChars, &gate_chars) &&
           file.Get(first + kGateEnds, &gate_ends) && group_starts.size() == literals.size() + 1 &&
           group_gates.size() == group_ends.size() &&
           offsets.size() == literals.size() + 1 && prefix_offsets.size() == prefixes.size() + 1 &&
           !key_bits.empty() && std::has_single_bit(key_bits.size());
  }

  const regex::HsDatabase& Database() {
    std::call_once(db_once, [&] {
      const auto bytes = db_bytes.All();
      // A database that does not read back finds nothing; the file's
      // block checks passed, so this means another Hyperscan.
      if (!bytes.empty()) {
        if (auto read = regex::HsDatabase::Deserialize({bytes.data(), bytes.size()}); read.ok()) db = std::move(*read);
      }
      db_ready = true;
    });
    return db;
  }

  // Each literal at each position of the text.
  template <typename F>
  void LookUp(const TextKeys& keys, F&& on_hit) const {
    const std::string_view folded = keys.folded();
    const std::size_t bits = key_bits.size() * 64;
    for (std::size_t i = 0; i < folded.size(); ++i) {
      const std::size_t longest = std::min(kKeyBytes, folded.size() - i);
      for (std::size_t k = 1; k <= longest; ++k) {
        if (!(lengths & (uint64_t{1} << (k - 1)))) continue;
        const uint64_t hash = keys.hash(i, k);
        const std::size_t b = KeyBit(hash, bits);
        if (!(key_bits[b / 64] & (uint64_t{1} << (b % 64)))) continue;
        const std::string_view key = folded.substr(i, k);
        if (int64_t id = literals.Find(key, hash); id >= 0) on_hit(static_cast<uint32_t>(id), i + k);
        if (k < kKeyBytes) continue;
        const int64_t prefix = prefixes.Find(key, hash);
        if (prefix < 0) continue;
        const uint32_t begin = prefix_offsets[prefix], end = prefix_offsets[prefix + 1];
        if (begin > end || end > prefix_literals.size()) continue;  // a damaged table finds nothing
        for (uint32_t lit : prefix_literals.Slice(begin, end)) {
          const std::string_view text = literals.At(lit);
          if (folded.substr(i, text.size()) == text) on_hit(lit, i + text.size());
        }
      }
    }
  }
};

struct PatternShard::Parts {
  std::unique_ptr<util::SectionFile> file;
  LiteralIndex index[2];
  util::Array<char> fallback_bytes, check_chars;
  util::Array<uint32_t> fallback, every_line, check_ends;
  std::once_flag fallback_once;
  regex::HsDatabase fallback_db;
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
  std::vector<uint32_t> fallback, every_line, check_ends;
  std::string check_chars;
  std::vector<std::string> gates(n);
  for (uint32_t q = 0; q < n; ++q) {
    std::optional<PatternPlan> plan = std::move(plans[q]);
    plans[q].reset();
    if (plan) check_chars += plan->check;
    if (plan) gates[q] = std::move(plan->gate);
    check_ends.push_back(static_cast<uint32_t>(check_chars.size()));
    if (!plan) {
      ++counts.invalid;
      continue;
    }
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
  LiteralMap distinct_lits, broad_lits;
  for (auto& [lit, pats] : by_literal) (IsDistinctiveLiteral(lit) ? distinct_lits : broad_lits)[lit] = std::move(pats);
  by_literal.clear();

  // The three databases compile independently: with two threads, the
  // largest (distinctive literals) on one, the other two on the other.
  util::SectionWriter distinct_w, rest_w;
  uint64_t lengths[2] = {0, 0};
  std::future<Result<regex::HsDatabase>> distinct_f;
  if (threads > 1) {
    distinct_f = std::async(std::launch::async, WriteLiterals, std::cref(distinct_lits), std::cref(gates), &distinct_w,
                            &lengths[0]);
  }
  auto distinct_db = threads > 1 ? Result<regex::HsDatabase>(Status::Internal(""))
                                 : WriteLiterals(distinct_lits, gates, &distinct_w, &lengths[0]);
  auto broad_db = WriteLiterals(broad_lits, gates, &rest_w, &lengths[1]);
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
  w.AddBytes(check_chars);
  w.Add(check_ends);

  PatternShard shard;
  shard.members_ = members;
  shard.parts_ = std::make_unique<Parts>();
  shard.parts_->file = util::SectionFile::FromBytes(w.Finish({kMagic, sizeof kMagic}, key), {kMagic, sizeof kMagic}, key);
  if (!shard.Bind()) return Status::Internal("pattern shard: the file just built does not read back");
  // The databases just compiled are kept: reading them back would cost
  // the time and memory again.
  Parts& parts = *shard.parts_;
  for (int k = 0; k < 2; ++k) {
    LiteralIndex& index = parts.index[k];
    auto& db = k == 0 ? distinct_db : broad_db;
    std::call_once(index.db_once, [&] {
      index.db = std::move(*db);
      index.db_ready = true;
    });
  }
  std::call_once(parts.fallback_once, [&] { parts.fallback_db = std::move(*fallback_db); });
  return shard;
}

bool PatternShard::Bind() {
  Parts& p = *parts_;
  util::Array<uint64_t> meta;
  if (!p.file || p.file->sections() != kSections || !p.file->Get(kMeta, &meta) || meta.size() != kMetaSize) {
    return false;
  }
  if (meta[kMembers] != members_.size() || !p.index[0].Bind(*p.file, kDistinct, meta[kLengthsDistinct]) ||
      !p.index[1].Bind(*p.file, kBroad, meta[kLengthsBroad]) || !p.file->Get(kFallbackDb, &p.fallback_bytes) ||
      !p.file->Get(kFallback, &p.fallback) || !p.file->Get(kEveryLine, &p.every_line) ||
      !p.file->Get(kCheckChars, &p.check_chars) || !p.file->Get(kCheckEnds, &p.check_ends) ||
      p.check_ends.size() != members_.size()) {
    return false;
  }
  counts_.prefiltered = meta[kPrefiltered];
  counts_.invalid = meta[kInvalid];
  counts_.broad_literals = p.index[1].literals.size();
  counts_.literals = p.index[0].literals.size() + counts_.broad_literals;
  std::vector<uint32_t> split(p.fallback.All().begin(), p.fallback.All().end());  // a split pattern may have several expressions
  std::sort(split.begin(), split.end());
  counts_.fallback = static_cast<std::size_t>(std::unique(split.begin(), split.end()) - split.begin());
  return true;
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

TextKeys::TextKeys(std::string_view text) : folded_(FoldedAscii(text)) {
  hashes_.resize(folded_.size() * kBytes);
  for (std::size_t i = 0; i < folded_.size(); ++i) {
    for (std::size_t k = 1; k <= kBytes && i + k <= folded_.size(); ++k) {
      hashes_[i * kBytes + k - 1] = KeyHash(std::string_view(folded_).substr(i, k));
    }
  }
}

void PatternShard::FindLiterals(Literals kind, std::string_view text,
                                const std::function<void(uint32_t literal, std::size_t end)>& on_hit, Route route,
                                const TextKeys* keys) const {
  LiteralIndex& index = parts_->index[static_cast<int>(kind)];
  if (index.literals.size() == 0) return;
  if (route == Route::kAuto) {
    bool database = text.size() > kShortText;
    // A process that matches many texts (a server, a long run) reads a
    // small database once and then scans with it.
    if (!database && index.literals.size() < kTableLiterals) {
      database = index.db_ready.load(std::memory_order_acquire) ||
                 index.table_uses.fetch_add(1, std::memory_order_relaxed) >= kTableTexts;
    }
    route = database ? Route::kDatabase : Route::kTable;
  }
  if (route == Route::kDatabase) {
    index.Database().Scan(text, [&](unsigned lit, unsigned long long end) { on_hit(lit, static_cast<std::size_t>(end)); });
    return;
  }
  if (keys) {
    index.LookUp(*keys, on_hit);
  } else {
    index.LookUp(TextKeys(text), on_hit);
  }
}

std::span<const uint32_t> PatternShard::LiteralPatterns(Literals kind, uint32_t literal) const {
  const LiteralIndex& index = parts_->index[static_cast<int>(kind)];
  if (literal + 1 >= index.offsets.size()) return {};
  const uint32_t begin = index.offsets[literal], end = index.offsets[literal + 1];
  if (begin > end || end > index.patterns.size()) return {};  // a damaged table leads nowhere
  return index.patterns.Slice(begin, end);
}

void PatternShard::Groups(Literals kind, uint32_t literal, std::vector<LiteralGroup>* out) const {
  out->clear();
  const LiteralIndex& index = parts_->index[static_cast<int>(kind)];
  if (literal + 1 >= index.offsets.size()) return;
  uint32_t begin = index.offsets[literal];
  const uint32_t g_begin = index.group_starts[literal], g_end = index.group_starts[literal + 1];
  if (g_begin > g_end || g_end > index.group_ends.size()) return;  // a damaged table leads nowhere
  for (uint32_t g = g_begin; g < g_end; ++g) {
    const uint32_t end = index.group_ends[g];
    if (begin > end || end > index.patterns.size()) return;
    LiteralGroup group{kNoGate, {}, index.patterns.Slice(begin, end)};
    if (const uint32_t gate = index.group_gates[g]; gate != kNoGate && gate < index.gate_ends.size()) {
      const uint32_t from = gate == 0 ? 0 : index.gate_ends[gate - 1], to = index.gate_ends[gate];
      if (from >= to || to > index.gate_chars.size()) return;
      const auto chars = index.gate_chars.Slice(from, to);
      group.gate = gate;
      group.gate_text = {chars.data(), chars.size()};
    }
    out->push_back(group);
    begin = end;
  }
}

bool PatternShard::has_literals(Literals kind) const {
  return parts_->index[static_cast<int>(kind)].literals.size() > 0;
}

const regex::HsDatabase& PatternShard::fallback_db() const {
  Parts& p = *parts_;
  std::call_once(p.fallback_once, [&] {
    const auto bytes = p.fallback_bytes.All();
    if (bytes.empty()) return;
    if (auto read = regex::HsDatabase::Deserialize({bytes.data(), bytes.size()}); read.ok()) p.fallback_db = std::move(*read);
  });
  return p.fallback_db;
}

uint32_t PatternShard::FallbackPattern(uint32_t expression) const {
  return expression < parts_->fallback.size() ? parts_->fallback[expression] : UINT32_MAX;
}

bool PatternShard::has_fallback() const { return !parts_->fallback.empty(); }

std::span<const uint32_t> PatternShard::every_line() const { return parts_->every_line.All(); }

std::string_view PatternShard::CheckBytes(uint32_t local) const {
  const Parts& p = *parts_;
  if (local >= p.check_ends.size()) return {};
  const uint32_t begin = local == 0 ? 0 : p.check_ends[local - 1], end = p.check_ends[local];
  if (begin > end || end > p.check_chars.size()) return {};
  const auto chars = p.check_chars.Slice(begin, end);
  return {chars.data(), chars.size()};
}

}  // namespace kedb::match
