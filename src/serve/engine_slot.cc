#include "serve/engine_slot.h"

#include <chrono>

#include <fmt/format.h>

#include "app/store_kb.h"

namespace kedb::serve {

EngineSlot::EngineSlot(std::string kb_path, std::string cache_dir, bool allow_empty)
    : kb_path_(std::move(kb_path)), cache_dir_(std::move(cache_dir)), allow_empty_(allow_empty) {
  info_.kb_path = kb_path_;
}

Status EngineSlot::Reload() {
  std::lock_guard<std::mutex> reload_lock(reload_mu_);
  OpenOptions options;
  options.load.strict = true;
  options.cache_dir = cache_dir_;
  options.allow_empty = allow_empty_;
  LoadReport report;
  int64_t revision = 0;
  // A server that writes records keeps the store open: reloads reuse it.
  auto engine = records_ != nullptr ? app::OpenEngineFromStore(*records_, kb_path_, options, &report, &revision)
                                    : app::OpenEngineAt(kb_path_, options, &report, &revision);
  std::lock_guard<std::mutex> lock(mu_);
  if (!engine.ok()) {
    ++info_.failed_reloads;
    info_.last_error = engine.status().message();
    return engine.status();
  }
  engine_ = std::move(*engine);
  ++info_.generation;
  info_.records = engine_->kb().size();
  info_.revision = revision;
  info_.loaded_at = std::chrono::duration_cast<std::chrono::seconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
  return Status::Ok();
}

std::shared_ptr<const Engine> EngineSlot::Get() const {
  std::lock_guard<std::mutex> lock(mu_);
  return engine_;
}

bool EngineSlot::from_store() const { return app::IsStoreKb(kb_path_); }

EngineSlot::Info EngineSlot::info() const {
  std::lock_guard<std::mutex> lock(mu_);
  return info_;
}

}  // namespace kedb::serve
