// Whether a text quotes one of a record's fixes.
//
// Error messages often name their own remedy: transformers asks for
// `tokenizer.pad_token = tokenizer.eos_token`, npm suggests
// `--legacy-peer-deps`, a loader asks for `trust_remote_code=True`. When
// the text holds a code fragment that one of a candidate record's
// workarounds also gives, that record is likely the error the text reports,
// even when the text words the error differently from the record's
// signature.
//
// Cost: reading a record's fragments splits all of its workarounds' prose
// (600 bytes for a typical bundled record), more than the rest of a
// candidate's measures together; FixQuotes keeps them once read. Each
// fragment is then looked for in the text with one substring search.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kedb/record.h"

namespace kedb::match {

// The code fragments of a record's workarounds (their action and how):
// identifiers with an underscore, dotted names, assignments and long
// options of at least kMinFixFragment characters, split at brackets,
// quotes and blanks. Plain words, file names and web addresses are not
// fragments: many texts name them without quoting a fix.
std::vector<std::string> FixFragments(const Record& record);

inline constexpr std::size_t kMinFixFragment = 10;

// Whether a text quotes a fix of one of the records of one knowledge
// base: holds one of FixFragments(record), case sensitive. A fragment
// inside a path counts too: tsc's `node_modules/@types/react/...` names the
// package a record's fix installs, and on the tuning half of the
// real-world cases such mentions spoke for the right record 8 times in 10.
// Each record's fragments are read once and kept (up to kMaxKept records;
// then the kept ones are dropped and read again as needed, so a long-lived
// server touching a million records stays bounded). Thread-safe.
class FixQuotes {
 public:
  static constexpr std::size_t kMaxKept = 1 << 16;

  // `index` names `record` in its knowledge base, which must not change
  // for the object's life.
  bool Quotes(std::size_t index, const Record& record, std::string_view text) const;

 private:
  mutable std::mutex mu_;
  mutable std::unordered_map<std::size_t, std::shared_ptr<const std::vector<std::string>>> kept_;
};

}  // namespace kedb::match
