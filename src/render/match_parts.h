// The parts of a match's rendering that a scan's rendering repeats per
// block (render layer only).
#pragma once

#include <cstddef>
#include <string>

#include "kedb/match.h"
#include "render/render.h"
#include "util/json_writer.h"

namespace kedb {

// One match as a numbered card: id, confidence, signature, cause, the
// fixes to try first (the first with its steps) and the dead end to avoid.
std::string MatchCardText(const Match& m, std::size_t rank, Lang lang, const ObservedRates* observed);

// One match as a JSON object (see RenderMatchJson).
void WriteMatchObject(util::JsonWriter& w, const Match& m, Lang lang, const ObservedRates* observed);

}  // namespace kedb
