// The lint rules, split by what they look at. Each appends its findings.
#pragma once

#include <vector>

#include "kedb/diagnostic.h"
#include "kedb/knowledge_base.h"
#include "kedb/lint.h"

namespace kedb {

// regex-compile, regex-self-miss, occurrence-miss, counterexample-hit, scan-reach, shadowing, short-alternative, nested-quantifier.
void LintRegexes(const KnowledgeBase& kb, const LintOptions& options, std::vector<Diagnostic>* out);

// dangling-edge, edge-asymmetry.
void LintGraph(const KnowledgeBase& kb, std::vector<Diagnostic>* out);

// empty-action, untranslated-zh, rate-disagreement, date-order, stale.
void LintContent(const Record& record, const LintOptions& options, std::vector<Diagnostic>* out);

}  // namespace kedb

namespace kedb {

// no-sources, unattested, unsourced-claim, zh-class-name.
void LintEvidence(const Record& record, std::vector<Diagnostic>* out);

}  // namespace kedb
