// `kedb new`: a record skeleton from an error text, for a person to finish.
//
// The text is read as a one-post thread and mined (app/mine.h), so the
// skeleton gets what mining can stand behind: the signature (the error
// line as written), a Python regex proposed from it and checked to match
// it, a domain and category guess, and the error code. What only a person
// knows (the root cause, the workarounds and dead ends) is left as empty
// fields to fill. Records the text already matches or resembles are
// listed, so that a known error gets an edit rather than a duplicate.
#pragma once

#include <string>

#include "app/queries.h"

namespace kedb::app {

struct NewRecordQuery {
  std::string text;    // the error as it was printed (a message or a traceback)
  std::string id;      // "" to propose one from the domain and the message
  std::string domain;  // "" to guess it
};

// JSON: the skeleton record file. Text: what was proposed and checked,
// what is left to fill, and the records the text already matches or
// resembles. `found`: the text matches no record by its pattern (a new
// error). kInvalid when the text holds no error line to build on.
Answer NewRecordSkeleton(const Engine& engine, const NewRecordQuery& q);

}  // namespace kedb::app
