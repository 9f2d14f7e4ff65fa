// `kedb mine --llm CMD`: a language model's reading of the thread, merged
// into the draft only after it passes the record schema.
//
// The model is asked for a JSON object holding some of the fields a
// curator writes by hand (kModelFields: the cause, the fixes and dead ends
// in a person's words, the Chinese text, the category). An answer that is
// not JSON, names another field, or gives a field the wrong type is
// refused whole, with the reason; an accepted one replaces those fields,
// and x_mined.model lists them and the command that gave them. Without
// the hook mining is deterministic.
#pragma once

#include <string>
#include <string_view>

#include "kedb/status.h"
#include "mine/draft.h"

namespace kedb::mine {

// The fields a model may fill.
inline constexpr std::string_view kModelFields[] = {"root_cause", "root_cause_zh", "signature_zh", "category",
                                                   "workarounds", "workarounds_zh", "dead_ends"};

// What the model is sent: the task, the draft's fields and the thread.
std::string ModelPrompt(const Thread& thread, const Draft& draft);

// Checks `answer` and, when it passes, merges it into `draft` (record and
// file). On failure the draft is unchanged and the Status says why, naming
// the field ("workarounds[0].success_rate: ...").
Status MergeModelAnswer(std::string_view answer, std::string_view command, Draft* draft);

}  // namespace kedb::mine
