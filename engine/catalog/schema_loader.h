// Builds the Schema from sqlite_schema by parsing each stored CREATE
// statement, so tables created by sqlite3 and by the engine read alike.
#pragma once

#include <memory>

#include "engine/catalog/schema.h"
#include "engine/storage/btree.h"

namespace engine::catalog {

// Needs a read transaction. Rows the engine cannot parse make the whole
// load fail with SQLite's "malformed database schema (name)". Every object
// is marked as `db`'s; the temp database's own table is sqlite_temp_schema
// (alias sqlite_temp_master) instead of sqlite_schema (sqlite_master).
Result<std::unique_ptr<Schema>> LoadSchema(BTree& tree, Db db = Db::kMain);
// The temp catalog of a connection that has no temp database yet: its
// schema table only, empty.
std::unique_ptr<Schema> EmptyTempSchema();

}  // namespace engine::catalog
