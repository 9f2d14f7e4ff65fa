#include "kb/kb_overlay.h"

#include <xxhash.h>

#include "kb/record_codec.h"
#include "util/binary_io.h"

namespace kedb {

KnowledgeBase::Overlay::Overlay(std::shared_ptr<const KnowledgeBase> base, Changes changes)
    : base_(std::move(base)) {
  const std::size_t base_size = base_->size();
  records_.reserve(changes.size());
  for (auto& [position, record] : changes.replaced) {
    slot_of_[position] = records_.size();
    records_.push_back(std::move(record));
  }
  for (Record& record : changes.added) {
    const std::size_t position = base_size + added_ids_.size();
    added_ids_.emplace(record.id, position);
    slot_of_[position] = records_.size();
    records_.push_back(std::move(record));
  }
  size_ = base_size + added_ids_.size();
  // Base's key, then each changed record's position and encoding: caches
  // keyed by it never mistake the overlay for base, or for another overlay.
  const uint64_t header[] = {base_->content_key(), kRecordCodecVersion, records_.size()};
  content_key_ = XXH3_64bits(header, sizeof header);
  util::BinaryWriter w;
  for (const auto& [position, slot] : slot_of_) {
    w.str().clear();
    w.U64(position);
    EncodeRecord(records_[slot], &w);
    content_key_ ^= XXH3_64bits(w.str().data(), w.str().size());  // the map has no fixed order
  }
}

const Record* KnowledgeBase::Overlay::Changed(std::size_t i) const {
  auto it = slot_of_.find(i);
  return it == slot_of_.end() ? nullptr : &records_[it->second];
}

const Record& KnowledgeBase::Overlay::Get(std::size_t i) const {
  const Record* changed = Changed(i);
  return changed ? *changed : base_->record(i);
}

void KnowledgeBase::Overlay::ForEach(const std::function<void(std::size_t, const Record&)>& visit) const {
  base_->ForEachRecord([&](std::size_t i, const Record& r) {
    const Record* changed = Changed(i);
    visit(i, changed ? *changed : r);
  });
  for (std::size_t i = base_->size(); i < size_; ++i) visit(i, *Changed(i));
}

std::optional<std::size_t> KnowledgeBase::Overlay::IndexOf(std::string_view id) const {
  // A replaced record keeps its id and position, so base answers for it.
  auto it = added_ids_.find(std::string(id));
  if (it != added_ids_.end()) return it->second;
  return base_->IndexOf(id);
}

std::string_view KnowledgeBase::Overlay::Pattern(std::size_t i) const {
  const Record* changed = Changed(i);
  return changed ? std::string_view(changed->regex) : base_->pattern(i);
}

uint64_t KnowledgeBase::Overlay::PatternHashAt(std::size_t i) const {
  const Record* changed = Changed(i);
  return changed ? PatternHash(changed->regex) : base_->pattern_hash(i);
}

uint64_t KnowledgeBase::Overlay::TextHashAt(std::size_t i) const {
  const Record* changed = Changed(i);
  return changed ? changed->origin.text_hash : base_->text_hash(i);
}

KnowledgeBase KnowledgeBase::WithChanges(std::shared_ptr<const KnowledgeBase> base, Changes changes) {
  KnowledgeBase kb;
  kb.overlay_ = std::make_shared<const Overlay>(std::move(base), std::move(changes));
  return kb;
}

}  // namespace kedb
