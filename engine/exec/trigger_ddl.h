// CREATE TRIGGER and DROP TRIGGER: the sqlite_schema row ('trigger', name,
// table, 0, the CREATE TRIGGER text) written as sqlite3 writes it, with
// sqlite3's checks and messages. DROP TABLE and DROP VIEW drop their
// triggers through DropTriggersOf.
#pragma once

#include "engine/catalog/schema.h"
#include "engine/sql/ast.h"
#include "engine/status.h"
#include "engine/storage/btree.h"

namespace engine::exec {

Status CreateTrigger(BTree& tree, const catalog::Schema& schema, const sql::CreateTriggerStmt& st);
Status DropTrigger(BTree& tree, const catalog::Schema& schema, const sql::DropStmt& st);
// The triggers of a table or view being dropped.
Status DropTriggersOf(BTree& tree, const std::vector<const catalog::TriggerInfo*>& triggers);

}  // namespace engine::exec
