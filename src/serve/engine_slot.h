// EngineSlot: the engine a server answers from, replaced whole on reload.
//
// Requests take a shared_ptr to the current engine and keep it until they
// finish, so a reload never pulls a knowledge base from under a request in
// flight; the old engine is freed when its last request ends.
//
// A JSONL knowledge base reloads by its changed lines: the lines are hashed
// against the last fully compiled engine (kb/jsonl_changes.h), and when
// records were only edited or added, an engine with the changed records
// laid over it serves at once (Engine::WithChanges; milliseconds plus a
// read of the file, at any size). A full compile then runs on a thread of
// its own, from a few seconds after the file's last change, and replaces
// the layered engine when done. A removal, or a change to more than
// kMaxLayeredChanges records, reloads in full as before.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "kedb/engine.h"
#include "serve/write_limiter.h"
#include "store/record_store.h"
#include "store/store.h"

namespace kedb::serve {

class EngineSlot {
 public:
  // `kb_path` is a knowledge-base path or a store (app/store_kb.h).
  // Nothing is loaded until Reload() succeeds once.
  // With `allow_empty`, a knowledge base with no record loads (and matches
  // nothing); otherwise it is refused like a broken one.
  EngineSlot(std::string kb_path, std::string cache_dir, bool allow_empty = false);
  // Waits for a full compile running behind a layered engine.
  ~EngineSlot();

  static constexpr std::size_t kMaxLayeredChanges = 1000;

  // Loads the knowledge base again, strictly: a document with an error
  // refuses the whole new knowledge base, and the engine already serving
  // stays. Only one reload runs at a time; requests are never blocked by it.
  Status Reload();

  // The engine now serving (nullptr before the first successful load).
  std::shared_ptr<const Engine> Get() const;

  // Waits until no full compile runs behind a layered engine.
  void WaitForFullCompile();

  struct Info {
    std::string kb_path;
    std::size_t records = 0;
    uint64_t generation = 0;      // successful loads so far
    int64_t loaded_at = 0;        // unix seconds of the last successful load
    uint64_t failed_reloads = 0;  // refused since start
    std::string last_error;       // why the last refused reload was refused
    int64_t revision = 0;         // a store's revision the records are as of (0 for files)
    std::size_t layered_changes = 0;  // records laid over the last full compile (0: none)
    bool full_compile_running = false;
  };
  Info info() const;

  // Whether the knowledge base is kept in a store (then StoreFollower can
  // keep it current).
  bool from_store() const;

  // What the server knows beyond the records: the outcome store (nullptr:
  // none, so reads show records as stored and writes are refused) and the
  // token writes over HTTP must carry ("": writes over HTTP are refused).
  // With `record_hits`, every match and scan answered is counted in the
  // store's hit statistics. Set once before serving; the store must
  // outlive the slot's use.
  void AttachStore(store::OutcomeStore* store, std::string write_token, bool record_hits = false) {
    store_ = store;
    write_token_ = std::move(write_token);
    record_hits_ = record_hits && store != nullptr;
  }
  store::OutcomeStore* store() const { return store_; }
  // The store the records themselves are kept in, when the knowledge base
  // is one (from_store()): POST and PUT /v1/records write there. nullptr:
  // records are files, and the API does not write them. Set once before
  // serving.
  void AttachRecords(store::RecordStore* records) { records_ = records; }
  store::RecordStore* records() const { return records_; }
  // Limits how often one client may write (nullptr: no limit). Set once
  // before serving.
  void LimitWrites(std::unique_ptr<WriteLimiter> limiter) { limiter_ = std::move(limiter); }
  WriteLimiter* write_limiter() const { return limiter_.get(); }
  const std::string& write_token() const { return write_token_; }
  bool record_hits() const { return record_hits_; }

 private:
  OpenOptions Options() const;
  // Reload() by changed lines: true when it decided (`*status` says how),
  // false when the whole knowledge base must be loaded. Under reload_mu_.
  bool ReloadChanges(Status* status);
  // Makes `engine` the one serving. Under reload_mu_.
  void Serve(std::shared_ptr<const Engine> engine, int64_t revision, std::size_t layered_changes);
  Status Refuse(Status why);
  // Starts the full compile behind a layered engine, unless one runs.
  void StartFullCompile();
  void FullCompile();

  const std::string kb_path_, cache_dir_;
  const bool allow_empty_;
  std::mutex reload_mu_;  // serializes Reload() and guards full_ and the compile's thread
  // The last fully compiled engine, which changed lines are found against
  // (null before the first load, and for stores).
  std::shared_ptr<const Engine> full_;
  std::thread compile_thread_;
  bool compiling_ = false;           // compile_thread_ runs
  std::condition_variable compiled_;  // notified when it ends
  mutable std::mutex mu_;  // guards the fields below
  std::shared_ptr<const Engine> engine_;
  Info info_;
  store::OutcomeStore* store_ = nullptr;
  store::RecordStore* records_ = nullptr;
  std::unique_ptr<WriteLimiter> limiter_;
  std::string write_token_;
  bool record_hits_ = false;
};

}  // namespace kedb::serve
