// Opening the shared store's database: a connection to a PostgreSQL
// server, migrated to the current schema, with synchronous_commit=on so a
// commit is durable before it returns whatever the server's default.
// Shared by the outcome and record halves of the PostgreSQL backend.
#pragma once

#include <exception>
#include <memory>
#include <string>

#include <pqxx/pqxx>

#include "kedb/status.h"

namespace kedb::store {

// A connection to the database `url` names. `name` is how messages call it
// (the URL without its password).
Result<std::unique_ptr<pqxx::connection>> OpenPostgresDatabase(const std::string& url, const std::string& name);

// What went wrong while `doing` something with the store `name`, as a
// person can act on it.
Status PostgresFailed(const std::string& name, const std::string& doing, const std::exception& e);

}  // namespace kedb::store
