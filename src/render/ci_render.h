// Scans in the forms CI systems read (kedb scan --format ...): each
// renderer takes the logs scanned, each a ScanResult as the text and JSON
// renderers take it with the name of its file (for file and line
// annotations), and puts them all in one report.
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

#include <span>
#include <string>

#include "kedb/match.h"
#include "render/render.h"

namespace kedb {

enum class CiFormat { kGithub, kGitlab, kSarif, kJunit };

std::string RenderScanCi(CiFormat format, std::span<const ScannedLog> logs, Lang lang,
                         const ObservedRates* observed = nullptr);

// GitLab's collapsible sections for the job log, one per block, root first:
// a header naming the log's line and the record, and the block's text
// inside, folded except for the root error. `now` (Unix seconds) stamps
// them, as GitLab's section markers require.
std::string RenderGitlabSections(std::span<const ScannedLog> logs, Lang lang, long long now,
                                 const ObservedRates* observed = nullptr);

// The GitHub job summary: per log, a Markdown table of its blocks, root
// first.
std::string RenderScanMarkdown(std::span<const ScannedLog> logs, Lang lang, const ObservedRates* observed = nullptr);

}  // namespace kedb
