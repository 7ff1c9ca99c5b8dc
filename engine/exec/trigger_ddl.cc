#include "engine/exec/trigger_ddl.h"

#include <optional>

#include "engine/storage/schema_table.h"

namespace engine::exec {

using catalog::EqualsNoCase;
using Timing = sql::CreateTriggerStmt::Timing;

namespace {

bool Reserved(const std::string& name) {
  return name.size() >= 7 && EqualsNoCase(name.substr(0, 7), "sqlite_");
}

}  // namespace

Status CreateTrigger(BTree& tree, catalog::Db target, const catalog::Schema& schema,
                     const sql::CreateTriggerStmt& st) {
  // sqlite3's order: the table, the name, then what the table may carry. A
  // main trigger sees main's tables only; a TEMP one, any database's.
  const catalog::DbScope in = catalog::ScopeOf(target);
  ENGINE_ASSIGN_OR_RETURN(const catalog::DbScope table_scope,
                          catalog::KnownQualifier(st.table_schema));
  const catalog::DbScope look =
      target == catalog::Db::kMain ? catalog::DbScope::kMain : table_scope;
  const catalog::TableInfo* table = schema.FindTable(st.table, look);
  const catalog::ViewInfo* view = table == nullptr ? schema.FindView(st.table, look) : nullptr;
  if (table == nullptr && view == nullptr) {
    return Status::SqlError("no such table: " +
                            (!st.table_schema.empty()
                                 ? st.table_schema + "."
                                 : std::string(target == catalog::Db::kMain ? "main." : "")) +
                            st.table);
  }
  if (Reserved(st.name)) {
    return Status::SqlError("object name reserved for internal use: " + st.name);
  }
  if (schema.FindTrigger(st.name, in) != nullptr) {
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

Status DropTrigger(const Trees& trees, const catalog::Schema& schema, const sql::DropStmt& st) {
  std::optional<catalog::DbScope> in = catalog::ScopeOfQualifier(st.schema);
  const catalog::TriggerInfo* t = in ? schema.FindTrigger(st.name, *in) : nullptr;
  if (t == nullptr) {
    if (st.if_exists) return Status::OK();
    return Status::SqlError("no such trigger: " + (st.schema.empty() ? "" : st.schema + ".") +
                            st.name);
  }
  return RemoveSchemaEntry(*trees.of(t->db), t->name);
}

Status DropTriggersOf(const Trees& trees,
                      const std::vector<const catalog::TriggerInfo*>& triggers) {
  for (const catalog::TriggerInfo* t : triggers) {
    ENGINE_RETURN_IF_ERROR(RemoveSchemaEntry(*trees.of(t->db), t->name));
  }
  return Status::OK();
}

}  // namespace engine::exec
