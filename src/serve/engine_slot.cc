#include "serve/engine_slot.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>

#include <fmt/format.h>

#include "app/store_kb.h"
#include "app/reopen.h"

namespace kedb::serve {

EngineSlot::EngineSlot(std::string kb_path, std::string cache_dir, bool allow_empty)
    : kb_path_(std::move(kb_path)), cache_dir_(std::move(cache_dir)), allow_empty_(allow_empty) {
  info_.kb_path = kb_path_;
}

EngineSlot::~EngineSlot() {
  WaitForFullCompile();
  if (compile_thread_.joinable()) compile_thread_.join();
}

OpenOptions EngineSlot::Options() const {
  OpenOptions options;
  options.load.strict = true;
  options.cache_dir = cache_dir_;
  options.allow_empty = allow_empty_;
  return options;
}

Status EngineSlot::Reload() {
  std::lock_guard<std::mutex> reload_lock(reload_mu_);
  if (Status st; ReloadChanges(&st)) {
    if (st.ok() && info().layered_changes > 0) StartFullCompile();
    return st;
  }
  LoadReport report;
  int64_t revision = 0;
  // A server that writes records keeps the store open: reloads reuse it.
  auto engine = records_ != nullptr ? app::OpenEngineFromStore(*records_, kb_path_, Options(), &report, &revision)
                                    : app::OpenEngineAt(kb_path_, Options(), &report, &revision);
  if (!engine.ok()) return Refuse(engine.status());
  (*engine)->PrepareSearch();
  if (!from_store()) full_ = *engine;
  Serve(std::move(*engine), revision, 0);
  return Status::Ok();
}

bool EngineSlot::ReloadChanges(Status* status) {
  if (records_ != nullptr || full_ == nullptr || from_store()) return false;
  auto reopened = app::ReopenChanged(full_, kb_path_, Options(), kMaxLayeredChanges);
  if (!reopened.ok()) {
    *status = Refuse(reopened.status());
    return true;
  }
  if (!*reopened) return false;  // not edits and additions only: load it all
  Serve(std::move((*reopened)->engine), 0, (*reopened)->changed);
  *status = Status::Ok();
  return true;
}

void EngineSlot::Serve(std::shared_ptr<const Engine> engine, int64_t revision, std::size_t layered_changes) {
  std::lock_guard<std::mutex> lock(mu_);
  engine_ = std::move(engine);
  ++info_.generation;
  info_.records = engine_->kb().size();
  info_.revision = revision;
  info_.layered_changes = layered_changes;
  info_.loaded_at = std::chrono::duration_cast<std::chrono::seconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
}

Status EngineSlot::Refuse(Status why) {
  std::lock_guard<std::mutex> lock(mu_);
  ++info_.failed_reloads;
  info_.last_error = why.message();
  return why;
}

void EngineSlot::StartFullCompile() {
  if (compiling_) return;  // it lays what changed meanwhile over its result
  if (compile_thread_.joinable()) compile_thread_.join();
  compiling_ = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    info_.full_compile_running = true;
  }
  compile_thread_ = std::thread([this] { FullCompile(); });
}

void EngineSlot::FullCompile() {
  // Below the requests and reloads: on Linux a thread's nice value is its
  // own, and the threads it starts for the compile inherit it.
  ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 10);
  for (;;) {
    // A compile of a file changed in the last few seconds writes no
    // snapshot (kb/snapshot.h: SourceSettled), and the next start would
    // compile it all again.
    for (int waited = 0; waited < 100 && !app::SourceSettled(kb_path_); ++waited) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    LoadReport report;
    auto engine = app::OpenEngineAt(kb_path_, Options(), &report);
    std::unique_lock<std::mutex> reload_lock(reload_mu_);
    if (!engine.ok()) {
      Refuse(engine.status());  // the layered engine keeps serving
      break;
    }
    // The search index too, or the first search after the swap would
    // build it (tens of seconds at a million records).
    (*engine)->PrepareSearch();
    full_ = std::move(*engine);
    // Lines changed while it compiled are laid over it in turn; a record
    // removed meanwhile needs another full compile.
    Status st;
    if (!ReloadChanges(&st)) continue;
    if (!st.ok() || info().layered_changes == 0) break;
  }
  std::lock_guard<std::mutex> reload_lock(reload_mu_);
  compiling_ = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    info_.full_compile_running = false;
  }
  compiled_.notify_all();
}

void EngineSlot::WaitForFullCompile() {
  std::unique_lock<std::mutex> reload_lock(reload_mu_);
  compiled_.wait(reload_lock, [this] { return !compiling_; });
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
