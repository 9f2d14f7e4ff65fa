#include "match/literal_check.h"

#include <algorithm>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace kedb::match {
namespace {

// Sets and branches past these sizes are left out: the check gets weaker,
// never wrong, and its cost stays bounded.
constexpr std::size_t kMaxSetLiterals = 32;
constexpr std::size_t kMaxBranchSets = 8;

bool Usable(const std::vector<std::string>& set) {
  return !set.empty() && set.size() <= kMaxSetLiterals &&
         std::none_of(set.begin(), set.end(), [](const std::string& s) { return s.empty(); });
}

}  // namespace

uint32_t LiteralIds::Intern(const std::string& literal) {
  std::lock_guard<std::mutex> lock(mu_);
  return ids_.try_emplace(literal, static_cast<uint32_t>(ids_.size())).first->second;
}

void LineLiterals::Reset(std::string_view folded_line) {
  line_ = folded_line;
  searches_ = 0;
  pairs_built_ = false;
  if (++epoch_ == 0) {  // wrapped: forget everything
    std::fill(seen_.begin(), seen_.end(), Seen{});
    epoch_ = 1;
  }
}

bool LineLiterals::Has(uint32_t id, std::string_view literal) {
  if (id >= seen_.size()) {
    // Ids are dense and asked in no order: grow in steps, not by one.
    seen_.resize(std::max<std::size_t>({id + 1, 2 * seen_.size(), 64}));
  }
  Seen& seen = seen_[id];
  if (seen.epoch != epoch_) {
    seen.epoch = epoch_;
    // Most candidate lines are asked about a few literals: a plain search
    // (tens of nanoseconds) is cheaper than building the bitmap, which pays
    // off only when many are asked.
    if (!pairs_built_ && ++searches_ > kSearchesBeforePairs) BuildPairs();
    seen.found = (!pairs_built_ || MayContain(literal)) && line_.find(literal) != std::string_view::npos;
  }
  return seen.found;
}

void LineLiterals::BuildPairs() {
  std::fill(std::begin(pairs_), std::end(pairs_), 0);
  for (std::size_t i = 0; i + 1 < line_.size(); ++i) {
    std::size_t h = PairHash(static_cast<unsigned char>(line_[i]), static_cast<unsigned char>(line_[i + 1]));
    pairs_[h / 64] |= uint64_t{1} << (h % 64);
  }
  pairs_built_ = true;
}

// False when some byte pair of `literal` is missing from the line.
bool LineLiterals::MayContain(std::string_view literal) const {
  for (std::size_t i = 0; i + 1 < literal.size(); ++i) {
    std::size_t h = PairHash(static_cast<unsigned char>(literal[i]), static_cast<unsigned char>(literal[i + 1]));
    if (!(pairs_[h / 64] & (uint64_t{1} << (h % 64)))) return false;
  }
  return true;
}

LiteralCheck::LiteralCheck(const regex::PatternInfo& info, LiteralIds* ids) {
  auto make_set = [&](const std::vector<std::string>& set) {
    Set out;
    for (const auto& s : set) out.push_back({ids->Intern(s), s});
    return out;
  };
  // Longest shortest literal first: a long literal is rarer, so a line
  // that lacks it is turned away after one search.
  auto by_selectivity = [](Branch* sets) {
    auto shortest = [](const Set& set) {
      std::size_t n = SIZE_MAX;
      for (const auto& l : set) n = std::min(n, l.text.size());
      return n;
    };
    std::stable_sort(sets->begin(), sets->end(),
                     [&](const Set& a, const Set& b) { return shortest(a) > shortest(b); });
  };
  for (const auto& set : info.literal_factors) {
    if (Usable(set) && all_.size() < kMaxBranchSets) all_.push_back(make_set(set));
  }
  by_selectivity(&all_);
  for (const auto& choice : info.literal_choices) {
    std::vector<Branch> branches;
    bool usable = true;
    for (const auto& branch_sets : choice) {
      Branch branch;
      for (const auto& set : branch_sets) {
        if (Usable(set) && branch.size() < kMaxBranchSets) branch.push_back(make_set(set));
      }
      // A branch with no literal can match anywhere: the choice says nothing.
      if (branch.empty()) {
        usable = false;
        break;
      }
      by_selectivity(&branch);
      branches.push_back(std::move(branch));
    }
    if (usable && !branches.empty()) choices_.push_back(std::move(branches));
  }
}

namespace {

constexpr std::size_t kMaxEncoded = 255;

void EncodeCount(std::size_t n, std::string* out) { out->push_back(static_cast<char>(std::min(n, kMaxEncoded))); }

// Reads what EncodeCount and the literal bytes wrote; every read fails once
// the input runs short.
class CheckReader {
 public:
  explicit CheckReader(std::string_view b) : b_(b) {}
  bool Count(std::size_t* n) {
    if (b_.empty()) return false;
    *n = static_cast<unsigned char>(b_[0]);
    b_.remove_prefix(1);
    return true;
  }
  bool Text(std::string_view* s) {
    std::size_t n;
    if (!Count(&n) || n == 0 || b_.size() < n) return false;
    *s = b_.substr(0, n);
    b_.remove_prefix(n);
    return true;
  }
  bool done() const { return b_.empty(); }

