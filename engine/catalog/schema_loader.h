// Builds the Schema from sqlite_schema by parsing each stored CREATE
// statement, so tables created by sqlite3 and by the engine read alike.
#pragma once

#include <memory>

#include "engine/catalog/schema.h"
#include "engine/storage/btree.h"

namespace engine::catalog {

// Needs a read transaction. Rows the engine cannot parse make the whole
// load fail with SQLite's "malformed database schema (name)".
Result<std::unique_ptr<Schema>> LoadSchema(BTree& tree);

}  // namespace engine::catalog
