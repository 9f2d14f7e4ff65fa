#include "serve/store_follower.h"

#include <chrono>

#include <fmt/format.h>

#include "store/store.h"

namespace kedb::serve {
namespace {

// How long one wait lasts: the longest a stop waits for the thread.
constexpr std::chrono::milliseconds kWaitSlice{500};
// After a failed wait (the store unreachable), before trying again.
constexpr std::chrono::milliseconds kRetryPause{1000};

}  // namespace

Result<std::unique_ptr<StoreFollower>> StoreFollower::Start(EngineSlot& slot, Log log) {
  if (!slot.from_store()) return Status::InvalidArgument("the knowledge base is not kept in a store");
  auto watcher = store::OpenRecordWatcher(slot.info().kb_path);
  if (!watcher.ok()) return watcher.status();
  return std::unique_ptr<StoreFollower>(new StoreFollower(slot, std::move(watcher).value(), std::move(log)));
}

StoreFollower::StoreFollower(EngineSlot& slot, std::unique_ptr<store::RecordWatcher> watcher, Log log)
    : slot_(slot), watcher_(std::move(watcher)), log_(std::move(log)), thread_([this] { Run(); }) {}

StoreFollower::~StoreFollower() {
  stop_ = true;
  thread_.join();
}

void StoreFollower::Run() {
  int64_t seen = slot_.info().revision;  // the revision last tried, loaded or not
  bool reported_failure = false;
  while (!stop_) {
    auto revision = watcher_->WaitPast(seen, kWaitSlice);
    if (!revision.ok()) {
      if (!reported_failure) log_(fmt::format("cannot watch the store, retrying: {}", revision.status().message()));
      reported_failure = true;
      for (auto waited = std::chrono::milliseconds(0); waited < kRetryPause && !stop_; waited += kWaitSlice / 5) {
        std::this_thread::sleep_for(kWaitSlice / 5);
      }
      continue;
    }
    reported_failure = false;
    if (*revision <= seen) continue;
    seen = *revision;
    if (Status st = slot_.Reload(); st.ok()) {
      const EngineSlot::Info info = slot_.info();
      log_(fmt::format("reloaded {} at revision {} ({} records)", store::RedactUrl(info.kb_path), info.revision,
                       info.records));
    } else {
      log_(fmt::format("reload at revision {} refused, still serving the previous knowledge base: {}", seen,
                       st.message()));
    }
  }
}

}  // namespace kedb::serve