 private:
  std::string_view b_;
};

}  // namespace

void LiteralCheck::EncodeBranch(const Branch& branch, std::string* out) {
  EncodeCount(branch.size(), out);
  for (const Set& set : branch) {
    EncodeCount(set.size(), out);
    for (const Literal& l : set) {
      const std::size_t n = std::min(l.text.size(), kMaxEncoded);
      EncodeCount(n, out);
      out->append(l.text, 0, n);
    }
  }
}

std::string LiteralCheck::Encode() const {
  if (empty()) return {};
  std::string out;
  EncodeBranch(all_, &out);
  // A choice left out only weakens the check; a branch cannot be left
  // out of a choice, so a choice of too many branches goes whole.
  std::vector<const std::vector<Branch>*> kept;
  for (const auto& choice : choices_) {
    if (choice.size() <= kMaxEncoded && kept.size() < kMaxEncoded) kept.push_back(&choice);
  }
  EncodeCount(kept.size(), &out);
  for (const auto* choice : kept) {
    EncodeCount(choice->size(), &out);
    for (const Branch& b : *choice) EncodeBranch(b, &out);
  }
  return out;
}

LiteralCheck LiteralCheck::Decode(std::string_view bytes, LiteralIds* ids) {
  if (bytes.empty()) return {};
  CheckReader r(bytes);
  auto read_branch = [&](Branch* branch) {
    std::size_t sets;
    if (!r.Count(&sets)) return false;
    for (std::size_t s = 0; s < sets; ++s) {
      std::size_t lits;
      if (!r.Count(&lits) || lits == 0) return false;
      Set set;
      for (std::size_t l = 0; l < lits; ++l) {
        std::string_view text;
        if (!r.Text(&text)) return false;
        set.push_back({ids->Intern(std::string(text)), std::string(text)});
      }
      branch->push_back(std::move(set));
    }
    return true;
  };
  LiteralCheck check;
  std::size_t choices;
  if (!read_branch(&check.all_) || !r.Count(&choices)) return {};
  for (std::size_t c = 0; c < choices; ++c) {
    std::size_t branches;
    if (!r.Count(&branches) || branches == 0) return {};
    std::vector<Branch> choice(branches);
    for (Branch& b : choice) {
      if (!read_branch(&b) || b.empty()) return {};
    }
    check.choices_.push_back(std::move(choice));
  }
  if (!r.done()) return {};
  return check;
}

std::vector<std::string_view> LiteralCheck::Required() const {
  std::vector<std::string_view> out;
  for (const Set& set : all_) {
    if (set.size() == 1) out.push_back(set[0].text);
  }
  return out;
}

bool LiteralCheck::Holds(const Set& set, LineLiterals* line) {
  return std::any_of(set.begin(), set.end(), [&](const Literal& l) { return line->Has(l.id, l.text); });
}

bool LiteralCheck::Holds(const Branch& branch, LineLiterals* line) {
  return std::all_of(branch.begin(), branch.end(), [&](const Set& set) { return Holds(set, line); });
}

bool LiteralCheck::MayMatch(LineLiterals* line) const {
  if (!Holds(all_, line)) return false;
  for (const auto& choice : choices_) {
    bool any = std::any_of(choice.begin(), choice.end(), [&](const Branch& b) { return Holds(b, line); });
    if (!any) return false;
  }
  return true;
}

void FoldLine(std::string_view line, std::string* out) {
  out->resize(line.size());
  const char* in = line.data();
  char* to = out->data();
  std::size_t i = 0;
  unsigned char high = 0;  // any byte >= 0x80 seen
#ifdef __SSE2__
  // ASCII letters lowered 16 bytes at a time; bytes >= 0x80 compare as
  // negative, so they are never taken for letters (and send the line to
  // the slow path below anyway).
  const __m128i before_a = _mm_set1_epi8('A' - 1), after_z = _mm_set1_epi8('Z' + 1), bit = _mm_set1_epi8(0x20);
  int any_high = 0;
  for (; i + 16 <= line.size(); i += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
    any_high |= _mm_movemask_epi8(v);
    __m128i upper = _mm_and_si128(_mm_cmpgt_epi8(v, before_a), _mm_cmplt_epi8(v, after_z));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i), _mm_or_si128(v, _mm_and_si128(upper, bit)));
  }
  if (any_high) high = 0x80;
#endif
  for (; i < line.size(); ++i) {
    auto c = static_cast<unsigned char>(in[i]);
    high |= c & 0x80;
    to[i] = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  }
  if (high) *out = regex::FoldLiteralCase(line);
}

}  // namespace kedb::match
