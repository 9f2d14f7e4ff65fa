// The parts of a match's rendering that a scan's rendering repeats per
// block (render layer only).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "kedb/match.h"
#include "render/render.h"
#include "util/json_writer.h"

namespace kedb {

// One match as a numbered card: id, confidence, signature, cause, the
// fixes to try first (the first with its steps) and the dead end to avoid.
std::string MatchCardText(const Match& m, std::size_t rank, Lang lang, const ObservedRates* observed,
                          TextStyle style);

// `text` in the ANSI colour `sgr` ("1;31") when style.color, else as it is.
std::string Paint(TextStyle style, std::string_view sgr, std::string_view text);
// The colour of a fix's success rate (or, with `dead_end`, of a dead end's
// fail rate, always a warning).
std::string_view RateColor(double rate, bool dead_end);

// One match as a JSON object (see RenderMatchJson).
void WriteMatchObject(util::JsonWriter& w, const Match& m, Lang lang, const ObservedRates* observed);

}  // namespace kedb
