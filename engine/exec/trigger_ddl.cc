#include "engine/exec/trigger_ddl.h"

#include "engine/storage/schema_table.h"

namespace engine::exec {

using catalog::EqualsNoCase;
using Timing = sql::CreateTriggerStmt::Timing;

namespace {

bool Reserved(const std::string& name) {
  return name.size() >= 7 && EqualsNoCase(name.substr(0, 7), "sqlite_");
}

}  // namespace

Status CreateTrigger(BTree& tree, const catalog::Schema& schema, const sql::CreateTriggerStmt& st) {
  if (st.temporary) return Status::NotSupported("TEMP triggers are not supported");
  if (!st.schema.empty() && !EqualsNoCase(st.schema, "main")) {
    return Status::SqlError("unknown database " + st.schema);
  }
  // sqlite3's order: the table, the name, then what the table may carry.
  const catalog::TableInfo* table = schema.FindTable(st.table);
  const catalog::ViewInfo* view = table == nullptr ? schema.FindView(st.table) : nullptr;
  if ((!st.table_schema.empty() && !EqualsNoCase(st.table_schema, "main")) ||
      (table == nullptr && view == nullptr)) {
    return Status::SqlError(
        "no such table: " + (st.table_schema.empty() ? std::string("main") : st.table_schema) +
        "." + st.table);
  }
  if (Reserved(st.name)) {
    return Status::SqlError("object name reserved for internal use: " + st.name);
  }
  if (schema.FindTrigger(st.name) != nullptr) {
    if (st.if_not_exists) return Status::OK();
    return Status::SqlError("trigger " + st.name + " already exists")
        .WithOffset(static_cast<int>(st.name_at));
  }
  if (Reserved(st.table)) return Status::SqlError("cannot create trigger on system table");
  if (view != nullptr && st.timing != Timing::kInsteadOf) {
    return Status::SqlError(std::string("cannot create ") +
                            (st.timing == Timing::kBefore ? "BEFORE" : "AFTER") +
                            " trigger on view: " + st.table);
  }
  if (table != nullptr && st.timing == Timing::kInsteadOf) {
    return Status::SqlError("cannot create INSTEAD OF trigger on table: " + st.table);
  }
  SchemaEntry e;
  e.type = "trigger";
  e.name = st.name;
  e.tbl_name = st.table;
  e.rootpage = 0;
  e.sql = st.schema_sql;
  return AddSchemaEntry(tree, &e);
}

Status DropTrigger(BTree& tree, const catalog::Schema& schema, const sql::DropStmt& st) {
  const catalog::TriggerInfo* t = schema.FindTrigger(st.name);
  if (t == nullptr) {
    if (st.if_exists) return Status::OK();
    return Status::SqlError("no such trigger: " + st.name);
  }
  return RemoveSchemaEntry(tree, t->name);
}

Status DropTriggersOf(BTree& tree, const std::vector<const catalog::TriggerInfo*>& triggers) {
  for (const catalog::TriggerInfo* t : triggers) {
    ENGINE_RETURN_IF_ERROR(RemoveSchemaEntry(tree, t->name));
  }
  return Status::OK();
}

}  // namespace engine::exec
