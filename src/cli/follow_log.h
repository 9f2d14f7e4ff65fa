// kedb scan --follow: reading a log while it is written, and printing each
// error block as soon as it is closed (app/live_scan.h decides which).
#pragma once

#include <string>

#include "app/queries.h"

namespace kedb::cli {

// How long the writer must be quiet before the blocks still open are
// answered for, and how often the input is checked.
inline constexpr int kQuietMs = 1000;
inline constexpr int kPollMs = 200;

// Follows `path` ("-": standard input) until the input ends (a pipe) or
// the program is interrupted (a file, as tail -f; a file truncated or
// replaced by rotation is read again from its start). Prints each flush's
// text, or its JSON line with `json`, as soon as it is ready, and the
// summary line at the end. Returns the exit status (q.fail_on over the
// whole log).
int FollowLog(const Engine& engine, const std::string& path, const app::MatchQuery& q, bool json);

}  // namespace kedb::cli
