// Generated knowledge bases for the scale benchmark (bench/scale.sh): as
// many records as asked, deterministic for a seed, with the variety that
// makes a large knowledge base hard rather than merely big.
//
// - Component names are made of syllables, so most records carry a word no
//   other record has (as real error classes do), while the words of their
//   messages come from one shared vocabulary of a few hundred terms.
// - Error codes repeat across records (a code space of 20,000 per prefix).
// - About 80 % of patterns are narrow (a distinctive phrase and a code), 12 %
//   name a code and a class only, 6 % are broad word patterns that many lines
//   can satisfy, and 2 % are case-insensitive.
// - Every record has a root cause, one workaround and one dead end; a third
//   have an alias, and a fifth an edge to another record.
#pragma once

#include <cstdint>
#include <string>

namespace kedb::bench {

// Record `index` of the knowledge base generated with `seed`, as one line of
// JSON (a native record, without the trailing newline).
std::string ScaleRecordJson(std::size_t index, uint64_t seed);

// A message that record `index`'s pattern matches, as a program would print
// it (with values filled in).
std::string ScaleMessage(std::size_t index, uint64_t seed);

// The id of record `index`: "<domain>/<component>-<index>".
std::string ScaleRecordId(std::size_t index, uint64_t seed);

}  // namespace kedb::bench
