// The draft record as a file: the record's fields in FormatRecordFile's
// layout, then `x_mined` (draft.h says what it holds).
#pragma once

#include <string>

#include "mine/draft.h"

namespace kedb::mine {

std::string DraftFile(const Thread& thread, const ThreadText& text, const Draft& draft);

}  // namespace kedb::mine
