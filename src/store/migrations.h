// The store's schema, as the list of steps that build it. Step k brings a
// store from version k to k + 1; a store records its version, and opening
// one applies the steps it lacks in one transaction, so a store is at its
// old version or the newest, never between. Steps are
// only ever appended: a released step is never edited, or stores made by
// it would differ from new ones.
//
// The SQL is the common subset of SQLite and PostgreSQL (TEXT, BIGINT,
// INTEGER, CHECK, PRIMARY KEY, ON CONFLICT DO NOTHING), so every backend
// runs the same steps.
#pragma once

#include <span>
#include <string_view>

namespace kedb::store {

// Each step's statements, separated by ';'.
std::span<const std::string_view> SchemaSteps();

}  // namespace kedb::store
