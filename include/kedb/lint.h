// Lint: checks a knowledge base for errors that make records unusable and
// for warnings that make answers worse.
//
// Errors (exit 2 from `kedb lint`):
//   read, json-syntax, schema   the document cannot be read as a record
//   duplicate-id                two records share an id
//   regex-compile               the regex is not valid Python `re` syntax
//   dangling-edge               a transition edge names an id that does not exist
// Warnings (fail only under --strict):
//   unknown-field               a field the model does not know (typo?); x_* is exempt
//   regex-self-miss             the regex misses the record's own signature or an alias
//   occurrence-miss             the regex misses one of the record's listed real occurrences
//   counterexample-hit          the regex matches a listed text of another error
//   no-sources                  the record names no source anywhere (record, occurrences,
//                               workarounds, dead ends)
//   unattested                  no occurrence holds the signature or an alias (checked when the
//                               record lists occurrences or says it is source_verified)
//   unsourced-claim             a source_verified record, workaround or dead end without sources
//   zh-class-name               a class or status name of the English text (ImportError,
//                               CUDNN_STATUS_BAD_PARAM) is missing from the Chinese text
//   scan-reach                  `kedb scan` would miss the signature: its line has no problem
//                               word and the regex is reached only through broad literals
//   shadowing                   the regex matches another record's signature and the two
//                               are not linked as frequently_confused_with (variants of
//                               one error, ids differing only in the last segment, are exempt)
//   short-alternative           an alternation branch under 4 characters without \b
//   nested-quantifier           a repeated group holding an unbounded repeat: (a+)+
//   empty-action                a dead end or workaround with an empty action
//   untranslated-zh             a *_zh text identical to its English
//   rate-disagreement           resolvable, fix_success_rate, confidence and the
//                               workaround rates contradict each other
//   date-order                  first_seen is later than last_confirmed
//   stale                       last_confirmed is more than a year old
//   edge-asymmetry              leads_to without the matching preceded_by, or the reverse
//   fires-on-clean-log          (kedb lint --clean-logs only) the regex fires on a log of a
//                               run that succeeded: each hit there would be a false alarm
#pragma once

#include <cstddef>
#include <vector>

#include "kedb/diagnostic.h"
#include "kedb/knowledge_base.h"
#include "kedb/record.h"

namespace kedb {

Date Today();  // the current UTC date

struct LintOptions {
  Date today = Today();       // "now" for the stale rule
  int stale_after_days = 365;
  bool check_shadowing = true;  // costs one regex test per (record, signature) pair
};

struct LintReport {
  std::vector<Diagnostic> diagnostics;  // loading findings first, then per rule
  std::size_t records = 0;
  std::size_t errors() const;
  std::size_t warnings() const;
};

// Runs every rule over `kb`. The load report's diagnostics are carried over
// so that one report says everything about the knowledge base.
LintReport Lint(const KnowledgeBase& kb, const LoadReport& load, const LintOptions& options);

}  // namespace kedb
