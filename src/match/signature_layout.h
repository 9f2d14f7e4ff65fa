// The sections of a signature index file, in order (util/section_file.h):
// what signature_build.cc writes and signature_cache.cc binds. Change it
// with kFormat there.
#pragma once

#include <cstddef>
#include <string_view>

namespace kedb::match::signature_layout {

constexpr std::string_view kMagic = "KEDBSIG3";

enum Section : std::size_t {
  kWords = 0,         // a StringTable: three sections
  kCodes = 3,         // a StringTable
  kFamilies = 6,      // a StringTable
  kCues = 9,          // DomainCues::kSections
  kIdf = 16,
  kPhraseIds,
  kPhraseBegin,
  kRecordPhrases,
  kAllIds,
  kAllBegin,
  kPhraseWeight,
  kAllWeight,
  kBareIds,
  kBareBegin,
  kBareWeight,
  kDomainWord,
  kCodeDf,
  kCodeIdsList,
  kCodeBegin,
  kCodeFamily,
  kPostingsBegin,
  kPostings,
  kCounterIds,        // the counterexamples come last: they are measured
  kCounterBegin,      // with the index the sections before them make
  kRecordCounters,
  kCounterWeight,
  kSectionCount,
};

}  // namespace kedb::match::signature_layout
