#include "regex/hs_database.h"

#include <hs/hs.h>

#include <fmt/format.h>

namespace kedb::regex {

HsDatabase::HsDatabase(HsDatabase&& o) noexcept { *this = std::move(o); }

HsDatabase& HsDatabase::operator=(HsDatabase&& o) noexcept {
  if (this != &o) {
    Reset();
    db_ = o.db_;
    prototype_ = o.prototype_;
    pool_mu_ = std::move(o.pool_mu_);
    pool_ = std::move(o.pool_);
    o.db_ = nullptr;
    o.prototype_ = nullptr;
    o.pool_mu_ = std::make_unique<std::mutex>();
    o.pool_.clear();
  }
  return *this;
}

HsDatabase::~HsDatabase() { Reset(); }

void HsDatabase::Reset() {
  for (hs_scratch* s : pool_) hs_free_scratch(s);
  pool_.clear();
  if (prototype_) hs_free_scratch(prototype_);
  if (db_) hs_free_database(db_);
  prototype_ = nullptr;
  db_ = nullptr;
}

Status HsDatabase::PrepareScratch() {
  if (hs_alloc_scratch(db_, &prototype_) != HS_SUCCESS) return Status::Internal("hyperscan: cannot allocate scratch");
  return Status::Ok();
}

Result<HsDatabase> HsDatabase::CompileLiterals(const std::vector<std::string>& literals,
                                               const std::vector<unsigned>* given_ids) {
  HsDatabase out;
  if (literals.empty()) return out;
  std::vector<const char*> ptrs;
  std::vector<std::size_t> lens;
  std::vector<unsigned> flags(literals.size(), HS_FLAG_CASELESS), ids(literals.size());
  for (std::size_t i = 0; i < literals.size(); ++i) {
    ptrs.push_back(literals[i].data());
    lens.push_back(literals[i].size());
    ids[i] = given_ids ? (*given_ids)[i] : static_cast<unsigned>(i);
  }
  hs_compile_error_t* err = nullptr;
  if (hs_compile_lit_multi(ptrs.data(), flags.data(), ids.data(), lens.data(), static_cast<unsigned>(ptrs.size()),
                           HS_MODE_BLOCK, nullptr, &out.db_, &err) != HS_SUCCESS) {
    std::string msg = fmt::format("hyperscan: literal {}: {}", err->expression, err->message);
    hs_free_compile_error(err);
    return Status::Internal(msg);
  }
  if (Status st = out.PrepareScratch(); !st.ok()) return st;
  return out;
}

Result<HsDatabase> HsDatabase::CompileRegexes(const std::vector<std::string>& expressions,
                                              const std::vector<unsigned>& flags) {
  HsDatabase out;
  if (expressions.empty()) return out;
  std::vector<const char*> ptrs;
  std::vector<unsigned> ids(expressions.size());
  for (std::size_t i = 0; i < expressions.size(); ++i) {
    ptrs.push_back(expressions[i].c_str());
    ids[i] = static_cast<unsigned>(i);
  }
  hs_compile_error_t* err = nullptr;
  if (hs_compile_multi(ptrs.data(), flags.data(), ids.data(), static_cast<unsigned>(ptrs.size()), HS_MODE_BLOCK,
                       nullptr, &out.db_, &err) != HS_SUCCESS) {
    std::string msg = fmt::format("hyperscan: expression {}: {}", err->expression, err->message);
    hs_free_compile_error(err);
    return Status::Internal(msg);
  }
  if (Status st = out.PrepareScratch(); !st.ok()) return st;
  return out;
}

Result<HsDatabase> HsDatabase::Deserialize(std::string_view bytes) {
  HsDatabase out;
  if (bytes.empty()) return out;
  if (hs_deserialize_database(bytes.data(), bytes.size(), &out.db_) != HS_SUCCESS) {
    out.db_ = nullptr;
    return Status::Corrupt("hyperscan: cached database does not deserialize");
  }
  if (Status st = out.PrepareScratch(); !st.ok()) return st;
  return out;
}

std::string HsDatabase::Serialize() const {
  if (!db_) return {};
  char* bytes = nullptr;
  std::size_t len = 0;
  if (hs_serialize_database(db_, &bytes, &len) != HS_SUCCESS) return {};
  std::string out(bytes, len);
  free(bytes);  // NOLINT: allocated by Hyperscan with malloc
  return out;
}

namespace {
struct CallbackCtx {
  void (*cb)(unsigned, unsigned long long, void*);
  void* ctx;
};
int OnMatch(unsigned id, unsigned long long /*from*/, unsigned long long to, unsigned /*flags*/, void* c) {
  auto* ctx = static_cast<CallbackCtx*>(c);
  ctx->cb(id, to, ctx->ctx);
  return 0;
}
}  // namespace

void HsDatabase::ScanRaw(std::string_view text, RawCallback cb, void* ctx) const {
  if (!db_ || text.empty()) return;
  hs_scratch* scratch = nullptr;
  {
    std::lock_guard<std::mutex> lock(*pool_mu_);
    if (!pool_.empty()) {
      scratch = pool_.back();
      pool_.pop_back();
    }
  }
  if (!scratch && hs_clone_scratch(prototype_, &scratch) != HS_SUCCESS) return;
  CallbackCtx c{cb, ctx};
  // Inputs over 4 GiB would overflow Hyperscan's length type; callers pass chunks.
  hs_scan(db_, text.data(), static_cast<unsigned>(text.size()), 0, scratch, &OnMatch, &c);
  std::lock_guard<std::mutex> lock(*pool_mu_);
  pool_.push_back(scratch);
}

}  // namespace kedb::regex
