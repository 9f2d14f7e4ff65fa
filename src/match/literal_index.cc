#include "match/literal_index.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>

#include "util/section_file.h"

namespace kedb::match {
namespace {

// A literal that leads to this many patterns or more has them grouped by
// gate (PatternPlan::gate); fewer are one group.
constexpr std::size_t kGroupFrom = 8;
constexpr uint32_t kNoGate = UINT32_MAX;

// Literal table keys: a literal up to kKeyBytes long is its own key; a
// longer one is found through its first kKeyBytes bytes, then compared.
constexpr std::size_t kKeyBytes = TextKeys::kBytes;

// Hyperscan is given each literal up to this long, and only the start of
// each longer one (see Write). Its compile time and its speed on text
// made of the literals' own words both suffer from long literals that
// end alike (at a million generated patterns, "... after "): a shard of
// 105k literals compiled in 30 s and scanned error lines at 84 MB/s,
// with keys of 16 bytes in 5 s and at 190 MB/s.
constexpr std::size_t kDatabaseKeyBytes = 16;

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
  kGates,  // StringList of the gates (two sections)
  kLongest = kGates + 2,  // the length of the longest literal
  kLiteralSections
};

static_assert(kLiteralSections == LiteralIndex::kSections);

uint64_t KeyHash(std::string_view key) { return util::StringTable::Hash(key); }
// The key bit of a hash: high bits, since the string tables' slots use the
// low ones.
std::size_t KeyBit(uint64_t hash, std::size_t bits) { return static_cast<std::size_t>(hash >> 32) & (bits - 1); }

// Literal -> patterns in groups by gate (`gates`, by local pattern).
struct LiteralGroups {
  std::vector<uint32_t> patterns, offsets{0};
  std::vector<uint32_t> group_starts{0}, group_gates, group_ends;
  std::vector<std::string_view> gates;  // by gate number
};
LiteralGroups GroupPatterns(const LiteralMap& by_literal, const std::vector<std::string>& gates) {
  LiteralGroups out;
  std::map<std::string_view, uint32_t> gate_ids;
  auto gate_id = [&](std::string_view gate) {
    auto [it, fresh] = gate_ids.try_emplace(gate, static_cast<uint32_t>(out.gates.size()));
    if (fresh) out.gates.push_back(gate);
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


// What Hyperscan looks for in an index of `count` sorted literals (`at`):
// each literal up to kDatabaseKeyBytes long, reported as `base` plus its
// number, and the first kDatabaseKeyBytes of the longer ones, once per
// distinct start, reported as `base` plus count plus the number of their
// table key (`key_of`, as the index's prefix table numbers it; negative
// for none, which leaves the literal out): the literals behind that key
// which begin there are then found as the table finds them
// (LongLiteralsAt).
template <typename At, typename KeyOf>
void ListDatabaseKeys(std::size_t count, const At& at, const KeyOf& key_of, unsigned base,
                      std::vector<std::string>* keys, std::vector<unsigned>* ids) {
  for (uint32_t i = 0; i < count; ++i) {
    const std::string_view lit = at(i);
    if (lit.size() <= kDatabaseKeyBytes) {
      keys->emplace_back(lit);
      ids->push_back(base + i);
      continue;
    }
    // Sorted: the literals that share a start are neighbours.
    const std::string_view start = lit.substr(0, kDatabaseKeyBytes);
    const int64_t key = key_of(i);
    if (key < 0) continue;
    const unsigned id = base + static_cast<unsigned>(count) + static_cast<unsigned>(key);
    if (keys->empty() || ids->back() != id || keys->back() != start) {
      keys->emplace_back(start);
      ids->push_back(id);
    }
  }
}

}  // namespace

Result<regex::HsDatabase> LiteralIndex::Write(const LiteralMap& by_literal, const std::vector<std::string>& gates,
                                              util::SectionWriter* w, uint64_t* lengths) {
  std::vector<std::string> literals;
  for (const auto& entry : by_literal) literals.push_back(entry.first);
  const LiteralGroups groups = GroupPatterns(by_literal, gates);
  // Longer literals by key: literals are sorted, so those sharing a key
  // are neighbours.
  std::vector<std::string_view> prefixes;
  std::vector<uint32_t> prefix_offsets{0}, prefix_literals;
  *lengths = 0;
  std::vector<uint64_t> key_hashes;
  const auto count = static_cast<uint32_t>(literals.size());
  std::vector<int64_t> key_of(count, -1);  // of each literal longer than a key: its key's number
  uint64_t longest = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const std::string_view lit = literals[i];
    const std::string_view key = lit.substr(0, kKeyBytes);
    *lengths |= uint64_t{1} << (key.size() - 1);
    longest = std::max<uint64_t>(longest, lit.size());
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
    key_of[i] = static_cast<int64_t>(prefixes.size() - 1);
  }
  std::vector<std::string> db_keys;
  std::vector<unsigned> db_ids;
  ListDatabaseKeys(
      literals.size(), [&](uint32_t i) { return std::string_view(literals[i]); },
      [&](uint32_t i) { return key_of[i]; }, 0, &db_keys, &db_ids);
  if (!prefixes.empty()) prefix_offsets.push_back(static_cast<uint32_t>(prefix_literals.size()));
  auto db = regex::HsDatabase::CompileLiterals(db_keys, &db_ids);
  if (!db.ok()) return db.status();
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
  util::StringList::Write(groups.gates, w);
  w->Add(std::vector<uint64_t>{longest});
  return db;
}


void FoldAscii(std::string_view s, std::string* out) {
  out->assign(s);
  for (char& c : *out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
}

std::string FoldedAscii(std::string_view s) {
  std::string out;
  FoldAscii(s, &out);
  return out;
}

TextKeys::TextKeys(std::string_view text) : folded_(FoldedAscii(text)) {
  hashes_.resize(folded_.size() * kBytes);
  for (std::size_t i = 0; i < folded_.size(); ++i) {
    for (std::size_t k = 1; k <= kBytes && i + k <= folded_.size(); ++k) {
      hashes_[i * kBytes + k - 1] = KeyHash(std::string_view(folded_).substr(i, k));
    }
  }
}

bool LiteralIndex::Bind(const util::SectionFile& file, std::size_t first, uint64_t key_lengths) {
  lengths_ = key_lengths;
  util::Array<char> db_bytes;
  if (!file.Get(first + kDb, &db_bytes)) return false;
  db_.Bind(db_bytes);
  util::Array<uint64_t> longest;
  const bool bound = file.Get(first + kOffsets, &offsets_) &&
         file.Get(first + kPatterns, &patterns_) && literals_.Bind(file, first + kLiteralTable) &&
         prefixes_.Bind(file, first + kPrefixTable) && file.Get(first + kPrefixOffsets, &prefix_offsets_) &&
         file.Get(first + kPrefixLiterals, &prefix_literals_) && file.Get(first + kKeyBits, &key_bits_) &&
         file.Get(first + kGroupStarts, &group_starts_) && file.Get(first + kGroupGates, &group_gates_) &&
         file.Get(first + kGroupEnds, &group_ends_) && gates_.Bind(file, first + kGates) &&
         file.Get(first + kLongest, &longest) && longest.size() == 1 &&
         group_starts_.size() == literals_.size() + 1 &&
         group_gates_.size() == group_ends_.size() &&
         offsets_.size() == literals_.size() + 1 && prefix_offsets_.size() == prefixes_.size() + 1 &&
         !key_bits_.empty() && std::has_single_bit(key_bits_.size());
  if (bound) longest_ = static_cast<std::size_t>(longest[0]);
  return bound;
}

const regex::HsDatabase& StoredDatabase::Get() const {
  std::call_once(once_, [&] {
    const auto bytes = bytes_.All();
    if (!bytes.empty()) {
      if (auto read = regex::HsDatabase::Deserialize({bytes.data(), bytes.size()}); read.ok()) db_ = std::move(*read);
    }
    ready_ = true;
  });
  return db_;
}

void StoredDatabase::Keep(regex::HsDatabase db) {
  std::call_once(once_, [&] {
    db_ = std::move(db);
    ready_ = true;
  });
}

// The literals of `group` (ids of sorted literals sharing a key) that
// begin `text`, shortest first. Checking each literal cost a comparison per
// literal of the group, and at a million patterns a key such as "failed t"
// leads to thousands. Sorted, the longest literal that begins `text` is the
// greatest literal not above it, if that one begins it; otherwise any that
// does is no longer than their common start. So each step is a binary
// search, and there are about as many steps as literals found.
template <typename F>
void LiteralIndex::LiteralsBeginning(std::span<const uint32_t> group, std::string_view text, F&& on_hit) const {
  std::array<std::pair<uint32_t, std::size_t>, 16> found;  // longest first, emitted reversed
  std::size_t n = 0;
  std::size_t below = group.size();  // candidates are group[0, below)
  while (text.size() > kKeyBytes && below > 0) {
    auto after = std::upper_bound(group.begin(), group.begin() + static_cast<std::ptrdiff_t>(below), text,
                                  [&](std::string_view t, uint32_t lit) { return t < literals_.At(lit); });
    if (after == group.begin()) break;
    below = static_cast<std::size_t>(after - group.begin()) - 1;
    const std::string_view lit = literals_.At(group[below]);
    const std::size_t common =
        static_cast<std::size_t>(std::mismatch(lit.begin(), lit.end(), text.begin(), text.end()).first - lit.begin());
    if (common < lit.size()) {
      text = text.substr(0, common);
      continue;
    }
    if (n == found.size()) {  // a chain this long is rare: emit those held, and lose the order
      for (; n > 0; --n) on_hit(found[n - 1].first, found[n - 1].second);
    }
    found[n++] = {group[below], lit.size()};
    text = text.substr(0, lit.size() - 1);
  }
  for (std::size_t k = n; k > 0; --k) on_hit(found[k - 1].first, found[k - 1].second);
}

// Each literal at each position of the text.
template <typename F>
void LiteralIndex::LookUp(const TextKeys& keys, F&& on_hit) const {
  const std::string_view folded = keys.folded();
  const std::size_t bits = key_bits_.size() * 64;
  for (std::size_t i = 0; i < folded.size(); ++i) {
    const std::size_t longest = std::min(kKeyBytes, folded.size() - i);
    for (std::size_t k = 1; k <= longest; ++k) {
      if (!(lengths_ & (uint64_t{1} << (k - 1)))) continue;
      const uint64_t hash = keys.hash(i, k);
      const std::size_t b = KeyBit(hash, bits);
      if (!(key_bits_[b / 64] & (uint64_t{1} << (b % 64)))) continue;
      const std::string_view key = folded.substr(i, k);
      if (int64_t id = literals_.Find(key, hash); id >= 0) on_hit(static_cast<uint32_t>(id), i + k);
      if (k < kKeyBytes) continue;
      const int64_t prefix = prefixes_.Find(key, hash);
      if (prefix < 0) continue;
      const uint32_t begin = prefix_offsets_[prefix], end = prefix_offsets_[prefix + 1];
      if (begin > end || end > prefix_literals_.size()) continue;  // a damaged table finds nothing
      LiteralsBeginning(prefix_literals_.Slice(begin, end), folded.substr(i), [&](uint32_t lit, std::size_t size) {
        on_hit(lit, i + size);
      });
    }
  }
}

void LiteralIndex::KeepDatabase(regex::HsDatabase db) { db_.Keep(std::move(db)); }

void LiteralIndex::LongLiteralsAt(uint32_t prefix, std::string_view text, std::size_t start, std::string* folded,
                                  const std::function<void(uint32_t literal, std::size_t end)>& on_hit) const {
  if (prefix + 1 >= prefix_offsets_.size()) return;
  const uint32_t begin = prefix_offsets_[prefix], end = prefix_offsets_[prefix + 1];
  if (begin > end || end > prefix_literals_.size()) return;  // a damaged table finds nothing
  // No literal holds a newline, and none is longer than longest_.
  std::string_view rest = text.substr(start, longest_);
  rest = rest.substr(0, rest.find('\n'));
  FoldAscii(rest, folded);
  // The shorter literals of the key were reported by Hyperscan already.
  LiteralsBeginning(prefix_literals_.Slice(begin, end), *folded, [&](uint32_t lit, std::size_t size) {
    if (size > kDatabaseKeyBytes) on_hit(lit, start + size);
  });
}

void LiteralIndex::DatabaseKeys(unsigned base, std::vector<std::string>* keys, std::vector<unsigned>* ids) const {
  // A longer literal's key number is the prefix table's, so the ids are
  // those LongLiteralsAt reads (a key not in the table, only in a damaged
  // file, is left out).
  ListDatabaseKeys(
      literals_.size(), [&](uint32_t i) { return literals_.At(i); },
      [&](uint32_t i) { return prefixes_.Find(literals_.At(i).substr(0, kKeyBytes)); }, base, keys, ids);
}

void LiteralIndex::DatabaseHit(unsigned id, std::string_view text, std::size_t end, std::string* folded,
                               const std::function<void(uint32_t literal, std::size_t end)>& on_hit) const {
  const auto count = static_cast<uint32_t>(literals_.size());
  if (id < count) return on_hit(id, end);
  if (end >= kDatabaseKeyBytes) LongLiteralsAt(id - count, text, end - kDatabaseKeyBytes, folded, on_hit);
}

void LiteralIndex::Find(std::string_view text, const std::function<void(uint32_t literal, std::size_t end)>& on_hit,
                        Route route, const TextKeys* keys) const {
  if (literals_.size() == 0) return;
  if (route == Route::kAuto) {
    bool database = text.size() > kShortText;
    // A process that matches many texts (a server, a long run) reads a
    // small database once and then scans with it.
    if (!database && literals_.size() < kTableLiterals) {
      database = db_.ready() ||
                 table_uses_.fetch_add(1, std::memory_order_relaxed) >= kTableTexts;
    }
    route = database ? Route::kDatabase : Route::kTable;
  }
  if (route == Route::kDatabase) {
    std::string folded;
    db_.Get().Scan(text, [&](unsigned id, unsigned long long end) {
      DatabaseHit(id, text, static_cast<std::size_t>(end), &folded, on_hit);
    });
    return;
  }
  if (keys) {
    LookUp(*keys, on_hit);
  } else {
    LookUp(TextKeys(text), on_hit);
  }
}

std::span<const uint32_t> LiteralIndex::Patterns(uint32_t literal) const {
  if (literal + 1 >= offsets_.size()) return {};
  const uint32_t begin = offsets_[literal], end = offsets_[literal + 1];
  if (begin > end || end > patterns_.size()) return {};  // a damaged table leads nowhere
  return patterns_.Slice(begin, end);
}

void LiteralIndex::Groups(uint32_t literal, std::vector<Group>* out) const {
  out->clear();
  if (literal + 1 >= offsets_.size()) return;
  uint32_t begin = offsets_[literal];
  const uint32_t g_begin = group_starts_[literal], g_end = group_starts_[literal + 1];
  if (g_begin > g_end || g_end > group_ends_.size()) return;  // a damaged table leads nowhere
  for (uint32_t g = g_begin; g < g_end; ++g) {
    const uint32_t end = group_ends_[g];
    if (begin > end || end > patterns_.size()) return;
    Group group{kNoGate, {}, patterns_.Slice(begin, end)};
    // A gate the list does not hold reads as none: the group's patterns
    // are then tried, which costs time and loses nothing.
    if (const uint32_t gate = group_gates_[g]; gate != kNoGate) {
      group.gate_text = gates_.At(gate);
      if (!group.gate_text.empty()) group.gate = gate;
    }
    out->push_back(group);
    begin = end;
  }
}

}  // namespace kedb::match
