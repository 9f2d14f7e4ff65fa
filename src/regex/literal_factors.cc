// The literal-factor algebra of the Python regex analysis: which strings
// every match of a fragment must contain (Factors in python_regex.h), and
// how they combine under concatenation, repetition and alternation. The
// prefilter (match/prefilter.h) builds its literal sets from the result.
#include <algorithm>
#include <utility>

#include "regex/python_regex.h"

namespace kedb::regex::internal {
namespace {

using Set = std::vector<std::string>;

// Bounds on PatternInfo::literal_choices, so that a pathological pattern
// cannot make the analysis quadratic.
constexpr std::size_t kMaxChoiceBranches = 64;
constexpr std::size_t kMaxChoiceSets = 16;
constexpr std::size_t kMaxChoices = 16;

// Longest string a repeat spells out in full; x{1000} keeps x{k}, k <= this.
constexpr std::size_t kMaxRepeatBytes = 256;

bool Trivial(const Set& set) {
  return set.empty() ||
         std::any_of(set.begin(), set.end(), [](const std::string& s) { return s.empty(); });
}

const Set& Back(const Factors& f) { return f.exact ? f.front : f.back; }

void AddSet(std::vector<Set>* sets, Set set) {
  if (!Trivial(set)) sets->push_back(std::move(set));
}

bool ProductFits(const Set& a, const Set& b) {
  return a.size() * b.size() <= kMaxExactStrings;
}

void SortUnique(Set* set) {
  std::sort(set->begin(), set->end());
  set->erase(std::unique(set->begin(), set->end()), set->end());
}

// *a = every string of *a followed by every string of b.
void Extend(Set* a, const Set& b) {
  if (b.size() == 1) {
    for (std::string& s : *a) s += b[0];
    return;
  }
  Set out;
  out.reserve(a->size() * b.size());
  for (const std::string& x : *a) {
    for (const std::string& y : b) out.push_back(x + y);
  }
  SortUnique(&out);  // ("" or "a") then ("a" or "") spells "a" twice
  *a = std::move(out);
}

Set Product(Set a, const Set& b) {
  Extend(&a, b);
  return a;
}

// The same filter with fewer literals: a literal that contains another one
// of the set adds nothing. Quadratic, so huge sets are only deduplicated.
Set Simplify(Set set) {
  SortUnique(&set);
  if (set.size() > 512) return set;
  std::stable_sort(set.begin(), set.end(),
                   [](const std::string& a, const std::string& b) { return a.size() < b.size(); });
  Set kept;
  for (const std::string& s : set) {
    const bool covered = std::any_of(kept.begin(), kept.end(), [&](const std::string& k) {
      return s.find(k) != std::string::npos;
    });
    if (!covered) kept.push_back(s);
  }
  std::sort(kept.begin(), kept.end());
  return kept;
}

std::size_t MinLength(const Set& set) {
  std::size_t n = kInf;
  for (const std::string& s : set) n = std::min(n, s.size());
  return n;
}

// Selectivity order: longest shortest literal, then fewest literals.
bool MoreSelective(const Set& a, const Set& b) {
  const std::size_t la = MinLength(a), lb = MinLength(b);
  if (la != lb) return la > lb;
  return a.size() < b.size();
}

// Every set `f` guarantees, edges included, not simplified.
std::vector<Set> AllSets(const Factors& f) {
  std::vector<Set> all = f.sets;
  AddSet(&all, f.front);
  if (!f.exact) AddSet(&all, f.back);
  return all;
}

// The branch's most selective set, simplified; empty when it has none.
Set BestSet(const Factors& f) {
  Set best;
  for (Set& set : AllSets(f)) {
    Set s = Simplify(std::move(set));
    if (best.empty() || MoreSelective(s, best)) best = std::move(s);
  }
  return best;
}

Factors ConcatSets(Factors a, const Factors& b) {
  if (a.exact && b.exact) {
    if (ProductFits(a.front, b.front)) {
      Extend(&a.front, b.front);
      return a;
    }
    // Too many combinations: stop extending, keep both as factors.
    return Factors{false, std::move(a.front), b.front, {}, {}};
  }
  Factors r = Factors::Break();
  r.sets = std::move(a.sets);
  r.sets.insert(r.sets.end(), b.sets.begin(), b.sets.end());
  if (a.exact) {
    if (ProductFits(a.front, b.front)) {
      r.front = Product(std::move(a.front), b.front);
    } else {
      r.front = std::move(a.front);
      AddSet(&r.sets, b.front);
    }
    r.back = b.back;
  } else if (b.exact) {
    r.front = std::move(a.front);
    if (ProductFits(a.back, b.front)) {
      r.back = Product(std::move(a.back), b.front);
    } else {
      AddSet(&r.sets, std::move(a.back));
      r.back = b.front;
    }
  } else {
    r.front = std::move(a.front);
    if (ProductFits(a.back, b.front)) {
      AddSet(&r.sets, Product(std::move(a.back), b.front));
    } else {
      AddSet(&r.sets, std::move(a.back));
      AddSet(&r.sets, b.front);
    }
    r.back = b.back;
  }
  return r;
}

}  // namespace

// Concatenation: the sets above, and both sides' choices.
Factors ConcatFactors(Factors a, const Factors& b) {
  auto choices = std::move(a.choices);
  choices.insert(choices.end(), b.choices.begin(), b.choices.end());
  Factors r = ConcatSets(std::move(a), b);
  r.choices = std::move(choices);
  return r;
}

Factors RepeatFactors(const Factors& x, std::size_t min, std::size_t max) {
  if (max == 0) return Factors{};  // matches only ""
  if (min == 0) return Factors::Break();
  if (!x.exact) {
    // x{n,m} = x x ... x: each copy's factors, and copies meet.
    Factors r = x;
    if (min >= 2 && ProductFits(x.back, x.front)) AddSet(&r.sets, Product(x.back, x.front));
    return r;
  }
  // Every match starts and ends with x{min}: spell out as much as fits.
  Set copies{std::string()};
  std::size_t k = 0;
  while (k < min && ProductFits(copies, x.front)) {
    Set next = Product(copies, x.front);
    if (k > 0 && MinLength(next) > kMaxRepeatBytes) break;
    copies = std::move(next);
    ++k;
  }
  if (k == min && min == max) return Factors{true, std::move(copies), {}, {}, {}};
  return Factors{false, copies, copies, {}, {}};
}

Factors AlternationFactors(const std::vector<Fragment>& branches) {
  const bool all_exact = std::all_of(branches.begin(), branches.end(),
                                     [](const Fragment& b) { return b.factors.exact; });
  Set front, back;
  auto unite = [](Set* all, const Set& edge) {
    if (edge.empty()) all->emplace_back();  // unknown, never expected
    all->insert(all->end(), edge.begin(), edge.end());
  };
  for (const Fragment& b : branches) {
    unite(&front, b.factors.front);
    unite(&back, Back(b.factors));
  }
  SortUnique(&front);
  SortUnique(&back);
  if (all_exact && front.size() <= kMaxExactStrings) return Factors{true, std::move(front), {}, {}, {}};
  // Edges stay usable for merging with neighbours; "" in either means that
  // some branch's edge is unknown.
  Factors r = Factors::Break();
  if (!Trivial(front)) r.front = std::move(front);
  if (!Trivial(back)) r.back = std::move(back);
  if (all_exact) return r;  // the edges say it all
  // One set: each branch's most selective set, united.
  Set chosen;
  for (const Fragment& b : branches) {
    Set best = BestSet(b.factors);
    if (best.empty()) return r;
    chosen.insert(chosen.end(), best.begin(), best.end());
  }
  SortUnique(&chosen);
  AddSet(&r.sets, std::move(chosen));
  // And the whole choice, when some branch has more than one set and the
  // choice stays small.
  std::vector<std::vector<Set>> choice;
  bool several = false;
  for (const Fragment& b : branches) {
    std::vector<Set> sets;
    for (Set& set : AllSets(b.factors)) sets.push_back(Simplify(std::move(set)));
    std::sort(sets.begin(), sets.end());
    sets.erase(std::unique(sets.begin(), sets.end()), sets.end());
    if (sets.size() > kMaxChoiceSets) sets.resize(kMaxChoiceSets);
    several = several || sets.size() > 1;
    choice.push_back(std::move(sets));
  }
  if (several && choice.size() <= kMaxChoiceBranches) r.choices.push_back(std::move(choice));
  return r;
}

Factors ClassFactors(const std::vector<std::pair<char32_t, char32_t>>& ranges) {
  constexpr std::size_t kMaxMembers = 4;
  std::size_t members = 0;
  for (const auto& [lo, hi] : ranges) members += hi - lo + 1;
  if (members > 4 * kMaxMembers) return Factors::Break();
  Set alternatives;
  for (const auto& [lo, hi] : ranges) {
    for (char32_t c = lo; c <= hi; ++c) {
      const char32_t folded = Fold(c);
      if (folded == kNoFold) return Factors::Break();
      std::string s;
      AppendUtf8(&s, folded);
      alternatives.push_back(std::move(s));
    }
  }
  SortUnique(&alternatives);
  if (alternatives.empty() || alternatives.size() > kMaxMembers) return Factors::Break();
  return Factors{true, std::move(alternatives), {}, {}, {}};
}

std::vector<std::vector<std::string>> FinalFactors(const Factors& f) {
  std::vector<Set> sets;
  for (Set& set : AllSets(f)) sets.push_back(Simplify(std::move(set)));
  std::sort(sets.begin(), sets.end());
  sets.erase(std::unique(sets.begin(), sets.end()), sets.end());
  // A set is implied by another when each literal of the other contains one
  // of its literals; it filters nothing more. (Quadratic: skipped for the
  // thousands of sets of a pathological pattern.)
  auto implies = [](const Set& strong, const Set& weak) {
    return std::all_of(strong.begin(), strong.end(), [&](const std::string& s) {
      return std::any_of(weak.begin(), weak.end(),
                         [&](const std::string& w) { return s.find(w) != std::string::npos; });
    });
  };
  std::vector<Set> kept;
  if (sets.size() > 256) {
    kept = std::move(sets);
  } else {
    for (std::size_t i = 0; i < sets.size(); ++i) {
      bool implied = false;
      for (std::size_t j = 0; j < sets.size() && !implied; ++j) {
        implied = j != i && implies(sets[j], sets[i]);
      }
      if (!implied) kept.push_back(sets[i]);
    }
  }
  std::stable_sort(kept.begin(), kept.end(), MoreSelective);
  return kept;
}

std::vector<std::vector<std::vector<Set>>> FinalChoices(const Factors& f) {
  auto choices = f.choices;
  if (choices.size() > kMaxChoices) choices.resize(kMaxChoices);
  return choices;
}

}  // namespace kedb::regex::internal
