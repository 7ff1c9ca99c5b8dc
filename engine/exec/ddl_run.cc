#include "engine/exec/ddl_run.h"

#include <optional>

#include "engine/exec/trigger_ddl.h"
#include "engine/planner/planner.h"
#include "engine/storage/btree_cursor.h"
#include "engine/storage/record.h"
#include "engine/storage/schema_table.h"

namespace engine::exec {

using catalog::EqualsNoCase;

namespace {

bool Reserved(const std::string& name) {
  return name.size() >= 7 && EqualsNoCase(name.substr(0, 7), "sqlite_");
}

// `name_at`: where the name is in the statement's text (-1: unknown), which
// SQLite reports for the "already exists" errors of CREATE TABLE and VIEW.
Status CheckNewName(const catalog::Schema& schema, const std::string& name, const char* kind,
                    int name_at = -1) {
  if (Reserved(name)) return Status::SqlError("object name reserved for internal use: " + name);
  if (const catalog::TableInfo* t = schema.FindTable(name)) {
    if (std::string(kind) == "index")
      return Status::SqlError("there is already a table named " + t->name);
    return Status::SqlError("table " + name + " already exists").WithOffset(name_at);
  }
  if (schema.FindView(name) != nullptr) {
    if (std::string(kind) == "index")
      return Status::SqlError("there is already a table named " + name);
    return Status::SqlError("view " + name + " already exists").WithOffset(name_at);
  }
  if (schema.FindIndex(name) != nullptr) {
    if (std::string(kind) == "index") return Status::SqlError("index " + name + " already exists");
    return Status::SqlError("there is already an index named " + name);
  }
  return Status::OK();
}

// Fills a new index from its table's rows.
Status PopulateIndex(BTree& tree, const catalog::TableInfo& t, const catalog::IndexInfo& ix) {
  const KeyOrder order = ix.key_order();
  BtCursor rows(&tree, t.root);
  std::optional<BtCursor> probe;
  RecordReader reader;
  RecordBuilder builder(tree.file_format());
  std::vector<Value> key;
  std::vector<uint8_t> copy;
  ENGINE_RETURN_IF_ERROR(rows.first());
  while (rows.valid()) {
    std::span<const uint8_t> payload;
    ENGINE_RETURN_IF_ERROR(rows.payload(&payload));
    // The index insert may move pages around: work on a copy of the row.
    copy.assign(payload.begin(), payload.end());
    ENGINE_RETURN_IF_ERROR(reader.Parse(copy.data(), copy.size()));
    const int64_t rowid = rows.rowid();
    key.clear();
    bool has_null = false;
    for (int c : ix.columns) {
      key.push_back(c == t.rowid_alias ? Value::Integer(rowid) : reader.column(c));
      has_null |= key.back().is_null();
    }
    if (ix.unique && !has_null) {
      if (!probe) probe.emplace(&tree, ix.root, order);
      bool exact = false;
      ENGINE_RETURN_IF_ERROR(
          probe->seek_index(key.data(), static_cast<int>(key.size()), SeekOp::kGE, &exact));
      if (exact) {
        std::string msg = "UNIQUE constraint failed: ";
        for (size_t i = 0; i < ix.columns.size(); ++i) {
          if (i > 0) msg += ", ";
          msg += t.name + "." + t.columns[static_cast<size_t>(ix.columns[i])].name;
        }
        return Status::Constraint(msg);
      }
    }
    key.push_back(Value::Integer(rowid));
    ENGINE_RETURN_IF_ERROR(
        tree.InsertIndex(ix.root, builder.Build(key.data(), static_cast<int>(key.size())), order));
    ENGINE_RETURN_IF_ERROR(rows.next());
  }
  return Status::OK();
}

}  // namespace

Status CreateTable(BTree& tree, const catalog::Schema& schema, const sql::CreateTableStmt& st,
                   const sql::Ast& ast) {
  if (st.temporary) return Status::NotSupported("TEMP tables are not supported");
  if (!st.schema.empty() && !EqualsNoCase(st.schema, "main")) {
    return Status::SqlError("unknown database " + st.schema);
  }
  if (st.as_select) return Status::NotSupported("CREATE TABLE ... AS SELECT is not supported");
  if (st.without_rowid) return Status::NotSupported("WITHOUT ROWID tables are not supported");
  if (schema.FindTable(st.name) != nullptr || schema.FindView(st.name) != nullptr) {
    if (st.if_not_exists) return Status::OK();
  }
  ENGINE_RETURN_IF_ERROR(CheckNewName(schema, st.name, "table", static_cast<int>(st.name_at)));
  // Only the built-in collations exist: a column or key ordered by another
  // could not be compared (sqlite3 refuses it here too).
  auto known = [](const std::string& name) {
    return name.empty() || func::CollationByName(name).has_value();
  };
  for (const sql::ColumnDef& cd : st.columns) {
    if (!known(cd.collation))
      return Status::SqlError("no such collation sequence: " + cd.collation);
  }
  for (const sql::TableConstraint& tc : st.constraints) {
    for (const sql::IndexedColumn& ic : tc.columns) {
      if (!known(ic.collation)) {
        return Status::SqlError("no such collation sequence: " + ic.collation);
      }
    }
  }
  ENGINE_ASSIGN_OR_RETURN(auto table, catalog::TableFromAst(st, ast));
  if (!table->checks.empty()) {
    // sqlite3 resolves a CHECK when the table is created: an unknown
    // column or function, a subquery or a parameter is refused then.
    plan::Program scratch;
    plan::Planner planner(schema, &scratch);
    ENGINE_RETURN_IF_ERROR(planner.ValidateChecks(ast, st, *table));
  }
  ENGINE_ASSIGN_OR_RETURN(table->root, tree.CreateTable());
  SchemaEntry e;
  e.type = "table";
  e.name = st.name;
  e.tbl_name = st.name;
  e.rootpage = table->root;
  e.sql = st.schema_sql;
  ENGINE_RETURN_IF_ERROR(AddSchemaEntry(tree, &e));
  for (auto& ix : catalog::AutoIndexesFor(st, *table)) {
    SchemaEntry ie;
    ie.type = "index";
    ie.name = ix->name;
    ie.tbl_name = st.name;
    ENGINE_ASSIGN_OR_RETURN(ie.rootpage, tree.CreateIndex());
    ENGINE_RETURN_IF_ERROR(AddSchemaEntry(tree, &ie));
  }
  return Status::OK();
}

Status CreateIndex(BTree& tree, const catalog::Schema& schema, const sql::CreateIndexStmt& st) {
  if (!st.schema.empty() && !EqualsNoCase(st.schema, "main")) {
    return Status::SqlError("unknown database " + st.schema);
  }
  if (schema.FindIndex(st.name) != nullptr && st.if_not_exists) return Status::OK();
  const catalog::TableInfo* t = schema.FindTable(st.table);
  if (t == nullptr) {
    if (schema.FindView(st.table) != nullptr) return Status::SqlError("views may not be indexed");
    return Status::SqlError("no such table: main." + st.table);
  }
  if (t->root == 1 || Reserved(t->name)) {
    return Status::SqlError("table " + t->name + " may not be indexed");
  }
  ENGINE_RETURN_IF_ERROR(CheckNewName(schema, st.name, "index"));
  if (st.where != sql::kNoExpr) return Status::NotSupported("partial indexes are not supported");
  for (const sql::IndexedColumn& ic : st.columns) {
    if (!ic.collation.empty() && !func::CollationByName(ic.collation)) {
      return Status::SqlError("no such collation sequence: " + ic.collation);
    }
  }
  ENGINE_ASSIGN_OR_RETURN(auto ix, catalog::IndexFromAst(st, *t));
  ENGINE_ASSIGN_OR_RETURN(ix->root, tree.CreateIndex());
  ENGINE_RETURN_IF_ERROR(PopulateIndex(tree, *t, *ix));
  SchemaEntry e;
  e.type = "index";
  e.name = st.name;
  e.tbl_name = t->name;
  e.rootpage = ix->root;
  e.sql = st.schema_sql;
  return AddSchemaEntry(tree, &e);
}

Status CreateView(BTree& tree, const catalog::Schema& schema, const sql::CreateViewStmt& st) {
  if (st.temporary) return Status::NotSupported("TEMP views are not supported");
  if (schema.FindView(st.name) != nullptr && st.if_not_exists) return Status::OK();
  ENGINE_RETURN_IF_ERROR(CheckNewName(schema, st.name, "view", static_cast<int>(st.name_at)));
  SchemaEntry e;
  e.type = "view";
  e.name = st.name;
  e.tbl_name = st.name;
  e.rootpage = 0;
  e.sql = st.schema_sql;
  return AddSchemaEntry(tree, &e);
}

Status Drop(BTree& tree, const catalog::Schema& schema, const sql::DropStmt& st) {
  switch (st.kind) {
    case sql::DropStmt::Kind::kTable: {
      const catalog::TableInfo* t = schema.FindTable(st.name);
      if (t == nullptr) {
        // The wrong kind is an error even with IF EXISTS, as in sqlite3.
        if (schema.FindView(st.name) != nullptr) {
          return Status::SqlError("use DROP VIEW to delete view " + st.name);
        }
        if (st.if_exists) return Status::OK();
        return Status::SqlError("no such table: " + st.name);
      }
      if (t->root == 1 || Reserved(t->name)) {
        return Status::SqlError("table " + t->name + " may not be dropped");
      }
      ENGINE_RETURN_IF_ERROR(DropTriggersOf(tree, t->triggers));
      for (const catalog::IndexInfo* ix : t->indexes) {
        ENGINE_RETURN_IF_ERROR(tree.DropTree(ix->root));
        ENGINE_RETURN_IF_ERROR(RemoveSchemaEntry(tree, ix->name));
      }
      ENGINE_RETURN_IF_ERROR(tree.DropTree(t->root));
      return RemoveSchemaEntry(tree, t->name);
    }
    case sql::DropStmt::Kind::kIndex: {
      const catalog::IndexInfo* ix = schema.FindIndex(st.name);
      if (ix == nullptr) {
        if (st.if_exists) return Status::OK();
        return Status::SqlError("no such index: " + st.name);
      }
      if (ix->automatic) {
        return Status::SqlError(
            "index associated with UNIQUE or PRIMARY KEY constraint cannot be dropped");
      }
      ENGINE_RETURN_IF_ERROR(tree.DropTree(ix->root));
      return RemoveSchemaEntry(tree, ix->name);
    }
    case sql::DropStmt::Kind::kView: {
      const catalog::ViewInfo* v = schema.FindView(st.name);
      if (v == nullptr) {
        if (schema.FindTable(st.name) != nullptr) {
          return Status::SqlError("use DROP TABLE to delete table " + st.name);
        }
        if (st.if_exists) return Status::OK();
        return Status::SqlError("no such view: " + st.name);
      }
      ENGINE_RETURN_IF_ERROR(DropTriggersOf(tree, v->triggers));
      return RemoveSchemaEntry(tree, v->name);
    }
    case sql::DropStmt::Kind::kTrigger:
      return DropTrigger(tree, schema, st);
  }
  return Status::OK();
}

}  // namespace engine::exec
