// CREATE / DROP of tables, indexes and views, and REINDEX: B-trees allocated or freed,
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

// The indexes REINDEX names, found as sqlite3Reindex finds them: without a
// name every index of every database; an unqualified name that is a
// collating sequence (BINARY, NOCASE, RTRIM), the indexes with a key column
// under it; else that table's indexes, or that index — in main when the
// name is unqualified. sqlite3's errors: "unable to identify the object to
// be reindexed", "unknown database x".
Result<std::vector<const catalog::IndexInfo*>> ReindexTargets(const catalog::Schema& schema,
                                                              const sql::ReindexStmt& st);
// Empties each index REINDEX names and builds it again from its table's
// rows, as CREATE INDEX builds one (sorted keys, loaded bottom-up). The
// schema is unchanged (sqlite3 leaves the cookie alone too).
Status Reindex(const Trees& trees, const catalog::Schema& schema, const sql::ReindexStmt& st);

}  // namespace engine::exec
