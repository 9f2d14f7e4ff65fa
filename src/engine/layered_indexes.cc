#include "engine/layered_indexes.h"

#include <algorithm>

namespace kedb {

ChangedRecords::ChangedRecords(const KnowledgeBase::Changes& changes, std::size_t base_size) {
  std::vector<Record> records;
  records.reserve(changes.size());
  for (const auto& [position, record] : changes.replaced) {
    positions_.push_back(position);
    records.push_back(record);
  }
  for (const Record& record : changes.added) {
    positions_.push_back(base_size + (positions_.size() - changes.replaced.size()));
    records.push_back(record);
  }
  for (std::size_t slot = 0; slot < positions_.size(); ++slot) slot_of_[positions_[slot]] = static_cast<uint32_t>(slot);
  kb_ = KnowledgeBase::FromRecords(std::move(records));
}

Status ChangedRecords::Build(const match::SignatureIndex& base_signatures) {
  match::PatternSource source{kb_.size(), [this](uint32_t p) { return kb_.pattern(p); },
                              [this](uint32_t p) { return kb_.pattern_hash(p); }, kb_.content_key()};
  auto set = match::PatternSet::Build(std::move(source), "");
  if (!set.ok()) return set.status();
  patterns_ = std::move(set).value();
  signatures_ = std::make_unique<match::SignatureIndex>(kb_, base_signatures);
  return Status::Ok();
}

const search::Bm25Index& ChangedRecords::search(const search::Bm25Index& base) const {
  std::call_once(search_once_, [&] { search_ = std::make_unique<search::Bm25Index>(kb_, base); });
  return *search_;
}

// ---- patterns

std::pair<const match::PatternSet*, uint32_t> LayeredPatterns::Owner(uint32_t p) const {
  if (changed_) {
    if (auto slot = changed_->SlotOf(p)) return {&changed_->patterns(), *slot};
  }
  return {base_, p};
}

void LayeredPatterns::Scan(std::string_view text, const std::vector<std::size_t>& line_starts,
                           std::vector<match::LineHit>* hits, const std::vector<uint8_t>* broad_lines) const {
  if (!changed_) return base_->Scan(text, line_starts, hits, broad_lines);
  const std::size_t first = hits->size();
  base_->Scan(text, line_starts, hits, broad_lines);
  // A replaced record's old regex is still in base's set: its hits go.
  hits->erase(std::remove_if(hits->begin() + static_cast<std::ptrdiff_t>(first), hits->end(),
                             [&](const match::LineHit& h) { return changed_->SlotOf(h.pattern).has_value(); }),
              hits->end());
  std::vector<match::LineHit> changed_hits;
  changed_->patterns().Scan(text, line_starts, &changed_hits, broad_lines);
  if (changed_hits.empty()) return;
  for (match::LineHit& h : changed_hits) h.pattern = static_cast<uint32_t>(changed_->PositionOf(h.pattern));
  hits->insert(hits->end(), changed_hits.begin(), changed_hits.end());
  std::sort(hits->begin() + static_cast<std::ptrdiff_t>(first), hits->end(),
            [](const match::LineHit& a, const match::LineHit& b) {
              return a.line != b.line ? a.line < b.line : a.pattern < b.pattern;
            });
}

std::size_t LayeredPatterns::CaptureCount(uint32_t p) const {
  auto [set, local] = Owner(p);
  return set->CaptureCount(local);
}

std::optional<std::vector<std::optional<regex::Span>>> LayeredPatterns::Captures(uint32_t p,
                                                                                  std::string_view line) const {
  auto [set, local] = Owner(p);
  return set->Captures(local, line);
}

std::vector<std::string> LayeredPatterns::GroupNames(uint32_t p) const {
  auto [set, local] = Owner(p);
  return set->GroupNames(local);
}

std::size_t LayeredPatterns::MatchedLiteralChars(uint32_t p, std::string_view line, regex::Span span) const {
  auto [set, local] = Owner(p);
  return set->MatchedLiteralChars(local, line, span);
}

bool LayeredPatterns::has_broad() const {
  return base_->has_broad() || (changed_ && changed_->patterns().has_broad());
}

// ---- signatures

LayeredSignatures::LayeredSignatures(const match::SignatureIndex* base, const ChangedRecords* changed)
    : base_(base), changed_(changed) {
  const std::vector<std::string>& names = base_->domains().names();
  domains_ = names.size();
  if (!changed_) return;
  for (const std::string& domain : changed_->signatures().domains().names()) {
    auto it = std::find(names.begin(), names.end(), domain);
    domain_of_changed_.push_back(it == names.end() ? domains_++ : static_cast<std::size_t>(it - names.begin()));
  }
}

std::vector<double> LayeredSignatures::Affinity(const match::LineWords& words) const {
  if (!changed_ || !words.changed) return base_->domains().Affinity(words);
  auto [a, ours] = changed_->signatures().AffinityLaidOver(words, *words.changed);
  a.resize(domains_, 0);
  for (std::size_t d = 0; d < ours.size() && d < domain_of_changed_.size(); ++d) a[domain_of_changed_[d]] += ours[d];
  const double best = a.empty() ? 0 : *std::max_element(a.begin(), a.end());
  if (best > 0) {
    for (double& x : a) x /= best;
  }
  return a;
}

match::LineWords LayeredSignatures::Words(std::string_view text) const {
  match::LineWords words = base_->Words(text);
  if (changed_) words.changed = std::make_shared<const match::LineWords>(changed_->signatures().Words(text));
  return words;
}

// Calls `measure` on the index that holds record i, with the words made
// against it.
template <typename F>
auto OnOwner(const match::SignatureIndex* base, const ChangedRecords* changed, const match::LineWords& words,
             std::size_t i, F measure) {
  if (changed && words.changed) {
    if (auto slot = changed->SlotOf(i)) return measure(changed->signatures(), *words.changed, std::size_t{*slot});
  }
  return measure(*base, words, i);
}

match::WordMeasures LayeredSignatures::Measure(const match::LineWords& words, std::size_t i) const {
  return OnOwner(base_, changed_, words, i,
                 [](const match::SignatureIndex& x, const match::LineWords& w, std::size_t r) { return x.Measure(w, r); });
}

double LayeredSignatures::Recall(const match::LineWords& words, std::size_t i) const {
  return OnOwner(base_, changed_, words, i,
                 [](const match::SignatureIndex& x, const match::LineWords& w, std::size_t r) { return x.Recall(w, r); });
}

bool LayeredSignatures::CodesAgree(const match::LineWords& words, std::size_t i) const {
  return OnOwner(base_, changed_, words, i, [](const match::SignatureIndex& x, const match::LineWords& w,
                                               std::size_t r) { return x.CodesAgree(w, r); });
}

bool LayeredSignatures::NumberedCodesAgree(const match::LineWords& words, std::size_t i) const {
  return OnOwner(base_, changed_, words, i, [](const match::SignatureIndex& x, const match::LineWords& w,
                                               std::size_t r) { return x.NumberedCodesAgree(w, r); });
}

bool LayeredSignatures::CodesConflict(const match::LineWords& words, std::size_t i) const {
  return OnOwner(base_, changed_, words, i, [](const match::SignatureIndex& x, const match::LineWords& w,
                                               std::size_t r) { return x.CodesConflict(w, r); });
}

bool LayeredSignatures::ReadsLikeCounterexample(const match::LineWords& words, std::size_t i,
                                                double resemblance) const {
  return OnOwner(base_, changed_, words, i,
                 [resemblance](const match::SignatureIndex& x, const match::LineWords& w, std::size_t r) {
                   return x.ReadsLikeCounterexample(w, r, resemblance);
                 });
}

bool LayeredSignatures::SharesFamily(const match::LineWords& words, std::size_t i) const {
  return OnOwner(base_, changed_, words, i, [](const match::SignatureIndex& x, const match::LineWords& w,
                                               std::size_t r) { return x.SharesFamily(w, r); });
}

std::vector<match::Neighbour> LayeredSignatures::Merged(const match::LineWords& words, std::size_t k,
                                                        const NeighbourQuery& query) const {
  if (!changed_ || !words.changed) return query(*base_, words, k);
  // Base may propose replaced records (by their old words): asked for as
  // many more, so that k are left once they go.
  std::vector<match::Neighbour> out = query(*base_, words, k + changed_->size());
  std::erase_if(out, [&](const match::Neighbour& n) { return changed_->SlotOf(n.record).has_value(); });
  for (match::Neighbour n : query(changed_->signatures(), *words.changed, k)) {
    n.record = changed_->PositionOf(static_cast<uint32_t>(n.record));
    out.push_back(n);
  }
  std::sort(out.begin(), out.end(), match::MoreResembling);
  if (out.size() > k) out.resize(k);
  return out;
}

std::vector<match::Neighbour> LayeredSignatures::Nearest(const match::LineWords& words, std::size_t k,
                                                         double min_similarity) const {
  return Merged(words, k, [min_similarity](const match::SignatureIndex& x, const match::LineWords& w, std::size_t n) {
    return x.Nearest(w, n, min_similarity);
  });
}

std::vector<match::Neighbour> LayeredSignatures::FamilyNeighbours(const match::LineWords& words, std::size_t k) const {
  return Merged(words, k, [](const match::SignatureIndex& x, const match::LineWords& w, std::size_t n) {
    return x.FamilyNeighbours(w, n);
  });
}

std::size_t LayeredSignatures::DomainOf(std::size_t i) const {
  if (changed_) {
    if (auto slot = changed_->SlotOf(i)) return domain_of_changed_[changed_->signatures().domains().DomainOf(*slot)];
  }
  return base_->domains().DomainOf(i);
}

// ---- search

std::vector<search::Hit> SearchLayered(const search::Bm25Index& base, const ChangedRecords* changed,
                                       const KnowledgeBase& kb, std::string_view query, std::size_t top,
                                       const std::function<bool(std::size_t)>& keep) {
  if (!changed) return base.Search(query, top, keep);
  std::vector<search::Hit> out = base.Search(query, top, [&](std::size_t i) {
    return !changed->SlotOf(i).has_value() && (!keep || keep(i));
  });
  std::vector<search::Hit> more = changed->search(base).Search(query, top, [&](std::size_t slot) {
    return !keep || keep(changed->PositionOf(static_cast<uint32_t>(slot)));
  });
  for (search::Hit& h : more) {
    h.record = changed->PositionOf(static_cast<uint32_t>(h.record));
    out.push_back(std::move(h));
  }
  std::sort(out.begin(), out.end(), [&](const search::Hit& a, const search::Hit& b) {
    return a.score != b.score ? a.score > b.score : kb.record(a.record).id < kb.record(b.record).id;
  });
  if (out.size() > top) out.resize(top);
  return out;
}

}  // namespace kedb
