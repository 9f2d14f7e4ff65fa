// StoreFollower: keeps a server whose knowledge base lives in a store
// (`--kb postgresql://...` or `--kb sqlite:PATH`) answering from the
// current records, without a restart.
//
// A thread waits on a RecordWatcher (store/record_store.h) for the store's
// revision to move past the one the slot loaded, then reloads the slot.
// On PostgreSQL the wait ends on NOTIFY, so a committed change is live
// once the reload finishes (the compile of the knowledge base is most of
// it); on SQLite the revision is read every 100 ms. A reload that fails
// (a broken record written by hand) leaves the previous engine serving, as
// SIGHUP does, and is retried only when the store changes again.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "kedb/status.h"
#include "serve/engine_slot.h"
#include "store/record_store.h"

namespace kedb::serve {

class StoreFollower {
 public:
  using Log = std::function<void(const std::string& line)>;

  // Starts following the store `slot` loads from (slot.from_store() must
  // hold, and the slot must have loaded once). `log` gets one line per
  // reload and per failure, from the follower's thread. Fails when the
  // store cannot be watched.
  static Result<std::unique_ptr<StoreFollower>> Start(EngineSlot& slot, Log log);

  // Stops the thread (within half a second) and waits for it.
  ~StoreFollower();

  StoreFollower(const StoreFollower&) = delete;
  StoreFollower& operator=(const StoreFollower&) = delete;

 private:
  StoreFollower(EngineSlot& slot, std::unique_ptr<store::RecordWatcher> watcher, Log log);
  void Run();

  EngineSlot& slot_;
  std::unique_ptr<store::RecordWatcher> watcher_;
  Log log_;
  std::atomic<bool> stop_{false};
  std::thread thread_;  // last: started once the rest is ready
};

}  // namespace kedb::serve
