// KnowledgeBase::Overlay: a knowledge base's records with a few replaced
// and a few added, read without copying the base (KnowledgeBase::WithChanges).
//
// Why: a server reloading a million-record file after a one-record edit
// should not load a million records again. The base stays as it was
// (mapped from its snapshot, or in memory) and is shared with the engine
// that answered from it; only the changed records are held here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kedb/knowledge_base.h"

namespace kedb {

class KnowledgeBase::Overlay {
 public:
  Overlay(std::shared_ptr<const KnowledgeBase> base, Changes changes);

  std::size_t size() const { return size_; }
  const Record& Get(std::size_t i) const;
  void ForEach(const std::function<void(std::size_t, const Record&)>& visit) const;
  std::optional<std::size_t> IndexOf(std::string_view id) const;
  uint64_t content_key() const { return content_key_; }
  std::string_view Pattern(std::size_t i) const;
  uint64_t PatternHashAt(std::size_t i) const;
  uint64_t TextHashAt(std::size_t i) const;

 private:
  // The changed record at position i, or null when base's stands.
  const Record* Changed(std::size_t i) const;

  std::shared_ptr<const KnowledgeBase> base_;
  std::vector<Record> records_;                            // replaced ones, then added ones
  std::unordered_map<std::size_t, std::size_t> slot_of_;   // position -> index into records_
  std::unordered_map<std::string, std::size_t> added_ids_;  // id -> position, of added records
  std::size_t size_ = 0;
  uint64_t content_key_ = 0;
};

}  // namespace kedb
