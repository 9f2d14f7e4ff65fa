// Thin RAII over Hyperscan block-mode databases, their scratch space and
// their serialized form.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "kedb/status.h"

struct hs_database;
struct hs_scratch;

namespace kedb::regex {

class HsDatabase {
 public:
  HsDatabase() = default;
  HsDatabase(HsDatabase&&) noexcept;
  HsDatabase& operator=(HsDatabase&&) noexcept;
  ~HsDatabase();

  // Literal database: each literal matched case-insensitively (ASCII),
  // reported as its index, or as ids[index] when `ids` is given (ids may
  // repeat).
  static Result<HsDatabase> CompileLiterals(const std::vector<std::string>& literals,
                                            const std::vector<unsigned>* ids = nullptr);
  // Regex database; `flags` are Hyperscan flags per expression. Costs
  // seconds for thousands of broad patterns: cache the result.
  static Result<HsDatabase> CompileRegexes(const std::vector<std::string>& expressions,
                                           const std::vector<unsigned>& flags);
  static Result<HsDatabase> Deserialize(std::string_view bytes);
  std::string Serialize() const;

  bool empty() const { return db_ == nullptr; }

  // Calls on_match(id, end_offset) for every match in `text`. Safe from many
  // threads at once (scratch comes from a pool).
  template <typename F>
  void Scan(std::string_view text, F&& on_match) const {
    using Fn = std::remove_reference_t<F>;
    ScanRaw(text, &Trampoline<Fn>, const_cast<void*>(static_cast<const void*>(&on_match)));
  }

 private:
  using RawCallback = void (*)(unsigned id, unsigned long long end, void* ctx);
  template <typename F>
  static void Trampoline(unsigned id, unsigned long long end, void* ctx) {
    (*static_cast<F*>(ctx))(id, end);
  }
  void ScanRaw(std::string_view text, RawCallback cb, void* ctx) const;
  Status PrepareScratch();
  void Reset();  // frees the database and every scratch

  hs_database* db_ = nullptr;
  hs_scratch* prototype_ = nullptr;  // cloned per concurrent scan
  // Scratch spaces not in use; a scan takes one or clones the prototype.
  mutable std::unique_ptr<std::mutex> pool_mu_ = std::make_unique<std::mutex>();
  mutable std::vector<hs_scratch*> pool_;
};

}  // namespace kedb::regex
