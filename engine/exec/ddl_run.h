// CREATE / DROP of tables, indexes and views: B-trees allocated or freed,
// sqlite_schema rows written as SQLite writes them (so the real sqlite3 reads
// the file), the schema cookie bumped. The caller reloads its catalog after.
#pragma once

#include "engine/catalog/schema.h"
#include "engine/exec/trees.h"
#include "engine/sql/ast.h"
#include "engine/status.h"
#include "engine/storage/btree.h"

namespace engine::exec {

// The database a CREATE statement writes into, as SQLite decides it: TEMP or
// a "temp." qualifier, an index or trigger on a temp table; else main. Its
// errors are sqlite3's for a qualifier it cannot take ("unknown database
// x", "temporary table name must be unqualified").
Result<catalog::Db> CreateTarget(const sql::Statement& st, const catalog::Schema& schema);

// Each writes into `tree`, the B-tree of `target` (from CreateTarget).
Status CreateTable(BTree& tree, catalog::Db target, const catalog::Schema& schema,
                   const sql::CreateTableStmt& st, const sql::Ast& ast);
Status CreateIndex(BTree& tree, catalog::Db target, const catalog::Schema& schema,
                   const sql::CreateIndexStmt& st);
Status CreateView(BTree& tree, catalog::Db target, const catalog::Schema& schema,
                  const sql::CreateViewStmt& st, const sql::Ast& ast);
// In the database of the object it names (a TEMP trigger on a main table
// goes with the table).
Status Drop(const Trees& trees, const catalog::Schema& schema, const sql::DropStmt& st);

}  // namespace engine::exec
