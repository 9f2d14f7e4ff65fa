#include "app/reopen.h"

#include "kb/jsonl_changes.h"
#include "kb/snapshot.h"

namespace kedb::app {

Result<std::optional<Reopened>> ReopenChanged(const std::shared_ptr<const Engine>& full, const std::string& kb_path,
                                              const OpenOptions& options, std::size_t max_changes) {
  LoadReport report;
  auto changes = FindJsonlChanges(full->kb(), kb_path, options.load, max_changes, &report);
  if (!changes.ok()) return changes.status();
  if (!*changes) return std::optional<Reopened>();
  if ((*changes)->empty()) return std::optional<Reopened>(Reopened{full, 0});
  const std::size_t count = (*changes)->size();
  auto layered = Engine::WithChanges(full, std::move(**changes));
  if (!layered.ok()) return layered.status();
  return std::optional<Reopened>(Reopened{std::move(*layered), count});
}

bool SourceSettled(const std::string& kb_path) { return kedb::SourceSettled(kb_path); }

}  // namespace kedb::app
