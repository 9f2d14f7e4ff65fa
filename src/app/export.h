// `kedb export`: the knowledge base written back as files, with what was
// observed folded in, so that learned rates can be reviewed in git like
// any other change to a record.
#pragma once

#include <string>

#include "app/queries.h"
#include "store/store.h"

namespace kedb::app {

// Writes every record of `engine`'s knowledge base to OUT/<id>.json in the
// canonical layout. For a record with reports in `store` (may be null):
// each reported action's success_rate or fail_rate becomes its posterior
// mean (two decimals) with "x_reported": {"worked","failed","partial"}
// beside it, evidence_count adds the reports, and last_confirmed moves to
// the last report that a workaround worked when that is later. Everything
// else stays as stored. kOk with a summary line; kInvalid when a file
// cannot be written.
Answer ExportRecords(const Engine& engine, store::OutcomeStore* store, const std::string& out_dir);

}  // namespace kedb::app
