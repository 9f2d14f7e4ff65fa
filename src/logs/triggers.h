// Which lines of a chunk could start an error block.
//
// Almost every line of a log is not an error, and the block segmenter's
// tests (a dozen substring searches and shape checks) would cost more than
// matching the line against every known error. One Hyperscan scan of the
// chunk for the words every block start contains ("error", "exception",
// "traceback", "panic", "cuda", "nccl", "fatal", "failed", ...) marks the
// few lines worth testing. A line without one can still continue a block.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace kedb::logs {

// Sets (*flags)[i] when line i of `text` (lines start at `starts`) holds a
// trigger word. Thread-safe; the database is built once.
void MarkTriggerLines(std::string_view text, const std::vector<std::size_t>& starts, std::vector<uint8_t>* flags);

}  // namespace kedb::logs
