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
// Cost: the fragments are read from the record's workarounds on each call
// (a few dozen bytes of splitting per workaround) and each is looked for in
// the text with one substring search; meant for the handful of candidates a
// text has, not for every record.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kedb/record.h"

namespace kedb::match {

// The code fragments of a record's workarounds (their action and how):
// identifiers with an underscore, dotted names, assignments and long
// options of at least kMinFixFragment characters, split at brackets,
// quotes and blanks. Plain words, file names and web addresses are not
// fragments: many texts name them without quoting a fix.
std::vector<std::string> FixFragments(const Record& record);

// True when `text` holds one of FixFragments(record), case sensitive. A
// fragment inside a path counts too: tsc's `node_modules/@types/react/...`
// names the package a record's fix installs, and on the tuning half of the
// real-world cases such mentions spoke for the right record 8 times in 10.
bool QuotesFix(const Record& record, std::string_view text);

inline constexpr std::size_t kMinFixFragment = 10;

}  // namespace kedb::match
