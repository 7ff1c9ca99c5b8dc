// CREATE TRIGGER and DROP TRIGGER: the sqlite_schema row ('trigger', name,
// table, 0, the CREATE TRIGGER text) written as sqlite3 writes it, with
// sqlite3's checks and messages. DROP TABLE and DROP VIEW drop their
// triggers through DropTriggersOf.
#pragma once

#include "engine/catalog/schema.h"
#include "engine/exec/trees.h"
#include "engine/sql/ast.h"
#include "engine/status.h"
#include "engine/storage/btree.h"

namespace engine::exec {

// `tree` is `target`'s (CreateTarget in ddl_run.h).
Status CreateTrigger(BTree& tree, catalog::Db target, const catalog::Schema& schema,
                     const sql::CreateTriggerStmt& st);
Status DropTrigger(const Trees& trees, const catalog::Schema& schema, const sql::DropStmt& st);
// The triggers of a table or view being dropped, each from its database.
Status DropTriggersOf(const Trees& trees, const std::vector<const catalog::TriggerInfo*>& triggers);

}  // namespace engine::exec
