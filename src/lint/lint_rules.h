// The lint rules, split by what they look at. Each appends its findings.
#pragma once

#include <string>
#include <vector>

#include "kedb/diagnostic.h"
#include "kedb/knowledge_base.h"
#include "kedb/lint.h"
#include "record/json_text.h"

namespace kedb {

// regex-compile, regex-self-miss, occurrence-miss, counterexample-hit, scan-reach, shadowing, short-alternative, nested-quantifier.
void LintRegexes(const KnowledgeBase& kb, const LintOptions& options, std::vector<Diagnostic>* out);

// dangling-edge, edge-asymmetry.
void LintGraph(const KnowledgeBase& kb, std::vector<Diagnostic>* out);

// empty-action, untranslated-zh, rate-disagreement, date-order, stale.
void LintContent(const Record& record, const LintOptions& options, std::vector<Diagnostic>* out);

// no-sources, unattested, unsourced-claim, zh-class-name.
void LintEvidence(const Record& record, std::vector<Diagnostic>* out);

// A warning of `rule` about `field` of record `r`, located in its file.
void WarnField(const Record& r, JsonPath field, std::string rule, std::string message, std::vector<Diagnostic>* out);

}  // namespace kedb
