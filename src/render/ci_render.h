// A scan in the forms CI systems read (kedb scan --format ...): each
// renderer takes the same ScanResult the text and JSON ones do, and the
// name of the log it came from (for file and line annotations).
//
//   github  workflow commands, one ::error per block with a known error
//           (root first: record id, signature, cause, the first fix and a
//           link) and one ::warning per block no record knows; plus a
//           Markdown job summary (for $GITHUB_STEP_SUMMARY).
//   gitlab  a Code Quality report: a JSON array of issues with a stable
//           fingerprint per record and line text.
//   sarif   SARIF 2.1.0: one rule per record (and kedb/unknown), one result
//           per block with its region.
//   junit   JUnit XML: one testcase per block, failing with the cause and
//           the fixes.
#pragma once

#include <string>

#include "kedb/match.h"
#include "render/render.h"

namespace kedb {

enum class CiFormat { kGithub, kGitlab, kSarif, kJunit };

std::string RenderScanCi(CiFormat format, const ScanResult& result, const std::string& file, Lang lang,
                         const ObservedRates* observed = nullptr);

// The GitHub job summary: a Markdown table of the blocks, root first.
std::string RenderScanMarkdown(const ScanResult& result, const std::string& file, Lang lang,
                               const ObservedRates* observed = nullptr);

}  // namespace kedb
