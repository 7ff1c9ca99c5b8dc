// CREATE / DROP of tables, indexes and views: B-trees allocated or freed,
// sqlite_schema rows written as SQLite writes them (so the real sqlite3 reads
// the file), the schema cookie bumped. The caller reloads its catalog after.
#pragma once

#include "engine/catalog/schema.h"
#include "engine/sql/ast.h"
#include "engine/status.h"
#include "engine/storage/btree.h"

namespace engine::exec {

Status CreateTable(BTree& tree, const catalog::Schema& schema, const sql::CreateTableStmt& st,
                   const sql::Ast& ast);
Status CreateIndex(BTree& tree, const catalog::Schema& schema, const sql::CreateIndexStmt& st);
Status CreateView(BTree& tree, const catalog::Schema& schema, const sql::CreateViewStmt& st);
Status Drop(BTree& tree, const catalog::Schema& schema, const sql::DropStmt& st);

}  // namespace engine::exec
