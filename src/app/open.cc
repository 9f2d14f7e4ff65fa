#include "app/open.h"

#include <fmt/format.h>

#include "app/store_kb.h"

namespace kedb::app {

Result<std::shared_ptr<const Engine>> OpenEngine(const std::string& kb_path, std::string* notes, bool records_only) {
  LoadReport report;
  OpenOptions options;
  options.defer_indexes = records_only;
  auto engine = OpenEngineAt(kb_path, options, &report);
  notes->clear();
  if (engine.ok() && report.rejected > 0) {
    *notes = fmt::format("{} of {} documents in {} could not be loaded; `kedb lint --kb {}` says why\n",
                         report.rejected, report.documents, kb_path, kb_path);
  }
  return engine;
}

}  // namespace kedb::app
